"""Rebuild the sample archive only when its generator changed or its files did.

Kept apart from site.py so a season re-run that needs no rebuild never imports the PDF toolkit."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pipeline.infra import write_bytes_atomic

STAMP_FILE = ".build-stamp.json"


def _generator_fingerprint() -> str:
    """The generator's own source: a change to any sample module means a rebuild."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def _intact(dest: Path, fingerprint: str) -> bool:
    try:
        stamp = json.loads((dest / STAMP_FILE).read_text(encoding="utf-8"))
        return stamp["generator"] == fingerprint and all(
            hashlib.sha256((dest / rel).read_bytes()).hexdigest() == sha for rel, sha in stamp["files"].items()
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def ensure_sample_site(dest: Path | str) -> Path:
    """The sample archive in `dest`, built only when needed: building renders and rasterises every
    sheet (seconds); checking the stamp and the files' hashes takes milliseconds."""
    dest = Path(dest)
    fingerprint = _generator_fingerprint()
    if not _intact(dest, fingerprint):
        from pipeline.devkit.sample.site import build_sample_site

        site = build_sample_site(dest)
        stamp = {"generator": fingerprint, "files": site.files}
        write_bytes_atomic(dest / STAMP_FILE, json.dumps(stamp, indent=1).encode("utf-8"))
    return dest
