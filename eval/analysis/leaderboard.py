"""The leaderboard: one row per model, API, reasoning effort, protocol and data; one column per language.

A row never pools runs that cannot be compared: its runs share the protocol (name and version, and the
settings that change the numbers, shown after it: `mcq@1 shots=5`; `runset.run_setup`) and
the split (public, private, or all of curated/ with the private questions), and it holds one run
per dataset and language, so two versions of one dataset (two releases, or a release and curated/)
make two rows. Each dataset (a release config) gets an equal vote in a row's average: 80 % on one
and 90 % on another is 85 %, however many questions each has. For every slot (dataset, model, API,
effort, language, protocol, dataset id and split) only the newest finished run counts (last answer
time, then run folder name), even when its score is lower than an older run's: a leaderboard that
kept the best run would reward re-rolling; a run on other data or another protocol displaces
nothing. Each cell gives the accuracy, its 95 % interval, the questions and how many datasets it
averages; a dash marks no result. A language-minus-English column is filled only where both sides
cover the same datasets, at the same data version, with the same protocol and the same questions
(matched by year, session, sheet and number).
"""
from __future__ import annotations

import hashlib
import html
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

from eval.analysis.csvcells import csv_writer
from eval.analysis.runset import RunSummary, Skipped, load_runs
from eval.log.runfolder import PROMPTS, read_jsonl

DASH = "–"
ENGLISH = "en"
SLOT_TEXT = "dataset, model, API, effort, language, protocol, data version and split"


@dataclass(frozen=True)
class Entry:
    """One run's score on one dataset in one language."""

    dataset: str
    language: str
    model: str
    api: str
    effort: str
    dataset_id: str
    protocol: str
    accuracy_pct: float
    n_questions: int
    questions_key: str  # which questions, language-independent, to check alignment across languages
    finished_at: str
    run_id: str
    path: Path
    split: str = "unknown"
    ci_low: float | None = None
    ci_high: float | None = None
    name: str = ""  # the model's display name; `model` (its id) is what slots and rows are keyed on

    @property
    def label(self) -> str:
        return self.name or self.model

    @property
    def slot(self) -> tuple[str, ...]:
        """What a newer run replaces: the same test of the same model, nothing else."""
        return (self.dataset, self.model, self.api, self.effort, self.language, self.protocol, self.dataset_id, self.split)

    @property
    def comparable(self) -> tuple[str, ...]:
        """What the entries of one row share."""
        return (self.model, self.api, self.effort, self.protocol, self.split)


@dataclass
class Cell:
    accuracy_pct: float | None
    datasets: int
    questions: int = 0
    ci_low: float | None = None
    ci_high: float | None = None

    def text(self) -> str:
        if self.accuracy_pct is None:
            return DASH
        interval = f" [{self.ci_low:.1f}, {self.ci_high:.1f}]" if self.ci_low is not None and self.ci_high is not None else ""
        return f"{self.accuracy_pct:.1f}{interval} n={self.questions} ({self.datasets})"


@dataclass
class Row:
    model: str
    api: str
    effort: str
    cells: dict[str, Cell]  # language -> cell, and "all"
    gaps: dict[str, float | None]  # language -> language minus English, in points
    protocol: str = ""
    split: str = "unknown"
    data: tuple[str, ...] = ()  # the dataset ids its runs scored
    name: str = ""  # the model's display name, shown; `model` is its id (BACKEND:NAME), in the CSV's model_id

    @property
    def label(self) -> str:
        return self.name or self.model

    @property
    def data_text(self) -> str:
        return ", ".join(short_id(d) for d in self.data)


@dataclass
class Leaderboard:
    languages: list[str]
    rows: list[Row]
    counted: list[Entry]
    superseded: list[Entry]
    skipped: list[Skipped]


def short_id(dataset_id: str) -> str:
    """A curated folder's id is a SHA-256 over its files: 12 hex digits name it well enough in a table."""
    prefix, sep, digest = dataset_id.partition("sha256:")
    return f"{prefix}sha256:{digest[:12]}…" if sep and len(digest) > 12 else dataset_id


