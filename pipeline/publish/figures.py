"""The figures a release carries: each question's `images` as PNG bytes, read from the curator's
figure crops, checked against the SHA-256 the record names, and listed in the manifest with the
reviewed description beside each.

A figure that is missing or whose bytes are not the ones the record names stops the release: a
release without its figures is not the benchmark, and one with other pixels is a different one.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.infra import sha256_file
from pipeline.records import Question

SHOWN_PROBLEMS = 5
NUMBERED_PART = re.compile(r"^\[(\d+)\] ?", re.M)  # the review merge numbers several figures "[1] …\n\n[2] …"


class FigureError(ValueError):
    """Figures a release needs that cannot be read as the records name them."""


@dataclass(frozen=True)
class FigureEntry:
    """One figure of one question, as `manifest.json` lists it."""

    question: str
    index: int  # position in the question's `images` and `figures`
    sha256: str
    bytes: int
    config: str
    description: str | None  # the reviewed description of this figure; null until reviewed
    transcription: str | None
    reviewed_by: str | None


def locate_figures(questions: list[Question], images_root: Path) -> dict[str, Path]:
    """SHA-256 → file for every image the questions name (`images_root / image.path`), each checked
    against its SHA-256. Paths, not bytes: a config's figures are read when its Parquet is written, so
    a release never holds every figure in memory at once."""
    found: dict[str, Path] = {}
    problems: list[str] = []
    for q in questions:
        for image in q.images:
            if image.sha256 in found:
                continue
            path = Path(images_root) / image.path
            if not path.is_file():
                problems.append(f"{q.id}: figure {path} not found")
            elif sha256_file(path) != image.sha256:
                problems.append(f"{q.id}: figure {path} is not the one the record names (SHA-256 differs)")
            else:
                found[image.sha256] = path
    if problems:
        more = f" (and {len(problems) - SHOWN_PROBLEMS} more)" if len(problems) > SHOWN_PROBLEMS else ""
        raise FigureError(f"{len(problems)} figure(s) cannot go into the release: "
                          f"{'; '.join(problems[:SHOWN_PROBLEMS])}{more}. Figure paths are relative to the "
                          f"images root {Path(images_root).resolve()} (publish --images-root)")
    return found


def read_figures(questions: list[Question], located: dict[str, Path]) -> dict[str, bytes]:
    """SHA-256 → PNG bytes of the figures these questions name, hashed again as read (a file changed
    since `locate_figures` must not slip into the release)."""
    found: dict[str, bytes] = {}
    for image in (image for q in questions for image in q.images):
        data = located[image.sha256].read_bytes()
        if hashlib.sha256(data).hexdigest() != image.sha256:
            raise FigureError(f"figure {located[image.sha256]} changed while the release was being written")
        found[image.sha256] = data
    return found


def figure_entries(by_config: dict[str, list[Question]], sizes: dict[str, int]) -> list[FigureEntry]:
    return [
        FigureEntry(q.id, i, image.sha256, sizes[image.sha256], config,
                    nth_part(q.image_description, i, len(q.images)), nth_part(q.image_transcription, i, len(q.images)),
                    q.reviewed_by)
        for config, qs in sorted(by_config.items()) for q in sorted(qs, key=lambda q: q.id)
        for i, image in enumerate(q.images)
    ]


def nth_part(text: str | None, index: int, count: int) -> str | None:
    """The part of a reviewed text about figure `index` (0-based) of `count`: the whole text for one
    figure, the `[index+1] …` part for several (the whole text when it is not numbered)."""
    if text is None or count <= 1:
        return text
    marks = list(NUMBERED_PART.finditer(text))
    if not marks:
        return text
    for n, mark in enumerate(marks):
        if int(mark.group(1)) == index + 1:
            end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
            return text[mark.end():end].strip() or None
    return None
