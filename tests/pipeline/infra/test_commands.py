"""Every `examcorpus` subcommand is added one way (pipeline.infra.add_command) from one table of
registrars (pipeline.cli.COMMANDS); an optional part that is not installed is left out, not fatal."""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.infra import add_command, register_commands

ROOT = Path(__file__).resolve().parents[3]


def _parser() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    parser = argparse.ArgumentParser(prog="t")
    return parser, parser.add_subparsers(dest="command", required=True)


def test_a_command_carries_its_handler_and_says_what_it_does():
    parser, sub = _parser()
    greet = add_command(sub, "greet", lambda args: 7, help="say hello")
    greet.add_argument("--name")
    other = add_command(sub, "other", lambda args: 8, help="h", description="longer", dest="handler")
    args = parser.parse_args(["greet", "--name", "x"])
    assert args.func(args) == 7 and args.name == "x"
    assert greet.description == "say hello" and other.description == "longer"
    assert parser.parse_args(["other"]).handler(None) == 8


def test_registrars_are_called_in_order_and_an_uninstalled_part_is_left_out():
    parser, sub = _parser()
    called = []
    left_out = register_commands(sub, [lambda s: called.append("local"), "no_such_package_here.cli:register",
                                       "pipeline.split:register"])
    assert called == ["local"] and left_out == ["no_such_package_here.cli:register"]
    assert parser.parse_args(["split"]).func.__name__ == "_cmd_split"
    with pytest.raises(AttributeError):  # an installed module without the named function is a mistake, not optional
        register_commands(sub, ["pipeline.split:no_such_register"])


def test_the_project_cli_lists_every_stage_and_the_eval_group():
    from pipeline.cli import COMMANDS

    out = subprocess.run([sys.executable, "-m", "pipeline.cli", "--help"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    stages = ("extract", "specs", "score-extraction", "ocr", "inspect", "split", "publish", "verify", "describe", "review", "eval")
    for name in stages:
        assert f"    {name} " in out or f"    {name}\n" in out, name
    assert len(COMMANDS) == 10  # `verify` is registered by the publish stage beside `publish`
    eval_help = subprocess.run([sys.executable, "-m", "pipeline.cli", "eval", "--help"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout
    for name in ("run", "rescore", "verify", "compare", "correlate", "leaderboard", "passing", "key-errors", "features",
                 "contamination", "judge"):
        assert name in eval_help


def test_a_run_imports_only_the_registrars_up_to_its_own_command():
    parser, sub = _parser()
    called = []
    register_commands(sub, [lambda s: (called.append("greet"), add_command(s, "greet", lambda a: 0, help="h")),
                            "no_such_package_here.cli:register", "pipeline.split:no_such_register"], wanted="greet")
    assert called == ["greet"]  # the later entries were neither imported nor looked up (the last would raise)
    assert parser.parse_args(["greet"]).func(None) == 0
    _, everything = _parser()
    with pytest.raises(AttributeError):  # an unknown command (a typo) builds every command, for argparse's message
        register_commands(everything, ["pipeline.split:register", "pipeline.split:no_such_register"], wanted="splt")


def test_examcorpus_extract_starts_without_the_other_stages_imported():
    probe = ("import sys; from pipeline.cli import build_parser; build_parser('extract').parse_args(['extract']); "
             "print(sorted(m for m in sys.modules if m.split('.')[:2] in (['pipeline', 'publish'], ['pipeline', 'devkit'], "
             "['pipeline', 'describe'], ['pipeline', 'split'], ['pipeline', 'review']) or m.split('.')[0] in ('eval', 'flask')))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_season_run_applies_reviewed_work_without_loading_the_review_web_app():
    probe = ("import sys, pipeline.season, pipeline.review as review; names = set(dir(review)); "
             "print('flask' in sys.modules, review.create_app.__module__, 'flask' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "pipeline.review.server", "True"]  # loaded on first use, then there


def test_a_season_run_starts_without_scipy_which_only_scanned_pages_need():
    """scipy costs a process about a third of a CPU second to import; only OCR passes on scanned pages use
    it. The pass registry itself (the extract stage's version holds every pass's) loads without it."""
    probe = ("import sys, numpy as np, pipeline.cli, pipeline.season, pipeline.parse; from pipeline.extract import STAGE_VERSION; "
             "print('scipy' in sys.modules, 'pipeline.extract.ocr.specks' in sys.modules, 'pipeline.extract.ocr.panels' in sys.modules); "
             "from pipeline.extract.ocr.specks import _near; "
             "print(_near(np.eye(5, dtype=bool), 1).sum(), 'scipy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "True", "19", "True"]  # loaded by the first pass that calls it


def test_a_season_run_shown_nowhere_starts_without_tqdm_which_only_a_terminal_bar_needs():
    """A worker or a `--no-progress` run draws no bar: its steps get a silent stand-in and tqdm (a tenth of an
    extract process's start) is not imported; a bar asked for on a terminal still loads it."""
    probe = ("import sys, pipeline.cli, pipeline.season, pipeline.parse, pipeline.extract; "
             "from pipeline.infra import progress; "
             "quiet = [progress(total=2, desc='extract', enabled=False), progress(total=2, desc='download', enabled=False)]; "
             "[bar.update(2) or bar.close() for bar in quiet]; print('tqdm' in sys.modules); "
             "sys.stderr.isatty = lambda: True; progress(total=2, desc='extract').close(); print('tqdm' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "True"]
    assert "extract" in run.stderr and "download" not in run.stderr  # only the terminal's bar drew anything
