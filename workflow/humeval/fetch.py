"""Raw-data acquisition: pinned URLs, a local mirror, and sha256 verification.

A raw input is pinned by a public URL at a fixed commit and a sha256. It is copied from a local mirror
when one is configured (layout ``<mirror>/github/<owner>/<repo>/<commit>/<path>``, the URL path of
``https://raw.githubusercontent.com/<owner>/<repo>/<commit>/<path>``), otherwise downloaded. The file is
written to a temporary name, verified, and only then renamed into place, so a failed or tampered
transfer never leaves a file behind.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from humeval.errors import HumevalError

__all__ = [
    "check_url",
    "fetch_raw",
    "fetch_study",
    "in_mirror",
    "mirror_relpath",
    "resolve_mirror",
    "sha256_of",
    "verify_fetched",
]

log = logging.getLogger(__name__)

MIRROR_ENV = "HUMEVAL_RAW_MIRROR"
_CHUNK = 1 << 16


def sha256_of(path: str | os.PathLike) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def git_blob_of(path: str | os.PathLike) -> str:
    """Git's blob id of a file: sha1 of ``b"blob <size>\\0" + content`` (what ``git hash-object`` prints)."""
    data = Path(path).read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


#: Hosts a pinned raw URL may name: GitHub's raw host, and the host of ``$HUMEVAL_RAW_BASE_URL`` when set (a
#: proxy or an internal copy serving the same paths). Any other host is refused before a job runs.
ALLOWED_HOST = "raw.githubusercontent.com"


def allowed_hosts() -> set[str]:
    base = os.environ.get("HUMEVAL_RAW_BASE_URL")
    return {ALLOWED_HOST} | ({urllib.parse.urlparse(base).netloc} if base else set())


def check_url(url: str) -> None:
    """Refuse a raw URL that is not exactly ``scheme://host/path`` (no user info, port, ``;params``, ``?query`` or
    ``#fragment``: a mirror ignores them, so they would be provenance that says what was not fetched, and text that
    reaches pages), whose host is not ``raw.githubusercontent.com`` (or the allowed base URL's host), or whose
    decoded path is empty or climbs (``..``, ``%2F..``, a backslash).

    >>> check_url("https://raw.githubusercontent.com/o/r/c/a.csv?x=</script>")
    Traceback (most recent call last):
    humeval.errors.HumevalError: raw URL 'https://raw.githubusercontent.com/o/r/c/a.csv?x=</script>': must be exactly scheme://host/path, without a query (?...)

    >>> check_url("https://raw.githubusercontent.com/o/r/c/a%2F..%2F..%2Fsecret")
    Traceback (most recent call last):
    humeval.errors.HumevalError: raw URL 'https://raw.githubusercontent.com/o/r/c/a%2F..%2F..%2Fsecret': its path leaves its folder (..)
    """
    parsed = urllib.parse.urlparse(url)
    extras = {
        "a query (?...)": parsed.query or "?" in url,
        "a fragment (#...)": parsed.fragment or "#" in url,
        "parameters (;...)": parsed.params,
        "user info (user@)": "@" in parsed.netloc,
        "white space or control characters": any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url),
    }
    for what, present in extras.items():
        if present:
            raise HumevalError(f"raw URL {url!r}: must be exactly scheme://host/path, without {what}")
    if parsed.scheme not in ("https", "http") or parsed.netloc not in allowed_hosts():
        raise HumevalError(
            f"raw URL {url!r}: host {parsed.netloc!r} is not allowed ({sorted(allowed_hosts())}; "
            "set HUMEVAL_RAW_BASE_URL to fetch the same paths from another host)"
        )
    decoded = urllib.parse.unquote(parsed.path)
    parts = [p for p in decoded.replace("\\", "/").split("/") if p]
    if not parts:
        raise HumevalError(f"raw URL {url!r} has no usable path")
    if any(p in (".", "..") for p in parts) or "\0" in decoded:
        raise HumevalError(f"raw URL {url!r}: its path leaves its folder (..)")


def mirror_relpath(url: str) -> Path:
    """Path of ``url`` inside a mirror, decoded first (:func:`check_url`).

    >>> mirror_relpath("https://raw.githubusercontent.com/o/r/c/Data/a%20b.csv").as_posix()
    'github/o/r/c/Data/a b.csv'
    """
    check_url(url)
    parsed = urllib.parse.urlparse(url)
    parts = [p for p in urllib.parse.unquote(parsed.path).split("/") if p]
    host = "github" if parsed.netloc == ALLOWED_HOST else parsed.netloc
    return Path(host, *parts)


def in_mirror(folder: Path, url: str) -> Path | None:
    """The mirror's copy of ``url`` if it is a file inside ``folder`` once every link is resolved, else None."""
    root = folder.resolve()
    candidate = (root / mirror_relpath(url)).resolve()
    return candidate if candidate.is_relative_to(root) and candidate.is_file() else None


