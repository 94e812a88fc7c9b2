"""How close an answer is to the key's model answer, without a judge: lexical (token F1, chrF) and
embedding (BERTScore) similarity, reported beside the judge's grades to show how much less such a
score spreads between good and bad answers.

BERTScore follows Zhang et al. 2020 ("BERTScore: Evaluating Text Generation with BERT", ICLR):
each text becomes the contextual embeddings of its tokens (one hidden layer of a local Hugging Face
model, special tokens such as BOS/CLS/SEP left out), every token is matched greedily to its most
similar token of the other text by cosine, and

    recall    R = (1/|x|) * sum over reference tokens x_i of  max_j cos(x_i, x̂_j)
    precision P = (1/|x̂|) * sum over answer tokens x̂_j  of  max_i cos(x_i, x̂_j)
    F1        F = 2PR / (P + R)

with no idf weighting and no baseline rescaling, so the numbers are raw cosines (the Greek
open-answer study reported raw 64-71 % for every model). torch and transformers are the optional
`models` extra: they are imported only when a BERTScore model is loaded.

Public: `token_f1`, `chrf`, `BertScore`, `greedy_match`, `ContextualEmbedder`, `BertScorer`,
`SimilarityUnavailable`.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# --------------------------------------------------------------------------- lexical


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", unicodedata.normalize("NFC", text).casefold())


def token_f1(answer: str, reference: str) -> float:
    """SQuAD-style token F1 over casefolded words."""
    a, r = _words(answer), _words(reference)
    if not a or not r:
        return float(a == r)
    common = sum((Counter(a) & Counter(r)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(a), common / len(r)
    return 2 * precision * recall / (precision + recall)


def chrf(answer: str, reference: str, *, order: int = 6, beta: float = 2.0) -> float:
    """chrF (Popović 2015), 0..1: character n-gram precision and recall (n = 1..order, whitespace
    removed) each averaged over the orders both texts are long enough for, then F-beta."""
    a, r = re.sub(r"\s+", "", answer), re.sub(r"\s+", "", reference)
    precisions, recalls = [], []
    for n in range(1, order + 1):
        grams_a = Counter(a[i:i + n] for i in range(len(a) - n + 1))
        grams_r = Counter(r[i:i + n] for i in range(len(r) - n + 1))
        if not grams_a or not grams_r:
            continue
        common = sum((grams_a & grams_r).values())
        precisions.append(common / sum(grams_a.values()))
        recalls.append(common / sum(grams_r.values()))
    if not precisions:
        return 0.0
    p, rec = sum(precisions) / len(precisions), sum(recalls) / len(recalls)
    return 0.0 if p + rec == 0 else (1 + beta ** 2) * p * rec / (beta ** 2 * p + rec)


# --------------------------------------------------------------------------- BERTScore


class SimilarityUnavailable(ValueError):
    """BERTScore asked for, but it cannot be computed here (missing extra, unusable model)."""


@dataclass(frozen=True)
class BertScore:
    precision: float
    recall: float
    f1: float


def greedy_match(answer: np.ndarray, reference: np.ndarray) -> BertScore:
    """BERTScore of token embeddings `answer` (m, d) against `reference` (n, d), by greedy cosine
    matching. A text without tokens matches only another text without tokens."""
    answer, reference = np.asarray(answer, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    if answer.shape[0] == 0 or reference.shape[0] == 0:
        same = float(answer.shape[0] == reference.shape[0])
        return BertScore(same, same, same)

    def unit(rows: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return rows / np.where(norms == 0, 1.0, norms)  # a zero vector is similar to nothing

    cosines = unit(answer) @ unit(reference).T  # (answer tokens, reference tokens)
    precision = float(cosines.max(axis=1).mean())
    recall = float(cosines.max(axis=0).mean())
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return BertScore(precision, recall, f1)


def _load_transformers():
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise SimilarityUnavailable(f"BERTScore similarity needs torch and transformers ({exc}); install the models extra: "
                                    "pip install 'examcorpus[models]'") from None
    return torch, transformers


class ContextualEmbedder:
    """Token embeddings from one hidden layer of a local model (encoder or decoder), special tokens
    left out. `layer` counts from the input embeddings (0) to the last layer (the default)."""

    def __init__(self, model_path: str | Path, *, layer: int | None = None, device: str = "cpu", max_length: int = 512):
        torch, transformers = _load_transformers()
        from eval.models.hf import weights_fingerprint

        self.path = Path(model_path).expanduser()
        if not (self.path / "config.json").is_file():
            raise SimilarityUnavailable(f"{self.path}: no config.json, so not a Hugging Face model folder")
        self._torch = torch
        logs = transformers.utils.logging
        verbosity = logs.get_verbosity()
        # A causal checkpoint loaded without its head reports the head's weights as unused: expected here.
        logs.set_verbosity_error()
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(self.path, local_files_only=True)
            self.model = transformers.AutoModel.from_pretrained(self.path, local_files_only=True)
        except (OSError, ValueError, KeyError) as exc:
            raise SimilarityUnavailable(f"{self.path}: cannot load a model for BERTScore: {exc}") from None
        finally:
            logs.set_verbosity(verbosity)
        self.model.to(torch.device(device)).eval()
        self.device, self.max_length = device, max_length
        layers = int(self.model.config.num_hidden_layers)
        self.layer = layers if layer is None else layer
        if not 0 <= self.layer <= layers:
            raise SimilarityUnavailable(f"{self.path}: layer {self.layer} does not exist (0..{layers})")
        self.fingerprint = weights_fingerprint(self.path, None)["sha256"]

    def describe(self) -> dict:
        return {"method": "BERTScore (Zhang et al. 2020): greedy cosine matching, no idf, no baseline rescaling, "
                          "special tokens excluded",
                "model": str(self.path), "weights_sha256": self.fingerprint, "layer": self.layer}

    def embed(self, text: str) -> np.ndarray:
        """(tokens, hidden size) for the text, without the tokenizer's special tokens."""
        torch = self._torch
        encoded = self.tokenizer(text, return_tensors="pt", return_special_tokens_mask=True, truncation=True,
                                 max_length=self.max_length)
        special = encoded["special_tokens_mask"][0].bool()
        # Only the inputs every architecture takes: a decoder's forward has no token_type_ids.
        inputs = {k: encoded[k].to(self.device) for k in ("input_ids", "attention_mask") if k in encoded}
        with torch.no_grad():
            hidden = self.model(**inputs, output_hidden_states=True).hidden_states[self.layer][0]
        return hidden[~special.to(hidden.device)].float().cpu().numpy()


class BertScorer:
    """BERTScore of answers against references; each distinct text is embedded once."""

    def __init__(self, embedder: ContextualEmbedder):
        self.embedder = embedder
        self._cache: dict[str, np.ndarray] = {}

    def _embedding(self, text: str) -> np.ndarray:
        if text not in self._cache:
            self._cache[text] = self.embedder.embed(text)
        return self._cache[text]

    def score(self, answer: str, reference: str) -> BertScore:
        return greedy_match(self._embedding(answer), self._embedding(reference))


__all__ = ["BertScore", "BertScorer", "ContextualEmbedder", "SimilarityUnavailable", "chrf", "greedy_match", "token_f1"]
