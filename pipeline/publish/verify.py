"""Verifying a release, in a folder or on the Hub (`hf://OWNER/NAME@TAG`): every byte is the one published.

Checked: each file `manifest.json` lists (present, size, SHA-256); no file it does not list;
`SHA256SUMS` (the same check `sha256sum -c` makes, and that it names every file); and each figure
inside the Parquet, hashed again against the record's `images[].sha256` and the manifest's `figures`.
So a changed byte anywhere fails, and so does a figure swapped inside a Parquet whose manifest entry
was rewritten to match. Whoever wrote the manifest, a release holds the layout's files only
(`layout.release_path_problem`): a path outside the folder, a loading script or a pickle fails it unread,
and so does a symbolic link that leads out of the folder (a Hub download's links into its own cache are
the cache's) or an entry that is no regular file. A release made before SHA256SUMS or figures existed verifies without them
(noted, not failed).

Both listings are the release's own word: whoever rewrites a file can rewrite them to match. A signed release
(`signing`) holds `manifest.json.sig`, its publisher's Ed25519 signature of the manifest's bytes; `key` (the
publisher's public key, obtained from the publisher) checks who signed it, and fails a rewritten manifest however the
key the release names was swapped (in the manifest and in the card alike). Without `key`, the signature is checked
against the key the release names (a manifest changed after signing fails), and the summary says that this says
nothing of who signed it. An unsigned release is said to be unsigned; it fails only where a key was given.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.infra import bound_hub_client, read_small_file, sha256_file
from pipeline.publish.layout import CARD_NAME, FIGURES_FIELD, MANIFEST_NAME, SIGNATURE_NAME, SUMS_NAME, release_path_problem
from pipeline.publish.signing import CARD_KEY, PublicKey, public_key_from_text, signature_valid

HUB_PREFIX = "hf://"
NOT_RELEASE_FILES = (".cache/",)  # what huggingface_hub writes into a local download
MAX_LISTING_BYTES = 64 * 1024 * 1024  # manifest.json, SHA256SUMS: a release of 100,000 figures lists 20 MB
MAX_SIGNATURE_BYTES = 1024  # an Ed25519 signature is 64 bytes
NOT_IN_MANIFEST = (MANIFEST_NAME, SUMS_NAME, SIGNATURE_NAME)  # the listing itself, and what is made after it


class VerifyError(ValueError):
    """A release that cannot be verified at all: no manifest, or a Hub location that cannot be read."""


@dataclass
class VerifyReport:
    location: str
    release: str | None = None
    files: int = 0
    figures: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    signature: str = "unsigned"  # or who signed it, and against which key that was checked

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        head = (f"{self.location}: release {self.release or '?'} verified: {self.files} files, {self.figures} figures, "
                f"{self.signature}"
                if self.ok else f"{self.location}: release {self.release or '?'} FAILED verification "
                f"({len(self.problems)} problem(s))")
        return "\n".join([head, *(f"  {p}" for p in self.problems), *(f"  note: {n}" for n in self.notes)])


def sums_text(root: Path, paths: list[str]) -> str:
    """SHA256SUMS for `paths` (relative, '/'-separated) under root, in `sha256sum`'s text format."""
    lines = []
    for rel in sorted(paths):
        if "\\" in rel or "\n" in rel:
            raise ValueError(f"{rel!r}: a release file name sha256sum would have to escape")
        lines.append(f"{sha256_file(root / rel)}  {rel}")
    return "\n".join(lines) + "\n"


def verify_release(root: Path) -> list[str]:
    """Problems with a release folder; empty when the release is intact."""
    return verify_folder(Path(root)).problems


