"""`examcorpus describe` from the command line: the key, the base-URL variable, exit codes."""
from __future__ import annotations

import argparse

from pipeline.describe import BASE_URL_ENV
from pipeline.describe.command import register
from tests.pipeline.describe.conftest import SECRET


def run_cli(argv):
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["describe", *argv])
    return args.func(args)


def test_without_a_key_it_says_so_and_touches_nothing(project, gemini, monkeypatch, capsys):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.setenv(BASE_URL_ENV, gemini.base_url)
    assert run_cli(["--root", str(project), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "GEMINI_API_KEY or GOOGLE_API_KEY" in err and "annotations are untouched" in err
    assert not (project / "annotations").exists() and gemini.requests == []


def test_the_base_url_variable_points_the_sdk_at_the_stand_in(project, gemini, monkeypatch, capsys):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.setenv("GOOGLE_API_KEY", SECRET)
    monkeypatch.setenv(BASE_URL_ENV, gemini.base_url)
    assert run_cli(["--root", str(project), "--no-progress", "--model", "gemini-test"]) == 0
    captured = capsys.readouterr()
    assert "7 figures, 0 already described, 7 pending, 0 failed" in captured.err
    assert gemini.requests[0]["path"] == "/v1beta/models/gemini-test:generateContent"
    assert SECRET not in captured.out + captured.err


def test_a_failed_figure_makes_the_exit_status_non_zero(project, gemini, monkeypatch, capsys):
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    monkeypatch.setenv(BASE_URL_ENV, gemini.base_url)
    gemini.scripts = {"F01": ["garbage"]}
    assert run_cli(["--root", str(project), "--no-progress", "--max-attempts", "1"]) == 1
    assert "1 failed" in capsys.readouterr().err
