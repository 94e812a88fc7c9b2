"""Download stage: a source spec's files from the web (or a local folder) into raw/, with a manifest.

`download_source` scrapes the spec's index pages and expands its URL templates, keeps the links its
file rules claim, and fetches them in parallel (bounded pool, per-host rate limit, retries with
backoff, resumable transfers, conditional re-fetches, a size cap, a host policy). `ingest_local` (in
`ingest`) gives `--from DIR` the same storage and manifest. Every considered file becomes a ManifestEntry in the result, whether it was
downloaded, unchanged, rejected or failed; one bad file never stops the others.
"""
from __future__ import annotations

import itertools
import os
import re
import string
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable

from pipeline.acquire.hostpolicy import HostPolicy, split_credentials
from pipeline.acquire.httpclient import (
    USER_AGENT,
    HostRateLimiter,
    HttpError,
    HttpStatusError,
    RefusedError,
    RetryPolicy,
    TransferError,
    open_url,
    retry_after_seconds,
    retrying,
)
from pipeline.acquire.links import extract_links, match_rules, url_match_target
from pipeline.acquire.manifest import Manifest, ManifestEntry
from pipeline.acquire.rawstore import RawStore
from pipeline.diagnostics import Code, diagnose
from pipeline.infra import progress as show_progress
from pipeline.patterns import PatternTimeout
from pipeline.specs import FileRule, SourceSpec

MANIFEST_NAME = "manifest.jsonl"
_CONTENT_RANGE = re.compile(r"^bytes ([0-9]{1,19})-([0-9]{1,19})/([0-9]{1,19}|\*)$")  # ASCII; int() bounded
MAX_DOWNLOAD_ENV = "EXAMCORPUS_MAX_DOWNLOAD_MB"
DEFAULT_MAX_DOWNLOAD_MB = 512.0  # exam PDFs are rarely over 100 MiB; anything far bigger is not one
MIB = 1024 * 1024


def global_max_file_bytes() -> int:
    """The cap on any one file: $EXAMCORPUS_MAX_DOWNLOAD_MB (MiB), else 512 MiB."""
    value = os.environ.get(MAX_DOWNLOAD_ENV)
    if not value:
        return int(DEFAULT_MAX_DOWNLOAD_MB * MIB)
    try:
        megabytes = float(value)
    except ValueError:
        megabytes = -1.0
    if not megabytes > 0:
        raise ValueError(f"${MAX_DOWNLOAD_ENV}={value!r}: give a positive number of MiB")
    return int(megabytes * MIB)


@dataclass(frozen=True)
class DownloadOptions:
    """Network behaviour; the defaults suit a public archive site, tests shorten the waits."""

    timeout: float = 30.0  # seconds to connect and between received bytes
    # Seconds one request may take in all (connect, redirects, headers, body): a server trickling a byte
    # before each timeout would otherwise hold a worker without end. A transfer cut by it is a transient
    # failure: tried again (resumed by Range where the server allows), so only a server slower than this
    # on every try loses the file.
    deadline: float | None = 900.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    max_redirects: int = 10
    user_agent: str = USER_AGENT
    rate_limit_per_host: float | None = None  # requests/s; None uses the spec's
    checkpoint_interval: float = 1.0  # seconds between manifest saves during a run
    max_file_bytes: int = field(default_factory=global_max_file_bytes)  # the global cap; a spec may lower it


@dataclass(frozen=True)
class RetryEvent:
    url: str
    attempt: int  # the try that failed (1-based)
    problem: str
    wait: float  # seconds slept before the next try


@dataclass
class DownloadResult:
    spec: str
    entries: list[ManifestEntry] = field(default_factory=list)
    unmatched: int = 0  # links (or local files) that no file rule claims; ignored by design
    # Which of them a curator would miss, by name: every local file, and each linked PDF (the only
    # kind of file the pipeline reads; an index page's other links are navigation).
    unmatched_names: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # problems not tied to one file (an index page down): Diagnostics
    retries: list[RetryEvent] = field(default_factory=list)

    @property
    def ok(self) -> list[ManifestEntry]:
        return [e for e in self.entries if e.ok]

    @property
    def problems(self) -> list[ManifestEntry]:
        return [e for e in self.entries if e.status in ("rejected", "failed")]

    def count(self, status: str) -> int:
        return sum(1 for e in self.entries if e.status == status)

    def messages(self) -> list[str]:
        """Everything a curator should read: spec-level notes, then each file's error."""
        return self.notes + [e.error or f"{e.url}: {e.status}" for e in self.problems]

    def summary(self) -> str:
        counts = ", ".join(
            f"{self.count(s)} {s.replace('_', ' ')}"
            for s in ("downloaded", "not_modified", "local", "rejected", "failed")
            if self.count(s)
        )
        return f"{self.spec}: {counts or 'no files'}; {self.unmatched} ignored (no rule matched)" + (
            f"; {len(self.notes)} note(s)" if self.notes else ""
        )


