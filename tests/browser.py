"""A minimal WebDriver client (W3C protocol over HTTP with urllib) for headless Chromium via chromedriver.

Only what the report tests need: start chromedriver on a free loopback port, open a session with
headless Chromium, load a URL, click an element, run a script, take a screenshot, and clean up. No Selenium dependency.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
]


def find_browser() -> tuple[str | None, str | None]:
    return (shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _call(base: str, method: str, path: str, payload: dict | None = None, timeout: float = 60) -> dict:
    data = json.dumps(payload).encode() if payload is not None else None
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"{}")


@contextmanager
def headless_chromium(user_data_dir: str):
    """Yield ``run(script, *args, asynchronous=False)`` and ``goto(url)`` bound to one browser session."""
    binary, driver = find_browser()
    port = _free_port()
    process = subprocess.Popen([driver, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://localhost:{port}"
    try:
        for _ in range(100):
            try:
                _call(base, "GET", "/status", timeout=2)
                break
            except OSError:
                time.sleep(0.1)
        capabilities = {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": binary,
                        "args": CHROMIUM_ARGS + [f"--user-data-dir={user_data_dir}"],
                    },
                }
            }
        }
        session = _call(base, "POST", "/session", capabilities)["value"]["sessionId"]
        _call(base, "POST", f"/session/{session}/timeouts", {"script": 60000, "pageLoad": 60000})

        class Browser:
            frame: list[int] | None = None  # the window's frame (outer minus inner size), once measured

            def goto(self, url: str) -> None:
                _call(base, "POST", f"/session/{session}/url", {"url": url})

            def settled(self, until: float) -> list[int]:
                """The window's inner and outer sizes once two reads 50 ms apart agree (a resize lands in the page
                after WebDriver's call returns: read mid-way, the outer size new and the inner still old, the frame
                came out as -384 px, and a 1536 x 1080 viewport as 1152 x 937)."""
                script = "return [window.innerWidth, window.innerHeight, window.outerWidth, window.outerHeight];"
                last = self.run(script)
                while time.monotonic() < until:
                    time.sleep(0.05)
                    now = self.run(script)
                    if now == last:
                        return now
                    last = now
                raise RuntimeError(f"the window's size did not settle: {last}")

            def resize(self, width: int, height: int) -> None:
                """Set the page's viewport to ``width`` x ``height`` pixels (the window is larger by its frame,
                measured once the window has settled), and wait until the page has it."""
                until = time.monotonic() + 30
                if self.frame is None:
                    _call(base, "POST", f"/session/{session}/window/rect", {"width": width, "height": height})
                    sizes = self.settled(until)
                    while sizes[2:] != [width, height]:  # the window has not taken the size yet
                        sizes = self.settled(until)
                    self.frame = [sizes[2] - sizes[0], sizes[3] - sizes[1]]
                rect = {"width": width + self.frame[0], "height": height + self.frame[1]}
                _call(base, "POST", f"/session/{session}/window/rect", rect)
                while self.settled(until)[:2] != [width, height]:
                    if time.monotonic() >= until:
                        raise RuntimeError(f"the page's viewport did not become {width} x {height}")

            def screenshot(self, path) -> None:
                """Save what the window shows as a PNG."""
                import base64

                data = _call(base, "GET", f"/session/{session}/screenshot")["value"]
                Path(path).write_bytes(base64.b64decode(data))

            def click(self, css: str, index: int = 0) -> None:
                """Click, as a person does (WebDriver's element click: scrolled into view, the pointer at its
                centre), the ``index``-th element that the CSS selector ``css`` finds."""
                found = _call(base, "POST", f"/session/{session}/elements", {"using": "css selector", "value": css})
                element = next(iter(found["value"][index].values()))
                _call(base, "POST", f"/session/{session}/element/{element}/click", {})

            def run(self, script: str, *args, asynchronous: bool = False):
                kind = "async" if asynchronous else "sync"
                return _call(
                    base, "POST", f"/session/{session}/execute/{kind}", {"script": script, "args": list(args)}
                )["value"]

        try:
            yield Browser()
        finally:
            _call(base, "DELETE", f"/session/{session}")
    finally:
        process.terminate()
        process.wait(timeout=10)
