"""The download path, against a real HTTP server on the loopback address that the test starts (the fetcher's
base URL is rewritten with $HUMEVAL_RAW_BASE_URL): success, 404, 500 then success (retried), a stalled
connection (timeout), a body cut short, wrong bytes (refused by sha256) and a redirect. Each ends in success or
one clear error naming the study, the file and the URL, and leaves no partial file behind."""

import hashlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from humeval.errors import HumevalError
from humeval.fetch import fetch_raw

DATA = b"item,score\n" + b"x,1\n" * 50_000  # ~200 kB: several blocks, so progress is logged
SHA = hashlib.sha256(DATA).hexdigest()
PINNED = "https://raw.githubusercontent.com/owner/repo/0123456789abcdef0123456789abcdef01234567/"


class Handler(BaseHTTPRequestHandler):
    hits: ClassVar[dict[str, int]] = {}

    def log_message(self, *args):  # keep the test output quiet
        pass

    def do_GET(self):
        name = self.path.rsplit("/", 1)[-1]
        Handler.hits[name] = Handler.hits.get(name, 0) + 1
        if name == "missing.csv":
            self.send_error(404)
        elif name == "flaky.csv" and Handler.hits[name] == 1:
            self.send_error(500)
        elif name == "broken.csv":
            self.send_error(503)
        elif name == "stall.csv":
            time.sleep(1.5)  # longer than the test's timeout
            self.send_error(500)
        elif name == "cut.csv":
            self.send_response(200)
            self.send_header("Content-Length", str(len(DATA)))
            self.end_headers()
            self.wfile.write(DATA[: len(DATA) // 3])  # then the connection closes
        elif name == "drip.csv":  # 50 bytes every 0.1 s: each read is quick, the whole transfer is not
            self.send_response(200)
            self.send_header("Content-Length", str(len(DATA)))
            self.end_headers()
            for k in range(30):  # bounded: 3 s at most
                try:
                    self.wfile.write(DATA[50 * k : 50 * (k + 1)])
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.1)
        elif name == "moved.csv":
            self.send_response(302)
            self.send_header("Location", self.path.replace("moved.csv", "ok.csv"))
            self.end_headers()
        else:
            body = b"something else\n" if name == "wrong.csv" else DATA
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("localhost", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture
def fetch(server, tmp_path, monkeypatch):
    monkeypatch.setenv("HUMEVAL_RAW_BASE_URL", server)
    monkeypatch.setenv("HUMEVAL_DOWNLOAD_TIMEOUT", "0.5")
    monkeypatch.setattr("humeval.fetch.pause", lambda seconds: None)  # no backoff pauses in the test

    def run(name, sha=SHA):
        return fetch_raw(PINNED + name, sha, tmp_path / "raw" / name, study="s")

    return run


def leftovers(tmp_path):
    return sorted(p.name for p in (tmp_path / "raw").iterdir()) if (tmp_path / "raw").exists() else []


def test_a_download_succeeds_and_a_redirect_is_followed(fetch, tmp_path):
    assert fetch("ok.csv") == "download" and (tmp_path / "raw/ok.csv").read_bytes() == DATA
    assert fetch("moved.csv") == "download" and (tmp_path / "raw/moved.csv").read_bytes() == DATA


def test_a_server_error_is_retried_until_it_succeeds(fetch, tmp_path):
    assert fetch("flaky.csv") == "download" and Handler.hits["flaky.csv"] == 2


@pytest.mark.parametrize(
    "name,expected",
    [
        ("missing.csv", "HTTP Error 404"),
        ("broken.csv", "HTTP 503"),
        ("stall.csv", "timed out after 0.5 s (after 3 attempts)"),
        ("cut.csv", "cut short"),
        ("drip.csv", "timed out after 0.5 s (after 3 attempts)"),
    ],
)
def test_a_failed_download_is_one_clear_error_and_leaves_nothing(fetch, tmp_path, name, expected):
    with pytest.raises(HumevalError) as info:  # drip: the whole attempt is bounded, not each read
        fetch(name)
    message = str(info.value)
    assert "[s]" in message and PINNED + name in message and name in message and expected in message
    assert leftovers(tmp_path) == []


def test_wrong_bytes_are_refused_by_the_checksum(fetch, tmp_path):
    with pytest.raises(HumevalError, match="sha256 mismatch"):
        fetch("wrong.csv")
    assert leftovers(tmp_path) == []
