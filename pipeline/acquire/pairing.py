"""Which key belongs to which sheet, decided from the facts each file rule extracted.

A key pairs with a sheet when they agree on every fact named in the spec's `pairing.on` that either
carries, and on at least one. A fact the key lacks is a wildcard only when the spec says one key serves many sheet forms
(CKE marking schemes cover forms -100, -200, ... of one exam).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.acquire.manifest import ManifestEntry
from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.specs import PairingSpec


@dataclass(frozen=True)
class SheetJob:
    sheet: ManifestEntry
    keys: tuple[ManifestEntry, ...]


@dataclass
class PairingResult:
    jobs: list[SheetJob]
    problems: dict[str, Diagnostic] = field(default_factory=dict)  # file URL -> what is wrong


def _key_fits(sheet: ManifestEntry, key: ManifestEntry, pairing: PairingSpec) -> bool:
    agreed = 0
    for fact in pairing.on:
        sheet_value, key_value = sheet.facts.get(fact), key.facts.get(fact)
        if sheet_value is None and key_value is None:
            continue  # a fact neither file carries (a web name without the year) cannot tell them apart
        if key_value is None and pairing.key_serves_many:
            continue
        if sheet_value is None or key_value is None or str(sheet_value) != str(key_value):
            return False
        agreed += 1
    return agreed > 0


class _KeyIndex:
    """Keys grouped by which pairing facts they carry and those facts' values, so a sheet is compared
    only with the keys that can fit it: pairing an archive costs about one look-up per sheet and
    kind of key, not sheets × keys fit tests (1,500 sheets and keys: 2.25 million)."""

    def __init__(self, keys: list[ManifestEntry], pairing: PairingSpec):
        self._pairing = pairing
        self._groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[tuple[int, ManifestEntry]]] = {}
        for position, key in enumerate(keys):
            carried = tuple(f for f in pairing.on if key.facts.get(f) is not None)
            values = tuple(str(key.facts[f]) for f in carried)
            self._groups.setdefault((carried, values), []).append((position, key))
        self._kinds = sorted({carried for carried, _ in self._groups})

    def candidates(self, sheet: ManifestEntry) -> list[ManifestEntry]:
        """The keys that may fit `sheet` (a superset of those that do), in the order they were given."""
        found: list[tuple[int, ManifestEntry]] = []
        for carried in self._kinds:
            if any(sheet.facts.get(f) is None for f in carried):
                continue  # the key carries a fact the sheet lacks: they cannot agree on it
            found += self._groups.get((carried, tuple(str(sheet.facts[f]) for f in carried)), [])
        return [key for _, key in sorted(found, key=lambda pair: pair[0])]


def pair_files(entries: list[ManifestEntry], pairing: PairingSpec) -> PairingResult:
    usable = [e for e in entries if e.ok]
    sheets = sorted((e for e in usable if e.role == "sheet"), key=lambda e: e.url)
    keys = sorted((e for e in usable if e.role == "key"), key=lambda e: e.url)
    result = PairingResult(jobs=[])
    used_keys: set[str] = set()
    index = _KeyIndex(keys, pairing)
    for sheet in sheets:
        # _key_fits stays the one rule; the index only spares comparing keys that cannot fit.
        matching = tuple(k for k in index.candidates(sheet) if _key_fits(sheet, k, pairing))
        used_keys.update(k.url for k in matching)
        if not matching and pairing.key_required:
            facts = ", ".join(f"{f}={sheet.facts.get(f)!r}" for f in pairing.on)
            result.problems[sheet.url] = diagnose(Code.SHEET_WITHOUT_KEY, facts=facts)
        result.jobs.append(SheetJob(sheet=sheet, keys=matching))
    for key in keys:
        if key.url not in used_keys:
            facts = ", ".join(f"{f}={key.facts.get(f)!r}" for f in pairing.on)
            result.problems[key.url] = diagnose(Code.KEY_MATCHES_NO_SHEET, facts=facts)
    return result
