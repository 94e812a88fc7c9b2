"""Faults a curator meets on a re-run, and what must hold: nothing curated is ever lost, and every
failure is reported, counted and fails `--strict`.

Real files (generated PDFs, scans rasterised from them), real Tesseract, real `examcorpus extract`
processes. Tesseract is made unavailable the ways a machine loses it: $EXAMCORPUS_TESSERACT pointing
nowhere, no `tesseract` on PATH, and the spec's OCR language not installed (an empty $TESSDATA_PREFIX).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main as examcorpus
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, item_bottom, rasterize_pdf
from pipeline.records import table_to_questions

SCAN_SHEET = "inf02-2024-styczen-egzamin-zawodowy-pisemny.pdf"
SCAN_KEY = "inf02-2024-styczen-egzamin-zawodowy-pisemny-odpowiedzi.pdf"
TEXT_SHEET = "ele02-2023-czerwiec-egzamin-zawodowy-pisemny.pdf"
TEXT_KEY = "ele02-2023-czerwiec-egzamin-zawodowy-pisemny-odpowiedzi.pdf"
SAMPLE_INF02_KEY = "zawodowy/inf02-2024-styczen-egzamin-zawodowy-pisemny-odpowiedzi.pdf"
SAMPLE_ELE02_KEY = "zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny-odpowiedzi.pdf"

QUESTIONS = [
    ("Który przyrząd mierzy natężenie prądu?", ["woltomierz", "amperomierz", "omomierz", "watomierz"], "B"),
    ("Jaką jednostką wyraża się moc czynną?", ["wat", "wolt", "om", "farad"], "A"),
    ("Który kolor izolacji ma przewód ochronny?", ["niebieski", "czarny", "brązowy", "zielono-żółty"], "D"),
]


# ------------------------------------------------------------------------------------------ files

def _column(items: list, lines: list[str], y: float, x: float = 20, size: float = 12) -> float:
    for text in lines:
        box = TextBox(text, x, y, 170, size=size)
        items.append(box)
        y = item_bottom(box) + 2
    return y


def scanned_sheet(folder: Path) -> Path:
    """A one-page INF.02 January 2024 booklet of three questions, printed and scanned (no text layer)."""
    items: list = []
    y = _column(items, ["EGZAMIN ZAWODOWY · styczeń 2024", "Arkusz INF.02-X-24.01 · część pisemna"], 20)
    for number, (question, options, _) in enumerate(QUESTIONS, start=1):
        lines = [f"Zadanie {number}.", question] + [f"{label}. {text}" for label, text in zip("ABCD", options)]
        y = _column(items, lines, y + 4)
    printed = build_pdf(folder / "printed.pdf", [PageSpec(tuple(items))])
    scan = rasterize_pdf(printed, folder / SCAN_SHEET, dpi=300, seed=1)
    printed.unlink()
    return scan


def answer_key(
    folder: Path, name: str = SCAN_KEY, answers: str | None = None, code: str = "INF.02-X-24.01",
    scanned: bool = False, blank: bool = False,
) -> Path:
    """An answer key, by default the scanned booklet's: five entries a row, under a header naming the
    sheet code. `scanned`: printed and scanned, so it is OCR'd; `blank`: a scan with nothing legible."""
    answers = answers or "".join(a for _, _, a in QUESTIONS)
    entries = [f"{n}. {a}" for n, a in enumerate(answers, start=1)]
    lines = ["Odpowiedzi", f"{code} · klucz"] + ["   ".join(entries[i:i + 5]) for i in range(0, len(entries), 5)]
    items: list = [TextBox(".", 20, 20, 170, size=6)] if blank else []
    if not blank:
        _column(items, lines, 20)
    if not (scanned or blank):
        return build_pdf(folder / name, [PageSpec(tuple(items))])
    printed = build_pdf(folder / "printed-key.pdf", [PageSpec(tuple(items))])
    scan = rasterize_pdf(printed, folder / name, dpi=300, seed=2)
    printed.unlink()
    return scan


