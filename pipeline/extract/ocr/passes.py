"""The interface of a page's OCR passes: what a pass is, what flows through them, and how a pass is declared.

A page is read by an ordered list of passes (`pipeline.extract.ocr.pagepasses.PAGE_PASSES`, the one
registry). Each pass has
- a `name` (what a spec's `ocr.passes.disable` names, and what the cache key lists),
- a `version` (bump it when what the pass does changes: only the cached readings of settings that run
  it are read again; the OCR cache key holds every enabled pass's name and version, and what the pass
  depends on beyond its code on this machine, `depends_on(settings)`: the dictionaries it found),
- a `cost` class (`Cost`: cheap arithmetic on the image or words, a re-OCR of some regions, or a
  whole page read again),
- a declared condition `applies(work) -> bool` over the page's settings and what earlier passes found
  (its docstring is the condition the listing and the docs show),
- and `run(work) -> work`: a `PageWork` in, a `PageWork` out (frozen: a pass returns a new value with
  `dataclasses.replace`).

A pass that decides the page's whole reading (the page read again turned upright, nothing legible)
sets `PageWork.outcome`; the passes after it do not run. `required` passes (the first reading, the
measures later passes rely on) cannot be disabled. Modelled on docling's pipeline stages (typed
options, one ordered list) and Inspect's registries (a name and metadata per entry, listed from code).
"""
from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from PIL import Image

from pipeline.extract.document import ScannedFigure
from pipeline.extract.ocr.lexicon import Lexicon
from pipeline.extract.ocr.reading import PageReading
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.words import Word


class Cost(enum.Enum):
    """What a pass costs when it applies, in the units that matter on a scanned page."""

    CHEAP = "cheap"  # arithmetic on the image or the words: milliseconds
    REGIONS = "re-OCR of regions"  # Tesseract again on some crops of the page
    WHOLE_PAGE = "whole page"  # Tesseract on the whole page (again)


class UnknownPass(ValueError):
    """A pass name that no registered pass has, or a required pass asked to be disabled."""


@dataclass(frozen=True)
class PageWork:
    """A page between two passes: the settings and images it started from, and what the passes found.

    `as_scanned` is the image as given; `image` the one read (straightened by `deskew`); `grey` what
    Tesseract reads (`prepare`); `sharp` the same sharpened for prose (`sharpen`: `for_prose()`); `parsed` the page pass's words (as the whole page was read: the figure
    and orientation tests look at these); `words` the words as repaired so far."""

    settings: OcrSettings
    page_number: int
    omp_thread_limit: int | None
    turn_upright: bool  # False on the page read again turned: it is not turned a second time
    folder: Path  # a scratch folder for the strips passes hand to Tesseract as files
    as_scanned: Image.Image
    image: Image.Image
    lexicon: Lexicon | None = None
    grey: Image.Image | None = None
    sharp: Image.Image | None = None  # the prepared page sharpened for its prose, when it was measured soft (`sharpen`)
    rgb: np.ndarray | None = None  # the colour page, for highlights; None for a grey scan
    ink: np.ndarray | None = None
    parsed: list[Word] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    typical_height: float = 0.0  # median height of words of 3+ letters (0: none to measure)
    stretch: float = 1.0  # how much narrow type is widened to be read again (`condensed`)
    read_widened: bool = False  # the page was read again widened (its prose needs no second block reading)
    lone_cells: list[Word] = field(default_factory=list)  # short words standing alone (a key table's cells)
    confidence: float | None = None
    figures: tuple[ScannedFigure, ...] = ()
    notes: tuple[str, ...] = ()  # what the passes inferred rather than read, for the report
    second_reading: str | None = None  # what the second recogniser did on the page, or why it did not run (`secondread`)
    loose_ink: tuple[tuple[int, int, int, int, int], ...] = ()  # ink no word covers (`looseink`), kept with the reading
    outcome: PageReading | None = None  # set by a pass that decides the page's reading: no pass runs after it
    # (the image prepared, the prepared page before its light greys were made paper), kept by `prepare`
    unwhitened: tuple[Image.Image, np.ndarray] | None = None

    def for_prose(self) -> Image.Image:
        """The image prose is read from: the prepared page, sharpened where `sharpen` found it soft. Key
        tables, digit and label cells and grids read `prepared()`: sharpening steepens a cell's grain and
        rules into strokes as much as it steepens letters."""
        return self.sharp if self.sharp is not None else self.prepared()

    def unwhitened_page(self) -> np.ndarray | None:
        """`engine.prepared_before_whitening(image, dpi)` of the page's `image`, as `prepare` made it on the way
        to `grey` (read-only); None where `image` is not the one it prepared."""
        if self.unwhitened is None or self.unwhitened[0] is not self.image:
            return None
        return self.unwhitened[1]

    def prepared(self) -> Image.Image:
        """The prepared grey page; a pass asking for it before `prepare` ran is a registry ordering bug."""
        if self.grey is None:
            raise RuntimeError("the page is not prepared yet: `prepare` must come before this pass")
        return self.grey


