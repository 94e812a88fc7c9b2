"""The release manifest (`manifest.json`) and the errata: what changed since the previous release.

The manifest names the release, lists every other file of it (but SHA256SUMS, which lists the
manifest) with SHA-256, size, rows and config, every figure (question, position, SHA-256, the reviewed
description), the source PDFs its questions came from (URL + SHA-256), the pipeline version and the split rule.
`eval.dataset.loading` reads releases through it (`name`, `version`, `files[].path/sha256/config`).

A public release's split rule names no private question: the leakage guard's reviewed `allowed_pairs` (a private and
a public id the curators let stand) keep their public side and their count, the private id replaced by
`PRIVATE_ID_WITHHELD` (`public_rule`); the rule stays pinned by its `config_sha256`, which the split took over the
whole config. The leakage check looks for private text, not ids: a private id in a public manifest said which
questions were held out, and which public one each resembles.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pipeline import PIPELINE_VERSION
from pipeline.publish.figures import FigureEntry
from pipeline.records import QUESTION_FIELDS, Question

PRIVATE_ID_WITHHELD = "(private id: not in a public release)"
# A change to these is not an erratum: the pipeline that made the record, or the mirror it came from.
PROVENANCE_ONLY = frozenset({"pipeline_version", "source_url", "flags", "flag_codes"})
CONTENT_FIELDS = tuple(f for f in QUESTION_FIELDS if f not in PROVENANCE_ONLY and f != "id")


@dataclass(frozen=True)
class Erratum:
    id: str
    change: str  # "changed" | "removed"
    reason: str


@dataclass(frozen=True)
class FileEntry:
    path: str
    sha256: str
    bytes: int
    rows: int | None = None
    config: str | None = None
    split: str | None = None


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def errata(previous: list[Question], current: list[Question]) -> tuple[list[Erratum], int]:
    """Changed and removed ids with why, and how many ids are new. The reason names fields; for the
    key it shows old and new labels, since a changed key is what a user most needs to know about."""
    now = {q.id: q for q in current}
    found = []
    for old in sorted(previous, key=lambda q: q.id):
        new = now.get(old.id)
        if new is None:
            found.append(Erratum(old.id, "removed", "not in this release (withheld, moved to the private split, or dropped)"))
            continue
        changed = [f for f in CONTENT_FIELDS if _comparable(old, f) != _comparable(new, f)]
        if changed:
            parts = [f"answer {old.answer} → {new.answer}" if f == "answer" else f"{f} changed" for f in changed]
            found.append(Erratum(old.id, "changed", "; ".join(parts)))
    added = len(set(now) - {q.id for q in previous})
    return found, added


def _comparable(q: Question, name: str):
    value = getattr(q, name)
    if name == "images":  # the figure, not where this machine keeps its crop
        return [(img.page, tuple(img.bbox), img.sha256) for img in value]
    return value


def source_documents(questions: list[Question]) -> list[dict]:
    """The PDFs the release's questions came from: URL, SHA-256 and how many questions each gave."""
    counts: dict[tuple[str, str], int] = {}
    for q in questions:
        counts[(q.source_url, q.source_sha256)] = counts.get((q.source_url, q.source_sha256), 0) + 1
    return [{"url": url, "sha256": sha, "questions": n} for (url, sha), n in sorted(counts.items())]


def build_manifest(*, name: str, release_id: str, split: str, visibility: str, files: list[FileEntry],
                   questions: list[Question], split_manifest: dict, previous_release: str | None,
                   found_errata: list[Erratum], added: int, created_at: str, figures: list[FigureEntry],
                   signature: dict | None = None) -> dict:
    """`signature`: the publisher's key that signs this manifest (`signing.PublicKey.manifest_entry`), where signed."""
    return {
        "name": name,
        "version": release_id,  # eval.dataset.loading's key for the release id
        "release": release_id,
        "split": split,
        "visibility": visibility,
        "created_at": created_at,
        "pipeline_version": PIPELINE_VERSION,
        "split_rule": split_manifest["rule"] if split != "public" else public_rule(split_manifest["rule"]),
        "curated_inputs": split_manifest.get("inputs", []),
        "counts": {"questions": len(questions), "configs": len({f.config for f in files if f.config}),
                   "figures": len(figures)},
        "files": [asdict(f) for f in sorted(files, key=lambda f: f.path)],
        "figures": [asdict(f) for f in figures],
        "sources": source_documents(questions),
        "previous_release": previous_release,
        "errata": [asdict(e) for e in found_errata],
        "added_since_previous": added,
        **({"signature": signature} if signature is not None else {}),
    }


def public_rule(rule: dict) -> dict:
    """The split rule as a public release records it: each allowed pair's private id withheld."""
    leakage = (rule.get("config") or {}).get("leakage") or {}
    pairs = leakage.get("allowed_pairs") or []
    if not pairs:
        return rule
    withheld = [[PRIVATE_ID_WITHHELD, *pair[1:]] for pair in pairs]
    return {**rule, "config": {**rule["config"], "leakage": {**leakage, "allowed_pairs": withheld}}}


def manifest_json(manifest: dict) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
