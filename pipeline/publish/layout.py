"""Where a release puts things, how configs are named, and how its Parquet is written.

Configs: one per exam family (the source spec), suffixed with the language where a family has
several (`sample_el`, `pl_matura_en`…). A config's data for a split is `data/<config>/<split>.parquet`.

Parquet: QUESTION_SCHEMA (so `examcorpus eval run --data <release>` and `datasets` read the same
columns) plus `figures`, the PNG bytes of each question's `images` in the same order, typed as the
`datasets` Image feature (Arrow `struct<bytes, path>` with the feature in the file's `huggingface`
schema metadata and in the card), so `load_dataset` yields PIL images; rows sorted by id, zstd-compressed, row groups of 10,000 rows, page index on, content-defined
chunking on; with figures, row groups are cut to about FIGURE_ROW_GROUP_BYTES. Why: one of our rows is ~0.5–1 KB, so 10k rows is ~5–10 MB in memory, far under the Hub
viewer's per-row-group limit (~286 MiB; it recommends 100–300 MB) yet big enough that zstd sees long
runs of repeated column values (source, exam, URLs). The viewer and `datasets` read a page of rows
from one small row group instead of a whole file. zstd decompresses about as fast as snappy and gives
smaller files (measured in `make bench`). Content-defined chunking makes an unchanged run of rows
produce the same bytes in the next release, so the Hub's Xet storage deduplicates it.
"""
from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.records import Question, questions_to_table

ROW_GROUP_ROWS = 10_000
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 3
CARD_NAME = "README.md"
MANIFEST_NAME = "manifest.json"  # eval.dataset.loading reads releases by this name
SUMS_NAME = "SHA256SUMS"  # every other file's SHA-256, in the format `sha256sum -c` reads
SIGNATURE_NAME = "manifest.json.sig"  # the publisher's Ed25519 signature of manifest.json's bytes (`signing`)
LICENSE_NAME = "LICENSE.md"  # the terms the card's license_link points at when the license is `other`
FIGURES_FIELD = "figures"
FIGURE_TYPE = pa.list_(pa.struct([("bytes", pa.binary()), ("path", pa.string())]))  # datasets' Image storage
# datasets' own JSON for "a list of Image" (a one-item list reads as a list in every datasets version)
FIGURES_FEATURE = [{"_type": "Image"}]
FIGURE_ROW_GROUP_BYTES = 100 * 1024 * 1024  # the Hub viewer recommends 100–300 MB row groups
# Every path a release may hold (docs/reference/release-layout.md): a file of a pulled release outside
# these (a dataset loading script, a pickle, a model) is none of ours, whatever its manifest says.
RELEASE_PATHS = re.compile(
    r"README\.md|LICENSE\.md|manifest\.json|manifest\.json\.sig|SHA256SUMS|data/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\.parquet"
    r"|exports/lm_eval/utils\.py|exports/lm_eval/[A-Za-z0-9_.-]+\.yaml|exports/inspect/task\.py"
    r"|exports/inspect/samples\.jsonl|exports/llmzszl/[A-Za-z0-9_.-]+\.jsonl"
    r"|exports/left_out\.jsonl|exports/figures_left_out\.jsonl")  # what the exports leave out, listed


def release_path_problem(rel: str) -> str | None:
    """Why `rel` (a path a release's manifest or SHA256SUMS names, or a file found in it) is no file of a
    release, or None: not a relative path inside the release, or a path the layout does not write."""
    parts = rel.split("/")
    if not rel or rel.startswith("/") or "\\" in rel or any(part in ("", ".", "..") for part in parts):
        return "not a path inside the release"
    if not RELEASE_PATHS.fullmatch(rel) or any(part.startswith(".") for part in parts):
        return "no file a release holds (docs/reference/release-layout.md): a loading script, pickle or other file is not read"
    return None


CONFIG_NAME = re.compile(r"[A-Za-z0-9_.-]+")  # the name class of `RELEASE_PATHS`' folders and files


