"""The weights' identity hashes every file whole: checkpoints that differ only mid-file differ."""
from __future__ import annotations

from eval.models.hf import weights_fingerprint


def _checkpoint(folder, middle: bytes):
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "llama"}')
    size = 5 << 20
    data = bytearray(size)
    data[size // 2 : size // 2 + len(middle)] = middle  # same first and last MiB, same size
    (folder / "model.safetensors").write_bytes(bytes(data))
    return folder


def test_two_checkpoints_differing_only_in_the_middle_have_different_fingerprints(tmp_path):
    a = weights_fingerprint(_checkpoint(tmp_path / "a", b"\x01"), None)
    b = weights_fingerprint(_checkpoint(tmp_path / "b", b"\x02"), None)
    assert a["sha256"] != b["sha256"]
    assert a["file_sha256"]["config.json"] == b["file_sha256"]["config.json"]
    assert a["file_sha256"]["model.safetensors"] != b["file_sha256"]["model.safetensors"]
    assert "whole-file" in a["method"]


def test_the_fingerprint_does_not_depend_on_where_the_folder_lies(tmp_path):
    a = weights_fingerprint(_checkpoint(tmp_path / "a", b"\x01"), None)
    b = weights_fingerprint(_checkpoint(tmp_path / "elsewhere", b"\x01"), None)
    assert a["sha256"] == b["sha256"]
