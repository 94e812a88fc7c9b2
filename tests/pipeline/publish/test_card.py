"""The dataset card meets the Hub's conventions: metadata huggingface_hub's DatasetCard reads back
(license name and link for `other`, tags, multilinguality, source datasets, creators, languages, task
and size categories, configs with a `test` split), a Data Fields section made from the release's own
schema, an example record, uses, limitations, personal information, errata and a citation with
authors, year and URL."""
from __future__ import annotations

import json
import re
import time
from dataclasses import replace

import datasets
import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard, DatasetCardData

from pipeline.cli import main
from pipeline.publish import CardInfo, publish_to_folder
from pipeline.publish.fields import MEANINGS, release_fields
from pipeline.split import read_split
from tests.pipeline.publish.conftest import make_split
from pipeline.devkit.hub_standin import validate_card
from tests.pipeline.split.conftest import make_record


@pytest.fixture
def release(tmp_path, split_dir):
    target = tmp_path / "releases" / "v1"
    argv = ["publish", "--split-dir", str(split_dir), "--to", str(target), "--release", "v1", "--no-progress",
            "--author", "Anna Nowak", "--author", "Nikos Papadopoulos", "--url", "https://example.org/examcorpus"]
    assert main(argv) == 0
    return target


def section(card_text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", card_text, re.S | re.M)
    assert match, f"no section {title!r}"
    return match.group(1).strip()


def test_the_card_metadata_follows_hub_conventions_and_round_trips_through_huggingface_hub(release):
    card = DatasetCard.load(release / "README.md")
    data = card.data
    assert data.license == "other" and data.license_name == "exam-publishers-terms" and data.license_link == "LICENSE.md"
    assert (release / data.license_link).is_file() and "exams.example.org" in (release / "LICENSE.md").read_text()
    assert data.language == ["el", "pl"] and data.multilinguality == "multilingual"
    assert data.tags and "benchmark" in data.tags
    assert data.source_datasets == ["original"] and data.annotations_creators == ["expert-generated"]
    assert data.task_categories == ["multiple-choice", "question-answering"] and data.size_categories == ["n<1K"]
    assert [(c["config_name"], [f["split"] for f in c["data_files"]]) for c in data.configs] == [
        ("el_test", ["test"]), ("pl_test", ["test"])]
    assert all([s["name"] for s in info["splits"]] == ["test"] for info in data.dataset_info)
    # the Hub's own card model takes the metadata back unchanged, and the Hub stand-in's rules accept it
    assert DatasetCardData(**data.to_dict()).to_dict() == data.to_dict()
    assert validate_card((release / "README.md").read_text(encoding="utf-8")) == []


def test_the_hub_stand_in_rejects_license_other_without_name_and_link(release):
    text = (release / "README.md").read_text(encoding="utf-8")
    assert validate_card(re.sub(r"^license_(name|link):.*\n", "", text, flags=re.M)) == [
        '"license: other" needs "license_name" and "license_link"']


def test_the_data_fields_section_documents_every_column_of_the_parquet(release):
    text = (release / "README.md").read_text(encoding="utf-8")
    fields = section(text, "Data Fields")
    columns = pq.read_schema(release / "data" / "pl_test" / "public.parquet").names
    assert [name for name, _ in release_fields()] == columns
    documented = re.findall(r"^\| `([a-z0-9_]+)` \|", fields, re.M)
    assert documented == columns and set(MEANINGS) == set(columns)
    assert "as printed on the sheet" in next(line for line in fields.splitlines() if "`choice_labels`" in line)


def test_the_example_record_is_the_first_question_of_the_first_config(release, split_dir):
    text = (release / "README.md").read_text(encoding="utf-8")
    example = json.loads(re.search(r"```json\n(.*?)\n```", section(text, "Example record"), re.S).group(1))
    first = min((q for q in read_split(split_dir).questions("public") if q.source == "el_test"), key=lambda q: q.id)
    assert example["id"] == first.id and example["answer"] == first.answer and example["choices"] == first.choices
    assert set(example) == {name for name, _ in release_fields()}


def test_uses_limitations_personal_information_and_a_citation_with_authors_year_and_url(release):
    text = (release / "README.md").read_text(encoding="utf-8")
    assert "Out of scope" in section(text, "Uses") and "training" in section(text, "Uses")
    assert "OCR" in section(text, "Limitations")
    assert "no candidate data" in " ".join(section(text, "Personal information").split())
    assert section(text, "Errata") == "This is the first release of this split: no errata."
    citation = section(text, "Citation")
    assert "author = {Anna Nowak and Nikos Papadopoulos}" in citation
    assert f"year = {{{time.gmtime().tm_year}}}" in citation and "url = {https://example.org/examcorpus}" in citation
    assert 'split="test"' in section(text, "Loading") and "`test`" in section(text, "Splits")


def test_errata_since_the_previous_release_are_in_the_card(tmp_path, corpus):
    publish_to_folder(make_split(tmp_path / "a", corpus), "public", tmp_path / "rel" / "v1", release_id="v1",
                      show_progress=False)
    target = next(q for q in corpus if q.source == "pl_test" and q.year == 2021)
    new = "D" if target.answer != "D" else "C"
    fixed = [replace(q, answer=new, answer_index="ABCD".index(new)) if q.id == target.id else q for q in corpus]
    publish_to_folder(make_split(tmp_path / "b", fixed), "public", tmp_path / "rel" / "v2", release_id="v2",
                      show_progress=False)
    errata = section((tmp_path / "rel" / "v2" / "README.md").read_text(encoding="utf-8"), "Errata")
    assert "1 question(s) changed or removed since release v1" in errata
    assert f"| `{target.id}` | changed | answer {target.answer} → {new}; answer_index changed |" in errata


def test_a_private_card_shows_the_shape_of_a_record_but_none_of_its_text(tmp_path, split_dir):
    publish_to_folder(split_dir, "private", tmp_path / "held", release_id="p1", private_target=True, show_progress=False)
    text = (tmp_path / "held" / "README.md").read_text(encoding="utf-8")
    for q in read_split(split_dir).questions("private"):
        assert q.question not in text and not any(c in text for c in q.choices)
    assert "(withheld: private split)" in section(text, "Example record")
    assert DatasetCard.load(tmp_path / "held" / "README.md").data.configs[0]["data_files"][0]["split"] == "test"


def test_labels_reach_the_release_as_printed_and_a_single_language_is_monolingual(tmp_path, project):
    greek = [replace(make_record(i, source="gr", year=y, language="el"), choice_labels=["α", "β", "γ", "δ"],
                     answer="αβγδ"[i % 4]) for y in (2021, 2022, 2023) for i in (1, 2, 3)]
    publish_to_folder(make_split(tmp_path / "w", greek), "public", tmp_path / "rel", release_id="v1",
                      info=CardInfo(license_id="cc-by-4.0"), show_progress=False)
    ds = datasets.load_dataset(str(tmp_path / "rel"), "gr", split="test")
    assert set(tuple(labels) for labels in ds["choice_labels"]) == {("α", "β", "γ", "δ")}
    assert set(ds["answer"]) <= {"α", "β", "γ", "δ"}
    data = DatasetCard.load(tmp_path / "rel" / "README.md").data
    assert data.multilinguality == "monolingual" and data.license == "cc-by-4.0"
    assert "license_name" not in data.to_dict() and not (tmp_path / "rel" / "LICENSE.md").exists()


def test_an_erratum_quoting_markup_and_line_breaks_stays_one_row_of_text():
    """An open question's answer is the sheet's own text, and an erratum quotes it: a line break would end the errata
    table (what follows rendered as Markdown), `|` would open a cell, `<img onerror>` would be HTML on any renderer."""
    from pipeline.publish.card import _errata_text
    from pipeline.publish.manifest import Erratum

    hostile = 'answer 12 → 12\n\n<img src=x onerror="alert(1)"> | <script>x()</script> & more'
    text = _errata_text([Erratum("pl_test-2021-001", "changed", hostile)], "v1")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert rows == ['| `pl_test-2021-001` | changed | answer 12 → 12 &lt;img src=x onerror="alert(1)"&gt; / '
                    '&lt;script&gt;x()&lt;/script&gt; &amp; more |']
    assert "<img" not in text and "<script" not in text
