"""The run folder's records are typed (eval.log.records), and folders written before they were still
read and rescore the same. tests/fixtures/run_folder_v1 is a real run folder written by the code of
commit e8fa889 (before the records were typed): `eval run` against the OpenAI-compatible stand-in,
eight questions, one wrong answer, one refusal, one reply without a letter, one HTTP 500 retried."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from eval.log.records import (
    RECORDS,
    SCHEMA_FILE,
    AttemptRecord,
    RecordError,
    RunState,
    Scores,
    parse_record,
    run_folder_schema,
    schema_text,
)
from eval.log.rescore import audit
from eval.log.runfolder import RunFolder, RunFolderError, dumps, read_record, read_records
from eval.log.scoring import score_folder
from tests.eval.conftest import run_cli

OLD_RUN = Path(__file__).resolve().parents[1] / "fixtures" / "run_folder_v1"


@pytest.fixture
def old_run(tmp_path) -> Path:
    return Path(shutil.copytree(OLD_RUN, tmp_path / "old-run"))


def test_every_file_of_an_old_run_folder_reads_as_its_record_and_writes_back_the_same_bytes():
    for name, model in RECORDS.items():
        path = OLD_RUN / name
        if name.endswith(".jsonl"):
            lines = path.read_text(encoding="utf-8").splitlines()
            records = read_records(path, model)
            assert len(records) == len(lines) > 0
            for line, record in zip(lines, records):
                assert json.dumps(record.to_json(), ensure_ascii=False, sort_keys=True) == line
        else:
            assert dumps(read_record(path, model)) == path.read_text(encoding="utf-8")


def test_an_old_run_folder_rescores_to_the_scores_it_stored(old_run, capsys):
    result = audit(old_run)
    assert result.problems == [] and result.finished
    assert result.scores_text == (old_run / "scores.json").read_text(encoding="utf-8")
    assert isinstance(result.scores, Scores)
    assert (result.scores.totals.correct, result.scores.totals.wrong, result.scores.totals.refusal) == (5, 1, 1)
    assert result.scores.totals.extraction_failure == 1 and result.scores.totals.missing == 0
    assert run_cli("eval", "rescore", old_run) == 0
    assert "62.50" in capsys.readouterr().out


def test_the_old_run_folders_records_are_typed():
    attempts = read_records(OLD_RUN / "attempts.jsonl", AttemptRecord)
    failure = next(a for a in attempts if a.status == "technical_failure")
    assert failure.http_status == 500 and failure.retryable is True and "500" in failure.error
    retried = [a for a in attempts if a.qid == failure.qid]
    assert [a.attempt for a in retried] == [1, 2] and retried[1].status == "correct"
    assert RunFolder(OLD_RUN).state() == RunState(state="complete", publishable=True, reasons=[])
    assert RunFolder(OLD_RUN).sealed
    scores = score_folder(OLD_RUN)
    assert scores.groups[0].language == "pl" and scores.groups[0].accuracy_pct == 62.5
    assert scores.model.backend == "openai" and scores.protocol.name == "mcq"


def test_fields_a_record_does_not_name_are_kept_through_a_round_trip():
    line = {"qid": "q", "repeat": 0, "attempt": 1, "time": "t", "status": "correct", "from_a_later_version": [1, 2]}
    assert AttemptRecord.model_validate(line).to_json() == line


def test_a_record_of_the_wrong_shape_names_its_file_and_field(old_run):
    state = old_run / "run.json"
    state.chmod(0o644)
    state.write_text('{"state": "complete", "publishable": "perhaps", "reasons": []}')
    with pytest.raises(RunFolderError, match=r"run\.json: not a RunState: publishable: "):
        RunFolder(old_run).state()
    with pytest.raises(RecordError, match=r"here: not a AttemptRecord: repeat: "):
        parse_record(AttemptRecord, {"qid": "q", "repeat": "first", "attempt": 1, "time": "t", "status": "wrong"}, "here")


def test_the_committed_schema_is_the_records_schema_and_accepts_an_old_run_folder():
    jsonschema = pytest.importorskip("jsonschema")
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), "regenerate eval/log/run_folder.schema.json"
    schema = run_folder_schema()
    for name in RECORDS:
        file_schema = {"$defs": schema["$defs"], **schema["files"][name]}
        text = (OLD_RUN / name).read_text(encoding="utf-8")
        for document in ([json.loads(line) for line in text.splitlines()] if name.endswith(".jsonl") else [json.loads(text)]):
            jsonschema.validate(document, file_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"state": "half", "publishable": True}, {"$defs": schema["$defs"], **schema["files"]["run.json"]})
