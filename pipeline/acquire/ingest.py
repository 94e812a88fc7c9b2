"""`--from DIR`: a spec's files from a local folder into raw/, with the same storage, checks and manifest
as downloads. Symbolic links that lead out of the folder are refused, and said so in the result's notes.
"""
from __future__ import annotations

import os
from pathlib import Path

from pipeline.acquire.download import MANIFEST_NAME, DownloadResult, FileJob, _now, _run_jobs
from pipeline.acquire.links import match_rules
from pipeline.acquire.manifest import Manifest, ManifestEntry
from pipeline.acquire.rawstore import RawStore
from pipeline.specs import SourceSpec


def folder_files(folder: Path) -> tuple[list[Path], list[str]]:
    """The regular files under `folder`, and a note for each symbolic link not followed.

    A link to a file inside the folder is taken (by the link's own path); a link that leads outside
    it is refused, since --from promises to read that folder only; linked folders are not entered
    (they could loop, or repeat files already found).
    """
    root = folder.resolve()
    files: list[Path] = []
    notes: list[str] = []
    for current, dirs, names in os.walk(folder, followlinks=False):
        here = Path(current)
        for name in sorted(dirs):
            if (here / name).is_symlink():
                notes.append(f"{here / name}: symbolic link to a folder ({os.readlink(here / name)}) not followed")
        for name in sorted(names):
            path = here / name
            if path.is_symlink():
                target = path.resolve()
                if not target.is_relative_to(root):
                    notes.append(f"{path}: symbolic link to {target}, outside the --from folder {root}; not read")
                    continue
            if path.is_file():
                files.append(path)
    return sorted(files), notes


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
        found = match_rules(path.relative_to(folder).as_posix(), spec.local.files)
        if found is None:
            result.unmatched += 1
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
