"""The dataset card: README.md with the YAML the Hub reads, and the sections a researcher reads.

The YAML is made with huggingface_hub's DatasetCardData (the Hub's own card model): `configs` with
`data_files`, `dataset_info` features per config (figures as images), languages, multilinguality,
license (with `license_name`/`license_link` when it is `other`), tags, source datasets, annotation
and language creators, task categories, size category and pretty name.

Split naming: an examcorpus release holds one split, `public` or `private` (the held-out years); on
the Hub both are evaluation data, so the card calls the release's split `test`, the name tools look
for (`lm_eval`, leaderboards, `load_dataset(..., split="test")`). The Parquet keeps its examcorpus
name (`data/<config>/public.parquet`) and `manifest.json` says which split it is, so releases made
before this mapping read as before (their cards call the split `public`).

The body: configs and counts, Data Fields (made from the release table's schema, `fields.py`), an
example record (the public split's first question; a private card shows the shape with its texts
withheld), how the split and the data were made, figures, loading, uses, limitations, personal
information, errata since the previous release, license and a citation with authors, year and URL.
"""
from __future__ import annotations

import html
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline import PIPELINE_VERSION
from pipeline.infra import printable
from pipeline.publish.fields import data_fields_table
from pipeline.publish.layout import (FIGURES_FIELD, LICENSE_NAME, SIGNATURE_NAME, data_path, features_yaml, figure_name,
                                     size_category)
from pipeline.publish.manifest import Erratum
from pipeline.publish.signing import CARD_KEY_LINE, PublicKey
from pipeline.records import Question, questions_to_table

TASK_CATEGORIES = ["multiple-choice", "question-answering"]
TASK_IDS = ["multiple-choice-qa"]
HUB_SPLIT = "test"  # the card's name for a release's one split, public or private (see above)
TAGS = ["exams", "benchmark", "education", "evaluation", "multiple-choice"]
DEFAULT_LICENSE_NAME = "exam-publishers-terms"  # `license: other`: the texts are the exam publishers'
EXAMPLE_TEXT_CHARS = 300
ERRATA_SHOWN = 100


@dataclass(frozen=True)
class CardInfo:
    """What the card says about who made the dataset and on what terms (publish flags)."""

    authors: tuple[str, ...] = ()
    url: str | None = None  # homepage for the citation; default: the Hub repo's page
    license_id: str = "other"
    license_name: str | None = None
    license_link: str | None = None

    def license_fields(self) -> dict:
        """license_name/license_link for `license: other` (the Hub asks for both); none otherwise."""
        if self.license_id != "other":
            return {"license_name": self.license_name, "license_link": self.license_link} if self.license_link else {}
        return {"license_name": self.license_name or DEFAULT_LICENSE_NAME, "license_link": self.license_link or LICENSE_NAME}


def card_text(*, name: str, release_id: str, split: str, by_config: dict[str, list[Question]], rule: dict,
              withheld: int, repo_hint: str, info: CardInfo, year: int, errata: Sequence[Erratum] = (),
              previous_release: str | None = None, figure_sizes: dict[str, int] | None = None,
              url: str | None = None, signed_by: PublicKey | None = None) -> str:
    """The card; `url` is where the release lives (the Hub repo page), cited unless `info.url` is given;
    `signed_by`: the publisher's key that signs the manifest, named in the card."""
    from huggingface_hub import DatasetCard, DatasetCardData  # imported here: keeps `examcorpus` quick to start

    questions = [q for qs in by_config.values() for q in qs]
    languages = sorted({q.language for q in questions})
    data = DatasetCardData(
        pretty_name=f"{name} ({split} split, release {release_id})",
        language=languages,
        license=info.license_id,
        **{k: v for k, v in info.license_fields().items() if v},
        tags=TAGS,
        multilinguality="multilingual" if len(languages) > 1 else "monolingual",
        source_datasets=["original"],
        annotations_creators=["expert-generated"],  # the answers are the exam boards' official keys
        language_creators=["expert-generated"],  # the questions were written by the exam boards
        task_categories=TASK_CATEGORIES,
        task_ids=TASK_IDS,
        size_categories=[size_category(len(questions))],
        configs=[{"config_name": c, "data_files": [{"split": HUB_SPLIT, "path": data_path(c, split)}]}
                 for c in sorted(by_config)],
        dataset_info=[{"config_name": c, "features": features_yaml(),
                       "splits": [{"name": HUB_SPLIT, "num_bytes": _num_bytes(qs, figure_sizes or {}), "num_examples": len(qs)}]}
                      for c, qs in sorted(by_config.items())],
    )
    return str(DatasetCard.from_template(data, template_str=_TEMPLATE, **_sections(
        name=name, release_id=release_id, split=split, by_config=by_config, rule=rule, withheld=withheld,
        repo_hint=repo_hint, info=info, year=year, errata=list(errata), previous_release=previous_release,
        figure_sizes=figure_sizes or {}, url=info.url or url), signature_text=_signature_text(signed_by)))