@dataclass(frozen=True)
class FileJob:
    url: str
    role: str
    facts: dict[str, str]
    rule: str  # the pattern that claimed it, for messages


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# --------------------------------------------------------------------------- finding the files


def _fill(template: str, values: dict[str, str]) -> str:
    """Fill {placeholders}; an unknown one is a spec error naming the template."""
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    missing = names - values.keys()
    if missing:
        raise KeyError(f"template {template!r} uses {sorted(missing)}, which neither base_url, year nor variables define")
    return template.format_map(values)


def _expand(template: str, base_url: str, years: list[int], variables: dict[str, list[str]]) -> list[tuple[str, int | None]]:
    """Every (URL, year) a template gives: one per year when it has {year}, per variable combination."""
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    used = sorted(n for n in names if n in variables)
    combos = [dict(zip(used, values)) for values in itertools.product(*(variables[n] for n in used))]
    year_values: list[int | None] = list(years) if "year" in names else [None]
    urls = []
    for year in year_values:
        for combo in combos:
            values = {"base_url": base_url, **combo}
            if year is not None:
                values["year"] = str(year)
            urls.append((_fill(template, values), year))
    return urls


def _rebase(link: str, spec_base: str, base: str) -> str:
    """With --base-url (a mirror), absolute links into the spec's own site point at the mirror instead."""
    if spec_base == base:
        return link
    for origin in {spec_base, spec_base.replace("https://", "http://", 1)}:
        if link.startswith(origin + "/") or link == origin:
            return base + link[len(origin):]
    return link


def _job(url: str, rules: Iterable[FileRule], year: int | None) -> FileJob | None:
    found = match_rules(url_match_target(url), list(rules), {"year": str(year)} if year is not None else None)
    return None if found is None else FileJob(url, found.role, found.facts, found.pattern)


class _Collector:
    """Jobs in discovery order, each URL once."""

    def __init__(self) -> None:
        self.jobs: dict[str, FileJob] = {}
        self.unmatched: set[str] = set()

    def add(self, url: str, job: FileJob | None) -> None:
        if job is None:
            self.unmatched.add(url)
        elif url not in self.jobs:
            self.jobs[url] = job


# --------------------------------------------------------------------------- fetching


