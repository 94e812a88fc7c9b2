"""A curator's key checked against the question it is for: a key is only worth saving if the dataset
can score with it.

What a key must be depends on the question's type. A single-choice or true/false question is
answered by exactly one of its own option labels (whatever alphabet they are in: `A`-`D`, `α`-`δ`,
`P`/`F`); a matching task keeps its key as text (pairs such as `1B 2A`, as the parse stage does); an
open, short-answer or fill-in question takes any text. A question marked broken leaves the dataset,
so its key is not checked.
"""
from __future__ import annotations

from pipeline.records import QuestionType

ONE_LABEL_TYPES = frozenset({QuestionType.SINGLE_CHOICE.value, QuestionType.TRUE_FALSE.value})


class KeyMismatch(ValueError):
    """A key that does not fit its question; the message says which keys would."""


def checked_key(question_type: str, labels: list[str], answer: str | None, broken: bool = False) -> str | None:
    """The key as it will be stored (None for none; a label spelt in another case becomes the label's
    own spelling), or KeyMismatch when a one-label question gets something that is not one of `labels`."""
    answer = (answer or "").strip() or None
    if answer is None or broken or question_type not in ONE_LABEL_TYPES:
        return answer
    if not labels:
        raise KeyMismatch(f"this {question_type.replace('_', ' ')} question has no options, so no key can name one; "
                        "add its options or mark it broken")
    by_fold = {label.casefold(): label for label in labels}
    if answer.casefold() in by_fold:
        return by_fold[answer.casefold()]
    raise KeyMismatch(f"key {answer!r} is not one of this question's option labels ({', '.join(labels)}): "
                    f"a {question_type.replace('_', ' ')} question is answered by exactly one of them")
