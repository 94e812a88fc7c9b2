"""The real exam material in ../shared/corpus: every spec finds every sheet and key of its folder and
meets the extraction bar (recall ≥ 99 %, option text exact ≥ 98 %, answers 100 %, nothing from the
practical sheet). Skipped when the corpus is not there."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pipeline.devkit.fidelity import TruthSheet, read_truth, score_sheet
from pipeline.season import RunOptions, run_source
from pipeline.specs import load_spec
from tests.fixtures.corpus import CKE_TRUTH, CORPUS

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not CORPUS.is_dir(), reason=f"real exam corpus not found at {CORPUS}"),
]


def _run(spec_name: str, folder: Path, root: Path):
    options = RunOptions(root=root, from_dir=folder, executor="inline", show_progress=False)
    return run_source(load_spec(spec_name), options)


def _assert_bar(result, truths: list[TruthSheet]) -> None:
    for truth in truths:
        score = score_sheet(truth, result.questions)
        assert score.precision >= 0.99, f"{truth.name}: questions not in the truth: {score.extra}"
        assert score.passed, (
            f"{truth.name}: recall {score.recall:.1%}, option text {score.option_exact:.1%}, answers "
            f"{score.answer_accuracy:.1%}; missing {score.missing}, wrong {score.wrong_answers}, {score.option_mismatches}"
        )


def _roles(result) -> dict[str, str]:
    return {f.url: f.role for f in result.report.files}


def test_cke_matura_informatyka_folder(tmp_path):
    result = _run("pl_cke_matura_informatyka", CORPUS / "pl_cke_matura_informatyka", tmp_path)
    roles = _roles(result)
    assert sorted(roles.values()) == ["key"] * 4 + ["sheet"] * 4
    truth_file = tmp_path / "cke_truth.yaml"
    truth_file.write_text(CKE_TRUTH, encoding="utf-8")
    _assert_bar(result, read_truth(str(truth_file)))
    # Open and practical tasks stay open; the matching task 3.6 of 2017 is not made a choice question.
    by_sheet = {(Path(q.source_url).parent.name, q.number): q for q in result.questions}
    assert by_sheet[("2016-05_PP_F2007", "1.4")].type == "open"
    assert by_sheet[("2017-05_PP_F2007", "3.6")].type == "matching"
    assert all(q.choices == [] for q in result.questions if q.type == "open")


def test_sk_maturita_sjl_folder(tmp_path):
    result = _run("sk_maturita_sjl", CORPUS / "sk_nucem_maturita_sjl", tmp_path)
    assert sorted(_roles(result).values()) == ["key", "key", "sheet", "sheet"]
    truths = read_truth(str(CORPUS / "sk_nucem_maturita_sjl" / "processed_2023.json"))
    truths += read_truth(str(CORPUS / "sk_nucem_maturita_sjl" / "processed_2024.json"))
    _assert_bar(result, truths)
    contexts = {q.context.split("\n")[0] for q in result.questions if q.context}
    assert {f"Ukážka {n}" for n in range(1, 9)} <= contexts


def test_pe_conareme_folder(tmp_path):
    folder = CORPUS / "pe_conareme_residentado_medico"
    result = _run("pe_conareme", folder, tmp_path)
    assert list(_roles(result).values()) == ["sheet", "sheet"]  # the 2018 "PRUEBA A" and the 2022 "Especialidad Prueba A"
    _assert_bar(result, read_truth(str(folder / "Year2018" / "PRUEBA A.csv")) + read_truth(str(folder / "Year2022" / "truth.jsonl")))


def _truths(folder: Path) -> list[TruthSheet]:
    return [truth for path in sorted(folder.rglob("truth.jsonl")) for truth in read_truth(str(path))]


def _assert_clean(result) -> None:
    """Every loss shows as a problem line; these sheets have none left."""
    assert not result.report.problem_lines(), result.report.problem_lines()


# Families added by spec alone (pipeline/sources/*.yaml), each over every sheet of its folder.


def test_es_inap_parts_restart_their_numbering_with_reserve_questions_and_an_annulled_item(tmp_path):
    folder = CORPUS / "es_inap_auxiliar_administrativo"
    result = _run("es_inap", folder, tmp_path)
    _assert_bar(result, _truths(folder))
    _assert_clean(result)
    by_number = {q.number: q for q in result.questions}
    assert len(by_number) == len(result.questions) == 120  # 1.1–1.60, 1.R1–1.R5, 2.1–2.50, 2.R1–2.R5
    assert by_number["1.23"].voided and by_number["1.23"].answer is None and not by_number["1.23"].flags
    assert [n for n, q in by_number.items() if q.reserve] == [f"{p}.R{i}" for p in (1, 2) for i in range(1, 6)]


def test_cl_demre_paes_math_and_reading_with_pilot_items(tmp_path):
    folder = CORPUS / "cl_demre_paes"
    result = _run("cl_demre_paes", folder, tmp_path)
    _assert_bar(result, _truths(folder))
    _assert_clean(result)
    pilots = {(q.sheet_code, q.number) for q in result.questions if q.pilot}
    assert pilots == {("M1", n) for n in ("7", "9", "36", "47", "65")} | {("L", n) for n in ("1", "19", "26", "33", "37")}


def test_br_fgv_oab_grid_key_block_of_booklet_type_1(tmp_path):
    folder = CORPUS / "br_fgv_oab"
    result = _run("br_fgv_oab", folder, tmp_path)
    _assert_bar(result, _truths(folder))
    _assert_clean(result)


def test_br_inep_revalida_bare_labels_and_a_grid_key_with_annulled_items(tmp_path):
    folder = CORPUS / "br_inep_revalida"
    result = _run("br_inep_revalida", folder, tmp_path)
    _assert_bar(result, _truths(folder))
    _assert_clean(result)
    assert {q.number for q in result.questions if q.voided} == {"7", "13", "35", "38", "42", "48", "49"}


def test_practical_vocational_sheet_gives_zero_questions_and_a_report_line(tmp_path):
    result = _run("pl_cke_zawodowy", CORPUS / "pl_cke_zawodowy_ee09_praktyczny_2019_negative", tmp_path)
    assert sorted(_roles(result).values()) == ["key", "sheet"]
    assert result.questions == []
    sheet = next(f for f in result.report.files if f.role == "sheet")
    assert any("no questions found" in e for e in sheet.errors)


def test_cke_truth_text_is_valid_yaml():
    assert len(yaml.safe_load(CKE_TRUTH)["sheets"]) == 4
