"""The words the `sign-shapes` pass would look at in cached page readings: where it can change anything at all.

    python -m pipeline.devkit.signcandidates DIR [DIR ...]     # each DIR an `ocrcertainty --out` folder (its cache/ocr)

A reading of a page the pass's condition does not hold on (no cross between numbers, no letter before a unit after a
number) reads the same with and without the pass, so a set with no candidate in its readings is unchanged by it. Each
candidate is printed with the words around it; the readings are those the folder's run cached (the words after every
pass, so a word a later pass changed is as it ended).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from pipeline.extract.ocr import Word, is_sign_candidate, words_by_line


def candidates(folder: Path) -> tuple[int, list[str]]:
    """The number of page readings cached under `folder`, and one line per candidate word in them."""
    pages, found = 0, []
    for path in sorted(folder.rglob("cache/ocr/*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        pages += 1
        words = [Word(w["text"], w["conf"], w["left"], w["top"], w["right"], w["bottom"], tuple(w["line"]))
                 for w in data.get("words", [])]
        for members in words_by_line(words).values():
            for at, word in enumerate(members):
                if is_sign_candidate(members, at):
                    around = " ".join(m.text for m in members[max(0, at - 2):at + 3])
                    found.append(f"  {path.stem[:10]}: {word.text!r} in [{around}]")
    return pages, found


def main(argv: list[str] | None = None) -> int:
    for name in argv if argv is not None else sys.argv[1:]:
        pages, found = candidates(Path(name))
        print(f"{name}: {pages} page readings, {len(found)} candidate words", *found, sep="\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
