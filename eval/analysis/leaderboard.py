"""The leaderboard: one row per model, API and reasoning effort; one column per language.

Each dataset (a release config) gets an equal vote in a model's average: 80 % on one and 90 % on
another is 85 %, however many questions each has. For every (dataset, model, API, effort, language)
only the newest finished run counts (last answer time, then run folder name), even when its score
is lower than an older run's: a leaderboard that kept the best run would reward re-rolling. Each
cell says how many datasets it averages; a dash marks no result. A language-minus-English column is
filled only where both sides cover the same datasets, at the same data version, with the same
protocol and the same questions (matched by year, session, sheet and number).
"""
from __future__ import annotations

import csv
import hashlib
import html
import io
import json
from dataclasses import dataclass
from pathlib import Path

from eval.analysis.runset import RunSummary, Skipped, load_runs
from eval.log.runfolder import PROMPTS, read_jsonl

DASH = "–"
ENGLISH = "en"


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

    @property
    def slot(self) -> tuple[str, str, str, str, str]:
        return (self.dataset, self.model, self.api, self.effort, self.language)


@dataclass
class Cell:
    accuracy_pct: float | None
    datasets: int

    def text(self) -> str:
        return DASH if self.accuracy_pct is None else f"{self.accuracy_pct:.1f} ({self.datasets})"


@dataclass
class Row:
    model: str
    api: str
    effort: str
    cells: dict[str, Cell]  # language -> cell, and "all"
    gaps: dict[str, float | None]  # language -> language minus English, in points


@dataclass
class Leaderboard:
    languages: list[str]
    rows: list[Row]
    counted: list[Entry]
    superseded: list[Entry]
    skipped: list[Skipped]


def _questions_key(run: Path, config: str, language: str) -> str:
    keys = sorted(json.dumps([p["meta"].get(k) for k in ("year", "session", "sheet_code", "number")], ensure_ascii=False)
                  for p in read_jsonl(run / PROMPTS) if p["config"] == config and p["language"] == language)
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()


