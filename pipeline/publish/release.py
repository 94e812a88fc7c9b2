"""Building a release folder from a split, and publishing it to a local folder.

A release is one split (public or private) of one split folder, under one release id:
`data/<config>/<split>.parquet` (with the figures), `README.md` (the card), `LICENSE.md` (with
`license: other`), `exports/…`, `manifest.json`, its signature `manifest.json.sig` where the publisher gave a key
(`pipeline.publish.signing`), and last `SHA256SUMS` over all of them. It is built in a
staging folder beside the target and renamed into place in one step, so a target folder either holds
a whole release or none; an existing release is never overwritten. Staging folders left by a publish
that was killed are removed by the next publish beside them (`pipeline.publish.staging`).
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.infra import progress, write_bytes_atomic, write_text_atomic
from pipeline.publish.card import CardInfo, card_text, license_text
from pipeline.publish.exports import export_files
from pipeline.publish.figures import FigureError, figure_entries, locate_figures, read_figures
from pipeline.publish.leakscan import leak_error, release_leaks, settings_of
from pipeline.publish.layout import (CARD_NAME, LICENSE_NAME, MANIFEST_NAME, SIGNATURE_NAME, SUMS_NAME, config_name_problem,
                                     config_names, data_path, parquet_bytes)
from pipeline.publish.manifest import FileEntry, build_manifest, errata, manifest_json, sha256_bytes
from pipeline.publish.signing import PublicKey, SigningKey, signature_valid
from pipeline.publish.staging import clean_stale_staging, is_staging, staging_folder
from pipeline.publish.verify import sums_text
from pipeline.records import QUESTION_FIELDS, Question, alike_ids, describe_alike, table_to_questions
from pipeline.split import SPLITS, SplitDataError, read_split

RELEASE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")  # also a valid git tag and folder name


class PublishError(RuntimeError):
    """A release that must not or cannot be made; the message says why and names the target."""


@dataclass
class PublishResult:
    release_id: str
    split: str
    target: str
    manifest: dict
    commit: str | None = None
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        m = self.manifest
        line = (f"release {self.release_id} ({self.split}) → {self.target}: {m['counts']['questions']} questions in "
                f"{m['counts']['configs']} config(s), {len(m['files'])} files, {len(m['errata'])} errata since "
                f"{m['previous_release'] or 'no previous release'}")
        return "\n".join([line + (f", commit {self.commit}" if self.commit else ""), *self.notes])


def default_release_id() -> str:
    return time.strftime("v%Y.%m.%d", time.gmtime())


def check_release_id(release_id: str) -> None:
    if not RELEASE_ID.match(release_id) or ".." in release_id or release_id.endswith((".", ".lock")):
        raise PublishError(f"release id {release_id!r}: use letters, digits, '.', '_' and '-' (e.g. v2026.1)")


def check_visibility(split: str, private_target: bool, target: str) -> None:
    """The one rule no flag overrides: public data to public targets, private data to private ones."""
    if split == "private" and not private_target:
        raise PublishError(f"{target}: refusing to publish the private split to a public target")
    if split == "public" and private_target:
        raise PublishError(f"{target}: the public split goes to a public target; this one is private")


def read_release_questions(root: Path, split: str | None = None, *, signed_by: PublicKey | None = None
                           ) -> tuple[dict, list[Question]]:
    """A release folder's manifest and its questions (of one split when given). Each Parquet read is the one its manifest
    lists (size and SHA-256), and with `signed_by` (the key signing the release being made) a previous release that
    names that key must carry its valid signature: errata compare with what a release held, never with a file changed
    since (a PublishError says which)."""
    manifest_bytes = (root / MANIFEST_NAME).read_bytes()
    manifest = json.loads(manifest_bytes.decode("utf-8"))
    named = manifest.get("signature") if isinstance(manifest.get("signature"), dict) else {}
    if signed_by is not None and named.get("public_key") == signed_by.text:
        signature = root / SIGNATURE_NAME
        if not signature.is_file() or not signature_valid(signed_by, manifest_bytes, signature.read_bytes()[:1024]):
            raise PublishError(f"{root}: previous release {manifest.get('release')!r} names this publisher's key "
                               f"({signed_by.fingerprint}) but {SIGNATURE_NAME} is not its signature of {MANIFEST_NAME}: "
                               "its manifest was changed since it was signed; errata are not made against it "
                               "(examcorpus verify it, or name another --previous)")
    questions = []
    for entry in manifest["files"]:
        if entry["path"].endswith(".parquet") and (split is None or entry.get("split") == split):
            data = (root / entry["path"]).read_bytes()
            if len(data) != entry.get("bytes") or sha256_bytes(data) != entry.get("sha256"):
                raise PublishError(f"{root / entry['path']}: not the file previous release {manifest.get('release')!r} "
                                   "lists (SHA-256/size differ from its manifest); errata are not made against a file "
                                   "changed since (examcorpus verify it, or name another --previous)")
            table = pq.read_table(pa.BufferReader(data))
            questions += table_to_questions(table.select(list(QUESTION_FIELDS)))
    return manifest, questions


def build_release(split_dir: Path, split: str, staging: Path, *, release_id: str, name: str, previous: Path | None,
                  repo_hint: str, visibility: str, info: CardInfo | None = None, images_root: Path = Path("."),
                  repo_url: str | None = None, show_progress: bool = True, signing_key: SigningKey | None = None) -> dict:
    """Write a whole release into the empty folder `staging`; returns its manifest. Figure paths in
    the records are relative to `images_root` (the project root, where `raw/figures/` is). With `signing_key`, the
    manifest names its public half (so does the card) and `manifest.json.sig` is its signature of the manifest."""
    info = info or CardInfo()
    check_release_id(release_id)
    if split not in SPLITS:
        raise PublishError(f"unknown split {split!r}; one of {', '.join(SPLITS)}")
    try:
        folder = read_split(split_dir)
        questions = folder.questions(split)
        others = {s: folder.questions(s) for s in SPLITS if s != split}
    except SplitDataError as exc:
        raise PublishError(str(exc)) from None
    doubled = alike_ids(q.id for q in [*questions, *(q for qs in others.values() for q in qs)])
    if doubled:  # a split folder made by hand, or by a version before the split refused them
        raise PublishError(f"{split_dir}: {len(doubled)} question id(s) occur more than once across its splits (full-width, "
                           f"compatibility forms and invisible characters folded): {describe_alike(doubled)}")
    names = config_names(questions + [q for qs in others.values() for q in qs])
    unnamable = sorted({(q.source, names[q.id]) for q in questions if config_name_problem(names[q.id]) is not None})
    if unnamable:  # a curated file made by hand or by another tool: a spec's name is always a config name
        raise PublishError(f"{split_dir}: " + "; ".join(f"source {source!r} cannot name the release's files (config "
                                                         f"{config!r}): {config_name_problem(config)}"
                                                         for source, config in unnamable) + "; nothing was written")
    by_config: dict[str, list[Question]] = {}
    for q in questions:
        by_config.setdefault(names[q.id], []).append(q)
    try:
        located = locate_figures(questions, images_root)
    except FigureError as exc:
        raise PublishError(f"{split_dir}: {exc}") from None

    files: list[FileEntry] = []
    bar = progress(total=len(by_config), desc=f"release {release_id}: Parquet", unit="config", enabled=show_progress)
    for config, qs in sorted(by_config.items()):
        rel = data_path(config, split)
        try:
            data = parquet_bytes(qs, read_figures(qs, located))
        except FigureError as exc:
            raise PublishError(f"{split_dir}: {exc}") from None
        write_bytes_atomic(staging / rel, data, durable=False)
        files.append(FileEntry(rel, sha256_bytes(data), len(data), len(qs), config, split))
        bar.update(1)
    bar.close()
    for rel, data in export_files(by_config, name=name, split=split).items():
        write_bytes_atomic(staging / rel, data, durable=False)
        files.append(FileEntry(rel, sha256_bytes(data), len(data)))
    previous_id, found, added = None, [], 0
    if previous is not None:
        prev_manifest, prev_questions = read_release_questions(
            previous, split, signed_by=signing_key.public if signing_key else None)
        previous_id = prev_manifest.get("release")
        found, added = errata(prev_questions, questions)
    now = time.gmtime()
    sizes = {sha: path.stat().st_size for sha, path in located.items()}
    if info.license_id == "other" and info.license_link is None:  # the card's license_link points here
        terms = license_text(name=name, questions=questions).encode()
        write_bytes_atomic(staging / LICENSE_NAME, terms, durable=False)
        files.append(FileEntry(LICENSE_NAME, sha256_bytes(terms), len(terms)))
    card = card_text(name=name, release_id=release_id, split=split, by_config=by_config, rule=folder.rule,
                     withheld=folder.manifest["counts"]["withheld"], repo_hint=repo_hint, info=info,
                     year=now.tm_year, errata=found, previous_release=previous_id, figure_sizes=sizes,
                     url=repo_url, signed_by=signing_key.public if signing_key else None).encode()
    write_bytes_atomic(staging / CARD_NAME, card, durable=False)
    files.append(FileEntry(CARD_NAME, sha256_bytes(card), len(card)))

    manifest = build_manifest(name=name, release_id=release_id, split=split, visibility=visibility, files=files,
                              questions=questions, split_manifest=folder.manifest, previous_release=previous_id,
                              found_errata=found, added=added, created_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", now),
                              figures=figure_entries(by_config, sizes),
                              signature=signing_key.public.manifest_entry() if signing_key else None)
    manifest_bytes = manifest_json(manifest).encode("utf-8")
    write_bytes_atomic(staging / MANIFEST_NAME, manifest_bytes)
    if signing_key is not None:  # over the very bytes written: a reader checks the file, not a re-serialisation
        write_bytes_atomic(staging / SIGNATURE_NAME, signing_key.sign(manifest_bytes), durable=False)
    if split == "public":  # the last look: no private text in any file of it (`leakscan`)
        findings = release_leaks(staging, others.get("private", []), questions, settings_of(folder.rule))
        if findings:
            raise PublishError(f"{split_dir}: {leak_error(findings)}")
    listed = sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file())
    write_text_atomic(staging / SUMS_NAME, sums_text(staging, listed))
    return manifest


def releases_beside(target: Path) -> list[tuple[str, Path]]:
    """(release id, folder) of the releases in target's parent folder, oldest first."""
    found = []
    parent = target.parent
    if parent.is_dir():
        for manifest in parent.glob(f"*/{MANIFEST_NAME}"):
            if is_staging(manifest.parent):
                continue  # a release being built by a publish still running
            try:
                data = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                continue
            found.append((data.get("created_at", ""), data.get("release", ""), data.get("split"), manifest.parent))
    return [(rid, path) for _, rid, split, path in sorted(found, key=lambda t: (t[0], t[1]))]