class _Downloader:
    def __init__(
        self,
        spec: SourceSpec,
        store: RawStore,
        manifest: Manifest,
        options: DownloadOptions,
        result: DownloadResult,
        *,
        policy: HostPolicy,
        authorization: tuple[str, str] | None = None,
    ):
        assert spec.download is not None
        self.spec = spec
        self.store = store
        self.manifest = manifest
        self.options = options
        self.result = result
        self.policy = policy
        self.authorization = authorization
        self.limiter = HostRateLimiter(options.rate_limit_per_host or spec.download.rate_limit_per_host)
        spec_cap = spec.download.max_file_mb
        self.max_bytes = min(options.max_file_bytes, int(spec_cap * MIB) if spec_cap else options.max_file_bytes)
        self._retry_lock = threading.Lock()

    def _on_retry(self, url: str) -> Callable[[int, HttpError, float], None]:
        def record(attempt: int, exc: HttpError, wait: float) -> None:
            with self._retry_lock:
                self.result.retries.append(RetryEvent(url, attempt, exc.problem, wait))

        return record

    def _open(self, url: str, headers: dict[str, str] | None = None):
        return open_url(
            url,
            headers,
            timeout=self.options.timeout,
            limiter=self.limiter,
            user_agent=self.options.user_agent,
            max_redirects=self.options.max_redirects,
            redirect_check=self.policy.check_redirect,
            authorization=self.authorization,
            deadline=self.options.deadline,
        )

    def _too_large(self, url: str, size: int, *, announced: bool) -> RefusedError:
        limit = f"{self.max_bytes / MIB:g} MiB"
        where = "download.max_file_mb" if self.max_bytes < self.options.max_file_bytes else f"${MAX_DOWNLOAD_ENV}"
        seen = f"announced {size} bytes (Content-Length)" if announced else f"stopped after {size} bytes"
        return RefusedError(url, f"larger than the {limit} cap ({where}): {seen}; nothing stored")

    def fetch_page(self, url: str) -> tuple[str, str]:
        """(final URL, HTML text) of an index page, with retries."""

        def once(_attempt: int) -> tuple[str, str]:
            with self._open(url) as resp:
                if resp.status != 200:
                    raise HttpStatusError(resp.final_url, resp.status, resp.reason, retry_after=retry_after_seconds(resp.header("Retry-After")))
                body = resp.read()
                charset = resp.headers.get_content_charset() or "utf-8"
                try:
                    return resp.final_url, body.decode(charset, errors="replace")
                except LookupError:
                    return resp.final_url, body.decode("utf-8", errors="replace")

        return retrying(once, self.options.retry, on_retry=self._on_retry(url))

    def fetch_file(self, job: FileJob) -> ManifestEntry:
        try:
            return self._fetch_file(job)
        except RefusedError as exc:
            self.store.partial(job.url).discard()  # a refused body is not worth resuming
            return self._entry(job, "rejected", error=f"{job.url}: {exc.problem}")
        except HttpError as exc:
            where = "" if exc.url == job.url else f" (at {exc.url})"
            attempts = self.options.retry.attempts
            tries = "" if not exc.retryable else f"; gave up after {attempts} {'try' if attempts == 1 else 'tries'}"
            kept = self.store.partial(job.url).data_path
            resume = f"; {kept.stat().st_size} bytes kept in {self.store.relative(kept)} to resume next run" if kept.exists() else ""
            return self._entry(job, "failed", error=f"{job.url}: {exc.problem}{where}{tries}{resume}")
        except OSError as exc:  # the local side: disk full, permissions
            return self._entry(job, "failed", error=f"{job.url}: could not store the file ({exc})")

    def _entry(self, job: FileJob, status: str, **values) -> ManifestEntry:
        return ManifestEntry(
            url=job.url,
            final_url=values.pop("final_url", job.url),
            spec=self.spec.name,
            role=job.role,  # type: ignore[arg-type]
            facts=dict(job.facts),
            status=status,  # type: ignore[arg-type]
            fetched_at=_now(),
            **values,
        )

    def _fetch_file(self, job: FileJob) -> ManifestEntry:
        previous = self.manifest.get(job.url)
        have_previous = previous is not None and previous.ok and self.store.has(previous.path)
        partial = self.store.partial(job.url)

        def once(_attempt: int) -> ManifestEntry:
            headers: dict[str, str] = {}
            if have_previous:
                if previous.etag:
                    headers["If-None-Match"] = previous.etag
                if previous.last_modified:
                    headers["If-Modified-Since"] = previous.last_modified
            resume_from = partial.resumable_size()
            if resume_from:
                headers["Range"] = f"bytes={resume_from}-"
                headers["If-Range"] = partial.validator or ""
            with self._open(job.url, headers) as resp:
                etag, last_modified = resp.header("ETag"), resp.header("Last-Modified")
                content_type = resp.header("Content-Type")
                if resp.status == 304:
                    if not have_previous:
                        raise HttpError(resp.final_url, "HTTP 304 Not Modified to a request that was not conditional")
                    partial.discard()
                    return replace(
                        self._entry(job, "not_modified", final_url=resp.final_url),
                        sha256=previous.sha256,
                        bytes=previous.bytes,
                        content_type=previous.content_type,
                        etag=etag or previous.etag,
                        last_modified=last_modified or previous.last_modified,
                        path=previous.path,
                    )
                if resp.status == 206 and resume_from:
                    start = _content_range_start(resp.header("Content-Range"))
                    if start != resume_from:
                        partial.discard()
                        raise TransferError(resp.final_url, f"asked to resume at byte {resume_from}, server sent from {start}; restarting")
                    received = resume_from
                    self._check_announced(resp, received)
                    sink = partial.append()
                    content_type = partial.meta.get("content_type") or content_type
                elif resp.status == 200:
                    # Also the answer to a Range whose If-Range no longer matches: the file changed, start over.
                    received = 0
                    self._check_announced(resp, received)
                    # An encoded body is stored decoded, so its bytes are not the wire's offsets: no validator, no resume.
                    plain = resp.content_coding is None
                    sink = partial.start(etag=etag if plain else None, last_modified=last_modified if plain else None,
                                         content_type=content_type)
                elif resp.status == 416 and resume_from:
                    partial.discard()
                    raise TransferError(resp.final_url, "server refused to resume (HTTP 416); restarting")
                else:
                    raise HttpStatusError(resp.final_url, resp.status, resp.reason, retry_after=retry_after_seconds(resp.header("Retry-After")))
                with sink:
                    for chunk in resp.decoded_chunks():
                        received += len(chunk)
                        if received > self.max_bytes:  # a body without Content-Length may never end
                            raise self._too_large(resp.final_url, received, announced=False)
                        sink.write(chunk)
                    sink.flush()
                    os.fsync(sink.fileno())
                final_url = resp.final_url
            stored = self.store.commit(partial.data_path, content_type=content_type, source=job.url)
            partial.discard()
            common = dict(
                final_url=final_url, sha256=stored.sha256, bytes=stored.bytes, content_type=content_type, etag=etag, last_modified=last_modified
            )
            if stored.problem is not None:
                return self._entry(
                    job, "rejected", error=f"{job.url}: {stored.problem.what}, {stored.bytes} bytes; kept at {stored.path}", path=None, **common
                )
            return self._entry(job, "downloaded", path=stored.path, **common)

        return retrying(once, self.options.retry, on_retry=self._on_retry(job.url))


    def _check_announced(self, resp, already: int) -> None:
        announced = resp.content_length
        if announced is not None and already + announced > self.max_bytes:
            raise self._too_large(resp.final_url, already + announced, announced=True)


