"""Attempt statuses and the answer-extraction rules that turn a model's text into an option label.

A rule is versioned with the protocol that names it: changing what it accepts changes scores, so a
change means a new rule name, never an edit in place. Each language's answer words come from its
language file (pipeline/languages/data/<code>.yaml), and Greek option letters (α β γ δ ε)
are accepted for Latin labels in the same position and the other way round, since models mix them.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum

from pipeline.languages import all_languages


class Status(str, Enum):
    CORRECT = "correct"
    WRONG = "wrong"
    REFUSAL = "refusal"
    EXTRACTION_FAILURE = "extraction_failure"
    TRUNCATED = "truncated"  # stopped by the token limit
    TECHNICAL_FAILURE = "technical_failure"  # transport or service failure: the only kind retried


FINAL_STATUSES = frozenset(s for s in Status if s is not Status.TECHNICAL_FAILURE)

# Answer words per language (pipeline/languages data); every language also accepts the English word,
# which models often use.
ANSWER_WORDS: dict[str, tuple[str, ...]] = {code: tuple(lang.answer_words) for code, lang in all_languages().items()}

# Phrases that mark a refusal when no answer could be extracted. Short and conservative on purpose:
# an unmatched refusal is still counted apart from wrong answers, as an extraction failure.
REFUSAL_PHRASES: dict[str, tuple[str, ...]] = {code: tuple(lang.refusal_phrases) for code, lang in all_languages().items()}

_GREEK_LATIN = dict(zip("αβγδεζηθ", "abcdefgh"))


def _fold(label: str) -> str:
    """Case-, accent- and script-insensitive form of an option label (Greek α.. -> a..)."""
    text = unicodedata.normalize("NFKD", label.strip()).casefold()
    text = "".join(c for c in text if not unicodedata.combining(c))
    return "".join(_GREEK_LATIN.get(c, c) for c in text)


@dataclass(frozen=True)
class Extraction:
    label: str | None  # one of the question's labels, as the question spells it
    method: str  # which clause of the rule matched, for audit; "none" when nothing did


class ExtractionRule:
    name = "abstract"

    def extract(self, text: str, labels: list[str], language: str) -> Extraction:
        raise NotImplementedError


class LetterRuleV1(ExtractionRule):
    """letter-v1, in order:
    1. the last "<answer word>: X" (any of the language's words or English; bold and brackets allowed);
    2. \\boxed{X};
    3. a reply that is only a label: "B", "B.", "(B)", "**B**", "B) text of the option";
    4. a last line that is only a label (reasoning first, then the letter).
    Anything else is an extraction failure.
    """

    name = "letter-v1"

    def extract(self, text: str, labels: list[str], language: str) -> Extraction:
        by_fold = {_fold(l): l for l in labels}
        alternatives = "|".join(sorted((re.escape(l) for l in _label_spellings(labels)), key=len, reverse=True))
        if not alternatives or not text:
            return Extraction(None, "none")
        label_re = rf"(?<![^\W_])({alternatives})(?![^\W_])"
        words = ANSWER_WORDS.get(language, ()) + ANSWER_WORDS["en"]
        word_re = "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
        stated = re.compile(rf"(?:{word_re})\s*\**\s*[:：=\-–]?\s*\**\s*[\(\[]?\s*{label_re}", re.IGNORECASE)
        found = [m.group(1) for m in stated.finditer(text)]
        if found:
            return Extraction(by_fold[_fold(found[-1])], "answer_word")
        boxed = re.findall(rf"\\boxed\{{\s*(?:\\text\{{)?\s*{label_re}", text, re.IGNORECASE)
        if boxed:
            return Extraction(by_fold[_fold(boxed[-1])], "boxed")
        bare = rf"\s*[\*\(\[]*\s*{label_re}\s*[\*\)\]\.:]*\s*(?:[\)\.:]\s.*)?"
        alone = re.fullmatch(bare, text, re.IGNORECASE | re.DOTALL)
        if alone:
            return Extraction(by_fold[_fold(alone.group(1))], "bare_label")
        lines = [line for line in text.strip().splitlines() if line.strip()]
        if len(lines) > 1:
            last = re.fullmatch(bare, lines[-1], re.IGNORECASE | re.DOTALL)
            if last:
                return Extraction(by_fold[_fold(last.group(1))], "last_line_label")
        return Extraction(None, "none")


def _label_spellings(labels: list[str]) -> set[str]:
    """Each label plus its Greek/Latin positional twin, so "β" matches label "B" and the reverse."""
    latin_greek = {v: k for k, v in _GREEK_LATIN.items()}
    spellings: set[str] = set()
    for label in labels:
        spellings.add(label)
        folded = _fold(label)
        if folded in latin_greek:
            spellings.add(latin_greek[folded])
        spellings.add(folded)
    return {s for s in spellings if s}


EXTRACTION_RULES: dict[str, ExtractionRule] = {rule.name: rule for rule in (LetterRuleV1(),)}


def get_rule(name: str) -> ExtractionRule:
    try:
        return EXTRACTION_RULES[name]
    except KeyError:
        raise ValueError(f"unknown answer-extraction rule {name!r}; known: {sorted(EXTRACTION_RULES)}") from None


def looks_like_refusal(text: str, language: str) -> bool:
    folded = text.casefold().replace("’", "'")
    return any(p in folded for p in REFUSAL_PHRASES.get(language, ()) + REFUSAL_PHRASES["en"])


REFUSAL_FINISH_REASONS = frozenset({"refusal", "content_filter", "safety"})


def classify_generation(
    *, text: str | None, finish_reason: str | None, labels: list[str], answer: str, language: str, rule: ExtractionRule
) -> tuple[Status, Extraction]:
    """The one status of a generative attempt that got a response from the service."""
    if finish_reason == "length":
        # Scored as zero even when a label is visible: the model never finished its answer.
        return Status.TRUNCATED, rule.extract(text or "", labels, language)
    if finish_reason in REFUSAL_FINISH_REASONS:
        return Status.REFUSAL, Extraction(None, "none")
    extraction = rule.extract(text or "", labels, language)
    if extraction.label is None:
        if text and looks_like_refusal(text, language):
            return Status.REFUSAL, extraction
        return Status.EXTRACTION_FAILURE, extraction
    return (Status.CORRECT if _fold(extraction.label) == _fold(answer) else Status.WRONG), extraction


def first_argmax(scores: list[float]) -> int:
    """First index of the highest score, as numpy's argmax in lm-eval's `acc` (ties go to the first)."""
    best = 0
    for index, value in enumerate(scores):
        if value > scores[best]:
            best = index
    return best


def norm_argmax(logprobs: list[float], continuations: list[str], delimiter: str = " ") -> int:
    """lm-eval's `acc_norm` choice: the first argmax of log-likelihood per character of the option's
    text (the continuation without its leading delimiter, as lm-eval counts `len(choice)`)."""
    lengths = [len(c[len(delimiter):] if c.startswith(delimiter) else c) for c in continuations]
    return first_argmax([lp / max(1, n) for lp, n in zip(logprobs, lengths)])


def token_norm_argmax(logprobs: list[float], token_counts: list[int]) -> int:
    """The choice by log-likelihood per token of each continuation (the tokeniser's own length measure,
    which per-character normalisation ignores)."""
    return first_argmax([lp / max(1, n) for lp, n in zip(logprobs, token_counts)])
