"""A key given twice in one mapping of a file a user gives: YAML and JSON loaders keep the last value
without a word, so a reviewer reading the file from the top may take the first for what applies. Each
file here is read by the real library call that reads it, and refused naming the field (the split
config: tests/pipeline/split/test_cli.py)."""
from __future__ import annotations

import pytest

from eval.run.plan import load_plan
from pipeline.devkit.fidelity import FidelityError, read_truth
from pipeline.specs import SpecError, load_spec_file

@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_a_run_plan_giving_a_field_twice_is_refused(tmp_path, suffix):
    plan = tmp_path / f"plan{suffix}"
    if suffix == ".yaml":
        plan.write_text("data: curated\nprotocol: mcq\nshots: 0\nmodel: {backend: openai, name: m}\nshots: 5\n")
    else:
        plan.write_text('{"data": "curated", "protocol": "mcq", "shots": 0, "model": {"backend": "openai", "name": "m"}, "shots": 5}')
    with pytest.raises(ValueError, match="shots.*given twice"):
        load_plan(plan)


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_a_truth_file_keying_an_answer_twice_is_refused(tmp_path, suffix):
    truth = tmp_path / f"truth{suffix}"
    # JSON is YAML too: the same text read by either loader; a reviewer sees A, the score would use C
    truth.write_text('{"sheets": [{"sheet": "MAT-2023", "questions": [{"number": 1, "answer": "A", "answer": "C"}]}]}')
    with pytest.raises(FidelityError, match="answer'?:? given twice"):
        read_truth(str(truth))


def test_a_spec_giving_a_field_twice_still_names_each(tmp_path):
    spec = tmp_path / "dup_spec.yaml"
    spec.write_text("name: dup_spec\nlanguage: pl\nname: other\n")
    with pytest.raises(SpecError, match=r"field 'name': given twice \(lines 1 and 3\); keep one"):
        load_spec_file(spec)
