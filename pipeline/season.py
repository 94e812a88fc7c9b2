"""The season run: acquire → extract → parse → curated Parquet + report, for one source spec.

Per-file work (extract, parse) is a pure function of (file bytes, spec, stage version) and is cached
by content hash, so a re-run with nothing new reads everything from the cache, and a run killed at
any point and started again gives exactly the output of an uninterrupted run. Files run under an
executor (a local process pool by default; see pipeline/infra/executors.py) that a distributed engine can
replace without changing any stage.

Nothing curated is lost to a fault: a sheet that could not be extracted (a bad file, or OCR that could
not run) keeps its earlier records, and so does a sheet whose key cannot be read, is gone, or turns out
to be another sheet's key (pipeline.parse.keymatch). Each of these is a problem in the report, so
`--strict` fails on it. OCR that could not run is never cached: the next run with Tesseract does the work.
A sheet is known by its content (SHA-256), so the same file from another folder or mirror finds its
earlier records. Two sheets whose records get one id are an error, never one written over the other.
Every run applies the curators' corrections and the accepted figure descriptions (pipeline.review), so
curated data always carries them.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from pipeline import PIPELINE_VERSION
from pipeline.diagnostics import Code, diagnose, from_records, has_code, to_records
from pipeline.infra import StageCache, add_seconds, fingerprint, make_executor, pool_size, printable, progress, settle, take
from pipeline.languages import data_sha256
from pipeline.extract import ExtractedDocument
from pipeline.acquire import ManifestEntry
from pipeline.acquire import SheetJob, pair_files
from pipeline.patterns import PatternTimeout
from pipeline.records import Question
from pipeline.report import FileReport, RunReport
from pipeline.specs import SourceSpec
from pipeline.curation import apply_accepted_descriptions, apply_curator_overrides, carry_stored_work, quarantine, record_rejections
from pipeline.seasoncurated import (check_curated_output, cross_sheet_collisions, displaced_records, earlier_records, file_stamp,
                                    flag_kept_answer, kept_for_unusable_key, merge_curated, questions_of, read_curated,
                                    write_curated)
from pipeline.seasonsnapshot import (Snapshot, curator_state, load_snapshot, save_snapshot, season_inputs,
                                     snapshot_of, trusted_curated)


class StrictModeFailure(RuntimeError):
    """--strict and at least one file had a problem: nothing curated was changed."""


@dataclass(frozen=True)
class RunOptions:
    root: Path  # project root holding raw/ and curated/
    years: tuple[int, ...] = ()
    base_url: str | None = None
    from_dir: Path | None = None
    out: Path | None = None  # curated Parquet path; default curated/<source>.parquet
    strict: bool = False
    workers: int | None = None
    executor: str = "process"
    show_progress: bool = True

    @property
    def raw_dir(self) -> Path:
        return self.root / "raw"

    @property
    def curated_dir(self) -> Path:
        return self.root / "curated"

    @property
    def cache_root(self) -> Path:
        return self.raw_dir / "cache"


class RunResult:
    """A run's report and curated records. A run with nothing new read no record: its `questions` are
    decoded, when asked for, from the curated file's bytes as the run found them."""

    def __init__(self, spec: str, curated_path: Path, report: RunReport, questions: list[Question] | None = None,
                 curated_bytes: bytes | None = None):
        self.spec, self.curated_path, self.report = spec, curated_path, report
        self._questions, self._curated_bytes = questions, curated_bytes

    @property
    def questions(self) -> list[Question]:
        if self._questions is None:
            self._questions = questions_of(self._curated_bytes) if self._curated_bytes else []
        return self._questions


# ---------------------------------------------------------------- acquire

def acquire(spec: SourceSpec, options: RunOptions):
    """Download (or ingest --from DIR) every file of the spec: a pipeline.acquire.DownloadResult."""
    from pipeline.acquire import download_source, ingest_local

    if options.from_dir is not None:
        result = ingest_local(spec, options.from_dir, options.raw_dir)
    else:
        result = download_source(
            spec,
            options.raw_dir,
            years=list(options.years) or None,
            base_url=options.base_url,
            progress=options.show_progress,
        )
    return result


