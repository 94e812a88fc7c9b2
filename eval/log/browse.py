"""A run as one static HTML page to browse: every question's prompt, response, extracted answer, status
and score, with filters (status, correct or not, config, subject, language) and a text search.

The page is one self-contained file (its CSS and script inline, no request leaves it), written into the
run folder as report.html at the end of every session and on demand by `examcorpus eval view RUN`.
Everything a model or a dataset wrote is data, never markup: the run's records travel as one JSON
block in which `<`, `>` and `&` are escaped, and the page's script puts text on screen only through
`textContent`, so a response holding `<script>` or `</script>` shows as those characters and runs
nothing. The script draws one page of questions at a time, so runs of tens of thousands of attempts
open as fast as small ones.

A run scored on the private split (or on all questions, private ones included) shows their text like any other: the
page says so first (`not_public_note`: a notice above everything, `[not public]` in its title, the split among the
facts), for `eval view --out FILE` writes it wherever asked and a page is easily handed on.

Public: `REPORT` (the file name), `report_rows(run)`, `render_report(run) -> str`, `write_report(run, out)`,
`not_public_note(run)`.
"""
from __future__ import annotations

import html
import json
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

from eval.log.scoring import left_out_lines
from eval.log.runfolder import ATTEMPTS, PLAN, PROMPTS, SCORES, STATE, read_json, read_jsonl
from eval.models.naming import model_label
from pipeline.infra import write_text_atomic

REPORT = "report.html"
MISSING = "missing"
_TEMPLATE = "browse.html"
_DATA_SLOT = "\"__RUN_DATA__\""


@dataclass(frozen=True)
class ReportRow:
    """The final attempt at one (question, repeat), or `missing` when none was made."""

    qid: str
    repeat: int
    config: str | None
    language: str
    subject: str | None
    year: int | None
    number: str | None
    status: str
    correct: bool
    answer: str | None  # the key
    extracted: str | None
    extraction_method: str | None
    tries: int
    response: str | None
    error: str | None
    finish_reason: str | None
    latency_s: float | None
    logprobs: list[float] | None
    labels: list[str]
    prompt: str


def prompt_text(prompt: dict) -> str:
    """What was sent, as text: the messages' text parts (an image as a placeholder with its path), or
    for a log-likelihood run the context and each scored continuation."""
    parts = []
    for message in prompt.get("messages") or []:
        content = message.get("content")
        items = content if isinstance(content, list) else [content]
        texts = []
        for item in items:
            if isinstance(item, str):
                texts.append(item)
            elif isinstance(item, dict) and isinstance(item.get("text"), str):
                texts.append(item["text"])
            elif isinstance(item, dict):
                texts.append(f"[image {item.get('path') or item.get('sha256') or ''}]".replace(" ]", "]"))
        role = message.get("role", "user")
        parts.append(f"[{role}]\n" + "\n".join(texts) if len(prompt["messages"]) > 1 else "\n".join(texts))
    if parts:
        return "\n\n".join(parts)
    options = "\n".join(f"  {label}: {json.dumps(text, ensure_ascii=False)}"
                        for label, text in zip(prompt.get("labels") or [], prompt.get("continuations") or []))
    return f"{prompt.get('context') or ''}\n\n[scored continuations]\n{options}"


