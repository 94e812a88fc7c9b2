"""A public release is refused when any file of it would carry a private question, however disguised.

The split folder here is one whose public file was changed and whose `split.json` was written to match
(as a hand edit, or a split made by an older guard, would leave it): its SHA-256 check passes, so only
publish's own look (`pipeline.publish.leakscan`) stands between the private text and the release. Each
case puts a disguised copy of a private question into one field of one public record (or into the card
through a publish flag) and publishes with the real `examcorpus publish`; the release must be refused,
naming the record and the field (or the file and line), and nothing may be written."""
from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.publish import CardInfo, PublishError, publish_to_folder
from pipeline.records import questions_to_table
from pipeline.split import read_split


def thin_spaces(text: str) -> str:
    return " ".join(w[:len(w) // 2] + "\u2009" + w[len(w) // 2:] if len(w) >= 5 else w for w in text.split(" "))


def references(text: str) -> str:
    return "".join(f"&#{ord(c)};" if c.isalpha() and i % 3 == 0 else c for i, c in enumerate(text))


def markup(text: str) -> str:
    return " ".join(f"<i>{w[:2]}</i>{w[2:]}" if len(w) > 3 else w for w in text.split(" "))


def look_alikes(text: str) -> str:
    return text.translate(str.maketrans("aeopcxy", "аеорсху"))


DISGUISES = [thin_spaces, references, markup, look_alikes]
# Every string field of a record a private text could be written into, and how the finding names it.
FIELDS = {
    "question": lambda q, t: {"question": f"{q.question}\n{t}"},
    "context": lambda q, t: {"context": f"Przeczytaj tekst.\n{t}"},
    "choices": lambda q, t: {"choices": [*q.choices[:3], t]},
    "image_description": lambda q, t: {"image_description": f"[1] {t}"},
    "image_transcription": lambda q, t: {"image_transcription": t},
    "subject": lambda q, t: {"subject": t},
    "exam": lambda q, t: {"exam": t},
    "sheet_code": lambda q, t: {"sheet_code": t},
    "level": lambda q, t: {"level": t},
    "reviewed_by": lambda q, t: {"reviewed_by": t},
    "description_model": lambda q, t: {"description_model": t},
}


def smuggle(split_dir: Path, record) -> None:
    """Replace the public record of the same id by `record`, and write split.json to match."""
    public = [record if q.id == record.id else q for q in read_split(split_dir).questions("public")]
    path = split_dir / "public.parquet"
    pq.write_table(questions_to_table(public), path)
    manifest = json.loads((split_dir / "split.json").read_text(encoding="utf-8"))
    manifest["files"]["public.parquet"] = {"sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "rows": len(public)}
    (split_dir / "split.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize("field", FIELDS)
def test_a_disguised_private_question_in_any_field_of_a_public_record_refuses_the_release(tmp_path, split_dir, capsys, field):
    folder = read_split(split_dir)
    private = next(q for q in folder.questions("private") if q.source == "pl_test")
    target = folder.questions("public")[3]
    disguise = DISGUISES[list(FIELDS).index(field) % len(DISGUISES)]
    smuggle(split_dir, dataclasses.replace(target, **FIELDS[field](target, disguise(private.question))))

    code = main(["publish", "--split-dir", str(split_dir), "--to", str(tmp_path / "v1"), "--release", "v1", "--no-progress"])

    err = capsys.readouterr().err
    assert code == 1, f"{field} ({disguise.__name__}): published"
    assert "refusing to publish" in err and f"private record {private.id}" in err, err
    assert f"record {target.id} field {field}" in err, err  # the Parquet row and its field, by name
    assert not (tmp_path / "v1").exists()


def test_a_private_question_in_the_cards_citation_refuses_the_release(tmp_path, split_dir):
    private = next(q for q in read_split(split_dir).questions("private") if q.source == "pl_test")
    with pytest.raises(PublishError) as refused:
        publish_to_folder(split_dir, "public", tmp_path / "v1", release_id="v1", show_progress=False,
                          info=CardInfo(authors=(references(private.question),)))
    assert "README.md line" in str(refused.value) and f"the question of private record {private.id}" in str(refused.value)
    assert not (tmp_path / "v1").exists()


def test_a_private_question_in_a_public_record_reaches_no_export_unseen(tmp_path, split_dir):
    """One smuggled question is named wherever the release would have carried it: the record (the guard run
    again), the Parquet row, the card's example record, the Inspect export's prompt."""
    folder = read_split(split_dir)
    private = next(q for q in folder.questions("private") if q.source == "pl_test")
    first = min(folder.questions("public"), key=lambda q: q.id)  # the card's example: the first config's first record
    smuggle(split_dir, dataclasses.replace(first, question=thin_spaces(private.question)))
    with pytest.raises(PublishError) as refused:
        publish_to_folder(split_dir, "public", tmp_path / "v1", release_id="v1", show_progress=False)
    message = str(refused.value)
    for place in (f"record {first.id}: contained: private {private.id}", f"record {first.id} field question: holds the question",
                  "README.md line", "exports/inspect/samples.jsonl line"):
        assert place in message, (place, message)


def test_a_clean_public_release_is_published_and_its_scan_finds_nothing(tmp_path, split_dir):
    from pipeline.publish.leakscan import release_leaks, settings_of

    publish_to_folder(split_dir, "public", tmp_path / "v1", release_id="v1", show_progress=False)
    folder = read_split(split_dir)
    assert release_leaks(tmp_path / "v1", folder.questions("private"), folder.questions("public"), settings_of(folder.rule)) == []
    # and the scan is not blind: the public questions themselves are found when taken as private
    public = folder.questions("public")
    assert release_leaks(tmp_path / "v1", public[:3], [], settings_of(folder.rule))
