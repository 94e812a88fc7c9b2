"""BERTScore (Zhang et al. 2020) over contextual token embeddings of a local model: the greedy
matching formula on embeddings worked by hand, and the embedder on the tiny offline Llama built in
tests/eval/backends/tiny_model.py (nothing downloaded)."""
from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from eval.scorers.similarity import BertScore, BertScorer, ContextualEmbedder, SimilarityUnavailable, greedy_match

pytest.importorskip("transformers")

TEXTS = ["TCP jest połączeniowy i gwarantuje kolejność i dostarczenie; UDP nie.",
         "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.",
         "Bratislava je hlavné mesto Slovenska.",
         "2 + 2 = 4"]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from tests.eval.backends.tiny_model import build_tiny_llama

    return build_tiny_llama(tmp_path_factory.mktemp("similarity-model"))


@pytest.fixture(scope="module")
def embedder(tiny_model):
    return ContextualEmbedder(tiny_model)


# --------------------------------------------------------------------------- the formula


def test_greedy_matching_follows_the_bertscore_formula_on_a_case_worked_by_hand():
    # answer tokens a1 = (1, 0), a2 = (0, 1); reference tokens r1 = (1, 0), r2 = (2, 2), r3 = (-3, 0).
    # Cosines (rows a, columns r): a1: 1, 1/√2, -1; a2: 0, 1/√2, 0.
    # P = mean over answer tokens of the row max = (1 + 1/√2) / 2
    # R = mean over reference tokens of the column max = (1 + 1/√2 + 0) / 3
    # F = 2PR / (P + R) = (1 + 1/√2) * 2/5
    s = 1 / math.sqrt(2)
    got = greedy_match(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0, 0.0], [2.0, 2.0], [-3.0, 0.0]]))
    assert got.precision == pytest.approx((1 + s) / 2, abs=1e-12)
    assert got.recall == pytest.approx((1 + s) / 3, abs=1e-12)
    assert got.f1 == pytest.approx((1 + s) * 2 / 5, abs=1e-12)


def test_greedy_matching_swaps_precision_and_recall_when_the_texts_swap():
    rng = np.random.default_rng(3)
    for _ in range(20):
        a, b = rng.normal(size=(rng.integers(1, 9), 5)), rng.normal(size=(rng.integers(1, 9), 5))
        forward, backward = greedy_match(a, b), greedy_match(b, a)
        assert (forward.precision, forward.recall) == pytest.approx((backward.recall, backward.precision), abs=1e-12)
        assert forward.f1 == pytest.approx(backward.f1, abs=1e-12)


def test_a_text_without_tokens_matches_only_another_one():
    empty, some = np.zeros((0, 3)), np.ones((2, 3))
    assert greedy_match(empty, empty) == BertScore(1.0, 1.0, 1.0)
    assert greedy_match(empty, some) == BertScore(0.0, 0.0, 0.0) == greedy_match(some, empty)
    assert greedy_match(np.zeros((1, 3)), some).f1 == 0.0  # a zero vector is similar to nothing


# --------------------------------------------------------------------------- on a real model


@pytest.mark.parametrize("text", TEXTS)
def test_identical_texts_score_one(embedder, text):
    got = BertScorer(embedder).score(text, text)
    assert got.precision == pytest.approx(1.0, abs=1e-6) and got.recall == pytest.approx(1.0, abs=1e-6)
    assert got.f1 == pytest.approx(1.0, abs=1e-6)


def test_different_texts_swap_precision_and_recall_and_score_below_one(embedder):
    scorer = BertScorer(embedder)
    for a, b in [(TEXTS[0], "TCP nie gwarantuje kolejności."), (TEXTS[1], TEXTS[2])]:
        forward, backward = scorer.score(a, b), scorer.score(b, a)
        assert forward.precision == pytest.approx(backward.recall, abs=1e-9)
        assert forward.recall == pytest.approx(backward.precision, abs=1e-9)
        assert forward.f1 < 1.0 - 1e-3


def test_the_embeddings_are_the_chosen_layers_hidden_states_without_special_tokens(tiny_model, embedder):
    import torch
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained(tiny_model)
    model = transformers.AutoModel.from_pretrained(tiny_model).eval()
    text = TEXTS[0]
    ids = tokenizer(text, return_tensors="pt")["input_ids"]
    assert ids[0, 0].item() == tokenizer.bos_token_id  # the tokenizer prepends BOS, which must not be scored
    with torch.no_grad():
        states = model(input_ids=ids, output_hidden_states=True).hidden_states
    for layer in (embedder.layer, 1):
        got = embedder.embed(text) if layer == embedder.layer else ContextualEmbedder(tiny_model, layer=layer).embed(text)
        assert got.shape == (len(tokenizer(text, add_special_tokens=False)["input_ids"]), model.config.hidden_size)
        np.testing.assert_allclose(got, states[layer][0, 1:].numpy(), atol=1e-5)
    assert embedder.layer == model.config.num_hidden_layers  # the last layer unless told
    scorer = BertScorer(embedder)
    other = "UDP jest bezpołączeniowy."
    assert scorer.score(other, text) == greedy_match(embedder.embed(other), embedder.embed(text))


def test_the_description_names_the_weights_and_the_layer(tiny_model, embedder):
    described = embedder.describe()
    assert described["model"] == str(tiny_model) and described["layer"] == 3 and len(described["weights_sha256"]) == 64
    assert "no idf" in described["method"] and "special tokens excluded" in described["method"]


def test_an_unusable_model_or_layer_is_a_clear_error(tmp_path, tiny_model):
    with pytest.raises(SimilarityUnavailable, match="no config.json"):
        ContextualEmbedder(tmp_path)
    with pytest.raises(SimilarityUnavailable, match=r"layer 9 does not exist \(0\.\.3\)"):
        ContextualEmbedder(tiny_model, layer=9)


def test_without_the_models_extra_the_error_says_what_to_install(monkeypatch, tiny_model):
    monkeypatch.setitem(sys.modules, "transformers", None)  # `import transformers` now raises ImportError
    with pytest.raises(SimilarityUnavailable, match=r"needs torch and transformers .*pip install 'examcorpus\[models\]'"):
        ContextualEmbedder(tiny_model)