def _questions_key(run: Path, config: str, language: str) -> str:
    keys = sorted(json.dumps([p["meta"].get(k) for k in ("year", "session", "sheet_code", "number")], ensure_ascii=False)
                  for p in read_jsonl(run / PROMPTS) if p["config"] == config and p["language"] == language)
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()


def entries(runs: list[RunSummary]) -> list[Entry]:
    return [Entry(g.config, g.language, r.model, r.api, r.effort, r.dataset_id, r.protocol, g.accuracy_pct, g.n_questions,
                  _questions_key(r.path, g.config, g.language), r.finished_at, r.run_id, r.path, r.split, g.ci_low, g.ci_high,
                  r.name)
            for r in runs for g in r.groups]


def newest(all_entries: list[Entry]) -> tuple[list[Entry], list[Entry]]:
    """(counted, superseded): the newest entry per slot, and every older one."""
    by_slot: dict[tuple, list[Entry]] = {}
    for e in all_entries:
        by_slot.setdefault(e.slot, []).append(e)
    counted, superseded = [], []
    for slot in sorted(by_slot):
        ordered = sorted(by_slot[slot], key=lambda e: (e.finished_at, e.run_id))
        counted.append(ordered[-1])
        superseded += ordered[:-1]
    return counted, superseded


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _cell(chosen: list[Entry]) -> Cell:
    """The equal-vote mean of `chosen` with its 95 % interval: one dataset's own (bootstrap) interval,
    or for several, each one's half-width combined as independent normal errors of a mean."""
    if not chosen:
        return Cell(None, 0)
    mean = _mean([e.accuracy_pct for e in chosen])
    questions = sum(e.n_questions for e in chosen)
    if any(e.ci_low is None or e.ci_high is None for e in chosen):
        return Cell(mean, len(chosen), questions)
    if len(chosen) == 1:
        return Cell(mean, 1, questions, chosen[0].ci_low, chosen[0].ci_high)
    half = math.sqrt(sum(((e.ci_high - e.ci_low) / 2) ** 2 for e in chosen)) / len(chosen)
    return Cell(mean, len(chosen), questions, max(0.0, mean - half), min(100.0, mean + half))


def _gap(mine: list[Entry], english: list[Entry]) -> float | None:
    """Language minus English, only when both sides are the same test."""
    if not mine or not english:
        return None
    a, b = {e.dataset: e for e in mine}, {e.dataset: e for e in english}
    if set(a) != set(b):
        return None
    for d in a:
        if (a[d].dataset_id, a[d].protocol, a[d].questions_key) != (b[d].dataset_id, b[d].protocol, b[d].questions_key):
            return None
    return _mean([e.accuracy_pct for e in mine]) - _mean([e.accuracy_pct for e in english])


def row_members(counted: list[Entry]) -> list[list[Entry]]:
    """The entries of each row: same model, API, effort, protocol and split, and one entry per dataset
    and language; where one dataset comes in several versions (dataset ids), each version is a row."""
    groups: dict[tuple, list[Entry]] = {}
    for e in counted:
        groups.setdefault(e.comparable, []).append(e)
    rows = []
    for key in sorted(groups):
        members = groups[key]
        tests = [(e.dataset, e.language) for e in members]
        if len(set(tests)) == len(tests):
            rows.append(members)
            continue
        for dataset_id in sorted({e.dataset_id for e in members}):
            rows.append([e for e in members if e.dataset_id == dataset_id])
    return rows


def table(counted: list[Entry]) -> tuple[list[str], list[Row]]:
    languages = sorted({e.language for e in counted}, key=lambda lang: (lang != ENGLISH, lang))
    rows = []
    for mine in row_members(counted):
        first = mine[0]
        cells, gaps = {}, {}
        for lang in languages:
            cells[lang] = _cell([e for e in mine if e.language == lang])
            if lang != ENGLISH:
                gaps[lang] = _gap([e for e in mine if e.language == lang], [e for e in mine if e.language == ENGLISH])
        cells["all"] = _cell(mine)
        rows.append(Row(first.model, first.api, first.effort, cells, gaps, first.protocol, first.split,
                        tuple(sorted({e.dataset_id for e in mine})), first.name))
    rows.sort(key=lambda r: -(r.cells["all"].accuracy_pct or 0.0))
    return languages, rows