def mirror_folders(configured: str | list[str] | None) -> list[Path]:
    """The mirror folders, searched in order: the ``raw_mirror`` config value (a list, or one text), else
    ``$HUMEVAL_RAW_MIRROR``, else none; a text may join several folders with the path separator (``:`` on POSIX).

    >>> [p.name for p in mirror_folders(["/a/mine", "/b/shared"])], [p.name for p in mirror_folders("/a/x:/b/y")]
    (['mine', 'shared'], ['x', 'y'])
    """
    values = configured or os.environ.get(MIRROR_ENV, "")
    values = values if isinstance(values, list) else values.split(os.pathsep)
    return [Path(v).expanduser().resolve() for v in values if v]


def resolve_mirror(configured: str | list[str] | None) -> list[Path]:
    """:func:`mirror_folders`, each of which must be a folder: one that is not is a :class:`HumevalError` naming
    it (a typo would otherwise send every file to the network)."""
    folders = mirror_folders(configured)
    for folder in folders:
        if not folder.is_dir():
            source = "config raw_mirror" if configured else f"${MIRROR_ENV}"
            raise HumevalError(
                f"{source}: the mirror folder {folder} does not exist (several folders are joined with {os.pathsep!r})"
            )
    return folders


BASE_URL_ENV = "HUMEVAL_RAW_BASE_URL"
TIMEOUT_ENV = "HUMEVAL_DOWNLOAD_TIMEOUT"
GITHUB_RAW = "https://raw.githubusercontent.com/"
ATTEMPTS = 3


def download_url(url: str) -> str:
    """Where a pinned URL is downloaded from: the URL itself, or, with ``$HUMEVAL_RAW_BASE_URL`` set (a
    proxy, an internal copy of GitHub's raw host, a test server), the same path under that base.

    >>> os.environ[BASE_URL_ENV] = "http://localhost:8000/"
    >>> download_url("https://raw.githubusercontent.com/o/r/c/a.csv")
    'http://localhost:8000/o/r/c/a.csv'
    >>> del os.environ[BASE_URL_ENV]
    """
    base = os.environ.get(BASE_URL_ENV)
    if base and url.startswith(GITHUB_RAW):
        return base.rstrip("/") + "/" + url[len(GITHUB_RAW) :]
    return url


def pause(seconds: float) -> None:
    """The backoff between download attempts (its own function so that a test can make it instant)."""
    time.sleep(seconds)


class _Retryable(Exception):
    """A transfer that may succeed when tried again (a server error, a dropped or stalled connection)."""


