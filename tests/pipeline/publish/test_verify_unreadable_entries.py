"""`examcorpus verify DIR` on a release folder whose manifest or SHA256SUMS is no small regular file ends with a
reason, in bounded time and memory.

A tampered or careless release folder is what verification exists for. Before, `manifest.json` was read whole
before any entry of the folder was looked at: as a named pipe it held `verify` forever, as a link to `/dev/zero`
it was read until memory ran out, and `SHA256SUMS` as a link to a large file outside the release was read whole
too. Each attack runs `examcorpus verify` as a child process under a time limit (and a memory limit where memory
is the attack). Measured in `docs/results.md`, "Trust at the seams a tenth time".
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.publish import publish_to_folder
from pipeline.publish.verify import MAX_LISTING_BYTES

LIMIT_S = 60
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def release(tmp_path, split_dir):
    publish_to_folder(split_dir, "public", tmp_path / "releases" / "v1", release_id="v1", show_progress=False)
    return tmp_path / "releases" / "v1"


def verify_in_a_child(folder, memory_mib: int = 2048) -> subprocess.CompletedProcess:
    script = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({memory_mib} << 20, {memory_mib} << 20))
        from pipeline.cli import main
        sys.exit(main(["verify", {str(folder)!r}]))
    """)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=LIMIT_S,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def test_an_intact_release_verifies_in_the_child(release):
    done = verify_in_a_child(release)
    assert done.returncode == 0 and "verified" in done.stdout, done.stdout + done.stderr


def test_a_manifest_that_is_a_named_pipe_is_refused_not_waited_on(release):
    (release / "manifest.json").unlink()
    os.mkfifo(release / "manifest.json")
    done = verify_in_a_child(release)  # before: still waiting when the limit ended it (TimeoutExpired)
    assert done.returncode != 0 and "manifest.json" in done.stderr and "not a regular file" in done.stderr, done.stderr


def test_a_manifest_linked_to_an_endless_device_is_refused_within_memory(release):
    (release / "manifest.json").unlink()
    (release / "manifest.json").symlink_to("/dev/zero")
    done = verify_in_a_child(release, memory_mib=1024)  # before: MemoryError after reading /dev/zero into memory
    assert done.returncode != 0 and "MemoryError" not in done.stderr, done.stderr
    assert "manifest.json" in done.stderr and "symbolic link to /dev/zero, outside" in done.stderr, done.stderr


def test_a_manifest_larger_than_any_release_writes_is_refused_unread(release):
    with open(release / "manifest.json", "ab") as grown:
        grown.truncate(MAX_LISTING_BYTES + 1)
    done = verify_in_a_child(release)
    assert done.returncode != 0 and f"over the {MAX_LISTING_BYTES:,} bytes allowed" in done.stderr, done.stderr


def test_sums_linked_to_a_large_file_outside_are_not_read(release, tmp_path):
    outside = tmp_path / "large.bin"
    with open(outside, "wb") as large:
        large.truncate(3 << 30)  # 3 GiB, sparse: read whole it takes the child past its memory
    (release / "SHA256SUMS").unlink()
    (release / "SHA256SUMS").symlink_to(outside)
    done = verify_in_a_child(release, memory_mib=1024)
    said = done.stdout + done.stderr
    assert done.returncode == 1 and "MemoryError" not in said and "FAILED verification" in said, said
    assert f"SHA256SUMS: symbolic link to {outside}, outside the release; not read" in said, said


def test_the_eval_loader_refuses_a_manifest_that_is_a_named_pipe_or_an_endless_device(release):
    """Before, the loader took such a folder for a folder of Parquet files and read them without the manifest's
    hashes (no refusal)."""
    (release / "manifest.json").unlink()
    os.mkfifo(release / "manifest.json")
    script = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1024 << 20, 1024 << 20))
        from eval.dataset.loading import DataError, load_data
        for device in (None, "/dev/zero"):
            if device:
                import os
                os.unlink({str(release / "manifest.json")!r})
                os.symlink(device, {str(release / "manifest.json")!r})
            try:
                load_data({str(release)!r})
            except DataError as refused:
                print("refused:", refused)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=LIMIT_S,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    refusals = [line for line in done.stdout.splitlines() if line.startswith("refused:")]
    assert len(refusals) == 2 and all("not a regular file" in line for line in refusals), done.stdout + done.stderr
