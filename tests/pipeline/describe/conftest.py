"""Fixtures for the describe tests: a project root with curated figure questions, and a Gemini
stand-in on 127.0.0.1 (pipeline/devkit/gemini_standin.py) with a test key in the environment."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.describe import DescribeOptions, RetryPolicy
from tests.pipeline.describe.builders import figure_question, text_question, write_curated
from pipeline.devkit.gemini_standin import GeminiStandIn

SECRET = "AIzaTEST-secret-key-never-stored-0123456789"


@pytest.fixture
def gemini():
    standin = GeminiStandIn().start()
    yield standin
    standin.stop()


@pytest.fixture
def api_key(monkeypatch) -> str:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    return SECRET


@pytest.fixture
def project(tmp_path) -> Path:
    """Six figure questions (one with two figures) and one text-only question."""
    root = tmp_path / "project"
    questions = [figure_question(root, i, figures=2 if i == 6 else 1) for i in range(1, 7)] + [text_question(99)]
    write_curated(root, questions)
    return root


@pytest.fixture
def options(project, gemini):
    """Fast settings: retries wait at most 0.3 s, a hung request times out after 0.5 s."""
    return DescribeOptions(root=project, model="gemini-2.5-pro", base_url=gemini.base_url, concurrency=4, timeout_s=0.5,
                           retry=RetryPolicy(max_attempts=3, base_delay_s=0.05, max_delay_s=0.3), show_progress=False)