@contextmanager
def deadline(seconds: float):
    """Within the block, a :class:`TimeoutError` once ``seconds`` have passed, wherever the block waits: connecting,
    reading the headers a server sends one byte a second, or the body (a socket timeout covers one wait at a time
    only). A real-time timer (``signal.setitimer``) where the block runs in the main thread, as a job's script
    does; elsewhere (a thread) the socket timeout and the body's own deadline still hold."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"timed out after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _download_once(url: str, target: Path, timeout: float) -> None:
    import http.client

    request = urllib.request.Request(url, headers={"User-Agent": "humeval-repro"})
    try:
        with (
            deadline(timeout),
            urllib.request.urlopen(request, timeout=timeout) as response,
            open(target, "wb") as out,
        ):
            total = int(response.headers.get("Content-Length") or 0)
            done, next_report = 0, 0.25
            ends = time.monotonic() + timeout  # the whole attempt, not each read (a server that drips)
            for block in iter(lambda: response.read1(_CHUNK), b""):  # what has arrived, so the deadline holds
                if time.monotonic() > ends:
                    raise _Retryable(f"the transfer took longer than {timeout:g} s ({done} bytes)")
                out.write(block)
                done += len(block)
                if total > 4 * _CHUNK and done / total >= next_report:  # progress for files over a few blocks
                    log.info("  %s: %d%% of %d bytes", target.name, int(100 * done / total), total)
                    next_report += 0.25
            if total and done != total:
                raise _Retryable(f"the transfer was cut short: {done} of {total} bytes")
    except urllib.error.HTTPError as exc:
        if exc.code >= 500:
            raise _Retryable(f"HTTP {exc.code} {exc.reason}") from None
        raise
    except http.client.IncompleteRead as exc:
        raise _Retryable(f"the transfer was cut short: {len(exc.partial)} bytes read") from None
    except (TimeoutError, ConnectionError) as exc:
        raise _Retryable(f"{type(exc).__name__}: {exc or 'timed out'}") from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, (TimeoutError, ConnectionError)):
            raise _Retryable(f"{type(exc.reason).__name__}: {exc.reason}") from None
        raise


def _download(url: str, target: Path, timeout: float | None = None, attempts: int = ATTEMPTS) -> None:
    """Download ``url`` to ``target``, following redirects; a server error, a cut or stalled transfer is
    tried again up to ``attempts`` times with a doubling pause (0.5 s, 1 s, ...); a client error (404) is not.
    An attempt may take ``$HUMEVAL_DOWNLOAD_TIMEOUT`` seconds in all (default 30), however the server drips."""
    timeout = timeout if timeout is not None else float(os.environ.get(TIMEOUT_ENV, "30"))
    for attempt in range(1, attempts + 1):
        try:
            _download_once(url, target, timeout)
            return
        except _Retryable as exc:
            if attempt == attempts:
                raise urllib.error.URLError(f"{exc} (after {attempts} attempts)") from None
            seconds = 0.5 * 2 ** (attempt - 1)
            log.warning("download of %s failed (%s); trying again in %.1f s", url, exc, seconds)
            pause(seconds)


def fetch_raw(
    url: str,
    sha256: str | None,
    target: str | os.PathLike,
    *,
    mirror: Path | list[Path] | None = None,
    study: str | None = None,
    git_blob: str | None = None,
) -> str:
    """Fetch one pinned raw file to ``target`` and verify its sha256 (or, if only that is pinned, its git
    blob id).

    Returns ``"mirror"`` or ``"download"`` (where it came from). Raises :class:`HumevalError` naming the
    study, the URL and the file when the file is missing everywhere or its checksum differs; nothing is
    left at ``target`` in that case.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        origin = None
        mirrors = [] if mirror is None else mirror if isinstance(mirror, list) else [mirror]
        for folder in mirrors:
            candidate = in_mirror(folder, url)
            if candidate is not None:
                log.info("copying %s from mirror %s", candidate.name, folder)
                shutil.copyfile(candidate, tmp)
                origin = "mirror"
                break
        if origin is None and mirrors:
            log.info("not in the mirror(s) %s; downloading", [str(m) for m in mirrors])
        if origin is None:
            source = download_url(url)
            try:
                log.info("downloading %s", source)
                _download(source, tmp)
            except (urllib.error.URLError, OSError, TimeoutError) as exc:
                shown = ", ".join(str(m) for m in mirrors)
                where = f" and it is not in the mirror(s) {shown}" if mirrors else " (no mirror configured)"
                raise HumevalError(
                    f"cannot download {url}{'' if source == url else f' (from {source})'}: {exc}{where}. "
                    "Set --config raw_mirror=DIR or "
                    f"${MIRROR_ENV} to a folder with the layout github/<owner>/<repo>/<commit>/<path>.",
                    study=study,
                    file=str(target),
                ) from None
            origin = "download"
        kind, expected, actual = (
            ("sha256", sha256.lower(), sha256_of(tmp))
            if sha256
            else ("git blob id", git_blob.lower(), git_blob_of(tmp))
        )
        if actual != expected:
            raise HumevalError(
                f"{kind} mismatch for {url} (from {origin}): expected {expected}, got {actual}. "
                "The file differs from the pinned version; refusing it.",
                study=study,
                file=str(target),
            )
        os.replace(tmp, target)
        return origin
    finally:
        tmp.unlink(missing_ok=True)


def fetch_study(files: list[dict], folder: str | os.PathLike, *, mirror: list[Path] | None, study: str) -> None:
    """Fetch every pinned file (``url``, ``sha256``, ``filename``) of a study into ``folder``.

    Stops at the first file that cannot be had or fails its checksum (the caller's job then fails and
    Snakemake removes the folder, so no partial set of raw files is left). An ``optional`` file that is
    in no mirror and cannot be downloaded is skipped with a log line; one that is found but fails its
    checksum is still refused.
    """
    Path(folder).mkdir(parents=True, exist_ok=True)
    mirror = [Path(m) for m in mirror] if mirror else None
    for k, entry in enumerate(files, 1):
        target = Path(folder) / entry["filename"]
        try:
            origin = fetch_raw(
                entry["url"], entry.get("sha256"), target, mirror=mirror, study=study, git_blob=entry.get("git_blob")
            )
        except HumevalError as exc:
            if entry.get("optional") and "cannot download" in str(exc):
                log.warning(
                    "[%d/%d] optional input %s is not available; going on without it (%s)",
                    k,
                    len(files),
                    entry["id"],
                    exc,
                )
                continue
            raise
        log.info(
            "[%d/%d] %s: %s verified (%s)",
            k,
            len(files),
            target,
            f"sha256 {entry['sha256']}" if entry.get("sha256") else f"git blob {entry['git_blob']}",
            origin,
        )


def verify_fetched(folder: str | os.PathLike, files: list[dict], *, study: str) -> None:
    """Re-verify the study's fetched raw files where they are read: each is hashed again and refused unless it
    still has its pinned sha256 (or git blob id), so a file changed after fetching is never used, whatever its
    size and modification time say. Hashing all six studies' raw files (12 MB) takes 0.04 s."""
    for entry in files:
        path = Path(folder, entry["filename"])
        if not path.is_file():
            continue
        kind, expected, actual = (
            ("sha256", entry["sha256"].lower(), sha256_of(path))
            if entry.get("sha256")
            else ("git blob id", entry["git_blob"].lower(), git_blob_of(path))
        )
        if actual != expected:
            raise HumevalError(
                f"changed after it was fetched: {kind} {actual}, pinned {expected}. Refusing it; delete "
                f"{Path(folder)} to fetch the pinned file again.",
                study=study,
                file=str(path),
            )
