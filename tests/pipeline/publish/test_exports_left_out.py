"""No export is smaller than its release unsaid: every question of the release is in the lm-eval and Inspect tasks
or named in `exports/left_out.jsonl` with why, and every Polish one in the LLMzSzŁ rows or named there too
(`exports.left_out_rows`). Real `publish_to_folder` over a split made by `run_split`."""
from __future__ import annotations

import json
from dataclasses import replace

from pipeline.publish import publish_to_folder
from pipeline.publish.release import read_release_questions
from tests.pipeline.publish.conftest import make_split
from tests.pipeline.split.conftest import make_record


def _jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_each_question_an_export_cannot_express_is_a_line_naming_it_and_the_exports_without_it(tmp_path):
    records = [make_record(i, source=s, year=y, language=lang) for s, lang in (("pl_test", "pl"), ("el_test", "el"))
               for y in (2021, 2022) for i in range(1, 7)]
    records += [make_record(7, source=s, year=y, language=lang, qtype="open", choices=[])
                for s, lang in (("pl_test", "pl"), ("el_test", "el")) for y in (2021, 2022)]
    records += [replace(make_record(8, source="pl_test", year=y), answer=None, answer_index=None) for y in (2021, 2022)]
    release = tmp_path / "v1"
    publish_to_folder(make_split(tmp_path, records), "public", release, release_id="v1", show_progress=False)
    _, questions = read_release_questions(release)
    left_out = {row["id"]: row for row in _jsonl(release / "exports" / "left_out.jsonl")}
    asked = {row["id"] for row in _jsonl(release / "exports" / "inspect" / "samples.jsonl")}
    polish = {row["question"] for path in (release / "exports" / "llmzszl").glob("*.jsonl") for row in _jsonl(path)}

    assert left_out and asked and polish
    for q in questions:
        in_llmzszl = q.question in polish
        if q.type == "open":
            assert left_out[q.id]["reason"] == "type open is not a closed question"
        elif q.answer_index is None:
            assert left_out[q.id]["reason"] == "no answer key"
        else:
            assert q.id not in left_out and q.id in asked and (in_llmzszl or q.language != "pl")
            continue
        expected = ["lm_eval", "inspect"] + (["llmzszl"] if q.language == "pl" else [])
        assert left_out[q.id]["left_out_of"] == expected and q.id not in asked and not in_llmzszl
    assert set(left_out) <= {q.id for q in questions}
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    assert "exports/left_out.jsonl" in {entry["path"] for entry in manifest["files"]}



def test_a_release_that_lists_what_its_exports_leave_out_verifies(tmp_path):
    """`exports/left_out.jsonl` is a file of the release layout: a release holding it verifies byte for byte."""
    from pipeline.publish.verify import verify_release

    records = [make_record(i, source="pl_test", year=y) for y in (2021, 2022) for i in range(1, 7)]
    records += [replace(make_record(8, source="pl_test", year=y), answer=None, answer_index=None) for y in (2021, 2022)]
    release = tmp_path / "v1"
    publish_to_folder(make_split(tmp_path, records), "public", release, release_id="v1", show_progress=False)
    assert (release / "exports" / "left_out.jsonl").is_file()
    assert verify_release(release) == []


def test_each_question_an_export_asks_without_its_figures_is_a_line_naming_them(project, tmp_path):
    """The exports are text: a figured question is asked in lm-eval, Inspect and LLMzSzŁ without its figure (the
    `mcq` prompt leaves figures out). Each such question is named, with its figures and the exports that ask it so."""
    from pipeline.publish.verify import verify_release
    from tests.pipeline.publish.conftest import make_figure

    records = [make_record(i, source=s, year=y, language=lang) for s, lang in (("pl_test", "pl"), ("el_test", "el"))
               for y in (2021, 2022) for i in range(1, 7)]
    figured = {lang: replace(make_record(9, source=s, year=2021, language=lang, images=(make_figure(project, seed),)))
               for seed, (s, lang) in enumerate((("pl_test", "pl"), ("el_test", "el")), start=1)}
    unkeyed = replace(make_record(10, source="pl_test", year=2021, images=(make_figure(project, 3),)), answer=None, answer_index=None)
    release = tmp_path / "v1"
    publish_to_folder(make_split(tmp_path, [*records, *figured.values(), unkeyed]), "public", release, release_id="v1",
                      show_progress=False)

    rows = {row["id"]: row for row in _jsonl(release / "exports" / "figures_left_out.jsonl")}
    assert set(rows) == {figured["pl"].id, figured["el"].id}  # the unkeyed one is asked nowhere: left_out.jsonl names it
    assert rows[figured["pl"].id]["figures"] == [figured["pl"].images[0].sha256]
    assert rows[figured["pl"].id]["asked_without_them_in"] == ["lm_eval", "inspect", "llmzszl"]
    assert rows[figured["el"].id]["asked_without_them_in"] == ["lm_eval", "inspect"]
    asked = {row["id"] for row in _jsonl(release / "exports" / "inspect" / "samples.jsonl")}
    assert {figured["pl"].id, figured["el"].id} <= asked
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    assert "exports/figures_left_out.jsonl" in {entry["path"] for entry in manifest["files"]}
    assert verify_release(release) == []
