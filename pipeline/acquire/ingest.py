"""`--from DIR`: a spec's files from a local folder into raw/, with the same storage, checks and manifest
as downloads. Symbolic links that lead out of the folder, loop or lead nowhere are skipped, and said so in
the result's notes (problem lines of the run's report); the other files are read.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path

from pipeline.acquire.download import MANIFEST_NAME, DownloadResult, FileJob, _now, _run_jobs
from pipeline.acquire.links import match_rules
from pipeline.acquire.manifest import Manifest, ManifestEntry
from pipeline.acquire.rawstore import RawStore
from pipeline.diagnostics import Code, diagnose
from pipeline.patterns import PatternTimeout
from pipeline.specs import SourceSpec


def folder_files(folder: Path) -> tuple[list[Path], list[str]]:
    """The regular files under `folder`, and a note (a problem line of the run's report) for each
    entry not read.

    A link to a file inside the folder is taken (by the link's own path); a link that leads outside
    it is refused, since --from promises to read that folder only; linked folders are not entered
    (they could loop, or repeat files already found); a link that loops or leads nowhere, an entry that is
    no regular file (a named pipe, a device, a socket), and a subfolder that cannot be listed, are said and
    skipped, and the other files are read.
    """
    root = folder.resolve()
    files: list[Path] = []
    notes: list[str] = []

    def unreadable(exc: OSError) -> None:
        notes.append(diagnose(Code.FOLDER_ENTRY_SKIPPED, path=exc.filename,
                              why=f"cannot list this folder ({exc.strerror}); its files were not read"))

    for current, dirs, names in os.walk(folder, followlinks=False, onerror=unreadable):
        here = Path(current)
        for name in sorted(dirs):
            if (here / name).is_symlink():
                notes.append(diagnose(Code.FOLDER_ENTRY_SKIPPED, path=here / name,
                                      why=f"symbolic link to a folder ({_link_text(here / name)}) not followed"))
        for name in sorted(names):
            path = here / name
            if path.is_symlink():
                problem = _link_problem(path, root)
                if problem:
                    notes.append(diagnose(Code.FOLDER_ENTRY_SKIPPED, path=path, why=f"{problem}; not read"))
                    continue
            if path.is_file():
                files.append(path)
            else:  # a named pipe would block the copy for ever; a device, a socket: no exam file either
                notes.append(diagnose(Code.FOLDER_ENTRY_SKIPPED, path=path,
                                      why="not a regular file (a named pipe, a device or a socket); not read"))
    return sorted(files), notes


def _link_text(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError as exc:
        return f"unreadable link: {exc.strerror}"


def _link_problem(path: Path, root: Path) -> str | None:
    """Why a symbolic link is not read (it loops, leads nowhere, or leads outside the folder), or None."""
    try:
        target = path.resolve(strict=True)
    except FileNotFoundError:
        return f"dangling symbolic link to {_link_text(path)} (nothing there)"
    except RuntimeError:  # Python < 3.13 says a loop this way
        return f"symbolic link loop ({_link_text(path)})"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"symbolic link loop ({_link_text(path)})"
        return f"symbolic link to {_link_text(path)} cannot be followed ({exc.strerror})"
    if not target.is_relative_to(root):
        return f"symbolic link to {target}, outside the --from folder {root}"
    return None


def ingest_local(spec: SourceSpec, folder: Path, raw_dir: Path, *, progress: bool = True) -> DownloadResult:
    """`--from DIR`: the spec's files from a local folder into raw_dir, with the same manifest and checks."""
    if spec.local is None:
        raise ValueError(f"{spec.path or spec.name}: this spec has no `local` section, so it cannot read --from DIR")
    folder = Path(folder)
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder}: --from needs a folder of exam files")
    result = DownloadResult(spec.name)
    store = RawStore(Path(raw_dir))
    manifest = Manifest.load(store.raw_dir / MANIFEST_NAME)
    jobs: list[tuple[FileJob, Path]] = []
    paths, result.notes = folder_files(folder)
    for path in paths:
        try:
            found = match_rules(path.relative_to(folder).as_posix(), spec.local.files)
        except PatternTimeout as exc:
            result.notes.append(diagnose(Code.PATTERN_TIMEOUT, where=path, error=exc, consequence="not read"))
            continue
        if found is None:
            result.unmatched += 1
            result.unmatched_names.append(path.relative_to(folder).as_posix())
            continue
        # The path as found (not resolved), so a link inside the folder keeps its own name and URL.
        uri = (folder.resolve() / path.relative_to(folder)).as_uri()
        jobs.append((FileJob(uri, found.role, found.facts, found.pattern), path))

    def copy_in(job: FileJob, path: Path) -> ManifestEntry:
        base = dict(url=job.url, final_url=job.url, spec=spec.name, role=job.role, facts=dict(job.facts), fetched_at=_now())
        if "year" not in job.facts:
            return ManifestEntry(status="failed", error=f"{path}: rule {job.rule!r} gives no year; add a (?P<year>...) group or a fixed `year` fact", **base)
        try:
            stored = store.ingest_copy(path, source_url=job.url)
        except OSError as exc:
            return ManifestEntry(status="failed", error=f"{path}: could not copy into {store.raw_dir} ({exc})", **base)
        common = dict(sha256=stored.sha256, bytes=stored.bytes, content_type="application/pdf" if stored.problem is None else None)
        if stored.problem is not None:
            return ManifestEntry(status="rejected", error=f"{path}: {stored.problem.what}, {stored.bytes} bytes; kept at {stored.path}", **base, **common)
        return ManifestEntry(status="local", path=stored.path, **base, **common)

    by_url = {job.url: path for job, path in jobs}
    result.entries = _run_jobs(
        [job for job, _ in jobs],
        lambda job: copy_in(job, by_url[job.url]),
        manifest=manifest,
        store=store,
        concurrency=1,  # a local disk gains nothing from threads here
        progress=progress,
        label=f"ingest {spec.name}",
        checkpoint_interval=1.0,
    )
    return result
