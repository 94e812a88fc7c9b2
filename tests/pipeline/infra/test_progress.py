"""Long steps report progress on stderr: a bar on a terminal, plain lines in a log file or a pipe
(where a bar is dropped or smeared), nothing when turned off."""
from __future__ import annotations

from tqdm import tqdm

from pipeline.infra.progress import PlainProgress, progress


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
