"""A collection's files damaged by something other than an interrupted collection (bytes that
are not text in ``manifest.jsonl``, a garbled ``dataset.json``) are refused with one message
that names the file and the line and says what to do, and nothing in the folder changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from phoneworld_gym.baselines.collect import collect
from phoneworld_gym.baselines.data import INFO, MANIFEST, load, manifest


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kept") / "random"
    report = collect("PhoneWorld/Contacts-v0", "random", ["ContactsStar"], "0:3", out)
    assert report.new == 3
    return out


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_a_manifest_line_that_is_not_text_is_named_and_nothing_is_lost(
        collection: Path, tmp_path: Path) -> None:
    out = tmp_path / "copy"
    shutil.copytree(collection, out)
    lines = (out / MANIFEST).read_bytes().splitlines(keepends=True)
    lines[1] = lines[1][:30] + b"\xff\xfe" + lines[1][30:]
    (out / MANIFEST).write_bytes(b"".join(lines))
    before = _files(out)
    expected = rf"{MANIFEST} line 2 is not text \(byte 0xff at column 31\).*delete line 2"
    for read in (load, manifest):
        with pytest.raises(ValueError, match=expected) as e:
            read(out)
        assert str(out / MANIFEST) in str(e.value)
    # resuming the collection refuses too, before it removes or rewrites anything
    with pytest.raises(ValueError, match=expected):
        collect("PhoneWorld/Contacts-v0", "random", ["ContactsStar"], "0:3", out)
    assert _files(out) == before
    # deleting the line, as the message says, recollects that one episode
    (out / MANIFEST).write_bytes(b"".join(lines[:1] + lines[2:]))
    report = collect("PhoneWorld/Contacts-v0", "random", ["ContactsStar"], "0:3", out)
    assert (report.new, report.skipped) == (1, 2)
    assert load(out).to_list() == load(collection).to_list()


def test_a_garbled_dataset_json_is_named(collection: Path, tmp_path: Path) -> None:
    out = tmp_path / "copy"
    shutil.copytree(collection, out)
    (out / INFO).write_bytes(b'{"format": 1, \xff')
    before = _files(out)
    with pytest.raises(ValueError, match=rf"{INFO} is not valid JSON.*restore it"):
        load(out)
    with pytest.raises(ValueError, match=rf"{INFO} is not valid JSON"):
        collect("PhoneWorld/Contacts-v0", "random", ["ContactsStar"], "0:3", out)
    assert _files(out) == before
