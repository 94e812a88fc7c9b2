"""Assigning records to the public split, the private split, or neither (withheld), by the split rule."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from pipeline import PIPELINE_VERSION
from pipeline.diagnostics import AUDIT_ONLY
from pipeline.records import Question, alike_ids, describe_alike
from pipeline.split.config import SplitConfig
from pipeline.split.leakage import LeakPair, find_leaks, leak_report

SPLITS = ("public", "private")


class SplitInputError(ValueError):
    """Records that cannot be split as given (e.g. one id twice); the message names them."""


class LeakageError(RuntimeError):
    """The leakage guard found private questions in the public split; `pairs` names them."""

    def __init__(self, pairs: list[LeakPair], report: str):
        super().__init__(f"leakage guard: {len(pairs)} private/public pair(s) share a question:\n"
                         + "\n".join(f"  - {p.describe()}" for p in pairs[:20]))
        self.pairs = pairs
        self.report = report


@dataclass(frozen=True)
class Withheld:
    id: str
    reason: str


@dataclass(frozen=True)
class SplitRule:
    """What a release records about the rule that made its split."""

    version: int
    config_sha256: str
    description: str
    private_years: dict[str, list[int]]  # source -> the years that went private
    config: dict
    pipeline_version: str = PIPELINE_VERSION

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class SplitResult:
    public: list[Question]
    private: list[Question]
    withheld: list[Withheld]
    rule: SplitRule
    leaks: list[LeakPair] = field(default_factory=list)  # found and resolved by withholding (on_leak: withhold_public)
    # The rule's entries that match no record (a source or a year named for the private split, an allowed pair's id):
    # a misspelt name leaves its source to the newest-years default unsaid.
    unmatched: list[str] = field(default_factory=list)

    def split(self, name: str) -> list[Question]:
        if name not in SPLITS:
            raise ValueError(f"unknown split {name!r}; one of {', '.join(SPLITS)}")
        return self.public if name == "public" else self.private


def private_years_of(questions: list[Question], config: SplitConfig) -> dict[str, list[int]]:
    years: dict[str, set[int]] = {}
    for q in questions:
        years.setdefault(q.source, set()).add(q.year)
    chosen = {}
    for source, have in sorted(years.items()):
        if source in config.private_years:
            chosen[source] = sorted(config.private_years[source])
        else:
            chosen[source] = sorted(have)[-config.newest_years:] if config.newest_years else []
    return chosen


def unmatched_rule(questions: list[Question], config: SplitConfig) -> list[str]:
    """A line for each entry of the split rule that names what no record has: a source under `private.years`, a year
    of a source, an id of an allowed leakage pair."""
    years: dict[str, set[int]] = {}
    for q in questions:
        years.setdefault(q.source, set()).add(q.year)
    lines = []
    for source, named in sorted(config.private_years.items()):
        if source not in years:
            lines.append(f"private.years.{source}: no record of source {source!r} (sources: {', '.join(sorted(years)) or 'none'}); "
                         "its years made nothing private")
            continue
        missing = sorted(set(named) - years[source])
        if missing:
            lines.append(f"private.years.{source}: no record of year(s) {', '.join(map(str, missing))} "
                         f"(its years: {', '.join(map(str, sorted(years[source])))})")
    ids = {q.id for q in questions}
    for private_id, public_id in config.leakage.allowed_pairs:
        absent = [i for i in (private_id, public_id) if i not in ids]
        if absent:
            lines.append(f"leakage.allowed_pairs [{private_id}, {public_id}]: no record {', '.join(absent)}")
    return lines


def withholding_flags(q: Question) -> list[str]:
    """The record's flags that withhold it (`withhold_flagged`): every flag but those that only queue it for
    the audit (`diagnostics.AUDIT_ONLY`: an unsure OCR reading)."""
    return [flag for flag in q.flags if getattr(flag, "code", None) not in AUDIT_ONLY]


def split_records(questions: list[Question], config: SplitConfig) -> SplitResult:
    """Deterministic: the same records and config give the same split, in id order."""
    doubled = alike_ids(q.id for q in questions)
    if doubled:
        raise SplitInputError(f"{len(doubled)} question id(s) occur more than once (compared as `records.id_key` "
                              f"reads them: full-width, compatibility forms and invisible characters folded): "
                              f"{describe_alike(doubled)}")
    years = private_years_of(questions, config)
    rule = SplitRule(config.version, config.sha256(), config.describe(), years, config.to_dict())
    public, private, withheld = [], [], []
    for q in sorted(questions, key=lambda q: q.id):
        if config.withhold_flagged and (problems := withholding_flags(q)):
            withheld.append(Withheld(q.id, "flagged: " + "; ".join(problems)))
        elif q.year in years[q.source]:
            private.append(q)
        else:
            public.append(q)
    leaks = find_leaks(private, public, config.leakage)
    if leaks and config.leakage.on_leak == "fail":
        raise LeakageError(leaks, leak_report(leaks, private=private, public=public))
    if leaks:  # withhold_public: the public twin of every pair stays out of the release
        twins: dict[str, list[LeakPair]] = {}
        for pair in leaks:
            twins.setdefault(pair.public_id, []).append(pair)
        public = [q for q in public if q.id not in twins]
        withheld += [Withheld(pub_id, "leakage: " + "; ".join(f"{p.check} of private {p.private_id}" for p in pairs))
                     for pub_id, pairs in sorted(twins.items())]
    withheld.sort(key=lambda w: w.id)
    return SplitResult(public, private, withheld, rule, leaks, unmatched_rule(questions, config))
