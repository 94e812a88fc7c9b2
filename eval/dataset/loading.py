"""The data a run scores, loaded and pinned: which files, with which SHA-256s, checked before use.

Three kinds of source:
- curated Parquet: one file or a folder of them (before anything is published);
- a local release folder: Parquet plus `manifest.json` listing every file's SHA-256; each file is
  checked against it, and a file the manifest does not list is an error;
- a Hub dataset repo at a tag, `hf://OWNER/NAME@TAG`: downloaded with huggingface_hub at that
  revision (the resolved commit is recorded), then checked like a release folder.

A question's config is the `config` its release manifest gives its file, else its `source` (the
source-spec name), which is what a release names its configs after.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.infra import read_small_file, sha256_file
from pipeline.records import QUESTION_FIELDS, QUESTION_SCHEMA, Question, table_to_questions

# Columns a question table must have: the record fields without a default (flags and the reviewed
# figure descriptions came later and may be absent from older files).
REQUIRED_FIELDS = tuple(
    f.name for f in dataclasses.fields(Question)
    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
)

MANIFEST_NAME = "manifest.json"
MAX_MANIFEST_BYTES = 64 * 1024 * 1024  # a release of 100,000 figures lists about 20 MB
HUB_PREFIX = "hf://"
SPLIT_MANIFEST = "split.json"  # pipeline.split.store writes it beside public.parquet and private.parquet
# Which questions a run scores: a split's name ("public", "private"), or every question of the data,
# private ones included (curated/ or a whole split folder), which no published number should rest on.
SPLIT_ALL = "all"
SPLIT_UNKNOWN = "unknown"  # a release manifest that does not say


class DataError(ValueError):
    """Data that cannot be used as pinned; the message names the file and the problem."""


@dataclass(frozen=True)
class PinnedFile:
    path: str  # relative to the data root
    sha256: str
    bytes: int
    rows: int
    config: str | None = None


@dataclass
class PinnedData:
    kind: str  # "parquet" | "release" | "hub"
    location: str  # as given: a path or hf://owner/name@tag
    dataset_id: str  # release name@version, or sha256 over the files' hashes for curated Parquet
    revision: str | None  # Hub: the commit the tag resolved to
    root: str  # local folder the files are read from (not part of the pin)
    files: list[PinnedFile]
    questions: list[Question] = field(default_factory=list, repr=False)
    config_by_qid: dict[str, str] = field(default_factory=dict, repr=False)
    split: str = SPLIT_ALL  # which questions: "public", "private", SPLIT_ALL (private included) or a release's own

    def pin(self) -> dict:
        """What goes into the plan: enough to refuse different data, nothing machine-specific."""
        return {
            "kind": self.kind,
            "location": self.location,
            "dataset_id": self.dataset_id,
            "revision": self.revision,
            "split": self.split,
            "files": [asdict(f) for f in self.files],
        }

    def config_of(self, q: Question) -> str:
        return self.config_by_qid[q.id]


def load_data(location: str | Path, *, cache_dir: str | Path | None = None, pin: dict | None = None) -> PinnedData:
    """The data at `location`, pinned. With `pin` (a plan's data_pin) every file's SHA-256 is checked
    against it before the file is parsed: a file changed or corrupted since the run pinned it is
    named with both hashes, never read (a damaged Parquet would otherwise fail inside pyarrow)."""
    text = str(location)
    expected = _pinned_hashes(pin)
    if text.startswith(HUB_PREFIX):
        return _load_hub(text, cache_dir=cache_dir, pin=pin)
    path = Path(text)
    if not path.exists():
        raise DataError(f"{path}: data not found (expected a Parquet file, a folder, or hf://OWNER/NAME@TAG)")
    if path.is_dir() and ((path / MANIFEST_NAME).is_file() or (path / MANIFEST_NAME).is_symlink()
                          or (path / MANIFEST_NAME).exists()):
        # a manifest that is no regular file (a pipe, a link to a device) is refused there, never taken for a
        # folder of Parquet files without its hashes
        return _load_release(path, kind="release", location=text, revision=None, pin=pin)
    if path.is_file():
        files = [path]
        root = path.parent
    else:
        files = sorted(path.rglob("*.parquet"))
        root = path
        if not files:
            raise DataError(f"{path}: no .parquet files in this folder")
    pinned = [_pin_file(f, root, config=None, expected=expected) for f in files]
    digest = hashlib.sha256("".join(f"{p.path}\t{p.sha256}\n" for p in pinned).encode()).hexdigest()
    data = PinnedData("parquet", text, f"sha256:{digest}", None, str(root), pinned, split=split_of_files(files))
    return _read(data, pin)


def split_of_files(files: list[Path]) -> str:
    """A split folder's one file (build/split/public.parquet) is that split; anything else (curated/,
    several files, a whole split folder) is every question, private ones included."""
    if len(files) == 1 and (files[0].parent / SPLIT_MANIFEST).is_file() and files[0].stem in ("public", "private"):
        return files[0].stem
    return SPLIT_ALL


def check_pin(data: PinnedData, expected: dict) -> None:
    """Refuse data that is not byte-for-byte what the plan pinned, naming every difference."""
    problems = []
    for key in ("dataset_id", "revision"):
        if expected.get(key) is not None and expected.get(key) != getattr(data, key):
            problems.append(f"{key}: plan pins {expected.get(key)!r}, data has {getattr(data, key)!r}")
    want = {f["path"]: f["sha256"] for f in expected.get("files", [])}
    have = {f.path: f.sha256 for f in data.files}
    for path in sorted(set(want) | set(have)):
        if want.get(path) != have.get(path):
            problems.append(f"{path}: plan pins {want.get(path) or 'no such file'}, data has {have.get(path) or 'no such file'}")
    if problems:
        raise DataError(f"{data.location}: data differs from the pinned data:\n" + "\n".join(f"  - {p}" for p in problems)
                        + "\nchanged or damaged since the run pinned it: restore the pinned data, or start a new run on this data")


def _pinned_hashes(pin: dict | None) -> dict[str, str] | None:
    """{path: sha256} of a plan's data_pin; None when there is no pin to check against."""
    if not pin or not isinstance(pin.get("files"), list):
        return None
    return {f["path"]: f["sha256"] for f in pin["files"] if isinstance(f, dict) and "path" in f and "sha256" in f}


