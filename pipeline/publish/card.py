"""The dataset card: README.md with the YAML the Hub reads, and an overview a researcher reads.

The YAML is made with huggingface_hub's DatasetCardData (the Hub's own card model): `configs` with
`data_files` per split, `dataset_info` features per config, languages, license, task categories,
size category and pretty name. The overview has counts only, never question text, so a card cannot
leak a question.
"""
from __future__ import annotations

from collections import Counter

from pipeline import PIPELINE_VERSION
from pipeline.publish.layout import data_path, features_yaml, size_category
from pipeline.records import Question, questions_to_table

TASK_CATEGORIES = ["multiple-choice", "question-answering"]
TASK_IDS = ["multiple-choice-qa"]


def card_text(*, name: str, release_id: str, split: str, by_config: dict[str, list[Question]], rule: dict,
              license_id: str, withheld: int, repo_hint: str) -> str:
    from huggingface_hub import DatasetCard, DatasetCardData  # imported here: keeps `examcorpus` quick to start

    questions = [q for qs in by_config.values() for q in qs]
    data = DatasetCardData(
        pretty_name=f"{name} ({split} split, release {release_id})",
        language=sorted({q.language for q in questions}),
        license=license_id,
        task_categories=TASK_CATEGORIES,
        task_ids=TASK_IDS,
        size_categories=[size_category(len(questions))],
        configs=[{"config_name": c, "data_files": [{"split": split, "path": data_path(c, split)}]} for c in sorted(by_config)],
        dataset_info=[{"config_name": c, "features": features_yaml(),
                       "splits": [{"name": split, "num_bytes": questions_to_table(qs).nbytes, "num_examples": len(qs)}]}
                      for c, qs in sorted(by_config.items())],
    )
    return str(DatasetCard.from_template(data, template_str=_TEMPLATE, **_sections(
        name=name, release_id=release_id, split=split, by_config=by_config, rule=rule, withheld=withheld,
        repo_hint=repo_hint)))


_TEMPLATE = """---
{{ card_data }}
---

# {{ title }}

{{ summary }}

## Configs

{{ configs_table }}

## Questions per exam, year and type

{{ counts_tables }}

## How the split was made

{{ split_text }}

## How the data was made

Each question was taken from an official exam PDF by the examcorpus pipeline (pipeline version
{{ pipeline_version }}): download with conditional requests into content-addressed storage; the text
layer where it is usable, Tesseract OCR per page where it is not; headers, footers and scratch pages
removed; figures cropped to PNG; questions, options, types and answer keys parsed per sheet and
validated. Every record names the PDF it came from (`source_url`, `source_sha256`, `pages`);
`manifest.json` lists every PDF and every file of this release with its SHA-256.

## Loading

```python
from datasets import load_dataset
{{ load_line }}
```

`exports/` holds lm-evaluation-harness task YAML (run from the release folder:
`lm_eval --include_path exports/lm_eval --tasks {{ group }} ...`) and LLMzSzŁ-compatible JSONL for
Polish configs.

## Known limits

- Questions whose validation found a problem (no key entry, key label not among options, damaged
  text) are left out of every release ({{ withheld }} such records in the split that made this one).
- OCR'd sheets may carry character errors that validation cannot see; figures are referenced by
  path and SHA-256 (`images`), their pixels are not part of this release.
- Only closed question types have an `answer_index`; open questions have reference answers at most.
- A release is immutable: corrections come as a new release id, listed in `manifest.json` `errata`.

## Citation

```bibtex
{{ citation }}
```
"""


def _sections(*, name, release_id, split, by_config, rule, withheld, repo_hint) -> dict:
    questions = [q for qs in by_config.values() for q in qs]
    rows = ["| config | language | exam | subject | questions | years |", "|---|---|---|---|---|---|"]
    for config, qs in sorted(by_config.items()):
        rows.append(f"| `{config}` | {', '.join(sorted({q.language for q in qs}))} | {', '.join(sorted({q.exam for q in qs}))} "
                    f"| {', '.join(sorted({q.subject for q in qs}))} | {len(qs)} | {_years(qs)} |")
    private_years = "; ".join(f"{s}: {', '.join(map(str, y)) or '–'}" for s, y in sorted(rule["private_years"].items()))
    held = ("These are the **public** questions: the years below are held back in a private split so that "
            "later models can be tested on questions they cannot have seen." if split == "public" else
            "These are the **private** (held-out) questions. Do not publish them or train on them.")
    split_text = (f"{held}\n\nRule (version {rule['version']}, config SHA-256 `{rule['config_sha256'][:16]}…`): "
                  f"{rule['description']}. Private years: {private_years}.\n\nA leakage guard checked every private "
                  "question against every public one by id, normalised text, near-duplicate text (MinHash LSH over "
                  "character 5-gram shingles of question and options, verified by exact Jaccard) and figure SHA-256.")
    return {
        "title": f"{name}: release {release_id}, {split} split",
        "summary": f"{len(questions)} exam questions in {len(by_config)} config(s), languages "
                   f"{', '.join(sorted({q.language for q in questions}))}, years {_years(questions)}.",
        "configs_table": "\n".join(rows),
        "counts_tables": _counts_tables(questions),
        "split_text": split_text,
        "pipeline_version": PIPELINE_VERSION,
        "load_line": (f'ds = load_dataset("{repo_hint}", "{sorted(by_config)[0] if by_config else ""}", split="{split}", '
                      f'revision="{release_id}")' if repo_hint else
                      f'ds = load_dataset("path/to/this/release", "{sorted(by_config)[0] if by_config else ""}", split="{split}")'),
        "split": split,
        "release_id": release_id,
        "group": f"{name.replace('-', '_')}_{split}",
        "withheld": withheld,
        "name": name,
        "citation": _citation(name, release_id, repo_hint or "local release folder", rule, PIPELINE_VERSION),
    }


def _citation(name: str, release_id: str, repo_hint: str, rule: dict, pipeline_version: str) -> str:
    key = f"{name}_{release_id}".replace("-", "_").replace(".", "_")
    return "\n".join([
        f"@misc{{{key},",
        f"  title = {{{name}: national exam questions as an LLM benchmark, release {release_id}}},",
        f"  howpublished = {{{repo_hint}}},",
        f"  note = {{examcorpus pipeline {pipeline_version}, split rule {rule['config_sha256'][:16]}}}",
        "}",
    ])


def _years(questions: list[Question]) -> str:
    years = sorted({q.year for q in questions})
    return f"{years[0]}–{years[-1]}" if len(years) > 1 else (str(years[0]) if years else "–")


def _counts_tables(questions: list[Question]) -> str:
    def table(title: str, key) -> list[str]:
        counts = Counter(key(q) for q in questions)
        return [f"**{title}**", "", "| | questions |", "|---|---|", *[f"| {k} | {n} |" for k, n in sorted(counts.items())], ""]

    return "\n".join(table("per exam", lambda q: f"{q.exam} ({q.source})")
                     + table("per year", lambda q: str(q.year))
                     + table("per type", lambda q: q.type)).rstrip()