def entries(runs: list[RunSummary]) -> list[Entry]:
    return [Entry(g.config, g.language, r.model, r.api, r.effort, r.dataset_id, r.protocol, g.accuracy_pct, g.n_questions,
                  _questions_key(r.path, g.config, g.language), r.finished_at, r.run_id, r.path)
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


def table(counted: list[Entry]) -> tuple[list[str], list[Row]]:
    languages = sorted({e.language for e in counted}, key=lambda lang: (lang != ENGLISH, lang))
    rows = []
    for model, api, effort in sorted({(e.model, e.api, e.effort) for e in counted}):
        mine = [e for e in counted if (e.model, e.api, e.effort) == (model, api, effort)]
        cells, gaps = {}, {}
        for lang in languages:
            scores = [e.accuracy_pct for e in mine if e.language == lang]
            cells[lang] = Cell(_mean(scores), len(scores))
            if lang != ENGLISH:
                gaps[lang] = _gap([e for e in mine if e.language == lang], [e for e in mine if e.language == ENGLISH])
        cells["all"] = Cell(_mean([e.accuracy_pct for e in mine]), len(mine))
        rows.append(Row(model, api, effort, cells, gaps))
    rows.sort(key=lambda r: -(r.cells["all"].accuracy_pct or 0.0))
    return languages, rows


def build_leaderboard(paths: list[str | Path]) -> Leaderboard:
    runs, skipped = load_runs(paths)
    counted, superseded = newest(entries(runs))
    languages, rows = table(counted)
    return Leaderboard(languages, rows, counted, superseded, skipped)


def _gap_languages(board: Leaderboard) -> list[str]:
    return [lang for lang in board.languages if lang != ENGLISH and any(r.gaps.get(lang) is not None for r in board.rows)]


def _header(board: Leaderboard) -> list[str]:
    return ["model", "API", "effort", *board.languages, "all", *[f"{lang} − en" for lang in _gap_languages(board)]]


def _row_texts(board: Leaderboard, row: Row) -> list[str]:
    gaps = [DASH if row.gaps.get(lang) is None else f"{row.gaps[lang]:+.1f}" for lang in _gap_languages(board)]
    return [row.model, row.api, row.effort or DASH, *[row.cells[lang].text() for lang in board.languages],
            row.cells["all"].text(), *gaps]


def to_markdown(board: Leaderboard) -> str:
    header = _header(board)
    lines = ["# Leaderboard", "",
             "Accuracy (%) averaged over datasets, each dataset one vote; in brackets how many datasets; "
             f"{DASH} no result. Newest run per dataset, model, API, effort and language.", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * 3 + "---:|" * (len(header) - 3)]
    lines += ["| " + " | ".join(_row_texts(board, r)) + " |" for r in board.rows]
    lines += ["", "## Runs counted", "", "| dataset | language | model | API | effort | accuracy % | questions | protocol | run | finished |",
              "|---|---|---|---|---|---:|---:|---|---|---|"]
    lines += [f"| {e.dataset} | {e.language} | {e.model} | {e.api} | {e.effort or DASH} | {e.accuracy_pct:.2f} | {e.n_questions} | "
              f"{e.protocol} | {e.run_id} | {e.finished_at} |" for e in board.counted]
    if board.superseded:
        lines += ["", "## Older runs, not counted (a newer run of the same slot exists)", ""]
        lines += [f"- {e.run_id}: {e.dataset}/{e.language} {e.model} {e.accuracy_pct:.2f} % ({e.finished_at})" for e in board.superseded]
    if board.skipped:
        lines += ["", "## Runs left out", ""] + [f"- {s.path}: {s.reason}" for s in board.skipped]
    return "\n".join(lines) + "\n"


def to_csv(board: Leaderboard) -> str:
    gap_langs = _gap_languages(board)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["model", "api", "effort",
                     *[f"{lang}_{what}" for lang in [*board.languages, "all"] for what in ("accuracy_pct", "datasets")],
                     *[f"{lang}_minus_en_pp" for lang in gap_langs]])
    for r in board.rows:
        cells = []
        for lang in [*board.languages, "all"]:
            c = r.cells[lang]
            cells += ["" if c.accuracy_pct is None else round(c.accuracy_pct, 6), c.datasets]
        writer.writerow([r.model, r.api, r.effort, *cells,
                         *["" if r.gaps.get(lang) is None else round(r.gaps[lang], 6) for lang in gap_langs]])
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
    th.addEventListener("click", function () {
      sortBy(i, th.getAttribute("aria-sort") === "descending" ? "asc" : "desc");
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
        return {"model": row.model, "API": row.api, "effort": row.effort}[column]
    return "" if value is None else repr(round(value, 6))


def to_html(board: Leaderboard) -> str:
    header = _header(board)
    head = "".join(f'<th scope="col" aria-sort="none">{html.escape(h)}</th>' for h in header)
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
th:nth-child(-n+3), td:nth-child(-n+3) {{ text-align: left; }}
th {{ cursor: pointer; user-select: none; }}
th[aria-sort=ascending]::after {{ content: " ▲"; }}
th[aria-sort=descending]::after {{ content: " ▼"; }}
</style></head>
<body>
<h1>Leaderboard</h1>
<p>Accuracy (%) averaged over datasets, each dataset one vote; in brackets how many datasets; {DASH} no result.
Newest run per dataset, model, API, effort and language. Click a column to sort.</p>
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

        points = [(f"{r.model}{' ' + r.effort if r.effort else ''}", r.cells["all"].accuracy_pct, metadata[r.model].released,
                   metadata[r.model].params_b) for r in board.rows if r.model in metadata and r.cells["all"].accuracy_pct is not None]
        written += leaderboard_plots(points, out / "plots")
    return written
