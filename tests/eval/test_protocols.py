"""Prompt protocols: the question's language, fixed shots, figures as reviewed text or as images."""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import json

import pytest
from PIL import Image

from eval.prompts.protocols import LANGUAGES, PromptBuilder, get_protocol, is_scorable
from pipeline.records import ImageRef
from tests.eval.conftest import SECRET, make_question, run_cli, write_parquet


@pytest.mark.parametrize("language, word", [("pl", "Odpowiedź"), ("el", "Απάντηση"), ("sk", "Odpoveď"), ("es", "Respuesta"), ("en", "Answer")])
def test_instructions_are_in_the_questions_language_and_end_at_its_answer_word(language, word):
    q = make_question(1, language=language)
    prompt = PromptBuilder(get_protocol("mcq")).build(q, "cfg", [])
    assert prompt.context.startswith(LANGUAGES[language].instruction)
    assert prompt.context.endswith(f"\n\n{word}:")
    assert prompt.continuations == (" A", " B", " C", " D")
    assert f"{word}: X" in prompt.messages[0]["content"]


def test_shots_are_fixed_by_id_hash_and_never_the_question_itself():
    qs = [make_question(i) for i in range(1, 7)]
    builder = PromptBuilder(get_protocol("mcq"), shots=2)
    first = {p.qid: p.shot_ids for p in builder.build_all(qs, lambda q: q.source)}
    again = {p.qid: p.shot_ids for p in builder.build_all(list(reversed(qs)), lambda q: q.source)}
    assert first == again
    assert all(qid not in shots and len(shots) == 2 for qid, shots in first.items())
    # the three lowest hashes serve everyone: the first two, or for those two the other two of the three
    assert len({shots for shots in first.values()}) == 3
    with pytest.raises(ValueError, match="2-shot needs 3 questions, found 2"):
        builder.build_all(qs[:2], lambda q: q.source)


def test_protocol_versions_are_checked():
    assert get_protocol("mcq@1").key == "mcq@1"
    with pytest.raises(ValueError, match="has version 1, the plan asks for 2"):
        get_protocol("mcq", "2")


def _with_figure(tmp_path, i: int):
    image = Image.new("RGB", (8, 6), (200, 10, 10))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    data = buf.getvalue()
    rel = f"raw/figures/q{i}.png"
    (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / rel).write_bytes(data)
    ref = ImageRef(path=rel, page=1, bbox=(0.0, 0.0, 10.0, 10.0), sha256=hashlib.sha256(data).hexdigest())
    q = make_question(i)
    return q.__class__(**{**q.__dict__, "images": [ref]}), data


def test_reviewed_figure_descriptions_go_into_the_text_and_unreviewed_ones_do_not(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    q1, _ = _with_figure(tmp_path, 1)
    q2, _ = _with_figure(tmp_path, 2)
    q2 = q2.__class__(**{**q2.__dict__, "images": [ImageRef("raw/figures/other.png", 1, (0, 0, 1, 1), "f" * 64)]})
    data = write_parquet(tmp_path / "d.parquet", [q1, q2])
    descriptions = tmp_path / "descriptions.jsonl"
    descriptions.write_text("\n".join(json.dumps(d) for d in [
        {"image_sha256": q1.images[0].sha256, "text": "Schemat sieci z trzema routerami", "status": "accepted"},
        {"image_sha256": "f" * 64, "text": "NIEPRZEJRZANY OPIS", "status": "pending"},
    ]))
    out = tmp_path / "run"
    assert run_cli("eval", "run", "--data", data, "--model", "openai:m", "--base-url", openai_server.base_url, "--api-key-env",
                   "STANDIN_KEY", "--protocol", "mcq-figure-text", "--figure-descriptions", descriptions, "--out", out,
                   "--no-progress") == 0
    sent = {r["token"]: r["body"]["messages"][0]["content"] for r in openai_server.requests}
    assert "[Rysunek 1: Schemat sieci z trzema routerami]" in sent["Q01"]
    assert "[Rysunek 1: brak opisu]" in sent["Q02"] and "NIEPRZEJRZANY" not in sent["Q02"]
    prompts = [json.loads(line) for line in (out / "prompts.jsonl").read_text().splitlines()]
    assert sorted(p["figures_without_description"] for p in prompts) == [0, 1]
    plan = json.loads((out / "plan.json").read_text())
    assert plan["figure_descriptions_sha256"] == hashlib.sha256(descriptions.read_bytes()).hexdigest()


def test_a_vision_protocol_sends_the_figure_itself(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    q1, png = _with_figure(tmp_path, 1)
    data = write_parquet(tmp_path / "d.parquet", [q1])
    out = tmp_path / "run"
    assert run_cli("eval", "run", "--data", data, "--model", "openai:m", "--base-url", openai_server.base_url, "--api-key-env",
                   "STANDIN_KEY", "--protocol", "mcq-vision", "--images-root", tmp_path, "--out", out, "--no-progress") == 0
    content = openai_server.requests[0]["body"]["messages"][0]["content"]
    assert [part["type"] for part in content] == ["text", "image_url", "text"]
    assert content[1]["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(png).decode()
    stored = (out / "prompts.jsonl").read_text()
    assert "base64" not in stored and '"image_ref"' in stored  # the record names the figure by path and hash


def test_a_figure_that_changed_on_disk_is_refused_before_anything_is_sent(tmp_path, openai_server, monkeypatch, capsys):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    q1, _ = _with_figure(tmp_path, 1)
    (tmp_path / q1.images[0].path).write_bytes(b"not the same figure")
    data = write_parquet(tmp_path / "d.parquet", [q1])
    assert run_cli("eval", "run", "--data", data, "--model", "openai:m", "--base-url", openai_server.base_url,
                   "--protocol", "mcq-vision", "--images-root", tmp_path, "--out", tmp_path / "run", "--no-progress") == 1
    assert "raw/figures/q1.png: SHA-256 differs from the one recorded in the data" in capsys.readouterr().err
    assert openai_server.requests == [] and not (tmp_path / "run").exists()


def test_descriptions_merged_into_the_records_by_the_review_reach_the_prompt():
    base = make_question(1)
    figures = [ImageRef("raw/figures/a.png", 1, (0, 0, 1, 1), "a" * 64), ImageRef("raw/figures/b.png", 1, (0, 0, 1, 1), "b" * 64)]
    q = base.__class__(**{**base.__dict__, "images": figures, "image_description": "[1] Obwód z R1 i R2.\n\n[2] Wykres słupkowy.",
                          "image_transcription": "[1] R1 R2 U\n\n[2] 2019 2020"})
    prompt = PromptBuilder(get_protocol("mcq-figure-text"), shots=0).build(q, "pl_test", [])
    text = json.dumps(prompt.to_dict(), ensure_ascii=False)
    assert "Obwód z R1 i R2. R1 R2 U" in text and "Wykres słupkowy. 2019 2020" in text
    assert prompt.figures_without_description == 0
    from_file = PromptBuilder(get_protocol("mcq-figure-text"), shots=0, descriptions={"b" * 64: "Opis z pliku."}).build(q, "pl_test", [])
    text = json.dumps(from_file.to_dict(), ensure_ascii=False)
    assert "Opis z pliku." in text and "Wykres słupkowy" not in text and "Obwód z R1 i R2." in text


def test_a_question_the_key_annulled_is_not_scored_and_says_why():
    keyed = make_question(1)
    assert is_scorable(keyed) is None
    annulled = dataclasses.replace(keyed, voided=True, answer=None, answer_index=None)
    assert is_scorable(annulled) == "annulled by the official key"
