"""Contamination view: each model's accuracy on exams published before its release date against after.

A model may have seen exams published before its training cut-off; a clear drop on later exams is a
warning sign (not proof: later exams may just be harder, which is why the human results sit beside
them in `eval correlate`). Release dates come from a small YAML (`models: {openai:m1: {released: 2024-05-13}}`).
An exam's date is its year and, where the session names a month (maj, June, ...), that month; an exam
in the release year with no month known is counted apart as undetermined rather than guessed.
"""
from __future__ import annotations

import datetime as dt
import io
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from eval.analysis.csvcells import csv_writer
from eval.analysis.runset import RunSummary

MONTHS = {
    **{m: i for i, m in enumerate(["styczen", "luty", "marzec", "kwiecien", "maj", "czerwiec", "lipiec", "sierpien",
                                   "wrzesien", "pazdziernik", "listopad", "grudzien"], 1)},
    **{m: i for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july", "august", "september",
                                   "october", "november", "december"], 1)},
    **{m: i for i, m in enumerate(["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
                                   "octubre", "noviembre", "diciembre"], 1)},
}


@dataclass
class Split:
    model: str
    released: dt.date
    config: str
    language: str
    n_before: int
    accuracy_before: float | None
    n_after: int
    accuracy_after: float | None
    n_undetermined: int

    @property
    def gap_pp(self) -> float | None:
        if self.accuracy_before is None or self.accuracy_after is None:
            return None
        return self.accuracy_after - self.accuracy_before


def load_release_dates(path: str | Path) -> dict[str, dt.date]:
    from eval.analysis.models import load_model_metadata

    dates = {}
    for name, meta in load_model_metadata(path).items():
        if meta.released is None:
            raise ValueError(f"{path}: model {name!r} needs 'released: YYYY-MM-DD'")
        dates[name] = meta.released
    return dates


def _month(session: str | None) -> int | None:
    if not session:
        return None
    plain = unicodedata.normalize("NFKD", session.lower()).encode("ascii", "ignore").decode()
    return next((m for name, m in MONTHS.items() if name in plain), None)


def side(year: int | None, session: str | None, released: dt.date) -> str:
    """before | after | undetermined: where the exam falls against the release date."""
    if year is None:
        return "undetermined"
    month = _month(session)
    if month is not None:
        exam = (int(year), month)
        return "before" if exam < (released.year, released.month) else "after" if exam > (released.year, released.month) else "undetermined"
    return "before" if int(year) < released.year else "after" if int(year) > released.year else "undetermined"


def splits(runs: list[RunSummary], released: dict[str, dt.date]) -> list[Split]:
    from eval.log.scoring import load_matrix

    out = []
    for r in sorted(runs, key=lambda r: (r.model, r.run_id)):
        if r.model not in released:
            continue
        m = load_matrix(r.path)
        share = m.correct.mean(axis=1)
        cells: dict[tuple[str, str], dict[str, list[float]]] = {}
        for i, p in enumerate(m.prompts):
            meta = p.get("meta", {})
            where = side(meta.get("year"), meta.get("session"), released[r.model])
            cells.setdefault((p["config"], p["language"]), {"before": [], "after": [], "undetermined": []})[where].append(float(share[i]))
        for (config, language), c in sorted(cells.items()):
            mean = lambda xs: 100 * sum(xs) / len(xs) if xs else None  # noqa: E731
            out.append(Split(r.model, released[r.model], config, language, len(c["before"]), mean(c["before"]),
                             len(c["after"]), mean(c["after"]), len(c["undetermined"])))
    return out


def _f(x: float | None, spec: str = ".1f") -> str:
    return "–" if x is None else format(x, spec)


def to_csv(rows: list[Split]) -> str:
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(["model", "released", "config", "language", "n_before", "accuracy_before_pct", "n_after",
                     "accuracy_after_pct", "after_minus_before_pp", "n_undetermined"])
    for s in rows:
        writer.writerow([s.model, s.released.isoformat(), s.config, s.language, s.n_before,
                         "" if s.accuracy_before is None else round(s.accuracy_before, 6), s.n_after,
                         "" if s.accuracy_after is None else round(s.accuracy_after, 6),
                         "" if s.gap_pp is None else round(s.gap_pp, 6), s.n_undetermined])
    return buffer.getvalue()


def to_markdown(rows: list[Split], missing: list[str]) -> str:
    lines = ["# Contamination view: exams before and after each model's release", "",
             "| model | released | dataset | language | before: n | accuracy % | after: n | accuracy % | after − before | undetermined |",
             "|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {s.model} | {s.released} | {s.config} | {s.language} | {s.n_before} | {_f(s.accuracy_before)} | {s.n_after} | "
              f"{_f(s.accuracy_after)} | {_f(s.gap_pp, '+.1f')} | {s.n_undetermined} |" for s in rows]
    if missing:
        lines += ["", "No release date for: " + ", ".join(missing) + " (add them to the models YAML)."]
    return "\n".join(lines) + "\n"


def write_contamination(rows: list[Split], out: Path, missing: list[str]) -> list[Path]:
    from pipeline.infra import write_text_atomic

    out.mkdir(parents=True, exist_ok=True)
    written = [out / "contamination.csv", out / "contamination.md"]
    write_text_atomic(written[0], to_csv(rows))
    write_text_atomic(written[1], to_markdown(rows, missing))
    return written