def _pin_file(path: Path, root: Path, config: str | None, expected: dict[str, str] | None = None,
              manifest: tuple[Path, str] | None = None) -> PinnedFile:
    """The file's pin. Its SHA-256 is taken and checked before any parsing: against the release
    `manifest` (path, listed hash); a file that differs from the run's pin `expected` is left unparsed."""
    relative = path.relative_to(root).as_posix()
    try:
        digest, size = sha256_file(path), path.stat().st_size
    except OSError as exc:
        raise DataError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    if expected is not None and expected.get(relative) != digest:
        # Changed or damaged since the run pinned it: not parsed; check_pin names it with the others.
        return PinnedFile(relative, digest, size, 0, config)
    if manifest is not None and manifest[1] != digest:
        raise DataError(f"{path}: SHA-256 {digest} differs from the manifest's {manifest[1]}")
    try:
        rows = pq.ParquetFile(path).metadata.num_rows
    except Exception as exc:  # pyarrow raises several types for a broken file
        raise DataError(f"{path}: not a readable Parquet file ({exc})") from None
    return PinnedFile(relative, digest, size, rows, config)


def _load_release(root: Path, *, kind: str, location: str, revision: str | None, pin: dict | None = None) -> PinnedData:
    expected = _pinned_hashes(pin)
    manifest_path = root / MANIFEST_NAME
    try:
        # a pulled or copied release is whoever made it: a pipe, /dev/zero or a huge file is refused unread
        manifest = json.loads(read_small_file(manifest_path, MAX_MANIFEST_BYTES))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{manifest_path}: unreadable release manifest ({exc})") from None
    entries = manifest.get("files")
    if isinstance(entries, dict):
        entries = [{"path": p, "sha256": s} for p, s in entries.items()]
    if not isinstance(entries, list) or not entries:
        raise DataError(f"{manifest_path}: no 'files' list of {{path, sha256}} entries")
    listed: dict[str, dict] = {}
    for entry in entries:
        if not isinstance(entry, dict) or "path" not in entry or "sha256" not in entry:
            raise DataError(f"{manifest_path}: file entry without path and sha256: {entry!r}")
        rel = entry["path"]
        if not isinstance(rel, str) or rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in rel.split("/")):
            # a pulled manifest is whoever pushed it: a file outside the release is never read as its data
            raise DataError(f"{manifest_path}: lists {rel!r}, not a path inside the release")
        listed[entry["path"]] = entry
    pinned = []
    for rel, entry in sorted(listed.items()):
        if not rel.endswith(".parquet"):
            continue
        file = root / rel
        if not file.is_file():
            raise DataError(f"{file}: listed in {manifest_path} but missing")
        pinned.append(_pin_file(file, root, config=entry.get("config"), expected=expected, manifest=(manifest_path, entry["sha256"])))
    unlisted = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.parquet")) 
    unlisted = [p for p in unlisted if p not in listed]
    if unlisted:
        raise DataError(f"{root}: Parquet files not in {MANIFEST_NAME}: {', '.join(unlisted)}")
    if not pinned:
        raise DataError(f"{manifest_path}: lists no .parquet files")
    name = manifest.get("name") or manifest.get("dataset") or root.name
    version = manifest.get("version") or manifest.get("release") or manifest.get("tag")
    dataset_id = f"{name}@{version}" if version else f"{name}@sha256:{sha256_file(manifest_path)}"
    split = manifest.get("split") if isinstance(manifest.get("split"), str) else SPLIT_UNKNOWN
    return _read(PinnedData(kind, location, dataset_id, revision, str(root), pinned, split=split), pin)