def license_text(*, name: str, questions: list[Question]) -> str:
    """LICENSE.md, which `license_link` points at when the license is `other`: whose the texts are."""
    sites = sorted({q.source_url.split("/")[2] for q in questions if q.source_url.count("/") >= 2})
    return "\n".join([
        f"# {name}: terms of use", "",
        "The questions, figures and answer keys in this release are taken from official national exam "
        "papers. Their copyright stays with the exam boards that published them; they are redistributed "
        "here for research on the evaluation of language models, under the terms each publisher sets "
        "for its exam archives. Check those terms before any other use.", "",
        "Publishers' sites the exam papers came from:", "", *[f"- {s}" for s in sites], "",
        "The examcorpus pipeline code that made this release is separate, under its own license.", ""])


def _num_bytes(qs: list[Question], figure_sizes: dict[str, int]) -> int:
    return questions_to_table(qs).nbytes + sum(figure_sizes.get(i.sha256, 0) for q in qs for i in q.images)


_TEMPLATE = """---
{{ card_data }}
---

# {{ title }}

{{ summary }}

## Configs

{{ configs_table }}

## Questions per exam, year and type

{{ counts_tables }}

## Splits

{{ splits_text }}

## Data Fields

{{ fields_table }}

## Example record

{{ example_intro }}

```json
{{ example }}
```

## How the split was made

{{ split_text }}

## How the data was made

Each question was taken from an official exam PDF by the examcorpus pipeline (pipeline version
{{ pipeline_version }}): download with conditional requests into content-addressed storage; the text
layer where it is usable, Tesseract OCR per page where it is not; headers, footers and scratch pages
removed; figures cropped to PNG; questions, options, types and answer keys parsed per sheet and
validated. Every record names the PDF it came from (`source_url`, `source_sha256`, `pages`);
`manifest.json` lists every PDF and every file of this release with its SHA-256, and `SHA256SUMS`
lets `sha256sum -c SHA256SUMS` (or `examcorpus verify`) check them.{{ signature_text }}

## Figures

{{ figures_text }}

## Loading

```python
from datasets import load_dataset
{{ load_line }}
```

`exports/` holds lm-evaluation-harness task YAML (run from the release folder:
`lm_eval --include_path exports/lm_eval --tasks {{ group }} ...`), an Inspect AI task and
LLMzSzŁ-compatible JSONL for Polish configs. The exports are text: `exports/left_out.jsonl` names the questions
they cannot ask, and `exports/figures_left_out.jsonl` those they ask without their figures (where there are any).

## Uses

- **Direct use**: evaluating language models (text-only or vision) on real national exam questions,
  by exam, year, subject, language and question type; `examcorpus eval` scores with a versioned
  protocol in each question's language and its printed labels.
- **Out of scope**: training or fine-tuning on these questions (it makes later evaluation on them
  meaningless), and any use the exam publishers' terms do not allow (see License).

## Limitations

- Questions whose validation found a problem (no key entry, key label not among options, damaged
  text) are left out of every release ({{ withheld }} such records in the split that made this one).
- OCR'd sheets may carry character errors that validation cannot see. A question resting on a reading
  OCR was unsure of is released with its `ocr.uncertain` flag (in `flags` and `flag_codes`) and its
  `reading_confidence`: filter on them to leave such questions out.
- Figure descriptions exist only where a reviewer accepted one (`image_description`); other figures
  are in the release as images only.
- Only closed question types have an `answer_index`; open questions have reference answers at most.
- The questions are public exam papers, so models may have seen them in training; the private
  (held-out) years exist to measure that.
- A release is immutable: corrections come as a new release id, listed under Errata.

## Personal information

The records hold exam questions, options, keys and figures as the exam boards published them, and
the names of the reviewers who accepted figure descriptions (`reviewed_by`). They hold no candidate
data: no answers, scores or names of anyone who sat the exams.

## Errata

{{ errata_text }}

## License

{{ license_text }}

## Citation

```bibtex
{{ citation }}
```
"""


