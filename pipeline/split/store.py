"""Reading curated Parquet and writing/reading a split folder (`build/split/` by default).

A split folder holds `public.parquet`, `private.parquet` (QUESTION_SCHEMA, sorted by id) and
`split.json`: status, the rule, the inputs and both outputs with their SHA-256s, counts, the withheld
records and the leakage pairs. Readers check the outputs' SHA-256s, so what the leakage guard passed
is exactly what gets published. A failed guard leaves `split.json` with status "failed", `leakage.md`, and no Parquet,
so a later publish cannot pick up a stale split.
"""
from __future__ import annotations

import hashlib
import io
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.infra import write_bytes_atomic, write_text_atomic
from pipeline.records import QUESTION_FIELDS, Question, conform_to_schema, questions_to_table, table_to_questions
from pipeline.split.assign import SPLITS, LeakageError, SplitResult, split_records
from pipeline.split.config import SplitConfig

SPLIT_MANIFEST = "split.json"
LEAK_REPORT = "leakage.md"


class SplitDataError(ValueError):
    """Unusable input or split folder; the message names the file and the problem."""


@dataclass(frozen=True)
class SplitInput:
    path: str
    sha256: str
    rows: int


@dataclass
class SplitFolder:
    """A written split, as publish reads it."""

    root: Path
    manifest: dict

    @property
    def rule(self) -> dict:
        return self.manifest["rule"]

    def questions(self, split: str) -> list[Question]:
        """The split's records, refused if its file is not byte-for-byte what the split (and so its
        leakage guard) wrote: a hand-edited split cannot carry a private question into a release."""
        if split not in SPLITS:
            raise SplitDataError(f"unknown split {split!r}; one of {', '.join(SPLITS)}")
        path = self.root / f"{split}.parquet"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise SplitDataError(f"{path}: missing") from None
        expected = self.manifest.get("files", {}).get(path.name, {}).get("sha256")
        actual = hashlib.sha256(data).hexdigest()
        if actual != expected:
            raise SplitDataError(f"{path}: SHA-256 {actual[:12]}… is not the {str(expected)[:12]}… that {SPLIT_MANIFEST} "
                                 "records: the file changed after the split and its leakage guard; run `examcorpus split` again")
        return _read_questions(path, data)


def read_curated(folder: Path) -> tuple[list[Question], list[SplitInput]]:
    folder = Path(folder)
    files = sorted(folder.glob("*.parquet")) if folder.is_dir() else [folder]
    if not files or not files[0].exists():
        raise SplitDataError(f"{folder}: no curated *.parquet files (run `examcorpus extract` first)")
    questions, inputs = [], []
    for path in files:
        data = path.read_bytes()
        found = _read_questions(path, data)
        questions += found
        inputs.append(SplitInput(path.name, hashlib.sha256(data).hexdigest(), len(found)))
    return questions, inputs


def _read_questions(path: Path, data: bytes | None = None) -> list[Question]:
    try:
        table = pq.read_table(io.BytesIO(data) if data is not None else path)
    except FileNotFoundError:
        raise SplitDataError(f"{path}: missing") from None
    except (pa.ArrowException, OSError) as exc:
        raise SplitDataError(f"{path}: not a readable Parquet file ({exc})") from None
    try:
        return table_to_questions(conform_to_schema(table))
    except KeyError as exc:
        missing = [n for n in QUESTION_FIELDS if n not in table.column_names]
        raise SplitDataError(f"{path}: not a question table, columns missing: {', '.join(missing)}") from exc
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise SplitDataError(f"{path}: columns do not match the question schema ({exc})") from None


def run_split(curated: Path, out_dir: Path, config: SplitConfig) -> SplitResult:
    """Split curated Parquet into `out_dir`; raises LeakageError (after writing its report) on a leak."""
    out_dir = Path(out_dir)
    questions, inputs = read_curated(curated)
    base = {"inputs": [asdict(i) for i in inputs], "config_path": config.path}
    try:
        result = split_records(questions, config)
    except LeakageError as exc:
        for name in SPLITS:
            (out_dir / f"{name}.parquet").unlink(missing_ok=True)
        write_text_atomic(out_dir / LEAK_REPORT, exc.report)
        failed = {"status": "failed", **base, "leaks": [asdict(p) for p in exc.pairs]}
        write_text_atomic(out_dir / SPLIT_MANIFEST, json.dumps(failed, indent=2, ensure_ascii=False) + "\n")
        raise
    files = {}
    for name in SPLITS:
        data = _parquet_bytes(result.split(name))
        write_bytes_atomic(out_dir / f"{name}.parquet", data)
        files[f"{name}.parquet"] = {"sha256": hashlib.sha256(data).hexdigest(), "rows": len(result.split(name))}
    (out_dir / LEAK_REPORT).unlink(missing_ok=True)
    manifest = {
        "status": "ok",
        **base,
        "files": files,
        "rule": result.rule.to_dict(),
        "counts": {"public": len(result.public), "private": len(result.private), "withheld": len(result.withheld)},
        "withheld": [asdict(w) for w in result.withheld],
        "leaks_withheld": [asdict(p) for p in result.leaks],
        "rule_unmatched": result.unmatched,
    }
    write_text_atomic(out_dir / SPLIT_MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return result


def _parquet_bytes(questions: list[Question]) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(questions_to_table(questions), sink)
    return sink.getvalue().to_pybytes()


def read_split(folder: Path) -> SplitFolder:
    folder = Path(folder)
    path = folder / SPLIT_MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SplitDataError(f"{path}: no split here (run `examcorpus split` first)") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise SplitDataError(f"{path}: unreadable split manifest ({exc})") from None
    if manifest.get("status") != "ok":
        raise SplitDataError(f"{path}: the last split failed its leakage guard (see {folder / LEAK_REPORT}); "
                             "nothing can be published from it")
    return SplitFolder(folder, manifest)