def config_name_problem(config: str) -> str | None:
    """Why `config` cannot name a release's files (`data/<config>/…`, `exports/llmzszl/<config>.jsonl`), or None: a
    character outside `CONFIG_NAME`, each named (a look-alike of `/` by its Unicode name), or a name of `.`s only."""
    odd = sorted({c for c in config if not CONFIG_NAME.fullmatch(c)})
    if odd:
        named = ", ".join(repr(c) if c.isascii() else f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')}" for c in odd)
        return f"it holds {named}; a release's file names are letters A-Z a-z, digits, '_', '.' and '-'"
    if not config.strip("."):
        return "a name of dots only is no file name"
    return None


def config_names(questions: list[Question]) -> dict[str, str]:
    """Question id → config name. `questions` should be both splits, so a family's config names do
    not change between its public and private releases."""
    languages: dict[str, set[str]] = {}
    for q in questions:
        languages.setdefault(q.source, set()).add(q.language)
    return {q.id: q.source if len(languages[q.source]) == 1 else f"{q.source}_{q.language}" for q in questions}


def data_path(config: str, split: str) -> str:
    return f"data/{config}/{split}.parquet"


def figure_name(sha256: str) -> str:
    """The `path` a figure carries inside the Parquet: its name, not a place on anyone's disk."""
    return f"{sha256}.png"


def parquet_bytes(questions: list[Question], figures: Mapping[str, bytes] | None = None) -> bytes:
    """The questions as Parquet. With `figures` (SHA-256 → PNG bytes, one for every image the
    questions name) a `figures` column holds them as datasets' Image feature; without, no such column."""
    ordered = sorted(questions, key=lambda q: q.id)
    table = questions_to_table(ordered)
    row_group_rows = ROW_GROUP_ROWS
    if figures is not None:
        cells = [[{"bytes": figures[img.sha256], "path": figure_name(img.sha256)} for img in q.images] for q in ordered]
        table = table.append_column(pa.field(FIGURES_FIELD, FIGURE_TYPE), pa.array(cells, type=FIGURE_TYPE))
        metadata = dict(table.schema.metadata or {})
        metadata[b"huggingface"] = json.dumps({"info": {"features": {FIGURES_FIELD: FIGURES_FEATURE}}}).encode()
        table = table.replace_schema_metadata(metadata)
        if table.num_rows:
            row_bytes = max(1, table.nbytes // table.num_rows)
            row_group_rows = max(1, min(ROW_GROUP_ROWS, FIGURE_ROW_GROUP_BYTES // row_bytes))
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression=COMPRESSION, compression_level=COMPRESSION_LEVEL,
                   row_group_size=row_group_rows, write_page_index=True, use_content_defined_chunking=True)
    return sink.getvalue().to_pybytes()


def size_category(rows: int) -> str:
    """The Hub's size_categories bucket for a row count."""
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
              (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"), (1_000_000_000, "100M<n<1B")]
    for bound, name in bounds:
        if rows < bound:
            return name
    return f"{10 ** int(math.log10(rows))}<n"  # never reached by exam data


def features_yaml() -> list[dict]:
    """A release table's columns as the card's `dataset_info.features` (the YAML form `datasets` reads):
    QUESTION_SCHEMA, then `figures` as a list of images."""
    return [_feature(f.name, f.type) for f in questions_to_table([]).schema] + [{"name": FIGURES_FIELD, "list": "image"}]


def _feature(name: str | None, typ: pa.DataType) -> dict:
    entry: dict = {"name": name} if name is not None else {}
    if pa.types.is_list(typ):
        value = typ.value_type
        entry["list"] = [_feature(f.name, f.type) for f in value] if pa.types.is_struct(value) else _dtype(value)
    else:
        entry["dtype"] = _dtype(typ)
    return entry


def _dtype(typ: pa.DataType) -> str:
    names = {pa.string(): "string", pa.int32(): "int32", pa.int64(): "int64", pa.float64(): "float64", pa.bool_(): "bool"}
    if typ not in names:
        raise TypeError(f"no dataset-card dtype for Arrow type {typ}")
    return names[typ]
