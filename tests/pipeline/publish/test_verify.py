"""`examcorpus verify RELEASE` and SHA256SUMS: the real `sha256sum -c` accepts an intact release, and a
one-byte change to any file of it fails both; a Hub release (`hf://OWNER/NAME@TAG`) verifies the same."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from pipeline.cli import main
from pipeline.publish import publish_to_folder, publish_to_hub

SHA256SUM = shutil.which("sha256sum")
HEX = b"0123456789abcdef"


@pytest.fixture
def release(tmp_path, split_dir):
    publish_to_folder(split_dir, "public", tmp_path / "releases" / "v1", release_id="v1", show_progress=False)
    return tmp_path / "releases" / "v1"


def sha256sum_check(folder) -> subprocess.CompletedProcess:
    return subprocess.run([SHA256SUM, "-c", "SHA256SUMS"], cwd=folder, capture_output=True, text=True, timeout=60)


def one_byte_changed(data: bytes) -> bytes:
    """The middle byte replaced by another (a hex digit by another hex digit, so a digest stays well-formed)."""
    i = len(data) // 2
    old = data[i]
    new = HEX[(HEX.index(old) + 1) % 16] if old in HEX else old ^ 0x01
    return data[:i] + bytes([new]) + data[i + 1:]


@pytest.mark.skipif(SHA256SUM is None, reason="needs coreutils sha256sum")
def test_sha256sum_accepts_an_intact_release_and_names_every_file(release, capsys):
    done = sha256sum_check(release)
    assert done.returncode == 0, done.stdout + done.stderr
    files = sorted(p.relative_to(release).as_posix() for p in release.rglob("*") if p.is_file() and p.name != "SHA256SUMS")
    assert sorted(line.rsplit(": ", 1)[0] for line in done.stdout.splitlines()) == files
    assert all(line.endswith(": OK") for line in done.stdout.splitlines())
    assert main(["verify", str(release)]) == 0
    out = capsys.readouterr().out
    assert f"{release}: release v1 verified: {len(files) + 1} files, 3 figures" in out


@pytest.mark.skipif(SHA256SUM is None, reason="needs coreutils sha256sum")
def test_a_one_byte_change_to_any_file_fails_sha256sum_and_examcorpus_verify(release, capsys):
    files = sorted(p for p in release.rglob("*") if p.is_file())
    assert len(files) >= 12
    for path in files:
        original = path.read_bytes()
        path.write_bytes(one_byte_changed(original))
        try:
            assert sha256sum_check(release).returncode != 0, f"sha256sum -c accepted a changed {path.name}"
            assert main(["verify", str(release)]) != 0, f"examcorpus verify accepted a changed {path.name}"
        finally:
            path.write_bytes(original)
    capsys.readouterr()
    assert sha256sum_check(release).returncode == 0 and main(["verify", str(release)]) == 0


def test_verify_names_what_is_wrong_and_exits_1_or_2_when_it_cannot_read_a_release(release, tmp_path, capsys):
    (release / "exports" / "lm_eval" / "utils.py").write_text("print('hi')\n")
    assert main(["verify", str(release)]) == 1
    err = capsys.readouterr().err
    assert "FAILED verification" in err and "utils.py: SHA-256/size differ from the manifest" in err
    assert "utils.py: SHA-256 differs from SHA256SUMS" in err
    assert main(["verify", str(tmp_path / "nowhere")]) == 2
    assert "not a release (manifest.json unreadable" in capsys.readouterr().err
    assert main(["verify", "hf://only-a-name"]) == 2
    assert "a Hub release is hf://OWNER/NAME@TAG" in capsys.readouterr().err


def test_a_release_made_before_sha256sums_still_verifies_with_a_note(release, capsys):
    (release / "SHA256SUMS").unlink()
    assert main(["verify", str(release)]) == 0
    assert "note: no SHA256SUMS (a release made before it was added)" in capsys.readouterr().out


def test_a_hub_release_verifies_by_tag_and_a_changed_byte_on_the_hub_fails(hub, split_dir, capsys):
    result = publish_to_hub(split_dir, "public", "examcorpus/bench", release_id="v1", show_progress=False)
    assert main(["verify", "hf://examcorpus/bench@v1"]) == 0
    assert "hf://examcorpus/bench@v1: release v1 verified" in capsys.readouterr().out
    files = hub.repos["examcorpus/bench"].commits[result.commit]
    files["README.md"] = one_byte_changed(files["README.md"])  # the Hub now serves another byte under the tag
    assert main(["verify", "hf://examcorpus/bench@v1"]) == 1
    err = capsys.readouterr().err
    assert "README.md: SHA-256/size differ from the manifest" in err and "README.md: SHA-256 differs from SHA256SUMS" in err
    assert main(["verify", "hf://examcorpus/bench@v9"]) == 2
    assert "hf://examcorpus/bench@v9: cannot download the release" in capsys.readouterr().err
    assert json.loads(files["manifest.json"])["release"] == "v1"