# ---------------------------------------------------------------- extract (per file, in workers)

@dataclass(frozen=True)
class ExtractTask:
    path: Path
    sha256: str
    options: object  # pipeline.extract.ExtractOptions
    cache_root: Path
    cache_key: str
    # The run's pending extractions the process running this task is likely to run (all of them inline, a
    # worker's share in a pool): what it plans to read (`pipeline.extract.plan_files`). No part of the output.
    share: int = 0


@dataclass(frozen=True)
class ExtractOutcome:
    sha256: str
    cache_key: str
    error: str | None
    page_count: int
    ocr_pages: int
    from_cache: bool
    # The stage could not do its work (OCR unavailable): a failure of this run, not of the file.
    # Not cached, not quarantined; the next run tries again.
    unavailable: bool = False
    warnings: tuple[str, ...] = ()  # what extraction did in place of the usual (pages sent to OCR, doubtful OCR, figures not cropped)
    seconds: dict[str, float] = field(default_factory=dict)  # worker seconds per step (text, layout, ocr, figures)


def run_extract_task(task: ExtractTask) -> ExtractOutcome:
    """Pure and idempotent: safe to run twice, in any process or on any machine sharing raw/."""
    from pipeline.extract import ExtractError, StageUnavailable, extract_document, plan_files

    take()  # this file's steps only, not what the worker timed before
    # A summary is a few hundred bytes, cheaper to work out again than to fsync (`StageCache`'s durable):
    # one a power cut left unreadable is none. The document it names is written durably before it.
    cache = StageCache(task.cache_root, "extract", durable=False)
    summary = cache.whole_json(task.cache_key)
    if summary is not None and "error" in summary:
        return ExtractOutcome(task.sha256, task.cache_key, summary["error"], 0, 0, True)
    if summary is not None and _figures_present(summary, task):
        return ExtractOutcome(task.sha256, task.cache_key, None, summary["page_count"], summary["ocr_pages"], True,
                              warnings=tuple(from_records(summary.get("warnings", ()), Code.EXTRACT_NOTE)))
    plan_files(task.share)
    try:
        document = extract_document(task.path, task.sha256, task.options)
    except ExtractError as exc:
        # Bad input is a property of the bytes: remembering it keeps re-runs fast and consistent.
        cache.put(task.cache_key, json.dumps({"error": str(exc)}, ensure_ascii=False))
        return ExtractOutcome(task.sha256, task.cache_key, str(exc), 0, 0, False)
    except StageUnavailable as exc:
        # Nothing is cached: once the tool is back, the next run does the work.
        return ExtractOutcome(task.sha256, task.cache_key, str(exc), 0, 0, False, unavailable=True)
    except PatternTimeout as exc:
        # The spec's fault, not the file's: not cached, not quarantined; a fixed spec reads it next run.
        return ExtractOutcome(task.sha256, task.cache_key, str(exc), 0, 0, False, unavailable=True)
    StageCache(task.cache_root, "documents").put(task.cache_key, document.to_json())
    figure_paths = sorted(f.path for page in document.pages for f in page.figures)
    summary = {"page_count": document.page_count, "ocr_pages": document.ocr_pages, "figures": figure_paths,
               "warnings": to_records(document.warnings, Code.EXTRACT_NOTE)}
    cache.put(task.cache_key, json.dumps(summary, ensure_ascii=False))
    return ExtractOutcome(task.sha256, task.cache_key, None, document.page_count, document.ocr_pages, False,
                          warnings=tuple(document.warnings), seconds=take())


def _figures_present(summary: dict, task: ExtractTask) -> bool:
    """The cache key holds no root, so a cached document may come from another root: its figure crops
    (paths relative to the root) must be there too, or the file is extracted again."""
    root = Path(task.options.figures_root or ".")
    return all((root / path).is_file() for path in summary.get("figures", []))


