"""A release folder tampered with after its manifest was written, and a pulled release carrying code or
pickles: `examcorpus verify` fails each, naming the file, and reads nothing outside the release.

Each attack is made on a real release (`publish_to_folder`); where the attacker also controls the manifest
(a Hub repository is whoever can push to it), `manifest.json` and `SHA256SUMS` are rewritten to match, so
only what the layout allows is left to refuse.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.publish import publish_to_folder, publish_to_hub
from pipeline.publish.verify import sums_text, verify_folder


@pytest.fixture
def release(tmp_path, split_dir):
    publish_to_folder(split_dir, "public", tmp_path / "releases" / "v1", release_id="v1", show_progress=False)
    return tmp_path / "releases" / "v1"


def parquet_of(release: Path) -> Path:
    return sorted(release.glob("data/*/*.parquet"))[0]


def problems(release: Path) -> str:
    report = verify_folder(release)
    assert not report.ok
    return "\n".join(report.problems)


def relist(release: Path, outside: Path | None = None) -> None:
    """`manifest.json` and `SHA256SUMS` rewritten to name every file now in the folder (and `outside`,
    by a path leading out of it), with their right hashes: the attacker's own manifest."""
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    paths = sorted(p.relative_to(release).as_posix() for p in release.rglob("*")
                   if p.is_file() and p.name not in ("manifest.json", "SHA256SUMS"))
    if outside is not None:
        paths.append(os.path.relpath(outside, release))
    manifest["files"] = [{"path": rel, "sha256": hashlib.sha256((release / rel).read_bytes()).hexdigest(),
                          "bytes": (release / rel).stat().st_size} for rel in paths]
    (release / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (release / "SHA256SUMS").write_text(sums_text(release, [*paths, "manifest.json"]), encoding="utf-8")


# ------------------------------------------------------------------------------------------ replaced files


def test_a_file_replaced_after_the_manifest_was_written_fails(release, tmp_path):
    """Held before: another release's Parquet put in place of this one's."""
    other = tmp_path / "other.parquet"
    table = pq.read_table(parquet_of(release))
    pq.write_table(table.slice(0, table.num_rows - 1), other)
    shutil.copyfile(other, parquet_of(release))
    assert "SHA-256/size differ from the manifest" in problems(release)


def test_a_file_replaced_by_a_link_to_a_copy_outside_the_release_fails(release, tmp_path):
    """Before: verified, the link followed (the copy is byte for byte the file); now the link is refused,
    since what the release holds would change with a file outside it."""
    target = parquet_of(release)
    outside = tmp_path / "elsewhere.parquet"
    shutil.copyfile(target, outside)
    target.unlink()
    target.symlink_to(outside)
    found = problems(release)
    assert f"symbolic link to {outside}, outside the release" in found and "listed in the manifest but missing" in found


def test_a_link_to_a_device_or_a_folder_outside_is_refused_unread(release, tmp_path):
    """Before: a link to /dev/zero was no file (`is_file`), so nothing checked it and the release verified;
    a link to a folder outside was not entered, and verified too."""
    (release / "exports" / "zeros.jsonl").symlink_to("/dev/zero")
    folder = tmp_path / "secrets"
    folder.mkdir()
    (folder / "id_rsa").write_text("key")
    (release / "data" / "more").symlink_to(folder)
    found = problems(release)
    assert "zeros.jsonl: symbolic link to /dev/zero, outside the release" in found
    assert f"more: symbolic link to {folder}, outside the release" in found


def test_a_fifo_in_the_release_is_refused_without_reading_it(release):
    """A named pipe would block a reader for ever; before it was skipped silently and the release verified."""
    os.mkfifo(release / "exports" / "pipe.jsonl")
    assert "pipe.jsonl: not a regular file" in problems(release)


# ------------------------------------------------------------------------------------------ code and pickles


def test_a_loading_script_and_a_pickle_listed_by_the_attackers_manifest_fail(release):
    """Before: verified (every file listed, every hash right). A `datasets` loading script beside the data and
    a pickle are no files of a release's layout."""
    (release / "v1.py").write_text("import os\nos.system('touch /tmp/pwned')\n")
    (release / "data" / next(release.glob("data/*")).name / "state.pkl").write_bytes(pickle.dumps({"a": 1}))
    relist(release)
    found = problems(release)
    assert "v1.py: no file a release holds" in found and "state.pkl: no file a release holds" in found


def test_a_manifest_naming_a_file_outside_the_release_is_refused_unread(release, tmp_path):
    """Before: verified, the file outside read and hashed as the release's."""
    outside = tmp_path / "outside.parquet"
    shutil.copyfile(parquet_of(release), outside)
    relist(release, outside=outside)
    assert "manifest.json lists '../../outside.parquet': not a path inside the release" in problems(release)


def test_a_hub_release_with_a_loading_script_fails_verify(hub, split_dir, capsys):
    result = publish_to_hub(split_dir, "public", "examcorpus/bench", release_id="v1", show_progress=False)
    files = hub.repos["examcorpus/bench"].commits[result.commit]
    files["bench.py"] = b"import os\nos.system('touch /tmp/pwned')\n"
    manifest = json.loads(files["manifest.json"])
    manifest["files"].append({"path": "bench.py", "sha256": hashlib.sha256(files["bench.py"]).hexdigest(),
                              "bytes": len(files["bench.py"])})
    files["manifest.json"] = json.dumps(manifest).encode()
    files["SHA256SUMS"] = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())
                                  if name not in ("SHA256SUMS", ".gitattributes")).encode()
    assert main(["verify", "hf://examcorpus/bench@v1"]) == 1
    assert "bench.py: no file a release holds" in capsys.readouterr().err