def publish_to_folder(split_dir: Path, split: str, to: Path, *, release_id: str, name: str = "examcorpus",
                      previous: Path | None = None, private_target: bool = False, info: CardInfo | None = None,
                      images_root: Path = Path("."), show_progress: bool = True,
                      signing_key: SigningKey | None = None) -> PublishResult:
    to = Path(to).resolve()
    check_release_id(release_id)
    check_visibility(split, private_target, str(to))
    if (to / MANIFEST_NAME).is_file() or (to.exists() and any(to.iterdir())):
        held = json.loads((to / MANIFEST_NAME).read_text()).get("release") if (to / MANIFEST_NAME).is_file() else None
        raise PublishError(f"{to}: already holds {'release ' + held if held else 'files'}; releases are immutable, "
                           "publish a correction under a new release id into a new folder")
    cleaned = clean_stale_staging(to.parent)  # before looking for releases: a killed one may hold a manifest
    siblings = releases_beside(to)
    same = [path for rid, path in siblings if rid == release_id]
    if same:
        raise PublishError(f"release {release_id} already exists at {same[0]}; a correction is a new release id")
    if previous is None:
        same_split = [path for _, path in siblings if _split_of(path) == split]
        previous = same_split[-1] if same_split else None
    with staging_folder(to) as staging:
        manifest = build_release(split_dir, split, staging, release_id=release_id, name=name, previous=previous,
                                 repo_hint="", visibility="private" if private_target else "public",
                                 info=info, images_root=images_root, show_progress=show_progress,
                                 signing_key=signing_key)
        if to.exists():
            to.rmdir()  # empty (checked above); rename needs the name free
        os.rename(staging, to)
    return PublishResult(release_id, split, str(to), manifest, notes=cleaned)


def _split_of(path: Path) -> str | None:
    try:
        return json.loads((path / MANIFEST_NAME).read_text(encoding="utf-8")).get("split")
    except (OSError, json.JSONDecodeError):
        return None