def _extract_all(entries: list[ManifestEntry], spec: SourceSpec, options: RunOptions) -> dict[str, ExtractOutcome]:
    from pipeline import extract

    extract_options = extract.ExtractOptions.from_spec(
        spec, figures_dir=options.raw_dir / "figures", figures_root=options.root,
        ocr_cache_dir=str(options.cache_root),  # per-page OCR readings: a layout edit never re-runs Tesseract
    )
    stage_version = getattr(extract, "STAGE_VERSION", PIPELINE_VERSION)
    # The key holds content, spec and stage version only: the root's absolute path is no part of the
    # result (image paths in records are relative to it), so a copied or moved root keeps its cache.
    figures_dir = Path(extract_options.figures_dir).relative_to(options.root).as_posix()
    # As plain values once, not once per file: the key's JSON (and so the key) is the same either way.
    keyed_options = asdict(replace(extract_options, figures_dir=figures_dir, figures_root=None, ocr_cache_dir=None))
    language_data = data_sha256()  # OCR's passes and the text path's repairs read it: an edit extracts again
    tasks: dict[str, ExtractTask] = {}
    for entry in entries:
        if entry.ok and entry.sha256 not in tasks:
            key = fingerprint("extract", stage_version, entry.sha256, keyed_options, language_data)
            tasks[entry.sha256] = ExtractTask(
                options.root / entry.path, entry.sha256, extract_options, options.cache_root, key
            )
    outcomes: dict[str, ExtractOutcome] = {}
    pending = [t for t in tasks.values() if not StageCache(options.cache_root, "extract").has(t.cache_key)]
    share = -(-len(pending) // pool_size(options.executor, options.workers))
    pending = [replace(t, share=share) for t in pending]
    waiting = {t.sha256 for t in pending}  # a set: `task in pending` made a first run quadratic in files
    for task in tasks.values():
        if task.sha256 not in waiting:
            outcomes[task.sha256] = run_extract_task(task)
    if pending:
        with make_executor(options.executor, options.workers) as pool:
            bar = progress(total=len(pending), desc=f"extract {spec.name}", unit="file", enabled=options.show_progress)
            for outcome in pool.imap_unordered(run_extract_task, pending):
                outcomes[outcome.sha256] = outcome
                bar.update(1)
            bar.close()
    return outcomes


def _load_document(outcome: ExtractOutcome, cache_root: Path) -> ExtractedDocument:
    text = StageCache(cache_root, "documents").get(outcome.cache_key)
    if text is None:
        raise FileNotFoundError(f"extract cache entry {outcome.cache_key} vanished; delete raw/cache and re-run")
    return ExtractedDocument.from_json(text)


# ---------------------------------------------------------------- parse (per sheet)

# How this run fetched a file, not what the file is: a re-run that gets 304 Not Modified (status, a new
# fetch time, the server's validators) hands parse the same input, so its cached result still holds.
_TRANSFER_FIELDS = {"status": None, "fetched_at": None, "etag": None, "last_modified": None}


def _parse_input(entry: ManifestEntry) -> dict:
    return entry.to_dict() | _TRANSFER_FIELDS


def _read_by_ocr(outcome: ExtractOutcome) -> bool:
    """Whether OCR read any of the file: whole pages, or drawn text and unmapped glyphs on a text page."""
    return outcome.ocr_pages > 0 or has_code(outcome.warnings, Code.DRAWN_TEXT_READ, Code.UNMAPPED_READ)


def _spec_for_parse_key(spec: SourceSpec) -> dict:
    """What of the spec the parse cache key holds (taken once a run, not once a sheet)."""
    return spec.model_dump(mode="json", exclude={"path", "download"})


def _parse_key(job: SheetJob, outcomes: dict[str, ExtractOutcome], spec: SourceSpec, spec_key: dict) -> str:
    """The parse cache key of one sheet: its extracted sheet and keys, the spec, the stage and pass versions."""
    from pipeline import parse

    parse_version = getattr(parse, "STAGE_VERSION", PIPELINE_VERSION)
    sheet_outcome = outcomes[job.sheet.sha256]
    key_outcomes = [(outcomes[k.sha256], k) for k in job.keys if outcomes[k.sha256].error is None]
    # Each OCR recovery pass's version: bumping one parses again only the sheets it can change.
    read_by_ocr = any(_read_by_ocr(o) for o in [sheet_outcome, *(o for o, _ in key_outcomes)])
    recovery = parse.recovery_key(spec.ocr.passes.disable, read_by_ocr)
    return fingerprint(
        "parse", parse_version, sheet_outcome.cache_key, [o.cache_key for o, _ in key_outcomes], spec_key,
        _parse_input(job.sheet), [_parse_input(k) for _, k in key_outcomes], recovery,
    )


def _parse_job(job: SheetJob, outcomes: dict[str, ExtractOutcome], spec: SourceSpec, options: RunOptions,
               spec_key: dict | None = None, cache_key: str | None = None):
    """Returns (questions, problems, why no key could be applied) for one sheet, from the parse cache when
    the inputs are unchanged. `spec_key`: `_spec_for_parse_key(spec)`, and `cache_key`: `_parse_key(...)`,
    when the caller has them already."""
    from pipeline import parse

    sheet_outcome = outcomes[job.sheet.sha256]
    key_outcomes = [(outcomes[k.sha256], k) for k in job.keys if outcomes[k.sha256].error is None]
    cache = StageCache(options.cache_root, "parse", durable=False)  # an unreadable entry is parsed again
    if cache_key is None:
        cache_key = _parse_key(job, outcomes, spec, spec_key if spec_key is not None else _spec_for_parse_key(spec))
    data = cache.whole_json(cache_key)
    if isinstance(data, dict):
        problems, notes = from_records(data["problems"], Code.PROBLEM), from_records(data["notes"], Code.NOTE)
        return [Question.from_row(r) for r in data["questions"]], problems, data.get("key_unusable"), notes
    sheet_doc = _load_document(sheet_outcome, options.cache_root)
    keys = [(_load_document(o, options.cache_root), entry) for o, entry in key_outcomes]
    result = parse.parse_sheet(sheet_doc, job.sheet, keys, spec)
    payload = {
        "questions": [q.to_row() for q in result.questions], "problems": to_records(result.problems, Code.PROBLEM),
        "key_unusable": result.key_unusable, "notes": to_records(result.notes, Code.NOTE),
    }
    cache.put(cache_key, json.dumps(payload, ensure_ascii=False, sort_keys=True))
    return list(result.questions), list(result.problems), result.key_unusable, list(result.notes)


# ---------------------------------------------------------------- the run


def _nothing_new(snapshot: Snapshot, report: RunReport, files: dict[str, FileReport], options: RunOptions,
                 curated_path: Path, curated: bytes, started: float, stage_seconds: dict[str, float]) -> RunResult | None:
    """The last settled run's curated file stands: its report lines, this run's statuses and seconds.
    None (nothing written) under --strict when that report has problems: the full run says them."""
    report = replace(report, notes=list(report.notes))
    snapshot.restore(report, {url: f.status for url, f in files.items()})
    if options.strict and report.has_problems:
        return None
    report.curated_path = str(curated_path)
    report.seconds = round(time.time() - started, 3)
    report.stage_seconds = {stage: round(seconds, 3) for stage, seconds in stage_seconds.items()}
    report.write(options.curated_dir / "reports")
    return RunResult(spec=report.source, curated_path=curated_path, report=report, curated_bytes=curated)


def run_source(spec: SourceSpec, options: RunOptions) -> RunResult:
    settle()  # the stages' modules and the spec are loaded: a program's run sets them aside (`infra.heap`)
    started = time.time()
    curated_path = options.out or options.curated_dir / f"{spec.name}.parquet"
    curated_stamp = file_stamp(curated_path)
    snapshot = load_snapshot(options.cache_root, spec.name, curated_path)
    trusted = trusted_curated(curated_path, snapshot)  # the last settled run's file: read only if needed
    # The curated file, read once a run (none when nothing is new).
    previous = None if trusted is not None else check_curated_output(curated_path, spec.name)
    acquired = acquire(spec, options)
    stage_seconds = {"download": time.time() - started}
    entries = list(acquired.entries)
    report = RunReport(
        source=spec.name, pipeline_version=PIPELINE_VERSION, notes=list(acquired.notes),
        ignored_links=acquired.unmatched, ignored_names=list(acquired.unmatched_names),
    )
    files: dict[str, FileReport] = {}
    for entry in entries:
        files[entry.url] = FileReport.from_entry(entry)

    pairing = pair_files(entries, spec.pairing)
    outcomes = _extract_all(entries, spec, options) if any(e.ok for e in entries) else {}
    for outcome in outcomes.values():
        stage_seconds = add_seconds(stage_seconds, outcome.seconds)
    for entry in entries:
        outcome = outcomes.get(entry.sha256) if entry.ok else None
        if outcome is None:
            continue
        if outcome.unavailable:
            files[entry.url].add_failure(outcome.error)
            continue
        files[entry.url].add_extraction(outcome.page_count, outcome.ocr_pages, outcome.error)
        files[entry.url].notes.extend(outcome.warnings)
        if outcome.error:
            quarantine(entry, outcome.error, options.root)
    bad = {e.url: outcomes[e.sha256 or ""] for e in entries if e.ok}
    record_rejections({url: (o.sha256, o.error) for url, o in bad.items() if o.error and not o.unavailable}, options.raw_dir)
    for url, message in pairing.problems.items():
        files[url].errors.append(message)

    spec_key = _spec_for_parse_key(spec)
    parse_keys = {job.sheet.url: _parse_key(job, outcomes, spec, spec_key) for job in pairing.jobs
                  if outcomes[job.sheet.sha256].error is None}
    inputs = season_inputs([files[url] for url in sorted(files)], [
        (job.sheet.url, parse_keys.get(job.sheet.url), len([k for k in job.keys if outcomes[k.sha256 or ""].error]))
        for job in pairing.jobs])
    settled = not any(o.unavailable for o in outcomes.values())  # OCR unavailable: the next run does the work
    changed_meanwhile = file_stamp(curated_path) != curated_stamp  # written meanwhile (another run)
    if (trusted is not None and snapshot is not None and settled and not changed_meanwhile and snapshot.inputs == inputs
            and snapshot.curator == curator_state(options.root)):
        result = _nothing_new(snapshot, report, files, options, curated_path, trusted, started, stage_seconds)
        if result is not None:
            return result
    if previous is None or changed_meanwhile:  # read as it is now
        previous = read_curated(curated_path)
    own_notes_from = len(report.notes)
    curated_by_sheet: list[tuple[SheetJob, list[Question]]] = []
    for job in pairing.jobs:
        sheet_outcome = outcomes[job.sheet.sha256]
        if sheet_outcome.error is not None:
            if sheet_outcome.unavailable and earlier_records(job.sheet, previous):
                files[job.sheet.url].errors.append(diagnose(Code.KEPT_EARLIER))
            continue
        failed_keys = [outcomes[k.sha256] for k in job.keys if outcomes[k.sha256].error is not None]
        if job.keys and len(failed_keys) == len(job.keys):
            files[job.sheet.url].errors.append(diagnose(Code.KEYS_FAILED))
        parse_started = time.perf_counter()
        try:
            questions, problems, key_unusable, notes = _parse_job(job, outcomes, spec, options, spec_key,
                                                                  parse_keys[job.sheet.url])
        except PatternTimeout as exc:  # a spec pattern that backtracks without end: this sheet only
            settled = False
            kept = bool(earlier_records(job.sheet, previous))
            files[job.sheet.url].errors.append(diagnose(
                Code.PATTERN_TIMEOUT, where=job.sheet.url, error=exc,
                consequence="its records curated earlier are kept unchanged" if kept else "this sheet was not parsed"))
            continue
        finally:
            stage_seconds = add_seconds(stage_seconds, {"parse": time.perf_counter() - parse_started})
        files[job.sheet.url].notes.extend(notes)
        if job.keys and len(failed_keys) == len(job.keys):
            key_unusable = "every answer key of this sheet failed to extract"
        kept, why = kept_for_unusable_key(job.sheet, previous) if key_unusable else ([], "")
        if kept:
            # A key that fails or disappears must not wipe answers already curated; but each kept
            # answer says it was not confirmed by this run, and the report counts it apart.
            problems = problems + [diagnose(Code.KEY_UNUSABLE_KEPT, why=key_unusable, count=len(kept), found=why)]
            kept = [flag_kept_answer(q) for q in kept]
            files[job.sheet.url].add_kept(kept, problems)
            curated_by_sheet.append((job, kept))
            continue
        files[job.sheet.url].add_parse(questions, problems)
        curated_by_sheet.append((job, questions))

    curate_started = time.perf_counter()
    collisions = cross_sheet_collisions(curated_by_sheet)
    earlier_by_id = {q.id: q for q in previous}
    fresh: list[Question] = []
    replaced: set[str] = set()
    for job, questions in curated_by_sheet:
        if job.sheet.url in collisions.errors:
            files[job.sheet.url].errors.append(collisions.errors[job.sheet.url])
            continue
        if job.sheet.url in collisions.copies:
            files[job.sheet.url].notes.append(collisions.copies[job.sheet.url])
            continue
        fresh.extend(questions)
        replaced.update((job.sheet.final_url, job.sheet.sha256))
        displaced = displaced_records(job.sheet, questions, earlier_by_id)
        if displaced:
            settled = False  # the next run finds these ids this sheet's: no note then
            files[job.sheet.url].notes.append(displaced)

    # Reviewed work is keyed by id: when a sheet's questions come back under other ids (an id rule
    # changed), the decisions, descriptions and corrections follow them instead of being orphaned.
    from pipeline.renames import renamed_ids

    renames = renamed_ids(previous, fresh)
    kept_ids = {q.id for q in previous if q.source_sha256 not in replaced and q.source_url not in replaced}  # as merge_curated keeps
    renames = carry_stored_work(options.root, spec.name, fresh, kept_ids | {q.id for q in fresh}, renames, report)
    fresh = apply_curator_overrides(fresh, spec, options.root, report, renames)
    merged = apply_accepted_descriptions(merge_curated(previous, fresh, replaced), options.root, report, renames)
    report.files = [files[url] for url in sorted(files)]
    report.curated_path = str(curated_path)
    reports_dir = options.curated_dir / "reports"
    if options.strict and report.has_problems:
        report.curated_questions = len(previous)
        report.curated_unchanged = True
        report.seconds = round(time.time() - started, 3)
        md_path, _ = report.write(reports_dir)
        listed = "\n".join(f"  problem {printable(line)}" for line in report.problem_lines())
        raise StrictModeFailure(
            f"--strict: {report.problem_count} problem(s) in {spec.name}; curated data left unchanged. See {md_path}\n{listed}"
        )
    curated_sha256 = write_curated(curated_path, merged)
    if renames:
        from pipeline.renames import RENAMES_FILE, record_renames

        record_renames(options.root, renames)
        report.notes.append(f"{len(renames)} record id(s) changed since the last run (e.g. {min(renames)} -> {renames[min(renames)]}); "
                            f"their reviews and corrections follow them ({RENAMES_FILE})")
    report.curated_questions = len(merged)
    report.seconds = round(time.time() - started, 3)
    stage_seconds["curate"] = time.perf_counter() - curate_started
    report.stage_seconds = {stage: round(seconds, 3) for stage, seconds in stage_seconds.items()}
    report.write(reports_dir)
    # A settled run is what the next one, with nothing new, leaves standing; any other forgets the last.
    save_snapshot(options.cache_root, spec.name, curated_path, snapshot_of(report, own_notes_from, inputs, curated_sha256,
                  options.root) if settled and not renames else None)
    return RunResult(spec=spec.name, curated_path=curated_path, report=report, questions=merged)