def resaved(path: Path) -> None:
    """The same document with new bytes (a re-download, a re-save): a new SHA-256, so a new extraction."""
    path.write_bytes(path.read_bytes() + b"\n% saved again\n")


@pytest.fixture(scope="session")
def scan_files(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("scans")
    scanned_sheet(folder)
    answer_key(folder)
    answer_key(folder, name="blank-key.pdf", blank=True)
    return folder


@pytest.fixture
def scan_folder(tmp_path, scan_files) -> Path:
    """A season folder holding the scanned booklet and its (text-layer) key."""
    folder = tmp_path / "scans"
    folder.mkdir()
    for name in (SCAN_SHEET, SCAN_KEY):
        shutil.copyfile(scan_files / name, folder / name)
    return folder


# ------------------------------------------------------------------------------------------ runs

def run_here(root: Path, folder: Path, *extra: str) -> int:
    return examcorpus(["extract", "--source", "sample_pl", "--from", str(folder), "--root", str(root),
                       "--no-progress", "--workers", "2", *extra])


def run_process(root: Path, folder: Path, *extra: str, env: dict[str, str | None] | None = None):
    """A real `examcorpus extract` process, with environment variables set (or removed, for None)."""
    environment = dict(os.environ)
    for name, value in (env or {}).items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    command = [sys.executable, "-m", "pipeline.cli", "extract", "--source", "sample_pl", "--from", str(folder),
               "--root", str(root), "--no-progress", "--workers", "2", *extra]
    return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])


NO_TESSERACT_BINARY = {"EXAMCORPUS_TESSERACT": "/nonexistent/tesseract"}
NO_TESSERACT_ON_PATH = {"EXAMCORPUS_TESSERACT": None, "PATH": str(Path(sys.executable).parent)}


def no_language_pack(tmp_path: Path) -> dict[str, str | None]:
    empty = tmp_path / "empty-tessdata"
    empty.mkdir(exist_ok=True)
    return {"EXAMCORPUS_TESSERACT": None, "TESSDATA_PREFIX": str(empty)}


def rows(root: Path) -> list[dict]:
    return pq.read_table(root / "curated" / "sample_pl.parquet").to_pylist()


KEPT_FLAG = "season.answer_kept_from_earlier"


def kept_rows(root: Path) -> list[dict]:
    """The curated rows after a run whose key was unusable: each answered one carries the flag saying its
    answer is an earlier run's (checked here), and is otherwise the row curated before (returned without it)."""
    found = []
    for row in rows(root):
        assert (KEPT_FLAG in row["flag_codes"]) == (row["answer"] is not None), row
        keep = [i for i, code in enumerate(row["flag_codes"]) if code != KEPT_FLAG]
        found.append(row | {"flags": [row["flags"][i] for i in keep], "flag_codes": [row["flag_codes"][i] for i in keep]})
    return found


def answers(root: Path, sheet: str) -> dict[str, str | None]:
    questions = table_to_questions(pq.read_table(root / "curated" / "sample_pl.parquet"))
    return {q.number: q.answer for q in questions if q.source_url.endswith("/" + sheet)}


def report(root: Path) -> dict:
    return json.loads((root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))


def file_report(root: Path, name: str) -> dict:
    return next(f for f in report(root)["files"] if f["url"].endswith("/" + name))


def manifest(root: Path) -> dict[str, dict]:
    lines = (root / "raw" / "manifest.jsonl").read_text(encoding="utf-8").splitlines()
    return {Path(e["url"]).name: e for e in map(json.loads, lines)}


# ------------------------------------------------------------------------------------------ 1. OCR unavailable