def _content_range_start(value: str | None) -> int | None:
    found = _CONTENT_RANGE.match((value or "").strip())
    return int(found.group(1)) if found else None


# --------------------------------------------------------------------------- the stage


def _record(manifest: Manifest, store: RawStore, entry: ManifestEntry) -> None:
    """Put the entry in the manifest, except that a failure never hides a good earlier copy."""
    previous = manifest.get(entry.url)
    if not entry.ok and previous is not None and previous.ok and store.has(previous.path):
        return
    manifest.upsert(entry)


def _run_jobs(
    jobs: list[FileJob],
    work: Callable[[FileJob], ManifestEntry],
    *,
    manifest: Manifest,
    store: RawStore,
    concurrency: int,
    progress: bool,
    label: str,
    checkpoint_interval: float,
) -> list[ManifestEntry]:
    """Run the jobs in a pool; the manifest is updated and saved (throttled) from this thread only."""
    entries: dict[str, ManifestEntry] = {}
    last_save = time.monotonic()
    bar = show_progress(total=len(jobs), desc=label, unit="file", enabled=progress)
    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="download") as pool:
        futures = {pool.submit(work, job): job for job in jobs}
        try:
            for future in as_completed(futures):
                entry = future.result()
                entries[entry.url] = entry
                _record(manifest, store, entry)
                bar.update(1)
                if time.monotonic() - last_save >= checkpoint_interval:
                    manifest.save()
                    last_save = time.monotonic()
        finally:
            bar.close()
            manifest.save()
    return [entries[job.url] for job in jobs]


