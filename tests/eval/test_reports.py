"""Plots for papers and READMEs: accuracy with intervals, and the human-results scatter."""
from __future__ import annotations

import pytest
from PIL import Image

from eval.analysis.correlate import LLMZSZL_CSV
from tests.eval.conftest import SECRET, run_cli

pytest.importorskip("matplotlib")


def test_rescore_draws_accuracy_with_its_interval(tmp_path, curated, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    openai_server.scripts.update({"Q01": ["wrong"], "Q02": ["wrong"]})
    run = tmp_path / "run"
    assert run_cli("eval", "run", "--data", curated, "--model", "openai:m", "--base-url", openai_server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", run, "--no-progress") == 0
    png = tmp_path / "accuracy.png"
    assert run_cli("eval", "rescore", run, "--plot", png) == 0
    with Image.open(png) as image:
        assert image.format == "PNG" and image.width > 300 and image.height > 200
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 20)) > 5  # something was drawn


def test_correlate_draws_a_scatter(tmp_path):
    out = tmp_path / "corr"
    assert run_cli("eval", "correlate", "--scores", LLMZSZL_CSV, "--out", out) == 0
    [png, *_] = sorted((out / "plots").glob("*.png"))
    with Image.open(png) as image:
        assert image.format == "PNG" and len(image.convert("RGB").getcolors(maxcolors=1 << 20)) > 5
