"""Where a release puts things, how configs are named, and how its Parquet is written.

Configs: one per exam family (the source spec), suffixed with the language where a family has
several (`sample_el`, `pl_matura_en`…). A config's data for a split is `data/<config>/<split>.parquet`.

Parquet: QUESTION_SCHEMA (so `examcorpus eval run --data <release>` and `datasets` read the same
columns), rows sorted by id, zstd-compressed, row groups of 10,000 rows, page index on, content-defined
chunking on. Why: one of our rows is ~0.5–1 KB, so 10k rows is ~5–10 MB in memory, far under the Hub
viewer's per-row-group limit (~286 MiB; it recommends 100–300 MB) yet big enough that zstd sees long
runs of repeated column values (source, exam, URLs). The viewer and `datasets` read a page of rows
from one small row group instead of a whole file. zstd decompresses about as fast as snappy and gives
smaller files (measured in `make bench`). Content-defined chunking makes an unchanged run of rows
produce the same bytes in the next release, so the Hub's Xet storage deduplicates it.
"""
from __future__ import annotations

import math

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.records import Question, questions_to_table

ROW_GROUP_ROWS = 10_000
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 3
CARD_NAME = "README.md"
MANIFEST_NAME = "manifest.json"  # eval.dataset.loading reads releases by this name


def config_names(questions: list[Question]) -> dict[str, str]:
    """Question id → config name. `questions` should be both splits, so a family's config names do
    not change between its public and private releases."""
    languages: dict[str, set[str]] = {}
    for q in questions:
        languages.setdefault(q.source, set()).add(q.language)
    return {q.id: q.source if len(languages[q.source]) == 1 else f"{q.source}_{q.language}" for q in questions}


def data_path(config: str, split: str) -> str:
    return f"data/{config}/{split}.parquet"


def parquet_bytes(questions: list[Question]) -> bytes:
    table = questions_to_table(sorted(questions, key=lambda q: q.id))
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression=COMPRESSION, compression_level=COMPRESSION_LEVEL,
                   row_group_size=ROW_GROUP_ROWS, write_page_index=True, use_content_defined_chunking=True)
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
    """QUESTION_SCHEMA as the card's `dataset_info.features` (the YAML form `datasets` reads)."""
    return [_feature(f.name, f.type) for f in questions_to_table([]).schema]


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