def report_rows(run: str | Path) -> list[ReportRow]:
    """One row per question and repeat, in the run's question order."""
    run = Path(run)
    plan = read_json(run / PLAN)
    repeats = int(plan["plan"].get("repeats", 1))
    prompts = read_jsonl(run / PROMPTS)
    final: dict[tuple[str, int], dict] = {}
    tries: dict[tuple[str, int], int] = {}
    attempts = read_jsonl(run / ATTEMPTS, allow_partial_tail=True) if (run / ATTEMPTS).exists() else []
    for attempt in attempts:
        repeat = attempt.get("repeat")
        key = (str(attempt.get("qid")), repeat if isinstance(repeat, int) else -1)
        tries[key] = tries.get(key, 0) + 1
        if attempt.get("attempt", 0) >= final.get(key, {}).get("attempt", 0):
            final[key] = attempt
    rows = []
    for prompt in prompts:
        meta = prompt.get("meta") or {}
        text = prompt_text(prompt)
        for repeat in range(repeats):
            a = final.get((prompt["qid"], repeat), {})
            status = a.get("status", MISSING)
            rows.append(ReportRow(
                qid=prompt["qid"], repeat=repeat, config=prompt.get("config"), language=prompt.get("language", ""),
                subject=meta.get("subject"), year=meta.get("year"), number=meta.get("number"), status=status,
                correct=status == "correct", answer=prompt.get("answer"), extracted=a.get("extracted"),
                extraction_method=a.get("extraction_method"), tries=tries.get((prompt["qid"], repeat), 0),
                response=a.get("response"), error=a.get("error"), finish_reason=a.get("finish_reason"),
                latency_s=a.get("latency_s"), logprobs=a.get("logprobs"), labels=list(prompt.get("labels") or []),
                prompt=text,
            ))
    return rows


def _script_json(value) -> str:
    """JSON that cannot end the <script> element it sits in, whatever strings it carries."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _short_id(dataset_id: str) -> str:
    """A curated folder's id is a SHA-256 over its files: 12 hex digits name it well enough in a title."""
    prefix, sep, digest = dataset_id.partition("sha256:")
    return f"{prefix}sha256:{digest[:12]}…" if sep and len(digest) > 12 else dataset_id


def not_public_note(run: str | Path) -> str:
    """Why the run's page is not to be published (it shows the text of questions not of the public split), in words;
    empty for a run on the public split."""
    split = read_json(Path(run) / PLAN)["plan"].get("data_pin", {}).get("split") or "unknown"
    if split == "public":
        return ""
    what = {"private": "the private split's questions", "all": "every question of the data, private ones included"}
    return (f"Not public: this page shows the text of {what.get(split, 'questions whose split was not recorded')} "
            f"(split {split}). Keep it with the private data; do not publish or share it.")


def _header(run: Path) -> dict:
    plan = read_json(run / PLAN)
    state = read_json(run / STATE) if (run / STATE).exists() else {}
    scores = read_json(run / SCORES) if (run / SCORES).exists() else None
    protocol = plan.get("protocol", {})
    dataset = str(plan["plan"].get("data_pin", {}).get("dataset_id", ""))
    header = {
        "run": run.resolve().name, "model": model_label(plan["plan"]["model"]),
        "model_id": f"{plan['plan']['model']['backend']}:{plan['plan']['model']['name']}",
        "dataset": dataset, "dataset_short": _short_id(dataset),
        "protocol": f"{protocol.get('name', '')}@{protocol.get('version', '')}",
        "state": state.get("state", "incomplete"), "publishable": state.get("publishable", False),
        "reasons": state.get("reasons", []), "repeats": plan["plan"].get("repeats", 1),
        "split": plan["plan"].get("data_pin", {}).get("split") or "unknown", "not_public": not_public_note(run),
    }
    if scores:
        header["left_out"] = left_out_lines(scores)
        overall = scores["overall"]
        header["accuracy"] = f"{overall['accuracy_pct']:.2f} % [{overall['ci_low']:.2f}, {overall['ci_high']:.2f}]"
    return header


def render_report(run: str | Path) -> str:
    run = Path(run)
    header = _header(run)
    rows = [asdict(row) for row in report_rows(run)]
    template = resources.files("eval.log").joinpath(_TEMPLATE).read_text(encoding="utf-8")
    title = html.escape(("[not public] " if header["not_public"] else "") + f"{header['model']} on {header['dataset_short']} — {header['run']}")
    page = template.replace("<title></title>", f"<title>{title}</title>", 1)
    return page.replace(_DATA_SLOT, _script_json({"header": header, "rows": rows}), 1)


def write_report(run: str | Path, out: str | Path | None = None) -> Path:
    """The run's page at `out` (default: report.html in the run folder), written atomically."""
    target = Path(out) if out else Path(run) / REPORT
    write_text_atomic(target, render_report(run))
    return target