def _load_hub(location: str, *, cache_dir: str | Path | None, pin: dict | None = None) -> PinnedData:
    spec = location[len(HUB_PREFIX):]
    repo_id, _, tag = spec.partition("@")
    if not tag or repo_id.count("/") != 1:
        raise DataError(f"{location}: a Hub source is hf://OWNER/NAME@TAG, pinned to a tag")
    import os

    from huggingface_hub import snapshot_download  # imported here: only Hub sources need it

    from pipeline.infra import bound_hub_client

    bound_hub_client()  # a mirror's gzip bomb refused as it decodes (`infra.boundedhttpx`)

    # Read at call time (huggingface_hub reads them once, at import): a mirror or a test stand-in.
    endpoint = os.environ.get("HF_ENDPOINT") or None
    cache_dir = cache_dir or os.environ.get("HF_HUB_CACHE") or None
    try:
        folder = Path(snapshot_download(repo_id=repo_id, repo_type="dataset", revision=tag, cache_dir=cache_dir, endpoint=endpoint))
    except Exception as exc:
        raise DataError(f"{location}: cannot download the dataset at {tag} ({type(exc).__name__}: {exc})") from None
    commit = folder.name if len(folder.name) == 40 else None  # snapshots/<commit>/ in the Hub cache
    if not (folder / MANIFEST_NAME).is_file():
        raise DataError(f"{location}: the release at {tag} has no {MANIFEST_NAME}")
    return _load_release(folder, kind="hub", location=location, revision=commit, pin=pin)


def _read(data: PinnedData, pin: dict | None = None) -> PinnedData:
    if pin:
        check_pin(data, pin)  # before parsing: a file that is not what was pinned is never read
    root = Path(data.root)
    seen: dict[str, str] = {}
    for pin in data.files:
        path = root / pin.path
        try:
            table = pq.read_table(path)
        except Exception as exc:  # a damaged page: pyarrow raises OSError, ArrowInvalid, ...
            raise DataError(f"{path}: not a readable Parquet file ({type(exc).__name__}: {exc})") from None
        missing = [name for name in REQUIRED_FIELDS if name not in table.column_names]
        if missing:
            raise DataError(f"{path}: not a question table, columns missing: {', '.join(missing)}")
        wrong = [
            f"{name} is {table.schema.field(name).type}, expected {QUESTION_SCHEMA.field(name).type}"
            for name in QUESTION_FIELDS
            if name in table.column_names and not _compatible(table.schema.field(name).type, QUESTION_SCHEMA.field(name).type)
        ]
        if wrong:
            raise DataError(f"{path}: not a question table, wrong column types: {'; '.join(wrong)}")
        table = table.select([n for n in QUESTION_FIELDS if n in table.column_names])
        for q in table_to_questions(table):
            if q.id in seen:
                raise DataError(f"{path}: question id {q.id} also in {seen[q.id]}")
            seen[q.id] = pin.path
            data.questions.append(q)
            data.config_by_qid[q.id] = pin.config or q.source
    return data


def _compatible(found: pa.DataType, expected: pa.DataType) -> bool:
    """Whether a column of type `found` reads as `expected` without changing meaning: any integer
    width for an integer, any string type for a string, lists of compatible items, an all-null column.
    A string year or a list given as one string is refused (pyarrow would cast "2024" to a number)."""
    if found == expected or pa.types.is_null(found):
        return True
    if pa.types.is_integer(expected):
        return pa.types.is_integer(found)
    if pa.types.is_floating(expected):
        return pa.types.is_floating(found) or pa.types.is_integer(found)
    if pa.types.is_string(expected):
        return pa.types.is_string(found) or pa.types.is_large_string(found)
    if pa.types.is_list(expected):
        return (pa.types.is_list(found) or pa.types.is_large_list(found)) and _compatible(found.value_type, expected.value_type)
    if pa.types.is_struct(expected):
        return pa.types.is_struct(found) and all(
            found.get_field_index(f.name) >= 0 and _compatible(found.field(f.name).type, f.type) for f in expected
        )
    return False