def verify_folder(root: Path, location: str | None = None, *, links_within: Path | None = None,
                  key: PublicKey | None = None) -> VerifyReport:
    """`links_within`: where symbolic links may lead (a Hub download's blobs); by default the folder itself.
    `key`: the publisher's public key the manifest must be signed by."""
    root = Path(root)
    report = VerifyReport(location or str(root))
    within = (links_within or root).resolve()
    try:
        manifest_bytes = read_small_file(root / MANIFEST_NAME, MAX_LISTING_BYTES, within)
        manifest = json.loads(manifest_bytes.decode("utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise VerifyError(f"{root}: not a release ({MANIFEST_NAME} unreadable: {type(exc).__name__}: {exc})") from None
    if not isinstance(manifest, dict):
        raise VerifyError(f"{root}: not a release ({MANIFEST_NAME} holds a JSON {type(manifest).__name__}, not an object)")
    report.release = manifest.get("release")
    present = _release_files(root, within, report)
    report.files = len(present)
    listed = {entry["path"]: entry for entry in _entries(manifest, "files", FILE_FIELDS, report)}
    intact = {}  # the listed files whose bytes are the manifest's: only these are read further (their figures)
    for rel, entry in sorted(listed.items()):
        path = root / rel
        if (problem := release_path_problem(rel)) is not None:
            report.problems.append(f"{MANIFEST_NAME} lists {rel!r}: {problem}")
        elif rel not in present:
            report.problems.append(f"{path}: listed in the manifest but missing")
        elif path.stat().st_size != entry["bytes"] or sha256_file(path) != entry["sha256"]:
            report.problems.append(f"{path}: SHA-256/size differ from the manifest; not read further")
        else:
            intact[rel] = entry
    for rel in present:
        if rel not in listed and rel not in NOT_IN_MANIFEST:
            report.problems.append(f"{root / rel}: not listed in the manifest")
        if (problem := release_path_problem(rel)) is not None:
            report.problems.append(f"{root / rel}: {problem}")
    _check_sums(root, present, within, report)
    _check_signature(root, manifest_bytes, manifest, present, intact, within, report, key)
    figures = _entries(manifest, "figures", FIGURE_FIELDS, report)
    _check_figures(root, figures, intact, report, every_file_read=len(intact) == len(listed))
    return report


FILE_FIELDS = {"path": str, "bytes": int, "sha256": str}
FIGURE_FIELDS = {"question": str, "index": int, "sha256": str}


def _entries(manifest: dict, key: str, fields: dict[str, type], report: VerifyReport) -> list[dict]:
    """The manifest's list under `key`, each entry an object holding `fields` of their types; what is not is a
    problem (a tampered manifest is what `verify` is for: it fails with a line, not a traceback)."""
    entries = manifest.get(key, [])
    if not isinstance(entries, list):
        report.problems.append(f"{MANIFEST_NAME}: `{key}` is a JSON {type(entries).__name__}, not a list; not read")
        return []
    good = []
    for n, entry in enumerate(entries):
        wrong = [name for name, kind in fields.items() if not isinstance(entry, dict) or not isinstance(entry.get(name), kind)
                 or isinstance(entry.get(name), bool)]
        if wrong:
            report.problems.append(f"{MANIFEST_NAME}: `{key}` entry {n} has no {', '.join(wrong)} of the right type "
                                   f"({json.dumps(entry, ensure_ascii=True)[:120]}); not read")
            continue
        good.append(entry)
    return good


def _listing(path: Path, links_within: Path) -> str:
    """A release's own listing (`manifest.json`, `SHA256SUMS`), read only as a regular file within the release (a link
    within `links_within`) of at most `MAX_LISTING_BYTES`: a named pipe would hold the read forever, a link to
    /dev/zero fill memory, one to a large file outside be read whole (`infra.read_small_file`)."""
    return read_small_file(path, MAX_LISTING_BYTES, links_within).decode("utf-8")


def _release_files(root: Path, links_within: Path, report: VerifyReport) -> list[str]:
    """The regular files of the release folder (relative, '/'-separated), folders' links not entered;
    a link leading outside `links_within` and an entry that is no regular file are problems, not files."""
    found = []
    for current, dirs, names in os.walk(root, followlinks=False):
        here = Path(current)
        for name in sorted(dirs + names):
            path = here / name
            rel = path.relative_to(root).as_posix()
            if rel.startswith(NOT_RELEASE_FILES) or (name in dirs and not path.is_symlink()):
                continue
            if path.is_symlink():
                target = path.resolve()
                if not target.is_relative_to(links_within):
                    report.problems.append(f"{path}: symbolic link to {target}, outside the release; not read")
                    continue
            if not path.is_file() or name in dirs:
                report.problems.append(f"{path}: not a regular file (a folder's link, a device, a pipe or a socket); not read")
                continue
            found.append(rel)
    return sorted(found)


def _check_sums(root: Path, present: list[str], links_within: Path, report: VerifyReport) -> None:
    sums = root / SUMS_NAME
    if not sums.is_file():
        report.notes.append(f"no {SUMS_NAME} (a release made before it was added)")
        return
    if SUMS_NAME not in present:
        return  # a link out of the release or no regular file: `_release_files` said so, and it is not read
    try:
        text = _listing(sums, links_within)
    except (OSError, UnicodeDecodeError) as exc:
        report.problems.append(f"{sums}: unreadable ({type(exc).__name__}: {exc})")
        return
    named = set()
    for n, line in enumerate(text.splitlines(), 1):
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64:
            report.problems.append(f"{sums}:{n}: not a sha256sum line: {line[:80]!r}")
            continue
        named.add(rel)
        path = root / rel
        if (problem := release_path_problem(rel)) is not None:
            report.problems.append(f"{sums}:{n} names {rel!r}: {problem}")
        elif rel not in present:
            report.problems.append(f"{path}: named in {SUMS_NAME} but missing")
        elif sha256_file(path) != digest:
            report.problems.append(f"{path}: SHA-256 differs from {SUMS_NAME}")
    for rel in present:
        if rel != SUMS_NAME and rel not in named:
            report.problems.append(f"{root / rel}: not named in {SUMS_NAME}")


def _check_signature(root: Path, manifest_bytes: bytes, manifest: dict, present: list[str], intact: dict,
                     links_within: Path, report: VerifyReport, key: PublicKey | None) -> None:
    """The manifest's signature against `key`, or (without one) against the key the manifest names; the card's
    named key against the manifest's. Sets `report.signature` to what was checked."""
    entry = manifest.get("signature")
    if entry is None and SIGNATURE_NAME not in present and not (root / SIGNATURE_NAME).exists():
        if key is not None:
            report.problems.append(f"unsigned (no {SIGNATURE_NAME}, no `signature` in {MANIFEST_NAME}), but the release "
                                   f"was to be signed by the key given ({key.fingerprint})")
        else:
            report.notes.append(f"unsigned: no {SIGNATURE_NAME}, so its manifest and {SUMS_NAME} are its own word "
                                "(whoever rewrites a file can rewrite both)")
        return
    named = public_key_from_text(entry.get("public_key")) if isinstance(entry, dict) else None
    if entry is None:
        report.problems.append(f"{root / SIGNATURE_NAME}: a signature, but {MANIFEST_NAME} names no signing key")
    elif named is None:
        report.problems.append(f"{MANIFEST_NAME}: `signature` names no Ed25519 public key "
                               f"({json.dumps(entry, ensure_ascii=True)[:120]})")
    if key is not None and named is not None and named != key:
        report.problems.append(f"{MANIFEST_NAME} names the signing key {named.fingerprint}, not the key given "
                               f"({key.fingerprint})")
    _check_card_key(root, named, intact, links_within, report)
    if SIGNATURE_NAME not in present:
        report.problems.append(f"{root / SIGNATURE_NAME}: missing (or not a regular file), though {MANIFEST_NAME} "
                               "names a signing key")
        return
    try:
        signature = read_small_file(root / SIGNATURE_NAME, MAX_SIGNATURE_BYTES, links_within)
    except OSError as exc:
        report.problems.append(f"{root / SIGNATURE_NAME}: unreadable ({type(exc).__name__}: {exc})")
        return
    against = key or named
    if against is None:
        return
    if not signature_valid(against, manifest_bytes, signature):
        whose = "the key given" if key is not None else "the key the manifest names"
        report.problems.append(f"{root / SIGNATURE_NAME}: not a signature of {MANIFEST_NAME} by {whose} "
                               f"({against.fingerprint}): the manifest was rewritten, or signed by another key")
    elif key is not None:
        report.signature = f"signed by the key given ({key.fingerprint})"
    else:
        report.signature = f"signed by {named.fingerprint if named else '?'}, the key the release names"
        report.notes.append(f"the signature was checked against the key the release itself names ({against.fingerprint}): "
                            f"it says {MANIFEST_NAME} is as that key signed it, not who signed it; give the publisher's "
                            "public key (--key) to check that")


def _check_card_key(root: Path, named: PublicKey | None, intact: dict, links_within: Path, report: VerifyReport) -> None:
    """The card names the signing key to its readers: a card (intact by the manifest) naming another is a problem."""
    if CARD_NAME not in intact or named is None:
        return
    try:
        card = read_small_file(root / CARD_NAME, MAX_LISTING_BYTES, links_within).decode("utf-8", "replace")
    except OSError:
        return  # the file was hashed a moment ago; unreadable now is no signature question
    shown = {public_key_from_text(text) for text in CARD_KEY.findall(card)}
    if shown != {named}:
        said = ", ".join(sorted(k.fingerprint if k else "an unreadable key" for k in shown)) or "no key"
        report.problems.append(f"{root / CARD_NAME}: names {said} as the signing key, the manifest {named.fingerprint}")


def _check_figures(root: Path, figures: list[dict], listed: dict, report: VerifyReport, *, every_file_read: bool) -> None:
    """Each figure in the `listed` Parquet files against its record's and the manifest's digest. A file whose bytes
    are not the manifest's is not opened (a tampered file is not handed to a Parquet reader); where one was left
    unread, the manifest's figures found in no file read are not said missing (its own line says what is wrong)."""
    expected = {(f["question"], f["index"]): f["sha256"] for f in figures}
    seen = set()
    for rel in sorted(r for r in listed if r.endswith(".parquet")):
        path = root / rel
        if not path.is_file():
            continue
        try:
            schema = pq.read_schema(path)
            if FIGURES_FIELD not in schema.names:
                continue
            table = pq.read_table(path, columns=["id", "images", FIGURES_FIELD])
        except Exception as exc:  # a damaged file: pyarrow raises OSError, ArrowInvalid, ...
            report.problems.append(f"{path}: not a readable Parquet file ({type(exc).__name__}: {exc})")
            continue
        for qid, images, figures in zip(*(table.column(c).to_pylist() for c in ("id", "images", FIGURES_FIELD))):
            if len(figures) != len(images):
                report.problems.append(f"{path}: {qid} names {len(images)} figure(s) but holds {len(figures)}")
                continue
            for index, (image, figure) in enumerate(zip(images, figures)):
                digest = hashlib.sha256(figure["bytes"] or b"").hexdigest()
                seen.add((qid, index))
                report.figures += 1
                if digest != image["sha256"] or digest != expected.get((qid, index), digest):
                    report.problems.append(f"{path}: {qid} figure {index + 1}: SHA-256 {digest[:16]}… is not the "
                                           f"figure the record and manifest name ({image['sha256'][:16]}…)")
    for qid, index in sorted(set(expected) - seen) if every_file_read else []:
        report.problems.append(f"{qid} figure {index + 1}: listed in the manifest but in no Parquet file")


def verify_location(location: str, *, cache_dir: str | Path | None = None, key: PublicKey | None = None) -> VerifyReport:
    """A release folder, or `hf://OWNER/NAME@TAG` downloaded (from HF_ENDPOINT when set) and verified; `key`: the
    publisher's public key its manifest must be signed by."""
    if not location.startswith(HUB_PREFIX):
        return verify_folder(Path(location), location, key=key)
    repo_id, _, tag = location[len(HUB_PREFIX):].partition("@")
    if not tag or repo_id.count("/") != 1:
        raise VerifyError(f"{location}: a Hub release is hf://OWNER/NAME@TAG")
    from huggingface_hub import snapshot_download

    bound_hub_client()  # a mirror's gzip bomb refused as it decodes (`infra.boundedhttpx`)
    with tempfile.TemporaryDirectory(prefix="examcorpus-verify-") as tmp:
        try:
            # a fresh download: a cache shared with other runs could hide a change on the Hub
            folder = snapshot_download(repo_id, repo_type="dataset", revision=tag, cache_dir=cache_dir or tmp,
                                       endpoint=os.environ.get("HF_ENDPOINT") or None,
                                       ignore_patterns=[".gitattributes"])  # the Hub's own file, not the release's
        except Exception as exc:
            raise VerifyError(f"{location}: cannot download the release ({type(exc).__name__}: {exc})") from None
        # snapshots/<commit>/ holds links into the download's blobs/: those, and only those, are the release's
        return verify_folder(Path(folder), location, links_within=Path(folder).parent.parent, key=key)
