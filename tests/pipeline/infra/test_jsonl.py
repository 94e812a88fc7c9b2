"""JSON Lines, one implementation (pipeline.infra.jsonl) for every stage: what a torn last line means
is declared by the reader, appends survive kill -9 whole, rewrites are atomic, and a bad line is
named by file and line. Also the readers built on it: the run folder, figure descriptions of a run."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pipeline.infra import AppendLog, JsonlError, cut_torn_tail, iter_jsonl, read_jsonl, rewrite_jsonl

ROOT = Path(__file__).resolve().parents[3]


def test_what_an_unterminated_last_line_means_is_the_readers_declared_choice(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"n": 1}\n{"n": 2}\n{"n": 3', encoding="utf-8")
    assert read_jsonl(log, tail="skip") == [{"n": 1}, {"n": 2}]
    with pytest.raises(JsonlError, match=r"log\.jsonl:3: last line is incomplete") as caught:
        read_jsonl(log, tail="error")
    assert caught.value.fault == "incomplete_last_line"
    written_whole = tmp_path / "by-hand.jsonl"
    written_whole.write_text('{"n": 1}\n\n{"n": 2}', encoding="utf-8")  # no final newline: still a record
    assert list(iter_jsonl(written_whole, tail="parse")) == [(1, {"n": 1}), (3, {"n": 2})]
    assert read_jsonl(tmp_path / "absent.jsonl") == []


@pytest.mark.parametrize("line, fault, words", [
    ("{not json", "invalid_json", "not valid JSON"),
    ("[1, 2]", "not_an_object", "expected a JSON object, found list"),
    ('"text"', "not_an_object", "expected a JSON object, found str"),
])
def test_a_line_that_is_not_an_object_is_named_by_file_and_line(tmp_path, line, fault, words):
    path = tmp_path / "f.jsonl"
    path.write_text('{"ok": true}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(JsonlError) as caught:
        read_jsonl(path, tail="parse")
    assert caught.value.where == f"{path}:2" and caught.value.fault == fault and words in str(caught.value)


def test_appends_cut_a_torn_tail_first_so_records_never_glue_together(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text('{"n":1}\n{"n":', encoding="utf-8")
    AppendLog(path).append([{"n": 2}, {"n": 3}])
    assert path.read_text(encoding="utf-8") == '{"n":1}\n{"n":2}\n{"n":3}\n'
    assert cut_torn_tail(path) == 0


def test_records_appended_by_a_process_killed_mid_stream_are_each_whole(tmp_path):
    path = tmp_path / "log.jsonl"
    writer = textwrap.dedent(f"""
        import sys
        from pipeline.infra import AppendLog
        log = AppendLog({str(path)!r})
        n = 0
        while True:
            log.append([{{"n": n + i, "pad": "x" * 4000}} for i in range(50)])
            n += 50
            if n == 500:
                print("ready", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", writer], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.05)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    records = read_jsonl(path, tail="skip")
    assert len(records) >= 500 and [r["n"] for r in records] == list(range(len(records)))
    AppendLog(path).append({"n": "after"})
    assert read_jsonl(path, tail="error")[-1] == {"n": "after"}


def test_a_rewrite_replaces_the_whole_file_atomically(tmp_path):
    path = tmp_path / "manifest.jsonl"
    rewrite_jsonl(path, [{"b": 1, "a": "ą"}])
    assert path.read_text(encoding="utf-8") == '{"a":"ą","b":1}\n'
    rewrite_jsonl(path, [{"c": 3}], dumps=lambda r: json.dumps(r) + "\n")
    assert path.read_text(encoding="utf-8") == '{"c": 3}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["manifest.jsonl"]  # no temp file left behind


def test_a_run_folder_log_with_a_torn_tail_is_refused_until_resumed(tmp_path):
    from eval.log.runfolder import RunFolder, RunFolderError
    from eval.log.runfolder import read_jsonl as read_run_log

    folder = RunFolder(tmp_path)
    folder.append("attempts.jsonl", [{"qid": "a"}])
    with open(folder.file("attempts.jsonl"), "a", encoding="utf-8") as handle:
        handle.write('{"qid": "b"')
    with pytest.raises(RunFolderError, match=r"attempts\.jsonl:2: last line is incomplete .*resume the run to repair it"):
        read_run_log(folder.file("attempts.jsonl"))
    assert read_run_log(folder.file("attempts.jsonl"), allow_partial_tail=True) == [{"qid": "a"}]
    assert folder.repair_partial_tail() == len('{"qid": "b"')
    folder.append("attempts.jsonl", [{"qid": "c"}])
    assert folder.file("attempts.jsonl").read_text() == '{"qid": "a"}\n{"qid": "c"}\n'


def test_a_figure_descriptions_line_that_is_not_an_object_is_an_error_naming_the_line(tmp_path):
    from eval.run.runner import RunError, load_descriptions

    path = tmp_path / "descriptions.jsonl"
    path.write_text(json.dumps({"image_sha256": "a" * 64, "text": "Wykres", "status": "accepted"}) + "\n[1, 2]\n")
    with pytest.raises(RunError, match=r"descriptions\.jsonl:2: expected a JSON object, found list"):
        load_descriptions(str(path))
