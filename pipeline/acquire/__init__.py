"""Acquire: every file a source spec names, fetched (or taken from a local folder), stored by content,
recorded in the manifest, and paired sheet with key.

Input: a `SourceSpec` (and years, a base URL, or a folder). Output: a `DownloadResult` whose manifest
entries point at content-addressed copies in `raw/`, then a `PairingResult` of `SheetJob`s.

Public functions and types:
- `download_source(spec, raw_dir, years=, base_url=, options=)`: index pages and URL templates, with
  retries, conditional GETs and resumable transfers (`download`, over `httpclient`, `links`).
- `ingest_local(spec, folder, raw_dir)`: the same manifest entries for `--from DIR`; symbolic links
  leading out of the folder are refused with a note (`ingest`).
- index-page links are followed only to the spec's hosts, redirects never to internal addresses, and
  `user:password@` in a base URL becomes an Authorization header (`hostpolicy`).
- `pair_files(entries, pairing)`: each sheet with its key(s) by the facts the spec names (`pairing`).
- `Manifest`, `ManifestEntry`, `ManifestError`: `raw/manifest.jsonl` (`manifest`).
- `RawStore`, `file_sha256`: the content-addressed store (`rawstore`).
- `extract_links`, `match_rules`, `url_match_target`: links of an index page and the spec's rules (`links`).
- `DownloadOptions`, `DownloadResult`, `RetryPolicy`: settings and results.
"""
from pipeline.acquire.download import DownloadOptions, DownloadResult, download_source
from pipeline.acquire.ingest import ingest_local
from pipeline.acquire.httpclient import RetryPolicy
from pipeline.acquire.links import extract_links, match_rules, url_match_target
from pipeline.acquire.manifest import Manifest, ManifestEntry, ManifestError
from pipeline.acquire.pairing import PairingResult, SheetJob, pair_files
from pipeline.acquire.rawstore import RawStore, file_sha256

__all__ = [
    "DownloadOptions", "DownloadResult", "Manifest", "ManifestEntry", "ManifestError", "PairingResult", "RawStore",
    "RetryPolicy", "SheetJob", "download_source", "extract_links", "file_sha256", "ingest_local", "match_rules",
    "pair_files", "url_match_target",
]
