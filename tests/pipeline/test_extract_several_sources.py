"""`examcorpus extract --source A --source B`: the specs of a season run one after another in one process (the
program's start paid once, issue 31), each with the curated output, report and outcome it has when run alone.

Real `examcorpus extract` runs over a folder holding a generated Polish sheet with its key and the embedded
sample's text-layer Greek sheet with its key."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main as examcorpus
from tests.pipeline.season_sheets import KEY_NAME, SHEET_NAME, key_pdf, questions_about, sheet_pdf

GREEK_SHEET = "panellinies/2023/GEL/pliroforiki/them_plir_gel_2023.pdf"
GREEK_KEY = "panellinies/2023/GEL/pliroforiki/apant_plir_gel_2023.pdf"
NUMBERS = [str(n) for n in range(1, 6)]
TITLE = "EGZAMIN ZAWODOWY · styczeń 2024 · część pisemna"


@pytest.fixture
def season(tmp_path, sample_site) -> Path:
    """One season's folder: a Polish sheet and its key (sample_pl's), a Greek sheet and its key (sample_el's)."""
    folder = tmp_path / "season"
    folder.mkdir()
    sheet_pdf(folder / SHEET_NAME.format(q="kw01", year=2024, session="styczen"), TITLE, questions_about("kw01", NUMBERS))
    key_pdf(folder / KEY_NAME.format(q="kw01", year=2024, session="styczen"), [(n, "ABCD"[int(n) % 4]) for n in NUMBERS])
    for name in (GREEK_SHEET, GREEK_KEY):
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample_site / name, target)
    return folder


def extract(root: Path, folder: Path, *arguments: str) -> int:
    return examcorpus(["extract", *arguments, "--from", str(folder), "--root", str(root), "--no-progress", "--workers", "1"])


def curated_rows(root: Path, spec: str) -> list[dict]:
    return pq.read_table(root / "curated" / f"{spec}.parquet").to_pylist()


def report_totals(root: Path, spec: str) -> dict:
    return json.loads((root / "curated" / "reports" / f"{spec}.json").read_text(encoding="utf-8"))["totals"]


def test_two_specs_in_one_process_curate_what_each_curates_alone(tmp_path, season):
    together, alone = tmp_path / "together", tmp_path / "alone"
    assert extract(together, season, "--source", "sample_pl", "--source", "sample_el") == 0
    assert extract(alone, season, "--source", "sample_pl") == 0
    assert extract(alone, season, "--source", "sample_el") == 0
    for spec in ("sample_pl", "sample_el"):
        rows = curated_rows(together, spec)
        assert rows and rows == curated_rows(alone, spec), spec
        assert report_totals(together, spec) == report_totals(alone, spec), spec
    assert {r["id"].split(":")[0] for r in curated_rows(together, "sample_el")} == {"sample_el"}


def test_a_spec_that_fails_strict_mode_fails_the_run_and_the_next_spec_still_runs(tmp_path, season):
    # a key whose sheet is not in the season: a problem, which strict mode fails sample_pl's run on
    key_pdf(season / KEY_NAME.format(q="kw09", year=2024, session="styczen"), [("1", "A")])
    root = tmp_path / "project"
    assert extract(root, season, "--source", "sample_pl", "--source", "sample_el", "--strict") == 1
    assert not (root / "curated" / "sample_pl.parquet").exists()
    assert curated_rows(root, "sample_el")


def test_a_spec_that_does_not_load_stops_the_run_before_any_spec_runs(tmp_path, season, capsys):
    root = tmp_path / "project"
    assert extract(root, season, "--source", "no_such_family", "--source", "sample_pl") == 2
    assert "no_such_family" in capsys.readouterr().err
    assert not (root / "curated").exists() or not list((root / "curated").glob("*.parquet"))


def test_one_curated_file_named_with_two_specs_is_refused(tmp_path, season, capsys):
    root = tmp_path / "project"
    assert extract(root, season, "--source", "sample_pl", "--source", "sample_el", "--out", str(tmp_path / "one.parquet")) == 2
    assert "--out" in capsys.readouterr().err
    assert not (tmp_path / "one.parquet").exists()


def test_make_extract_hands_each_of_several_sources_to_one_run():
    repository = Path(__file__).resolve().parents[2]
    shown = subprocess.run(["make", "-n", "-C", str(repository), "extract", "SOURCE=sample_pl sample_el", "YEAR=2024"],
                           capture_output=True, text=True, check=True).stdout
    runs = [line for line in shown.splitlines() if "examcorpus extract" in line]
    assert len(runs) == 1 and runs[0].split("extract", 1)[1].split() == [
        "--source", "sample_pl", "--source", "sample_el", "--year", "2024"]
