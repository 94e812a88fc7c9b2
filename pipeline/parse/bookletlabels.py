"""A key header's booklet types (variants) matched to the labels the spec declares.

A key printed with one column or block per booklet type names each in its header ("유형 A", "Tipo 1",
"ΤΥΠΟΣ Β"), and the spec's `key.variant_header` finds the name. On a scan the name may come back as a
look-alike: the Korean model reads a Latin `A` beside Hangul as `4` and `B` as `8`. Taken as read, the
column is booklet type "4", and the sheet's booklet B finds no column at all.

The labels a key may name are the spec's (`key.variants`, every booklet type the key prints), or, where it
declares none, the one the sheet is read by (`key.variant`, or the code the sheet prints). A header name is
one of them as read (case aside), or the only one its characters give when each may stand for a look-alike
the languages' data names (`languages.booklet_lookalikes`). Two headers of a row that give the same label
give it to neither. A name that gives no label is reported only where the spec declares them all: its
column keeps the name as read, so its entries go to no declared booklet (and a sheet of a booklet type no
header named reports the whole key, as before).
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.languages import booklet_lookalikes
from pipeline.specs import KeySpec

MAX_READINGS = 64  # spellings a header name is tried as at most (each of its characters or one of its look-alikes)


@dataclass(frozen=True)
class BookletLabels:
    """The booklet types a key's headers may name, and the characters OCR reads for their letters."""

    declared: tuple[str, ...] = ()
    complete: bool = False  # `declared` is every booklet type the key prints (`key.variants`): a header none gives is reported
    lookalikes: dict[str, str] = field(default_factory=dict)  # a character read: the label characters it may stand for

    @classmethod
    def of(cls, spec: KeySpec, variant: str | None = None) -> BookletLabels:
        """The spec's declared booklet types (`key.variants`), or else the one the sheet is read by (`variant`, the
        sheet's printed code, or `key.variant`)."""
        declared = tuple(spec.variants) or tuple(dict.fromkeys(v for v in (variant, spec.variant) if v))
        return cls(declared, bool(spec.variants), booklet_lookalikes(declared))

    def label(self, name: str, ocr: bool = True) -> str | None:
        """The declared label a header's name gives: itself, or (read by OCR) the only one its look-alikes spell; None
        when none or several do (and when nothing is declared: the name as read then stands)."""
        if not self.declared:
            return name
        by_fold = {label.casefold(): label for label in self.declared}
        if name.casefold() in by_fold:
            return by_fold[name.casefold()]
        if not ocr:  # a text layer prints what it prints
            return None
        choices = [ch + self.lookalikes.get(ch, "") for ch in name]
        count = 1
        for options in choices:
            count *= len(options)
        if count > MAX_READINGS:
            return None
        found = {by_fold[spelt.casefold()] for spelt in map("".join, itertools.product(*choices)) if spelt.casefold() in by_fold}
        return found.pop() if len(found) == 1 else None

    def name_row(self, names: Sequence[str], ocr: bool = True) -> tuple[list[str], list[str]]:
        """The variant each header name of one row (`ocr`: read by OCR) stands for, and a problem line for each
        name that gives no declared label where the spec declares them all (its column keeps the name as read, so
        that its entries go to no declared booklet). A label given by a look-alike that another name of the row
        gives too, or reads as, is given to neither look-alike."""
        given = [self.label(name, ocr) for name in names]
        exact = {g for g, name in zip(given, names) if g is not None and g.casefold() == name.casefold()}
        counts = {g: given.count(g) for g in given if g is not None}
        result: list[str] = []
        problems: list[str] = []
        for name, label in zip(names, given):
            taken = label is not None and (label.casefold() == name.casefold() or (label not in exact and counts[label] == 1))
            result.append(label if taken and label is not None else name)
            if not taken and self.declared and name not in self.declared:
                if self.complete or label is not None:
                    why = "none of" if label is None else f"read like {label!r}, which another header of its row names, of"
                    problems.append(f"key header names booklet type {name!r}, {why} the declared {list(self.declared)} "
                                    f"(key.variants): its column's answers are given to no booklet type")
        return result, problems