def test_ocr_unavailable_is_a_reported_failure_that_keeps_curated_rows_and_is_not_cached(
    project_root, scan_folder, tmp_path
):
    assert run_here(project_root, scan_folder) == 0
    before = rows(project_root)
    assert answers(project_root, SCAN_SHEET) == {"1": "B", "2": "A", "3": "D"}
    assert report(project_root)["totals"]["problems"] == 0

    resaved(scan_folder / SCAN_SHEET)  # new bytes: this run has to OCR the sheet again
    new_sha = manifest_sha = None
    for env, strict, says in (
        (NO_TESSERACT_BINARY, False, "EXAMCORPUS_TESSERACT"),
        (NO_TESSERACT_ON_PATH, True, "tesseract is not installed"),
        (no_language_pack(tmp_path), False, "language data missing for pol"),
    ):
        result = run_process(project_root, scan_folder, *(["--strict"] if strict else []), env=env)
        console = result.stdout + result.stderr
        assert result.returncode == (1 if strict else 0), console
        assert SCAN_SHEET in console and says in console, console
        assert rows(project_root) == before  # earlier curated records of the sheet stay
        sheet = file_report(project_root, SCAN_SHEET)
        assert sheet["status"] == "failed" and says in " ".join(sheet["errors"])
        assert report(project_root)["totals"]["problems"] >= 1
        manifest_sha = manifest(project_root)[SCAN_SHEET]
        assert manifest_sha["status"] == "local" and manifest_sha["error"] is None  # the file itself is fine
        new_sha = manifest_sha["sha256"]
    assert not (project_root / "raw" / "quarantine").exists()

    assert run_here(project_root, scan_folder) == 0  # Tesseract is back: the work is done now
    assert answers(project_root, SCAN_SHEET) == {"1": "B", "2": "A", "3": "D"}
    refreshed = [r for r in rows(project_root) if r["source_url"].endswith("/" + SCAN_SHEET)]
    assert {r["source_sha256"] for r in refreshed} == {new_sha}
    assert report(project_root)["totals"]["problems"] == 0


def test_a_scanned_key_that_cannot_be_ocrd_or_read_keeps_the_sheets_answers(project_root, season_folder, scan_files):
    """The text path: a text-layer sheet whose key is a scan."""
    (season_folder / TEXT_KEY).unlink()
    printed = "BDCAABDDAC"
    answer_key(season_folder, name=TEXT_KEY, answers=printed, code="ELE.02-X-23.06", scanned=True)
    assert run_here(project_root, season_folder) == 0
    before = rows(project_root)
    assert answers(project_root, TEXT_SHEET) == {str(n): a for n, a in enumerate(printed, start=1)}
    assert file_report(project_root, TEXT_KEY)["ocr_pages"] == 1

    resaved(season_folder / TEXT_KEY)
    result = run_process(project_root, season_folder, env=NO_TESSERACT_BINARY)
    assert result.returncode == 0, result.stderr
    assert kept_rows(project_root) == before
    key = file_report(project_root, TEXT_KEY)
    assert key["status"] == "failed" and "EXAMCORPUS_TESSERACT" in " ".join(key["errors"])
    sheet = " ".join(file_report(project_root, TEXT_SHEET)["errors"])
    assert "kept the 10 records curated earlier" in sheet and "failed to extract" in sheet

    shutil.copyfile(scan_files / "blank-key.pdf", season_folder / TEXT_KEY)  # OCR runs, reads no answer
    assert run_here(project_root, season_folder) == 0
    assert kept_rows(project_root) == before
    assert "no answers" in " ".join(file_report(project_root, TEXT_SHEET)["errors"])


# ------------------------------------------------------------------------------------------ 2. a key that fails or goes