def build_leaderboard(paths: list[str | Path]) -> Leaderboard:
    runs, skipped = load_runs(paths)
    counted, superseded = newest(entries(runs))
    languages, rows = table(counted)
    return Leaderboard(languages, rows, counted, superseded, skipped)


def _gap_languages(board: Leaderboard) -> list[str]:
    return [lang for lang in board.languages if lang != ENGLISH and any(r.gaps.get(lang) is not None for r in board.rows)]


LEAD_COLUMNS = ("model", "API", "effort", "protocol", "split", "data")


def _header(board: Leaderboard) -> list[str]:
    return [*LEAD_COLUMNS, *board.languages, "all", *[f"{lang} − en" for lang in _gap_languages(board)]]


def _row_texts(board: Leaderboard, row: Row) -> list[str]:
    gaps = [DASH if row.gaps.get(lang) is None else f"{row.gaps[lang]:+.1f}" for lang in _gap_languages(board)]
    return [row.label, row.api, row.effort or DASH, row.protocol, row.split, row.data_text,
            *[row.cells[lang].text() for lang in board.languages], row.cells["all"].text(), *gaps]


EXPLANATION = (f"Accuracy (%) averaged over datasets, each dataset one vote, with its 95 % interval, the questions (n) and in "
               f"brackets how many datasets; {DASH} no result. Newest run per {SLOT_TEXT}; a row never pools different "
               "protocols, splits or versions of one dataset.")


def _ci(e: Entry) -> str:
    return DASH if e.ci_low is None or e.ci_high is None else f"[{e.ci_low:.2f}, {e.ci_high:.2f}]"


