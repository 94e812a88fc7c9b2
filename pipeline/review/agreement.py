"""Agreement between annotators: Cohen's kappa for each pair over the items both of them judged.

A judgement is one of three categories, the ones a reviewer actually chooses between: `accept` (the
description as generated), `edit` (accepted with changed text) and `reject`. Kappa corrects the
observed agreement for the agreement expected by chance from each annotator's own category rates:
kappa = (p_o - p_e) / (1 - p_e). When both annotators used one and the same category for every shared
item, p_e is 1 and kappa is undefined: the report says so rather than printing a number.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

CATEGORIES = ("accept", "edit", "reject")


@dataclass(frozen=True)
class PairAgreement:
    first: str
    second: str
    items: int  # judged by both
    agreed: int
    kappa: float | None  # None: undefined (no shared item, or one category only)
    confusion: dict[str, dict[str, int]]  # first's category -> second's category -> items

    @property
    def observed(self) -> float | None:
        return self.agreed / self.items if self.items else None

    def to_dict(self) -> dict:
        return {"annotators": [self.first, self.second], "items": self.items, "agreed": self.agreed,
                "observed_agreement": _rounded(self.observed), "kappa": _rounded(self.kappa), "confusion": self.confusion}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def cohen_kappa(first: list[str], second: list[str]) -> float | None:
    """Cohen's kappa of two equally long label sequences; None when it is undefined."""
    if len(first) != len(second):
        raise ValueError(f"kappa needs paired judgements: {len(first)} against {len(second)}")
    n = len(first)
    if n == 0:
        return None
    observed = sum(a == b for a, b in zip(first, second)) / n
    rates_a, rates_b = Counter(first), Counter(second)
    expected = sum(rates_a[c] * rates_b[c] for c in rates_a) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def pair_agreements(judgements: dict[str, dict[str, str]]) -> list[PairAgreement]:
    """For `judgements` (item id -> annotator -> category), one entry per pair of annotators (names in
    alphabetical order) who judged at least one item in common."""
    annotators = sorted({name for by_annotator in judgements.values() for name in by_annotator})
    out = []
    for first, second in combinations(annotators, 2):
        shared = sorted(item for item, by in judgements.items() if first in by and second in by)
        if not shared:
            continue
        a = [judgements[item][first] for item in shared]
        b = [judgements[item][second] for item in shared]
        confusion = {x: {y: 0 for y in CATEGORIES} for x in CATEGORIES}
        for x, y in zip(a, b):
            confusion[x][y] += 1
        out.append(PairAgreement(first, second, len(shared), sum(x == y for x, y in zip(a, b)), cohen_kappa(a, b), confusion))
    return out


def agreement_lines(pairs: list[PairAgreement]) -> list[str]:
    """The report as Markdown: one row per pair."""
    if not pairs:
        return ["No two annotators have judged the same item yet: no agreement to report."]
    lines = ["| annotators | items | agreed | observed | Cohen's kappa |", "|---|---|---|---|---|"]
    for p in pairs:
        kappa = "undefined (one category only)" if p.kappa is None else f"{p.kappa:.3f}"
        lines.append(f"| {p.first} – {p.second} | {p.items} | {p.agreed} | {p.observed:.1%} | {kappa} |")
    return lines