def download_source(
    spec: SourceSpec,
    raw_dir: Path,
    *,
    years: list[int] | None = None,
    base_url: str | None = None,
    concurrency: int | None = None,
    progress: bool = True,
    options: DownloadOptions | None = None,
) -> DownloadResult:
    """Fetch a spec's sheets and keys into raw_dir (content-addressed) and update raw_dir/manifest.jsonl."""
    if spec.download is None:
        raise ValueError(f"{spec.path or spec.name}: this spec has no `download` section; use --from DIR with its `local` rules")
    options = options or DownloadOptions()
    settings = spec.download
    spec_base = settings.base_url.rstrip("/")
    # user:password@ in --base-url becomes an Authorization header for that host; URLs never carry it,
    # so no message, manifest entry or curated record can echo the password.
    base, authorization = split_credentials((base_url or settings.base_url).rstrip("/"))
    wanted_years = list(years) if years is not None else list(settings.years)
    upgrade = base.startswith("https://")
    result = DownloadResult(spec.name)
    store = RawStore(Path(raw_dir))
    manifest = Manifest.load(store.raw_dir / MANIFEST_NAME)
    policy = HostPolicy.for_spec(settings, base)
    origin = "{0}://{1}".format(*urllib.parse.urlsplit(base))  # credentials go to this origin only
    downloader = _Downloader(
        spec, store, manifest, options, result, policy=policy, authorization=(origin, authorization) if authorization else None
    )
    found = _Collector()

    pages: list[tuple[str, int | None]] = []
    for template in settings.index_pages:
        if "{year}" in template and not wanted_years:
            result.notes.append(diagnose(Code.NEEDS_YEARS, spec=spec.name, what="index page", template=template,
                                         detail=" (spec `years` is empty)"))
            continue
        try:
            pages += _expand(template, base, wanted_years, {})
        except KeyError as exc:
            result.notes.append(diagnose(Code.TEMPLATE_FAILED, spec=spec.name, why=exc.args[0]))
    workers = concurrency or settings.concurrency

    def scrape(page: tuple[str, int | None]) -> tuple[str, int | None, str | None, str | None]:
        url, year = page
        try:
            final_url, text = downloader.fetch_page(url)
            return url, year, final_url, text
        except HttpError as exc:
            return url, year, None, diagnose(Code.INDEX_UNREAD, spec=spec.name, url=url, why=exc.problem)

    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="index") as pool:
        for url, year, final_url, text in pool.map(scrape, pages):
            if final_url is None:
                result.notes.append(text or url)
                continue
            for link in extract_links(text or "", final_url, upgrade_to_https=upgrade):
                link = _rebase(link, spec_base, base)
                try:
                    job = _job(link, settings.links, year)
                except PatternTimeout as exc:
                    result.notes.append(diagnose(Code.PATTERN_TIMEOUT, where=f"{spec.name}: link {link} on {url}", error=exc,
                                                 consequence="not followed"))
                    continue
                refused = policy.link_problem(link) if job is not None else None
                if refused is not None:
                    result.notes.append(diagnose(Code.LINK_REFUSED, spec=spec.name, link=link, url=url, why=refused))
                    continue
                found.add(link, job)

    for template in settings.url_templates:
        if "{year}" in template and not wanted_years:
            result.notes.append(diagnose(Code.NEEDS_YEARS, spec=spec.name, what="URL template", template=template, detail=""))
            continue
        try:
            expanded = _expand(template, base, wanted_years, settings.variables)
        except KeyError as exc:
            result.notes.append(diagnose(Code.TEMPLATE_FAILED, spec=spec.name, why=exc.args[0]))
            continue
        for url, year in expanded:
            try:
                job = _job(url, settings.links, year)
            except PatternTimeout as exc:
                result.notes.append(diagnose(Code.PATTERN_TIMEOUT, where=f"{spec.name}: URL template gives {url}", error=exc,
                                             consequence="not followed"))
                continue
            if job is None:
                result.notes.append(diagnose(Code.TEMPLATE_UNMATCHED, spec=spec.name, url=url))
            found.add(url, job)
    result.unmatched = len(found.unmatched)
    result.unmatched_names = sorted(url for url in found.unmatched if urllib.parse.urlsplit(url).path.lower().endswith(".pdf"))

    jobs: list[FileJob] = []
    other_years: list[FileJob] = []
    for job in found.jobs.values():
        if "year" not in job.facts:
            result.entries.append(
                downloader._entry(job, "failed", error=f"{job.url}: rule {job.rule!r} gives no year; add a (?P<year>...) group or a fixed `year` fact")
            )
        elif not wanted_years or job.facts["year"] in {str(y) for y in wanted_years}:
            jobs.append(job)
        else:
            other_years.append(job)
    if other_years:  # an index page listing every year: what the crawl found and left, said
        shown = [job.url for job in other_years[:5]] + ([f"… {len(other_years) - 5} more"] if len(other_years) > 5 else [])
        result.notes.append(diagnose(Code.YEARS_NOT_ASKED, spec=spec.name, count=len(other_years),
                                     years=", ".join(sorted({job.facts["year"] for job in other_years})),
                                     asked=", ".join(map(str, wanted_years)), examples=", ".join(shown)))

    result.entries += _run_jobs(
        jobs,
        downloader.fetch_file,
        manifest=manifest,
        store=store,
        concurrency=workers,
        progress=progress,
        label=f"download {spec.name}",
        checkpoint_interval=options.checkpoint_interval,
    )
    return result
