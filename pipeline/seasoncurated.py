"""A season run's curated records beside the sheets it parses: the curated Parquet it merges into (checked
to be this source's before anything runs, read, merged, written atomically), the earlier records a sheet
keeps when its key is unusable (each kept answer flagged), and the ids two sheets' records would share (an
error, or a note where one file is the other's copy). Split from pipeline.season, which runs these steps.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.acquire import ManifestEntry, SheetJob
from pipeline.diagnostics import Code, diagnose
from pipeline.infra import write_bytes_atomic
from pipeline.records import Question, conform_to_schema, questions_to_table, table_to_questions
from pipeline.seasonsnapshot import bytes_sha256


class CuratedOutputRefused(RuntimeError):
    """The curated file the run would write (`--out`) holds another source's records, or is no curated
    Parquet: merging into it would mix families or lose its content. Nothing was read or written."""


def read_curated(path: Path) -> list[Question]:
    if not path.exists():
        return []
    # ParquetFile, not read_table: the dataset machinery costs a third of a second to import.
    return table_to_questions(conform_to_schema(pq.ParquetFile(path).read()))


def questions_of(data: bytes) -> list[Question]:
    import io

    return table_to_questions(conform_to_schema(pq.ParquetFile(io.BytesIO(data)).read()))


def file_stamp(path: Path) -> tuple[int, int, int] | None:
    """(inode, size, modification time in ns) of a file, None when there is none: whether it changed."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def check_curated_output(path: Path, source: str) -> list[Question]:
    """A run merges into its curated file, so that file must be this source's: an `--out` naming another
    family's Parquet (or a file that is no curated Parquet) is refused before anything runs, never
    merged into (its records would be counted and written back as this source's). Returns the records
    it read ([] when there is no file yet), which the run merges into."""
    if not path.exists():
        return []
    try:
        previous = read_curated(path)
    except Exception as exc:  # pyarrow raises several kinds for a file that is not Parquet or not ours
        raise CuratedOutputRefused(
            f"{path}: not a curated Parquet file this run can merge into ({type(exc).__name__}: {exc}); "
            "give --out a new file or move this one away"
        ) from None
    others = sorted({q.source for q in previous if q.source != source})
    if others:
        count = sum(1 for q in previous if q.source != source)
        raise CuratedOutputRefused(
            f"{path} holds {count} curated record(s) of source(s) {', '.join(others)}, not {source}: a run merges "
            f"into its curated file, so it would mix the two; give --out a file of its own (e.g. "
            f"{path.with_name(source + '.parquet')}) or move this one away"
        )
    return previous


def merge_curated(previous: list[Question], fresh: list[Question], replaced: set[str]) -> list[Question]:
    """Keeps every earlier record whose sheet was not successfully re-processed in this run. A sheet is
    known by its content (`replaced` holds the SHA-256 of every sheet this run curated) and by its URL
    (a sheet reissued under the same address replaces its earlier version)."""
    merged = {q.id: q for q in previous if q.source_sha256 not in replaced and q.source_url not in replaced}
    merged.update({q.id: q for q in fresh})
    return [merged[k] for k in sorted(merged)]


def write_curated(path: Path, questions: list[Question]) -> str:
    """Writes the curated Parquet (atomically); returns its SHA-256."""
    import io

    buffer = io.BytesIO()
    pq.write_table(questions_to_table(questions), buffer, compression="zstd")
    write_bytes_atomic(path, buffer.getvalue())
    return bytes_sha256(buffer.getvalue())


def earlier_records(sheet: ManifestEntry, previous: list[Question]) -> list[Question]:
    """The sheet's records curated earlier, found by its content: the same bytes ingested from another
    --from folder or downloaded from a mirror are the same sheet. A sheet whose bytes changed is
    found by its address, as before."""
    same_bytes = [q for q in previous if q.source_sha256 == sheet.sha256]
    return same_bytes or [q for q in previous if q.source_url == sheet.final_url]


def kept_for_unusable_key(sheet: ManifestEntry, previous: list[Question]) -> tuple[list[Question], str]:
    """The sheet's earlier curated records, when any of them holds an answer: what a run whose key could
    not be read or applied keeps instead of replacing them with unanswered ones; and where they came from."""
    earlier = earlier_records(sheet, previous)
    if not any(q.answer is not None for q in earlier):
        return [], ""
    urls = sorted({q.source_url for q in earlier})
    if earlier[0].source_sha256 != sheet.sha256:
        return earlier, f"curated earlier from {', '.join(urls)}, an earlier version of this sheet"
    same_place = urls == [sheet.final_url]
    where = "" if same_place else f", curated from {', '.join(urls)}"
    return earlier, f"matched by the sheet's content (SHA-256 {sheet.sha256[:12]}…{where})"


def flag_kept_answer(question: Question) -> Question:
    """An earlier record kept because this run's key was unusable: its answer is flagged as not
    confirmed by this run (once, however many runs fail); the next run with a usable key replaces it."""
    if question.answer is None or any(f.code is Code.ANSWER_KEPT_FROM_EARLIER for f in question.flags):
        return question
    return replace(question, flags=[*question.flags, diagnose(Code.ANSWER_KEPT_FROM_EARLIER)], flag_codes=[])


@dataclass
class IdClashes:
    """Sheets of this run whose records would take ids another sheet's records already have (sheet URL ->
    the line for its report): an error where the sheets differ, a note where one file is another's copy."""

    errors: dict[str, str] = field(default_factory=dict)
    copies: dict[str, str] = field(default_factory=dict)


def cross_sheet_collisions(curated_by_sheet: list[tuple[SheetJob, list[Question]]]) -> IdClashes:
    """The first sheet (in URL order) keeps its ids; a later one whose ids clash is left out of this run's
    curated data whole (its earlier records stay), never written over another sheet's."""
    owner: dict[str, SheetJob] = {}
    clashing = IdClashes()
    for job, questions in curated_by_sheet:
        clashes = {q.id: owner[q.id] for q in questions if q.id in owner and owner[q.id].sheet.url != job.sheet.url}
        others = sorted({other.sheet.url for other in clashes.values()})
        if clashes and all(other.sheet.sha256 == job.sheet.sha256 for other in clashes.values()):
            clashing.copies[job.sheet.url] = f"the same file as {', '.join(others)}: its records are curated once, from there"
            continue
        if clashes:
            example = sorted(clashes)[0]
            clashing.errors[job.sheet.url] = (
                f"error: {len(clashes)} record id(s) of this sheet are also produced by {', '.join(others)} "
                f"(e.g. {example}); its records were left out of curated data (earlier ones kept): the spec's "
                "id parts (year, session, sheet_code and the file rule's facts) do not tell the two sheets apart"
            )
            continue
        owner.update((q.id, job) for q in questions)
    return clashing


def displaced_records(sheet: ManifestEntry, questions: list[Question], earlier_by_id: dict[str, Question]) -> str | None:
    """A sheet whose records take the ids of records curated earlier from another file (other bytes at
    another address: a reissue found elsewhere, or another sheet the ids do not tell apart): said, not silent."""
    others = [earlier_by_id[q.id] for q in questions if q.id in earlier_by_id]
    others = [q for q in others if q.source_sha256 != sheet.sha256 and q.source_url != sheet.final_url]
    if not others:
        return None
    urls = sorted({q.source_url for q in others})
    return f"replaces {len(others)} record(s) curated earlier from another file with the same ids: {', '.join(urls)}"