def _sections(*, name, release_id, split, by_config, rule, withheld, repo_hint, info: CardInfo, year: int,
              errata: list[Erratum], previous_release, figure_sizes: dict[str, int], url: str | None) -> dict:
    questions = [q for qs in by_config.values() for q in qs]
    rows = ["| config | language | exam | subject | questions | figures | years |", "|---|---|---|---|---|---|---|"]
    for config, qs in sorted(by_config.items()):
        rows.append(f"| {_code(config)} | {_md(', '.join(sorted({q.language for q in qs})))} "
                    f"| {_md(', '.join(sorted({q.exam for q in qs})))} "
                    f"| {_md(', '.join(sorted({q.subject for q in qs})))} | {len(qs)} | {sum(len(q.images) for q in qs)} "
                    f"| {_years(qs)} |")
    private_years = "; ".join(f"{_md(s)}: {', '.join(map(str, y)) or '–'}" for s, y in sorted(rule["private_years"].items()))
    held = ("These are the **public** questions: the years below are held back in a private split so that "
            "later models can be tested on questions they cannot have seen." if split == "public" else
            "These are the **private** (held-out) questions. Do not publish them or train on them.")
    split_text = (f"{held}\n\nRule (version {rule['version']}, config SHA-256 `{rule['config_sha256'][:16]}…`): "
                  f"{_md(rule['description'])}. Private years: {private_years}.\n\nA leakage guard checked every private "
                  "question against every public one by id, normalised text, near-duplicate text (MinHash LSH over "
                  "character 5-gram shingles of question and options, verified by exact Jaccard) and figure SHA-256.")
    first = sorted(by_config)[0] if by_config else ""
    n_figures = sum(len(q.images) for q in questions)
    described = sum(1 for q in questions if q.images and q.image_description)
    return {
        "title": _md(f"{name}: release {release_id}, {split} split"),
        "summary": f"{len(questions)} exam questions ({n_figures} figure(s)) in {len(by_config)} config(s), languages "
                   f"{_md(', '.join(sorted({q.language for q in questions})))}, years {_years(questions)}.",
        "configs_table": "\n".join(rows),
        "counts_tables": _counts_tables(questions),
        "splits_text": (f"This release holds the examcorpus **{split}** split. On the Hub its split is called "
                        f"`{HUB_SPLIT}`, the name evaluation tools look for: `load_dataset(..., split=\"{HUB_SPLIT}\")`. "
                        f"The files keep the examcorpus name ({_code(data_path(first or '<config>', split))}) and "
                        "`manifest.json` says which split they are. Releases made before this naming call the "
                        "split `public` in their card."),
        "fields_table": data_fields_table(),
        "example_intro": (f"The first question of config {_code(first)} (long texts cut at {EXAMPLE_TEXT_CHARS} characters; "
                          f"`{FIGURES_FIELD}` shown by size and SHA-256):" if split == "public" else
                          f"The shape of a record of config {_code(first)}; this card is of the private split, so its "
                          "texts are withheld here:"),
        "example": _example(by_config.get(first, []), split, figure_sizes),
        "split_text": split_text,
        "pipeline_version": PIPELINE_VERSION,
        "figures_text": (f"{n_figures} figure(s), in `{FIGURES_FIELD}` as images (`datasets` yields PIL images), in the "
                         f"order of `images`, whose `sha256` is each one's SHA-256; `manifest.json` lists every "
                         f"figure with its SHA-256 and, for the {described} question(s) with figures a reviewer "
                         "described, the accepted description and transcription beside it."),
        "load_line": _one_line(f'ds = load_dataset({json.dumps(repo_hint)}, {json.dumps(first)}, split="{HUB_SPLIT}", '
                               f'revision={json.dumps(release_id)})' if repo_hint else
                               f'ds = load_dataset("path/to/this/release", {json.dumps(first)}, split="{HUB_SPLIT}")'),
        "group": _one_line(f"{name.replace('-', '_')}_{split}").replace("`", "'"),
        "withheld": withheld,
        "errata_text": _errata_text(errata, previous_release),
        "license_text": _license_section(info),
        "citation": _citation(name, release_id, info, url, year, rule),
    }


