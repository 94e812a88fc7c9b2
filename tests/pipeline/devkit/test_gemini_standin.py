"""The Gemini stand-in a user runs (`python -m pipeline.devkit.gemini_standin`): a process of its own
that prints its URL, answers the real Gemini SDK (through `pipeline.describe`'s client) with a
description, and stops cleanly."""
from __future__ import annotations

import subprocess
import sys

from pipeline.describe.gemini import GeminiDescriber


def test_the_stand_in_runs_as_a_module_and_answers_the_describe_client(tmp_path):
    server = subprocess.Popen([sys.executable, "-m", "pipeline.devkit.gemini_standin", "--until-stdin-closes"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base_url = server.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:")
        outcome = GeminiDescriber(model="gemini-2.5-flash", api_key="offline-key", base_url=base_url, timeout_s=30).describe(
            "Describe the figure [F01].", b"\x89PNG\r\n\x1a\n figure bytes")
        assert outcome.status == "pending" and "right triangle ABC" in outcome.description
        assert outcome.model_version == "gemini-2.5-flash-standin-001"
    finally:
        server.stdin.close()
        assert server.wait(timeout=30) == 0


def test_the_stand_in_explains_its_options():
    done = subprocess.run([sys.executable, "-m", "pipeline.devkit.gemini_standin", "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "--port" in done.stdout and "--slow-s" in done.stdout