def test_a_key_truncated_or_removed_on_a_rerun_keeps_the_curated_answers(project_root, season_folder):
    assert run_here(project_root, season_folder) == 0
    before = rows(project_root)
    assert all(a is not None for a in answers(project_root, TEXT_SHEET).values())

    key = season_folder / TEXT_KEY
    original = key.read_bytes()
    key.write_bytes(original[: len(original) // 2])
    assert run_here(project_root, season_folder) == 0
    assert kept_rows(project_root) == before
    assert "kept the 10 records curated earlier" in " ".join(file_report(project_root, TEXT_SHEET)["errors"])
    bad = manifest(project_root)[TEXT_KEY]
    assert bad["status"] == "rejected" and "truncated" in bad["error"]  # the manifest never vouches for it

    key.unlink()
    result = run_process(project_root, season_folder, "--strict")
    assert result.returncode == 1
    assert f"problem {TEXT_SHEET}: answer key not usable in this run (no answer key paired" in result.stderr
    assert kept_rows(project_root) == before
    markdown = (project_root / "curated" / "reports" / "sample_pl.md").read_text(encoding="utf-8")
    assert "None questions" not in markdown and "left unchanged by --strict (10 questions)" in markdown

    assert run_here(project_root, season_folder) == 0  # without --strict: still kept, still said
    assert kept_rows(project_root) == before
    assert "no answer key paired" in " ".join(file_report(project_root, TEXT_SHEET)["errors"])


# ------------------------------------------------------------------------------------------ 3. the wrong key

def test_another_years_key_is_detected_reported_and_not_applied(project_root, season_folder, sample_site):
    """The text path: the 2023 ELE.02 booklet with the 2024 INF.02 key under its name."""
    shutil.copyfile(sample_site / SAMPLE_INF02_KEY, season_folder / TEXT_KEY)
    result = run_process(project_root, season_folder, "--strict")
    assert result.returncode == 1
    assert "does not belong to this sheet" in result.stderr and "INF.02-X-24.01" in result.stderr
    assert not (project_root / "curated" / "sample_pl.parquet").exists()

    assert run_here(project_root, season_folder) == 0
    assert set(answers(project_root, TEXT_SHEET).values()) == {None}
    errors = " ".join(file_report(project_root, TEXT_SHEET)["errors"])
    assert "prints sheet code INF.02-X-24.01, the sheet is ELE.02-X-23.06" in errors


def test_a_wrong_key_on_a_rerun_keeps_the_answers_curated_with_the_right_one(project_root, season_folder, sample_site):
    assert run_here(project_root, season_folder) == 0
    before = rows(project_root)
    shutil.copyfile(sample_site / SAMPLE_INF02_KEY, season_folder / TEXT_KEY)
    assert run_here(project_root, season_folder) == 0
    assert kept_rows(project_root) == before
    errors = " ".join(file_report(project_root, TEXT_SHEET)["errors"])
    assert "does not belong to this sheet" in errors and "kept the 10 records curated earlier" in errors


def test_the_2024_scanned_booklet_with_the_2023_key_is_detected_on_the_ocr_path(project_root, scan_folder, sample_site):
    shutil.copyfile(sample_site / SAMPLE_ELE02_KEY, scan_folder / SCAN_KEY)
    result = run_process(project_root, scan_folder, "--strict")
    assert result.returncode == 1
    assert "prints sheet code ELE.02-X-23.06, the sheet is INF.02-X-24.01" in result.stderr, result.stderr
    assert run_here(project_root, scan_folder) == 0
    assert set(answers(project_root, SCAN_SHEET).values()) == {None}


# ------------------------------------------------------------------------------------------ 8. a moved root

def test_a_copied_root_reuses_its_ocr_cache(project_root, scan_folder, tmp_path):
    assert run_here(project_root, scan_folder) == 0
    moved = tmp_path / "moved"
    shutil.copytree(project_root, moved)
    # No Tesseract at all in the copy: it succeeds only by reading the OCR it already holds.
    result = run_process(moved, scan_folder, "--strict", env=NO_TESSERACT_BINARY)
    assert result.returncode == 0, result.stderr
    assert rows(moved) == rows(project_root)
    assert sorted(p.name for p in (moved / "raw" / "cache" / "extract").rglob("*.json")) == \
        sorted(p.name for p in (project_root / "raw" / "cache" / "extract").rglob("*.json"))
    # The report says which pages were OCR'd, from the cache as on the run that read them.
    notes = file_report(project_root, SCAN_SHEET)["notes"]
    assert [n for n in notes if n.endswith("read by OCR")] == [n for n in notes if n.startswith("page 1: text layer not usable")]
    assert any(n.endswith("read by OCR") for n in notes)
    assert file_report(moved, SCAN_SHEET)["notes"] == notes
