"""`extract --from DIR` with broken symbolic links in the folder: a loop and a link that leads nowhere are
each a problem line of the run's report naming the link, and the run goes on with the other files."""
from __future__ import annotations

import json
import os
from pathlib import Path

from pipeline.cli import main as examcorpus
from tests.pipeline.conftest import PL_TEXT_SHEET


def run_extract(root: Path, folder: Path, *extra: str) -> int:
    return examcorpus(["extract", "--source", "sample_pl", "--from", str(folder), "--root", str(root),
                       "--no-progress", "--workers", "1", *extra])


def test_symlink_loops_and_dangling_links_are_problems_and_the_run_goes_on(project_root, season_folder):
    looping = season_folder / "loop"
    looping.mkdir()
    os.symlink("b-2022-maj-egzamin-zawodowy-pisemny.pdf", looping / "a-2022-maj-egzamin-zawodowy-pisemny.pdf")
    os.symlink("a-2022-maj-egzamin-zawodowy-pisemny.pdf", looping / "b-2022-maj-egzamin-zawodowy-pisemny.pdf")
    os.symlink("self.pdf", season_folder / "self.pdf")
    os.symlink("gone/xyz01-2022-maj-egzamin-zawodowy-pisemny.pdf", season_folder / "xyz01-2022-maj-egzamin-zawodowy-pisemny.pdf")
    os.symlink("nowhere", season_folder / "missing-folder")

    assert run_extract(project_root, season_folder) == 0

    report = json.loads((project_root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))
    problems = "\n".join(report["notes"])
    for link in ("loop/a-2022-maj-egzamin-zawodowy-pisemny.pdf", "loop/b-2022-maj-egzamin-zawodowy-pisemny.pdf", "self.pdf"):
        assert f"{season_folder / link}: symbolic link loop" in problems
    assert f"{season_folder / 'xyz01-2022-maj-egzamin-zawodowy-pisemny.pdf'}: dangling symbolic link" in problems
    assert f"{season_folder / 'missing-folder'}: dangling symbolic link to nowhere" in problems
    markdown = (project_root / "curated" / "reports" / "sample_pl.md").read_text(encoding="utf-8")
    assert "symbolic link loop" in markdown and "dangling symbolic link" in markdown
    sheet = Path(PL_TEXT_SHEET).name
    by_name = {Path(f["url"]).name: f for f in report["files"]}
    assert by_name[sheet]["questions"] == 10 and by_name[sheet]["errors"] == []
