"""A publish killed with SIGKILL leaves its staging folder behind; the next publish beside it removes
that folder and says so, and still publishes (even under the same release id, though the killed
staging folder already held a manifest). A staging folder of a publish that is still running is
never touched."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pipeline.cli import main
from pipeline.publish import verify_release

ROOT = Path(__file__).resolve().parents[3]

# A real `examcorpus publish` in a child process that, once the release's manifest is written into the
# staging folder (the last step before the rename), says so in a file and waits to be killed.
PAUSED_PUBLISH = """
import sys, time
from pathlib import Path
import pipeline.publish.release as release
write = release.write_text_atomic
def write_then_wait(path, text, *args, **kwargs):
    result = write(path, text, *args, **kwargs)
    Path(sys.argv[1]).write_text(str(path.parent))
    time.sleep(600)
    return result
release.write_text_atomic = write_then_wait
from pipeline.cli import main
sys.exit(main(sys.argv[2:]))
"""


def start_paused_publish(ready: Path, split_dir: Path, target: Path, release_id: str) -> tuple[subprocess.Popen, Path]:
    child = subprocess.Popen(
        [sys.executable, "-c", PAUSED_PUBLISH, str(ready), "publish", "--split-dir", str(split_dir), "--to", str(target),
         "--release", release_id, "--no-progress", "--images-root", str(Path.cwd())],  # the project the fixture made
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(1200):  # a hang guard only (60 s): the child says when it is where the test wants it
        if ready.exists() and ready.read_text():
            return child, Path(ready.read_text())
        assert child.poll() is None, "the paused publish exited early"
        time.sleep(0.05)
    child.kill()
    raise AssertionError("the paused publish never reached its manifest")


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_the_next_publish_removes_the_staging_folder_of_a_killed_one(tmp_path, split_dir, capsys):
    releases = tmp_path / "releases"
    child, staging = start_paused_publish(tmp_path / "ready", split_dir, releases / "v1", "v1")
    assert staging.parent == releases and (staging / "manifest.json").is_file()
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    assert staging.is_dir()  # what a killed publish leaves behind

    assert main(["publish", "--split-dir", str(split_dir), "--to", str(releases / "v1"), "--release", "v1", "--no-progress"]) == 0
    assert f"removed {staging}, the staging folder of an interrupted publish" in capsys.readouterr().out
    assert not staging.exists() and hidden(releases) == []
    assert verify_release(releases / "v1") == []


def test_a_staging_folder_of_a_publish_still_running_is_left_alone(tmp_path, split_dir, capsys):
    releases = tmp_path / "releases"
    child, staging = start_paused_publish(tmp_path / "ready", split_dir, releases / "v2", "v2")
    try:
        assert main(["publish", "--split-dir", str(split_dir), "--to", str(releases / "v1"), "--release", "v1", "--no-progress"]) == 0
        printed = capsys.readouterr().out
        assert f"{staging}: staging folder of a publish still running; left alone" in printed
        assert "since no previous release" in printed  # a release being built is not a previous release
        assert (staging / "manifest.json").is_file()
        assert child.poll() is None
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    assert main(["publish", "--split-dir", str(split_dir), "--to", str(releases / "v2"), "--release", "v2", "--no-progress"]) == 0
    assert not staging.exists() and hidden(releases) == []
    assert verify_release(releases / "v2") == []
