"""Each shipped protocol version's full prompt text is frozen by its hash: a changed prompt needs a new version."""
from __future__ import annotations

import dataclasses
import json

import pytest

from eval.prompts import protocols
from eval.prompts.protocols import FROZEN_PROMPT_SHA256, PROTOCOLS, check_frozen, prompt_sha256
from tests.eval.conftest import run_standin

# Frozen here, apart from the code: editing a prompt and its hash in eval/prompts/protocols.py together
# still fails this test. Add a line for a new version; never edit one.
SHIPPED = {
    "mcq@1": "354220e15e7b0663ebc79802b46b93ad84a1572492809168a4b197e7697dddaf",
    "mcq-figure-text@1": "9e169cc5f0646f840f6210f212be3185c98f53162fcd33324a109a8e46852de9",
    "mcq-vision@1": "e63f9e78fe80b95908f811ed502ed362c7334c79ce9e66f1d4a25fb159d19340",
    "mcq-cloze@1": "39ad373927f683b8ba250d3658960e7cd48874eedead35bb8fd229bc274f5f92",
}


@pytest.mark.parametrize("key", sorted(SHIPPED))
def test_each_shipped_protocol_version_has_its_frozen_prompt_hash(key):
    protocol = PROTOCOLS[key.split("@")[0]]
    assert protocol.key == key
    assert prompt_sha256(protocol) == SHIPPED[key] == FROZEN_PROMPT_SHA256[key]


def test_every_protocol_is_frozen():
    assert {p.key for p in PROTOCOLS.values()} == set(SHIPPED)


def test_a_changed_word_in_any_language_changes_the_hash_and_is_refused(monkeypatch):
    mcq = PROTOCOLS["mcq"]
    before = prompt_sha256(mcq)
    monkeypatch.setitem(protocols.LANGUAGES, "sk", dataclasses.replace(protocols.LANGUAGES["sk"], answer="Odpoved"))
    assert prompt_sha256(mcq) != before
    with pytest.raises(ValueError, match="prompt text changed since it was frozen.*new version"):
        check_frozen(mcq)


def test_a_changed_layout_changes_the_hash(monkeypatch):
    mcq = PROTOCOLS["mcq"]
    before = prompt_sha256(mcq)
    monkeypatch.setattr(protocols, "_content", lambda parts: "\n".join(p for p in parts if isinstance(p, str)))
    assert prompt_sha256(mcq) != before


def test_a_run_records_the_prompt_hash_and_refuses_a_changed_prompt(tmp_path, curated, openai_server, standin_key, monkeypatch, capsys):
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out) == 0
    assert json.loads((out / "plan.json").read_text())["protocol"]["prompt_sha256"] == SHIPPED["mcq@1"]
    assert json.loads((out / "scores.json").read_text())["protocol"]["prompt_sha256"] == SHIPPED["mcq@1"]
    monkeypatch.setitem(protocols.LANGUAGES, "pl", dataclasses.replace(protocols.LANGUAGES["pl"], instruction="Odpowiedz."))
    assert run_standin(curated, openai_server, tmp_path / "changed") == 1
    assert "prompt text changed since it was frozen" in capsys.readouterr().err
    assert not (tmp_path / "changed").exists()