def _signature_text(signed_by: PublicKey | None) -> str:
    """Nothing for an unsigned release (`verify` says it is unsigned); the key and how to check it for a signed one."""
    if signed_by is None:
        return ""
    return ("\n\n`" + SIGNATURE_NAME + "` is the publisher's signature of `manifest.json`. "
            + CARD_KEY_LINE.format(key=signed_by.text, fingerprint=signed_by.fingerprint)
            + " Check it against a copy of the publisher's public key you obtained from the publisher, not from this "
            "card (whoever rewrites a release can rewrite its card): `examcorpus verify --key publisher.pub RELEASE`, "
            "or `openssl pkeyutl -verify -pubin -inkey publisher.pub -rawin -in manifest.json -sigfile "
            f"{SIGNATURE_NAME}`.")


def _example(qs: list[Question], split: str, figure_sizes: dict[str, int]) -> str:
    if not qs:
        return "{}"
    q = sorted(qs, key=lambda q: q.id)[0]
    row = q.to_row()
    row[FIGURES_FIELD] = [{"path": figure_name(i.sha256), "bytes": f"<PNG, {figure_sizes.get(i.sha256, 0)} bytes>"}
                          for i in q.images]
    for key in ("question", "context", "image_description", "image_transcription"):
        if isinstance(row.get(key), str):
            row[key] = _cut(row[key]) if split == "public" else "(withheld: private split)"
    row["choices"] = [_cut(c) if split == "public" else "(withheld)" for c in row["choices"]]
    return json.dumps(row, ensure_ascii=False, indent=2)


def _cut(text: str) -> str:
    return text if len(text) <= EXAMPLE_TEXT_CHARS else text[:EXAMPLE_TEXT_CHARS] + "…"


def _errata_text(errata: list[Erratum], previous_release: str | None) -> str:
    if previous_release is None:
        return "This is the first release of this split: no errata."
    if not errata:
        return f"No question changed or was removed since release {previous_release}."
    rows = [f"{len(errata)} question(s) changed or removed since release {previous_release} "
            "(also in `manifest.json` `errata`):", "", "| id | change | why |", "|---|---|---|"]
    rows += [f"| `{e.id}` | {e.change} | {_table_cell(e.reason)} |" for e in errata[:ERRATA_SHOWN]]
    if len(errata) > ERRATA_SHOWN:
        rows += ["", f"…and {len(errata) - ERRATA_SHOWN} more in `manifest.json`."]
    return "\n".join(rows)


def _table_cell(text: str) -> str:
    """`text` as one Markdown table cell that renders as the text itself: an erratum's reason quotes old and new
    answers, and an open question's answer is the sheet's text (a line break would end the table, `|` a cell, and
    markup such as `<img onerror=…>` would be HTML wherever the card is rendered)."""
    one_line = " ".join(text.split())
    return one_line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "/")


