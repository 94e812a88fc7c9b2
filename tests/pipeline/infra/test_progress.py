"""Long steps report progress on stderr: a bar on a terminal, plain lines in a log file or a pipe
(where a bar is dropped or smeared), nothing when turned off."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tqdm import tqdm

from pipeline.infra.progress import PlainProgress, QuietProgress, progress, terminal_bar

ROOT = Path(__file__).resolve().parents[3]


def test_off_a_terminal_a_step_prints_plain_lines_and_a_last_one(capsys):
    with progress(total=4, desc="extract pl", unit="file", every_s=0) as bar:  # capsys' stderr is no terminal
        assert isinstance(bar, PlainProgress)
        for _ in range(3):
            bar.update(1)
        bar.set_postfix({"flagged": 2})
        bar.update(1)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in lines] == [f"extract pl: {n}/4 file ({25 * n} %)" for n in (1, 2, 3, 4)]
    assert "left" in lines[0] and "left" not in lines[-1] and lines[-1].endswith("; flagged=2")


def test_a_quick_step_prints_only_its_last_line_and_a_disabled_one_nothing(capsys):
    bar = progress(total=3, desc="publish", unit="config", every_s=3600)
    bar.update(3)
    bar.close()
    bar.close()
    [line] = capsys.readouterr().err.splitlines()  # closing twice prints it once
    assert line.startswith("publish: 3/3 config (100 %), ")
    quiet = progress(total=3, desc="publish", enabled=False)
    quiet.update(3)
    quiet.close()
    assert capsys.readouterr().err == ""


def test_on_a_terminal_it_is_a_bar(monkeypatch):
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    bar = progress(total=2, desc="describe", unit="fig")
    assert isinstance(bar, tqdm)
    bar.close()


def test_a_step_shown_nowhere_counts_and_prints_nothing(capsys):
    with progress(total=3, desc="extract", enabled=False) as quiet, terminal_bar(total=2, desc="OCR", unit="page", shown=False) as bar:
        assert isinstance(quiet, QuietProgress) and isinstance(bar, QuietProgress)
        quiet.update(2)
        quiet.set_postfix({"flagged": 1})
        bar.update()
    assert (quiet.n, quiet.total, bar.n, bar.total) == (2, 3, 1, 2)
    assert capsys.readouterr() == ("", "")


def test_on_a_terminal_a_shown_step_is_a_bar(monkeypatch):
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    bar = terminal_bar(total=2, desc="download", unit="file", shown=True)
    assert isinstance(bar, tqdm)
    bar.close()


def test_a_season_run_without_a_terminal_never_loads_tqdm():
    """tqdm costs a process about 60 ms of its start; a run whose stderr is a pipe or a file draws no bar.
    The probe's stderr is a pipe: plain lines, quiet steps, then a bar asked for loads it."""
    probe = ("import sys, pipeline.cli, pipeline.season, pipeline.extract, pipeline.parse; "
             "from pipeline.infra import progress, terminal_bar; "
             "bars = [progress(total=1, desc='d'), progress(total=1, desc='d', enabled=False), "
             "terminal_bar(total=1, desc='d', unit='f', shown=sys.stderr.isatty())]; [b.close() for b in bars]; "
             "print(sys.stderr.isatty(), 'tqdm' in sys.modules); "
             "terminal_bar(total=1, desc='d', unit='f', shown=True).close(); print('tqdm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "True"]
