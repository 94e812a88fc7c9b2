"""The documented offline recipe: the Hub stand-in a user runs (`python -m pipeline.devkit.hub_standin`),
`HF_ENDPOINT` pointed at it, then `examcorpus publish --repo` and `examcorpus verify hf://…@TAG` as
processes of their own, as a user would type them."""
from __future__ import annotations

import subprocess
import sys


def test_publish_and_verify_against_the_hub_stand_in_run_as_a_module(tmp_path, split_dir):
    server = subprocess.Popen([sys.executable, "-m", "pipeline.devkit.hub_standin", "--token", "hf_local",
                               "--until-stdin-closes"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        endpoint = server.stdout.readline().strip()
        assert endpoint.startswith("http://127.0.0.1:")
        env = {"PATH": "/usr/bin:/bin", "HF_ENDPOINT": endpoint, "HF_TOKEN": "hf_local", "HF_HUB_DISABLE_XET": "1",
               "HF_HOME": str(tmp_path / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1", **_pythonpath()}

        def examcorpus(*argv):
            return subprocess.run([sys.executable, "-m", "pipeline.cli", *argv], env=env, capture_output=True,
                                  text=True, timeout=180)

        published = examcorpus("publish", "--split-dir", str(split_dir), "--repo", "me/bench", "--release", "v1",
                               "--no-progress")
        assert published.returncode == 0, published.stderr[-2000:]
        verified = examcorpus("verify", "hf://me/bench@v1")
        assert verified.returncode == 0, verified.stderr[-2000:]
        assert "hf://me/bench@v1: release v1 verified" in verified.stdout and "3 figures" in verified.stdout
        missing = examcorpus("verify", "hf://me/bench@v2")
        assert missing.returncode == 2 and "cannot download the release" in missing.stderr
    finally:
        server.stdin.close()
        assert server.wait(timeout=30) == 0


def _pythonpath() -> dict:
    import os

    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
