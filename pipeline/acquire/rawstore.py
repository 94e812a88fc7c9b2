"""Content-addressed storage of raw files: raw/<sha256>.pdf, plus the partial and quarantine folders.

Every file reaches raw/ by os.replace from a temporary file in the same folder, so a reader (or a
re-run after kill -9) sees a whole file or none. A download in progress lives in
raw/partial/<urlhash>.part next to a small JSON note of its validator (ETag / Last-Modified), which
is what lets a later try or a later run resume it with Range + If-Range. Bytes that are not a PDF
go to raw/quarantine/<sha256>.<ext>, kept for inspection and never placed as raw/<sha>.pdf.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pipeline.infra import write_bytes_atomic

PDF_MAGIC = b"%PDF-"
HEAD_BYTES = 1024  # readers accept the header anywhere in the first KiB
_LEADING_NOISE = b" \t\r\n\f\x00\xef\xbb\xbf"  # whitespace, NULs and a UTF-8 BOM seen before real headers


@dataclass(frozen=True)
class NotAPdf:
    what: str  # e.g. "HTML page, not a PDF"
    extension: str  # for the quarantined copy


def pdf_problem(head: bytes, content_type: str | None = None) -> NotAPdf | None:
    """Why these first bytes are not a PDF's, or None when they are."""
    if not head:
        return NotAPdf("empty body (0 bytes)", "empty")
    at = head[:HEAD_BYTES].find(PDF_MAGIC)
    if at >= 0 and not head[:at].strip(_LEADING_NOISE):
        return None
    sniff = head[:HEAD_BYTES].lstrip(_LEADING_NOISE).lower()
    type_note = f" (Content-Type {content_type})" if content_type else ""
    if sniff.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or b"<html" in sniff[:512]:
        return NotAPdf(f"HTML page, not a PDF{type_note}", "html")
    if sniff.startswith(b"<?xml") or sniff.startswith(b"<"):
        return NotAPdf(f"XML/markup document, not a PDF{type_note}", "xml")
    if sniff.startswith((b"{", b"[")):
        return NotAPdf(f"JSON document, not a PDF{type_note}", "json")
    if sniff.startswith(b"pk\x03\x04"):
        return NotAPdf(f"ZIP archive (or Office document), not a PDF{type_note}", "zip")
    return NotAPdf(f"not a PDF: starts with {head[:16]!r}{type_note}", "bin")


@dataclass(frozen=True)
class StoredFile:
    sha256: str
    bytes: int
    path: str  # relative to the project root (the raw folder's parent), POSIX style
    problem: NotAPdf | None  # set when the bytes went to quarantine instead of raw/<sha>.pdf


def file_sha256(path: Path) -> tuple[str, int, bytes]:
    """(hex digest, size, first KiB) of a file."""
    digest = hashlib.sha256()
    size = 0
    head = b""
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            if len(head) < HEAD_BYTES:
                head += chunk[: HEAD_BYTES - len(head)]
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size, head


def url_key(url: str) -> str:
    return hashlib.sha256(url.encode("utf-8")).hexdigest()[:32]


class PartialDownload:
    """An interrupted transfer of one URL: its bytes so far and the validator they belong to."""

    def __init__(self, folder: Path, url: str):
        self.url = url
        key = url_key(url)
        self.data_path = folder / f"{key}.part"
        self.meta_path = folder / f"{key}.json"

    def _meta(self) -> dict:
        try:
            data = json.loads(self.meta_path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) and data.get("url") == self.url else {}

    @property
    def validator(self) -> str | None:
        """What If-Range may carry: a strong ETag, else Last-Modified (RFC 9110 13.1.5)."""
        meta = self._meta()
        etag = meta.get("etag")
        if etag and not etag.startswith("W/"):
            return etag
        return meta.get("last_modified") or None

    @property
    def meta(self) -> dict:
        return self._meta()

    def resumable_size(self) -> int:
        """Bytes already here that a Range request may continue from; 0 when it cannot resume."""
        try:
            size = self.data_path.stat().st_size
        except FileNotFoundError:
            return 0
        return size if size > 0 and self.validator else 0

    def start(self, *, etag: str | None, last_modified: str | None, content_type: str | None) -> BinaryIO:
        """Begin from byte 0; the note goes first so bytes on disk always have their validator."""
        self.data_path.parent.mkdir(parents=True, exist_ok=True)
        note = {"url": self.url, "etag": etag, "last_modified": last_modified, "content_type": content_type}
        # Not fsynced: after a power cut a lost note only means the part restarts from byte 0.
        write_bytes_atomic(self.meta_path, json.dumps(note).encode("utf-8"), durable=False)
        return self.data_path.open("wb", buffering=0)

    def append(self) -> BinaryIO:
        # Unbuffered: every received chunk reaches the OS at once, so even kill -9 loses none of it.
        return self.data_path.open("ab", buffering=0)

    def discard(self) -> None:
        for path in (self.data_path, self.meta_path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


class RawStore:
    """raw/<sha256>.pdf, raw/partial/ and raw/quarantine/ under one raw folder."""

    def __init__(self, raw_dir: Path):
        self.raw_dir = Path(raw_dir)
        self.partial_dir = self.raw_dir / "partial"
        self.quarantine_dir = self.raw_dir / "quarantine"
        self.raw_dir.mkdir(parents=True, exist_ok=True)

    @property
    def project_root(self) -> Path:
        return self.raw_dir.parent

    def relative(self, path: Path) -> str:
        return path.relative_to(self.project_root).as_posix()

    def absolute(self, relative: str) -> Path:
        return self.project_root / relative

    def has(self, relative: str | None) -> bool:
        """Whether a manifest path still points at a file on disk."""
        return bool(relative) and self.absolute(relative).is_file()

    def partial(self, url: str) -> PartialDownload:
        return PartialDownload(self.partial_dir, url)

    def commit(self, finished: Path, *, content_type: str | None = None, source: str | None = None) -> StoredFile:
        """Move a complete temporary/partial file to raw/<sha>.pdf, or to quarantine when not a PDF.

        A quarantined file gets raw/quarantine/<sha>.json beside it: where it came from (`source`) and why.
        """
        sha, size, head = file_sha256(finished)
        problem = pdf_problem(head, content_type)
        if problem is None:
            target = self.raw_dir / f"{sha}.pdf"
        else:
            self.quarantine_dir.mkdir(parents=True, exist_ok=True)
            target = self.quarantine_dir / f"{sha}.{problem.extension}"
            note = {"url": source, "sha256": sha, "bytes": size, "content_type": content_type, "reason": problem.what,
                    "stage": "acquire", "file": target.name}
            write_bytes_atomic(self.quarantine_dir / f"{sha}.json", json.dumps(note, ensure_ascii=False, indent=1).encode())
        # Same bytes under the same name: replacing is harmless and keeps the operation atomic.
        os.replace(finished, target)
        return StoredFile(sha, size, self.relative(target), problem)

    def ingest_copy(self, source: Path, *, source_url: str | None = None) -> StoredFile:
        """Copy a local file in through a temporary file in raw/, then commit it."""
        fd, tmp_name = tempfile.mkstemp(prefix=".incoming-", suffix=".tmp", dir=self.raw_dir)
        try:
            with os.fdopen(fd, "wb") as out, source.open("rb") as src:
                while chunk := src.read(1 << 20):
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            return self.commit(Path(tmp_name), source=source_url or source.resolve().as_uri())
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp_name)
            raise