class PagePass(Protocol):
    """One declared pass over a page."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def cost(self) -> Cost: ...

    @property
    def required(self) -> bool: ...

    def applies(self, work: PageWork) -> bool: ...

    def run(self, work: PageWork) -> PageWork: ...

    @property
    def condition(self) -> str: ...

    @property
    def summary(self) -> str: ...

    def depends_on(self, settings: OcrSettings) -> str | None: ...


def always(work: PageWork) -> bool:
    """always"""
    return True


class DocumentedPass:
    """What a pass listing shows of a pass made of two functions, read from their docstrings: `when`'s (the
    condition) and `step`'s (what it does). Page passes and parse's recovery passes are both such passes."""

    when: Callable[..., bool]
    step: Callable[..., Any]

    @property
    def condition(self) -> str:
        return first_paragraph(self.when.__doc__)

    @property
    def summary(self) -> str:
        return first_paragraph(self.step.__doc__)


@dataclass(frozen=True)
class FunctionPass(DocumentedPass):
    """A pass made of two functions: `when` (the condition; its docstring says it in words) and `step`."""

    name: str
    version: str
    cost: Cost
    step: Callable[[PageWork], PageWork]
    when: Callable[[PageWork], bool] = always
    required: bool = False
    # What the pass's output depends on beyond its code, on this machine, for these settings (installed data
    # files, a package's version, or why it skips): the cache key holds it beside the version. None, or None
    # for these settings: nothing (the key is the version alone, as before the pass had inputs).
    inputs: Callable[[OcrSettings], str | None] | None = None

    def applies(self, work: PageWork) -> bool:
        return self.when(work)

    def depends_on(self, settings: OcrSettings) -> str | None:
        return self.inputs(settings) if self.inputs is not None else None

    def run(self, work: PageWork) -> PageWork:
        return self.step(work)


def page_pass(
    name: str, version: str, cost: Cost, *, when: Callable[[PageWork], bool] = always, required: bool = False,
    inputs: Callable[[OcrSettings], str | None] | None = None,
) -> Callable[[Callable[[PageWork], PageWork]], FunctionPass]:
    """Declare a function `PageWork -> PageWork` as a pass (it still has to be listed, in its place, in
    the registry: the order is the registry's, never the order of imports). `inputs`: what its output
    depends on beyond its code for given settings (`FunctionPass.inputs`)."""

    def declare(step: Callable[[PageWork], PageWork]) -> FunctionPass:
        return FunctionPass(name, version, cost, step, when, required, inputs)

    return declare


def says(text: str) -> Callable[[Callable[[PageWork], bool]], Callable[[PageWork], bool]]:
    """A condition's docstring built from the constants it tests, so the listing cannot drift from them."""

    def described(condition: Callable[[PageWork], bool]) -> Callable[[PageWork], bool]:
        condition.__doc__ = text
        return condition

    return described


def first_paragraph(doc: str | None) -> str:
    """A docstring's first paragraph on one line: what a pass listing shows as its condition or summary."""
    return " ".join((doc or "").split("\n\n", 1)[0].split())


def enabled(passes: tuple[PagePass, ...], disabled: tuple[str, ...]) -> tuple[PagePass, ...]:
    """The passes left when `disabled` are taken out; an unknown name or a required pass is an error."""
    check_disabled(passes, disabled)
    return tuple(p for p in passes if p.name not in disabled)


def check_disabled(passes: tuple[PagePass, ...], disabled: tuple[str, ...] | list[str]) -> None:
    """Raise `UnknownPass` naming every name no pass has and every required pass among `disabled`."""
    by_name = {p.name: p for p in passes}
    unknown = [name for name in disabled if name not in by_name]
    required = [name for name in disabled if name in by_name and by_name[name].required]
    problems = []
    if unknown:
        problems.append(f"unknown OCR pass(es) {unknown}; the passes are {list(by_name)} (`examcorpus ocr passes` lists them)")
    if required:
        problems.append(f"OCR pass(es) {required} cannot be disabled: later passes rely on what they read or measure")
    if problems:
        raise UnknownPass("; ".join(problems))
