"""Spec errors in the parse sections say which field is wrong and how to fix it."""
from __future__ import annotations

import pytest

from pipeline.specs import SpecError, available_specs, load_spec, parse_spec

FAMILIES = ["pl_cke_matura_informatyka", "sk_maturita_sjl", "pe_conareme", "pl_cke_zawodowy", "gr_panellinies"]


@pytest.mark.parametrize("name", FAMILIES)
def test_family_specs_load(name):
    assert name in available_specs()
    assert load_spec(name).name == name


def _data(**changes) -> dict:
    spec = load_spec("pl_cke_matura_informatyka").model_dump(exclude={"path"})
    for dotted, value in changes.items():
        target = spec
        *parents, leaf = dotted.split("__")
        for part in parents:
            target = target[part]
        target[leaf] = value
    return spec


def test_question_start_without_number_group_is_explained():
    with pytest.raises(SpecError) as err:
        parse_spec(_data(layout__question_start=r"^Zadanie \d+"), "pl_cke_matura_informatyka.yaml")
    assert "layout.question_start" in str(err.value) and "(?P<number>" in str(err.value)


def test_marking_scheme_without_task_start_is_explained():
    with pytest.raises(SpecError) as err:
        parse_spec(_data(key__task_start=None), "pl_cke_matura_informatyka.yaml")
    assert "key kind 'marking_scheme' needs field(s) ['task_start']" in str(err.value)


def test_option_style_without_label_placeholder_is_explained():
    with pytest.raises(SpecError) as err:
        parse_spec(_data(layout__options__styles=["1."]), "pl_cke_matura_informatyka.yaml")
    assert "letter A exactly once" in str(err.value)


def test_unknown_type_and_bad_regex_are_named():
    with pytest.raises(SpecError) as err:
        parse_spec(_data(layout__skip_types=["essay"], layout__drop_lines=["(unclosed"]), "pl_cke_matura_informatyka.yaml")
    text = str(err.value)
    assert "unknown question type(s) ['essay']" in text
    assert "not a valid regular expression" in text


def test_misspelt_field_is_rejected():
    data = _data()
    data["layout"]["question_strat"] = data["layout"].pop("question_start")
    with pytest.raises(SpecError) as err:
        parse_spec(data, "pl_cke_matura_informatyka.yaml")
    assert "layout.question_strat" in str(err.value)