def _license_section(info: CardInfo) -> str:
    fields = info.license_fields()
    if info.license_id == "other":
        return (f"{_code(info.license_id)} ({_md(fields['license_name'])}, see {_link(fields['license_link'])}): the "
                "exam texts, figures and keys belong to the exam boards that published them.")
    return _code(info.license_id) + (f" ({_link(fields['license_link'])})" if fields else "")


# Markdown's inline syntax (emphasis, code, links, images, tables' cells, headings, strike-through, HTML)
_MARKDOWN = re.compile(r"([\\`*_\[\]()!|#~])")  # and `<`, `>`, `&` as HTML's references
_SAFE_LINK = re.compile(r"(?:https?://[^\s<>()\\`]+|(?![a-zA-Z][a-zA-Z0-9+.-]*:)[A-Za-z0-9_./-]+)")


def _shown(text: object) -> str:
    """`text` on one line, controls, bidi controls and other invisible format characters (zero-width spaces,
    joiners) shown as their escapes: a name reads as what it holds."""
    one_line = printable(" ".join(str(text).split()), newlines=False)
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cf" else c for c in one_line)


def _md(text: object) -> str:
    """Sheet or spec text as Markdown that renders as the text itself, whatever renders it: one line (a break would
    end a table or start a block), Markdown's syntax escaped (`[x](javascript:…)` is no link, `|` no cell), HTML
    escaped (`<img onerror>` is no element, on a renderer that keeps raw HTML too)."""
    return html.escape(_MARKDOWN.sub(r"\\\1", _shown(text)), quote=False)


def _code(text: object) -> str:
    """A name as an inline code span: fenced by more backticks than it holds."""
    shown = _shown(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", shown)), default=0) + 1)
    return f"{fence} {shown} {fence}" if "`" in shown else f"`{shown}`"


def _link(url: object) -> str:
    """A link to `url` where it is an http(s) URL or a path inside the release; otherwise its text, no link."""
    shown = _shown(url)
    return f"[{_md(shown)}]({shown})" if _SAFE_LINK.fullmatch(shown) else _md(shown)


def _one_line(text: str) -> str:
    """Text inside a fenced block on one line: a fence closes only at a line's start."""
    return _shown(text)


def _citation(name: str, release_id: str, info: CardInfo, url: str | None, year: int, rule: dict) -> str:
    key = _one_line(f"{name}_{release_id}".replace("-", "_").replace(".", "_"))
    authors = _one_line(" and ".join(info.authors)) or f"{{{_one_line(name)} contributors}}"
    name, release_id, url = _one_line(name), _one_line(release_id), _one_line(url) if url else None
    return "\n".join([
        f"@misc{{{key},",
        f"  author = {{{authors}}},",
        f"  title = {{{name}: national exam questions as an LLM benchmark, release {release_id}}},",
        f"  year = {{{year}}},",
        *([f"  url = {{{url}}},", f"  howpublished = {{\\url{{{url}}}}},"] if url else []),
        f"  note = {{examcorpus pipeline {PIPELINE_VERSION}, split rule {rule['config_sha256'][:16]}}}",
        "}",
    ])


def _years(questions: list[Question]) -> str:
    years = sorted({q.year for q in questions})
    return f"{years[0]}–{years[-1]}" if len(years) > 1 else (str(years[0]) if years else "–")


def _counts_tables(questions: list[Question]) -> str:
    def table(title: str, key) -> list[str]:
        counts = Counter(key(q) for q in questions)
        return [f"**{title}**", "", "| | questions |", "|---|---|", *[f"| {_md(k)} | {n} |" for k, n in sorted(counts.items())],
                ""]

    return "\n".join(table("per exam", lambda q: f"{q.exam} ({q.source})")
                     + table("per year", lambda q: str(q.year))
                     + table("per type", lambda q: q.type)).rstrip()
