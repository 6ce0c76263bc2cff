import os
from pathlib import Path

import pytest

from humeval.errors import HumevalError
from humeval.fetch import fetch_raw, mirror_relpath, resolve_mirror, sha256_of

URL = "https://raw.githubusercontent.com/owner/repo/0123456789abcdef0123456789abcdef01234567/Data%20Extraction/x.csv"


@pytest.fixture
def mirror(tmp_path):
    root = tmp_path / "mirror"
    path = root / "github/owner/repo/0123456789abcdef0123456789abcdef01234567/Data Extraction/x.csv"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"a,b\n1,2\n")
    return root, sha256_of(path)


def test_mirror_relpath_decodes_github_raw_url():
    assert mirror_relpath(URL) == Path(
        "github/owner/repo/0123456789abcdef0123456789abcdef01234567/Data Extraction/x.csv"
    )


def test_fetch_copies_from_mirror_and_verifies_sha256(mirror, tmp_path):
    root, digest = mirror
    target = tmp_path / "raw" / "x.csv"
    assert fetch_raw(URL, digest, target, mirror=root, study="s") == "mirror"
    assert target.read_bytes() == b"a,b\n1,2\n"


def test_fetch_refuses_wrong_sha256_and_leaves_nothing(mirror, tmp_path):
    root, _ = mirror
    target = tmp_path / "raw" / "x.csv"
    with pytest.raises(HumevalError) as info:
        fetch_raw(URL, "0" * 64, target, mirror=root, study="my-study")
    message = str(info.value)
    assert "sha256 mismatch" in message and "my-study" in message and URL in message
    assert not target.exists()
    assert list(target.parent.iterdir()) == []  # no temporary file left either


def test_fetch_missing_everywhere_names_url_and_mirror(tmp_path, monkeypatch):
    monkeypatch.setenv("HUMEVAL_RAW_BASE_URL", "http://localhost:9/")  # nothing listens on the discard port
    url = "https://raw.githubusercontent.com/owner/repo/c/missing.csv"
    target = tmp_path / "raw" / "missing.csv"
    with pytest.raises(HumevalError) as info:
        fetch_raw(url, "0" * 64, target, mirror=tmp_path / "empty-mirror", study="s")
    assert url in str(info.value) and "not in the mirror" in str(info.value)
    assert not target.exists()


def test_resolve_mirror_prefers_config_over_environment(monkeypatch, tmp_path):
    (tmp_path / "cfg").mkdir(), (tmp_path / "env").mkdir()
    monkeypatch.setenv("HUMEVAL_RAW_MIRROR", str(tmp_path / "env"))
    assert resolve_mirror(str(tmp_path / "cfg")) == [(tmp_path / "cfg").resolve()]
    assert resolve_mirror(None) == [(tmp_path / "env").resolve()]
    monkeypatch.delenv("HUMEVAL_RAW_MIRROR")
    assert resolve_mirror(None) == []


def test_a_config_mirror_text_is_split_like_the_variable_and_a_missing_folder_is_one_line(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    assert resolve_mirror(f"{a}{os.pathsep}{b}") == [a.resolve(), b.resolve()]  # --config raw_mirror=A:B
    with pytest.raises(HumevalError, match=r"config raw_mirror: the mirror folder .*/typo does not exist"):
        resolve_mirror(f"{a}{os.pathsep}{tmp_path / 'typo'}")


def test_several_mirrors_are_searched_in_order(monkeypatch, tmp_path):
    mine, shared = tmp_path / "mine", tmp_path / "shared"
    mine.mkdir(), shared.mkdir()
    monkeypatch.setenv("HUMEVAL_RAW_MIRROR", f"{mine}{os.pathsep}{shared}")
    assert resolve_mirror(None) == [mine.resolve(), shared.resolve()]
    data = b"only in the second mirror\n"
    (shared / mirror_relpath(URL)).parent.mkdir(parents=True)
    (shared / mirror_relpath(URL)).write_bytes(data)
    target = tmp_path / "raw" / "x.csv"
    assert fetch_raw(URL, sha256_of_bytes(data), target, mirror=resolve_mirror(None), study="s") == "mirror"
    assert target.read_bytes() == data
    assert resolve_mirror([str(mine), str(shared)]) == [mine.resolve(), shared.resolve()]


def sha256_of_bytes(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def test_a_raw_file_changed_after_fetching_is_refused_where_it_is_read(tmp_path):
    from humeval.fetch import fetch_study, verify_fetched

    data = b"pinned content\n"
    (tmp_path / "mirror" / mirror_relpath(URL)).parent.mkdir(parents=True)
    (tmp_path / "mirror" / mirror_relpath(URL)).write_bytes(data)
    files = [{"id": "x", "url": URL, "sha256": sha256_of_bytes(data), "filename": "x.csv"}]
    folder = tmp_path / "raw"
    fetch_study(files, folder, mirror=[tmp_path / "mirror"], study="s")
    verify_fetched(folder, files, study="s")  # unchanged
    os.utime(folder / "x.csv")  # touched, same bytes: still the pinned file
    verify_fetched(folder, files, study="s")
    (folder / "x.csv").write_bytes(b"edited by hand\n")
    with pytest.raises(HumevalError, match=r"x\.csv.*changed after it was fetched"):
        verify_fetched(folder, files, study="s")
    # the red team's case: the same size, the modification time restored (a 2,3,1 ranking swapped to 3,2,1)
    (folder / "x.csv").write_bytes(data)
    before = (folder / "x.csv").stat()
    (folder / "x.csv").write_bytes(data.replace(b"pinned", b"pinnex"))
    os.utime(folder / "x.csv", ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(HumevalError, match=r"x\.csv.*changed after it was fetched"):
        verify_fetched(folder, files, study="s")


@pytest.mark.parametrize(
    "url",
    [
        "https://raw.githubusercontent.com/o/r/c/a%2F..%2F..%2F..%2Fsecret.csv",  # ..%2F decoded
        "https://raw.githubusercontent.com/o/r/c/..%5C..%5Csecret.csv",  # backslashes
        "https://../o/r/c/a.csv",  # a host of ..
        "https://example.org/o/r/c/a.csv",  # any other host
        "file:///etc/passwd",
    ],
)
def test_a_raw_url_that_leaves_the_mirror_or_names_another_host_is_refused(url):
    from humeval.fetch import check_url

    with pytest.raises(HumevalError, match="not allowed|leaves its folder"):
        check_url(url)


def test_a_mirror_copy_behind_a_link_out_of_the_mirror_is_not_used(tmp_path):
    from humeval.fetch import in_mirror

    outside = tmp_path / "secret.csv"
    outside.write_text("secret")
    (tmp_path / "mirror" / mirror_relpath(URL)).parent.mkdir(parents=True)
    (tmp_path / "mirror" / mirror_relpath(URL)).symlink_to(outside)
    assert in_mirror(tmp_path / "mirror", URL) is None
