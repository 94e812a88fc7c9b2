"""`examcorpus publish --to DIR`: exit 0 with a summary; 1 with the reason when refused."""
from __future__ import annotations

from pipeline.cli import main


def test_publish_to_a_folder_then_refuse_the_same_release(tmp_path, split_dir, capsys):
    target = tmp_path / "releases" / "v1"
    argv = ["publish", "--split-dir", str(split_dir), "--to", str(target), "--release", "v1", "--no-progress"]
    assert main(argv) == 0
    assert "release v1 (public)" in capsys.readouterr().out and (target / "manifest.json").is_file()
    assert main(argv) == 1
    assert "already holds release v1" in capsys.readouterr().err


def test_publishing_the_private_split_to_a_plain_folder_is_refused(tmp_path, split_dir, capsys):
    argv = ["publish", "--split-dir", str(split_dir), "--split", "private", "--to", str(tmp_path / "p"), "--release", "v1"]
    assert main(argv) == 1
    assert "refusing to publish the private split to a public target" in capsys.readouterr().err


def test_publish_without_a_split_names_the_missing_folder(tmp_path, capsys):
    assert main(["publish", "--split-dir", str(tmp_path / "none"), "--to", str(tmp_path / "r"), "--release", "v1"]) == 1
    assert f"{tmp_path / 'none' / 'split.json'}: no split here" in capsys.readouterr().err
