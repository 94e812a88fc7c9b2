"""The last look before a public release is written: no private question in any file of it.

The split's leakage guard passed the public records, and the split folder's SHA-256s tie publish to
exactly those records; but a split folder can be made by an older version of the guard, or edited with
its manifest, and a release carries more than records: the card's example and tables, the manifest's
figure descriptions, the lm-eval and Inspect exports' prompts. So a public release is checked twice
before it is published:

1. the guard itself (`find_leaks`) again, private split against public records, with the settings
   the split recorded (its reviewed `allowed_pairs` included);
2. every file of the staged release, read as what it holds: each string value of each Parquet row (by
   record id and field), of each JSON or YAML document and JSONL line (by key path), and each line of
   any other text file (the card, the license, the Inspect task; JSON string escapes read), each in
   every canonical form of the guard (`pipeline.split.canonical.FORMS`), looked through for every
   private release text (`PrivateTexts`, as the guard's `contained` check), but those the guard lets
   stand in a public record (a sheet instruction both sheets print, a reviewed allowed pair).

Each finding names where it is (file, record and field, or line) and whose private text it is.
"""
from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import regex

from pipeline.infra import load_yaml
from pipeline.records import Question
from pipeline.split.canonical import FORMS, string_paths
from pipeline.split.config import LeakageSettings
from pipeline.split.leakage import CanonicalForms, PrivateTexts, contained_places, find_leaks, looked_for, release_values

# A JSON string escape as it stands in a text file (the card's example record): read, so `\n` between two
# words of a private text separates them instead of gluing an `n` to one.
_JSON_ESCAPE = regex.compile(r"\\(?:u([0-9a-fA-F]{4})|([\"\\/bfnrt]))")
_ESCAPED = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
SHOWN = 20


def settings_of(rule: dict) -> LeakageSettings:
    """The leakage settings a split recorded in its rule (`split.json`), defaults where it has none."""
    given = dict((rule.get("config") or {}).get("leakage") or {})
    known = {k: v for k, v in given.items() if k in LeakageSettings.__dataclass_fields__}
    known["allowed_pairs"] = tuple(tuple(pair) for pair in known.get("allowed_pairs", ()))
    return LeakageSettings(**known)


def release_leaks(staging: Path, private: list[Question], public: list[Question], settings: LeakageSettings) -> list[str]:
    """Every place a private text stands in the staged release, in words; empty when there is none."""
    findings = [f"record {pair.public_id}: {pair.describe()}" for pair in find_leaks(private, public, settings)]
    places = [place for path in sorted(p for p in staging.rglob("*") if p.is_file())
              for place in file_strings(path, path.relative_to(staging).as_posix())]
    seen: set[tuple[str, str]] = set()
    allowed = set(settings.allowed_pairs)
    for fold, rendered in FORMS:
        # A private text the guard lets stand in a public record (a sheet instruction both sheets print, a
        # reviewed pair) stands in the files made from that record too: not looked for in them.
        let_stand = {(c.private_id, c.private_field) for c in contained_places(private, public, settings.contained_min_chars, fold, rendered)
                     if c.instruction or (c.private_id, c.public_id) in allowed}
        forms = CanonicalForms(fold, rendered)
        index = PrivateTexts((q.id, name, inner) for q in private for name, value in release_values(q).items()
                             if (q.id, name) not in let_stand and (inner := looked_for(forms[value], settings.contained_min_chars)))
        texts = [forms.joined(value) for _, value in places]
        for at, private_id, field in index.find_all(texts):
            where = places[at][0]
            if (where, private_id) not in seen:
                seen.add((where, private_id))
                findings.append(f"{where}: holds the {field} of private record {private_id}")
    return findings


def file_strings(path: Path, name: str) -> Iterator[tuple[str, str]]:
    """(where, string) for each string a release file holds, read by its kind."""
    data = path.read_bytes()
    if name.endswith(".parquet"):
        yield from _parquet_strings(data, name)
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # not text: a figure is checked by its SHA-256 in the records
    if name.endswith((".json", ".jsonl", ".yaml", ".yml")):
        documents = _documents(text, name)
        if documents is not None:
            for where, document in documents:
                for path_in, value in string_paths(document):
                    yield f"{where} field {path_in.lstrip('.') or '(whole)'}", value
            return
    for number, line in enumerate(text.splitlines(), 1):
        yield f"{name} line {number}", _read_escapes(line)
    yield name, _read_escapes(text)  # a text wrapped over several lines


def _documents(text: str, name: str) -> list[tuple[str, object]] | None:
    try:
        if name.endswith(".jsonl"):
            return [(f"{name} line {n}", json.loads(line)) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if name.endswith(".json"):
            return [(name, json.loads(text))]
        return [(name, load_yaml(text))]
    except Exception:  # not parseable as its name says (a task YAML with `!function` tags): read as lines
        return None


def _parquet_strings(data: bytes, name: str) -> Iterator[tuple[str, str]]:
    table = pq.read_table(io.BytesIO(data))
    keep = [f.name for f in table.schema if not _binary(f.type)]
    for row in table.select(keep).to_pylist():
        where = f"{name} record {row.get('id')!s} field "
        for path_in, value in string_paths(row):
            yield where + path_in.lstrip("."), value
    metadata = table.schema.metadata or {}
    for key, value in metadata.items():
        yield f"{name} metadata {key.decode('utf-8', 'replace')}", value.decode("utf-8", "replace")


def _binary(kind: pa.DataType) -> bool:
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        return True
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return _binary(kind.value_type)
    if pa.types.is_struct(kind):
        return any(_binary(kind.field(i).type) for i in range(kind.num_fields))
    return False


def _read_escapes(text: str) -> str:
    if "\\" not in text:
        return text
    return _JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) else _ESCAPED.get(m.group(2), m.group(2)), text)


def leak_error(findings: list[str]) -> str:
    shown = "\n".join(f"  - {f}" for f in findings[:SHOWN])
    more = f"\n  - … and {len(findings) - SHOWN} more" if len(findings) > SHOWN else ""
    return (f"refusing to publish: {len(findings)} place(s) of the public release hold a private question's text "
            f"(disguises read through: invisible characters, look-alike letters, character references, markup):\n"
            f"{shown}{more}\nRun `examcorpus split` again with this version, or fix the records named.")


__all__ = ["file_strings", "leak_error", "release_leaks", "settings_of"]