def test_a_release_loads_with_datasets_and_runs_no_loading_script(release, tmp_path):
    """Held: `load_dataset` of a release folder reads its Parquet through the card's configs, with no
    `trust_remote_code`; a loading script put beside them (named as datasets looks for one) is refused by
    `datasets` itself, never run."""
    from datasets import load_dataset

    config = next(release.glob("data/*")).name
    rows = load_dataset(str(release), config, split="test", cache_dir=str(tmp_path / "cache"))
    assert len(rows) > 0
    marker = tmp_path / "ran"
    (release / "v1.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    with pytest.raises(RuntimeError, match="Dataset scripts are no longer supported"):
        load_dataset(str(release), config, split="test", cache_dir=str(tmp_path / "cache2"))
    assert not marker.exists()


class _Payload:
    def __reduce__(self):
        return (Path.write_text, (Path(os.environ["EXAMCORPUS_PICKLE_MARKER"]), "ran"))


def test_a_parquet_whose_column_holds_a_pickled_extension_type_is_read_without_unpickling(release, tmp_path, monkeypatch):
    """Held (pyarrow ≥ 14 never unpickles `arrow.py_extension_type`): a Parquet carrying one, as a pulled
    release could, read by verify and by `eval`'s loader; the pickle's code never runs."""
    marker = tmp_path / "unpickled"
    monkeypatch.setenv("EXAMCORPUS_PICKLE_MARKER", str(marker))
    target = parquet_of(release)
    table = pq.read_table(target)
    field = pa.field("payload", pa.binary(), metadata={b"ARROW:extension:name": b"arrow.py_extension_type",
                                                        b"ARROW:extension:metadata": pickle.dumps(_Payload())})
    pq.write_table(table.append_column(field, pa.array([b""] * table.num_rows)), target)
    relist(release)
    assert verify_folder(release).ok
    from eval.dataset.loading import load_data

    assert load_data(str(release)).questions and not marker.exists()


def test_eval_refuses_a_release_whose_manifest_names_data_outside_it(release, tmp_path):
    """Before: `eval`'s loader read the Parquet outside the release (its hash right) as the release's data."""
    from eval.dataset.loading import DataError, load_data

    table = pq.read_table(parquet_of(release))
    ids = pa.array([f"{i}-outside" for i in table.column("id").to_pylist()])
    outside = tmp_path / "outside.parquet"
    pq.write_table(table.set_column(table.column_names.index("id"), "id", ids), outside)
    relist(release, outside=outside)
    with pytest.raises(DataError, match=r"lists '\.\./\.\./outside\.parquet', not a path inside the release"):
        load_data(str(release))