def to_markdown(board: Leaderboard) -> str:
    header = _header(board)
    lines = ["# Leaderboard", "", EXPLANATION, "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(LEAD_COLUMNS) + "---:|" * (len(header) - len(LEAD_COLUMNS))]
    lines += ["| " + " | ".join(_row_texts(board, r)) + " |" for r in board.rows]
    lines += ["", "## Runs counted", "",
              "| dataset | language | model | API | effort | accuracy % | 95 % CI | questions | protocol | split | data | run | finished |",
              "|---|---|---|---|---|---:|---:|---:|---|---|---|---|---|"]
    lines += [f"| {e.dataset} | {e.language} | {e.label} | {e.api} | {e.effort or DASH} | {e.accuracy_pct:.2f} | {_ci(e)} | "
              f"{e.n_questions} | {e.protocol} | {e.split} | {short_id(e.dataset_id)} | {e.run_id} | {e.finished_at} |"
              for e in board.counted]
    if board.superseded:
        lines += ["", "## Older runs, not counted (a newer run of the same slot exists)", ""]
        lines += [f"- {e.run_id}: {e.dataset}/{e.language} {e.label} {e.accuracy_pct:.2f} % ({e.finished_at}; {e.protocol}, "
                  f"{e.split}, {short_id(e.dataset_id)})" for e in board.superseded]
    if board.skipped:
        lines += ["", "## Runs left out", ""] + [f"- {s.path}: {s.reason}" for s in board.skipped]
    return "\n".join(lines) + "\n"


def _number(value: float | None) -> float | str:
    return "" if value is None else round(value, 6)


def to_csv(board: Leaderboard) -> str:
    gap_langs = _gap_languages(board)
    measures = ("accuracy_pct", "ci_low", "ci_high", "questions", "datasets")
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(["model", "api", "effort", "protocol", "split", "data",
                     *[f"{lang}_{what}" for lang in [*board.languages, "all"] for what in measures],
                     *[f"{lang}_minus_en_pp" for lang in gap_langs], "model_id"])
    for r in board.rows:
        cells = []
        for lang in [*board.languages, "all"]:
            c = r.cells[lang]
            cells += [_number(c.accuracy_pct), _number(c.ci_low), _number(c.ci_high), c.questions, c.datasets]
        writer.writerow([r.label, r.api, r.effort, r.protocol, r.split, " ".join(r.data), *cells,
                         *[_number(r.gaps.get(lang)) for lang in gap_langs], r.model])
    return buffer.getvalue()


_SORT_SCRIPT = """
// Click a header to sort by it (again to reverse). Missing values (data-sort="") always sort last.
// A link may carry the order: leaderboard.html#sort=<column index>&dir=asc|desc.
(function () {
  var table = document.getElementById("leaderboard");
  var body = table.tBodies[0];
  function sortBy(col, dir) {
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].getAttribute("data-sort"), y = b.cells[col].getAttribute("data-sort");
      if (x === "" || y === "") { return (x === "") - (y === ""); }
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return dir === "asc" ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.setAttribute("aria-sort", i === col ? (dir === "asc" ? "ascending" : "descending") : "none");
    });
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
    function toggle() { sortBy(i, th.getAttribute("aria-sort") === "descending" ? "asc" : "desc"); }
    th.addEventListener("click", toggle);
    // Reachable with Tab (tabindex), sorted with Enter or Space, as a button would be.
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); }
    });
  });
  var m = /sort=(\\d+)(?:&dir=(asc|desc))?/.exec(location.hash);
  if (m) { sortBy(parseInt(m[1], 10), m[2] || "desc"); }
})();
"""


def _sort_value(row: Row, column: str, board: Leaderboard) -> str:
    if column in (*board.languages, "all"):
        value = row.cells[column].accuracy_pct
    elif column.endswith(" − en"):
        value = row.gaps.get(column[: -len(" − en")])
    else:
        return {"model": row.label, "API": row.api, "effort": row.effort, "protocol": row.protocol, "split": row.split,
                "data": row.data_text}[column]
    return "" if value is None else repr(round(value, 6))


def to_html(board: Leaderboard) -> str:
    header = _header(board)
    head = "".join(f'<th scope="col" aria-sort="none" tabindex="0">{html.escape(h)}</th>' for h in header)
    body = []
    for row in board.rows:
        cells = "".join(f'<td data-sort="{html.escape(_sort_value(row, col, board))}">{html.escape(text)}</td>'
                        for col, text in zip(header, _row_texts(board, row)))
        body.append(f"<tr>{cells}</tr>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Leaderboard</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; }}
th, td {{ padding: 0.3em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }}
th:nth-child(-n+{len(LEAD_COLUMNS)}), td:nth-child(-n+{len(LEAD_COLUMNS)}) {{ text-align: left; }}
th {{ cursor: pointer; user-select: none; }}
th:focus-visible {{ outline: 3px solid #2f6fd6; outline-offset: -3px; }}
th[aria-sort=ascending]::after {{ content: " ▲"; }}
th[aria-sort=descending]::after {{ content: " ▼"; }}
</style></head>
<body>
<h1>Leaderboard</h1>
<p>{html.escape(EXPLANATION)} Click a column (or Tab to it and press Enter) to sort.</p>
<table id="leaderboard"><thead><tr>{head}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody></table>
<script>{_SORT_SCRIPT}</script>
</body></html>
"""


def write_leaderboard(board: Leaderboard, out: Path, *, metadata: dict | None = None) -> list[Path]:
    """leaderboard.md/.csv/.html; with model metadata (eval.analysis.models) also plots/accuracy_vs_*.png|svg."""
    from pipeline.infra import write_text_atomic

    out.mkdir(parents=True, exist_ok=True)
    files = {"leaderboard.md": to_markdown(board), "leaderboard.csv": to_csv(board), "leaderboard.html": to_html(board)}
    for name, text in files.items():
        write_text_atomic(out / name, text)
    written = [out / name for name in files]
    if metadata:
        from eval.analysis.plots import leaderboard_plots

        points = [(f"{r.label}{' ' + r.effort if r.effort else ''}", r.cells["all"].accuracy_pct, metadata[r.model].released,
                   metadata[r.model].params_b) for r in board.rows if r.model in metadata and r.cells["all"].accuracy_pct is not None]
        written += leaderboard_plots(points, out / "plots")
    return written
