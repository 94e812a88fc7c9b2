"""Record ids unique by construction where a sheet prints one number in several forms (issue 25, the width seam).

A damaged or hostile sheet numbers its questions `1`, `１` (full-width), `١` (Arabic-Indic), `¹` (superscript) and
`①` (circled). A record's id reads its number in compatibility form (NFKC), so all five are the id `…:1`: before,
parse reported the collision and curation kept one record of them, the others written over. Now each is kept
under an id of its own (`…:1`, `…:1~2`, …), flagged, with an `error:` line in the sheet's report; the split and
the publish stage refuse ids that differ only by such forms or by an invisible character (a curated file made by
hand or by an older version). Real generated PDFs, real `examcorpus extract`, `split` and `publish` runs.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import pipeline.split.assign as assign
from pipeline.cli import main as examcorpus
from pipeline.devkit.sample.pdfgen import CJK_FONT_JP, PageSpec, TextBox, build_pdf, cjk_font
from pipeline.diagnostics import Code
from pipeline.publish import PublishError, publish_to_folder
from pipeline.records import alike_ids
from pipeline.split import SplitInputError, load_split_config, split_records
from tests.pipeline.parse.conftest import run_family
from tests.pipeline.parse.test_silent_loss import _key, _spec
from tests.pipeline.publish.conftest import make_split
from tests.pipeline.season_sheets import KEY_NAME, SHEET_NAME, key_pdf, questions_about, sheet_pdf
from tests.pipeline.split.conftest import make_corpus, make_record

# (number as printed, the face that has its glyph): DejaVu Sans has no full-width digits.
FORMS_OF_ONE = [("1", "DejaVuSans"), ("１", CJK_FONT_JP), ("١", "DejaVuSans"), ("¹", "DejaVuSans"), ("①", "DejaVuSans")]


def _sheet_of_ones(path: Path) -> Path:
    items, y = [], 20.0
    for i, (number, face) in enumerate([*FORMS_OF_ONE, ("2", "DejaVuSans")]):
        items += [TextBox(f"{number}.", 20, y, 10, size=10, font=face),
                  TextBox(f"Pytanie {i} o sieci komputerowe?", 26, y, 160, size=10)]
        y += 7
        for label in "ABC":
            items.append(TextBox(f"{label}. odpowiedź {label.lower()}{i}", 25, y, 120, size=10))
            y += 6
        y += 6
    return build_pdf(path, [PageSpec(tuple(items))])


@pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")
def test_one_number_printed_in_five_forms_gives_five_records_five_ids_and_an_error(tmp_path):
    spec = _spec(question_start=r"^(?P<number>[\d¹²³①-⑳]{1,2})\.\s+")  # a spec that takes every form as a number
    result = run_family(spec, _sheet_of_ones(tmp_path / "s.pdf"), [_key(tmp_path / "k.pdf", ["1. A", "2. B"])], {"year": "2030"})

    ids = [q.id for q in result.questions]
    assert [q.question for q in result.questions] == [f"Pytanie {i} o sieci komputerowe?" for i in range(6)], "none lost"
    assert len(set(ids)) == 6
    base = "pl_cke_zawodowy:2030:-:-:1"
    assert ids == [base, f"{base}~2", f"{base}~3", f"{base}~4", f"{base}~5", "pl_cke_zawodowy:2030:-:-:2"]
    assert [q.number for q in result.questions] == ["1"] * 5 + ["2"], "the number as records and ids read it"
    for question in result.questions[:5]:
        [flag] = [f for f in question.flags if f.code is Code.ID_SHARED]
        assert f"record id {base} is also produced by question(s)" in flag and f"this one is {question.id}" in flag
    assert not result.questions[5].flags
    [error] = [p for p in result.problems if p.startswith("error: record id")]
    assert "produced by 5 questions" in error and f"{base}~5" in error


def test_a_curated_season_keeps_every_question_of_a_repeated_number(tmp_path, project_root):
    folder = tmp_path / "season"
    name = SHEET_NAME.format(q="kw01", year=2024, session="styczen")
    numbers = ["1", "2", "١", "3"]  # the Arabic-Indic one right after 2, at the headers' edge: a repeat of 1
    sheet_pdf(folder / name, "EGZAMIN ZAWODOWY · styczeń 2024", questions_about("kw01", numbers))
    key_pdf(folder / KEY_NAME.format(q="kw01", year=2024, session="styczen"), [("1", "A"), ("2", "B"), ("3", "C")])

    assert examcorpus(["extract", "--source", "sample_pl", "--from", str(folder), "--root", str(project_root),
                       "--no-progress", "--workers", "1"]) == 0

    rows = pq.read_table(project_root / "curated" / "sample_pl.parquet").to_pylist()
    assert len(rows) == 4, "no record written over another"
    ids = sorted(r["id"] for r in rows)
    assert ids == ["sample_pl:2024:styczen:kw01:1", "sample_pl:2024:styczen:kw01:1~2",
                   "sample_pl:2024:styczen:kw01:2", "sample_pl:2024:styczen:kw01:3"]
    repeated = next(r for r in rows if r["id"].endswith("~2"))
    assert "Pytanie ١ o temacie kw01" in repeated["question"], "the repeat's own text, as printed"
    assert any("parse.id_shared" == c for c in repeated["flag_codes"])
    report = (project_root / "curated" / "reports" / "sample_pl.md").read_text(encoding="utf-8")
    assert "each kept under an id of its own" in report


@pytest.mark.parametrize("twin", ["sample:2023:-:-:１", "sample:2023:-:-:¹", "sample:2023:-:-:①", "sample:2023:-:-:1\u200b"],
                         ids=["full-width", "superscript", "circled", "zero-width space"])
def test_the_split_refuses_ids_that_read_as_one(twin):
    corpus = make_corpus({"pl_test": ("pl", [2022, 2023])})
    one = dataclasses.replace(corpus[0], id="sample:2023:-:-:1")
    other = dataclasses.replace(corpus[1], id=twin)

    with pytest.raises(SplitInputError, match="occur more than once") as refused:
        split_records([*corpus[2:], one, other], load_split_config())

    assert ascii(twin) in str(refused.value) and "sample:2023:-:-:1" in str(refused.value)


def test_ids_made_by_question_id_are_never_refused_as_alike():
    corpus = make_corpus({"pl_test": ("pl", [2022, 2023]), "el_test": ("el", [2023])}, per_year=30)
    assert split_records(corpus, load_split_config()).public


def test_publish_refuses_a_split_folder_holding_ids_that_read_as_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # figure paths are relative to the project folder
    corpus = make_corpus({"pl_test": ("pl", [2021, 2022, 2023])})
    twin = dataclasses.replace(make_record(1, source="pl_test", year=2021), id=corpus[0].id.replace(":1", ":１"))
    twin = dataclasses.replace(twin, question="Inne pytanie o sieci?")
    monkeypatch.setattr(assign, "alike_ids", lambda ids: [])  # a split folder an older version wrote
    split = make_split(tmp_path, [*corpus, twin])
    monkeypatch.setattr(assign, "alike_ids", alike_ids)

    with pytest.raises(PublishError, match="occur more than once"):
        publish_to_folder(split, "public", tmp_path / "releases" / "v1", release_id="v1")
