"""Tesseract itself: finding the binary and its languages, preparing and rendering page images,
running Tesseract on an image, and reading its TSV into `Word`s.

Why Tesseract runs as we run it:
- in this process, through libtesseract's C API (`tessapi`), where the library loads and is the
  binary's version: a page costs ~3.3 Tesseract calls, and one `tesseract` process per call spent
  ~80 ms of each starting and loading the language model; the output is the CLI's byte for byte
  (`tests/pipeline/extract/ocr/test_tessapi.py`), so the OCR cache key (the binary's version) holds.
  `$EXAMCORPUS_TESSERACT_MODE=cli`, `$EXAMCORPUS_TESSERACT` or a machine without the library run one
  `tesseract` process per call instead (`python -m tests.bench ocr` measures both);
- one OpenMP thread per call, pages in a thread pool: Tesseract's own OpenMP threading is several times
  slower than page-level parallelism on a few shared cores. The CLI gets OMP_THREAD_LIMIT=1 in its
  child's environment only; in process, each call limits its own thread (`tessapi`), and this
  process's environment is never changed;
- `--psm 3` (automatic page segmentation without orientation detection): exam pages mix headings,
  one- and two-column text and option grids, which the single-block modes (4, 6) merge across columns.
  Pages full of one-letter table cells (answer-key tables) get a second `--psm 6` pass for those cells,
  and prose regions found by layout are read again with `--psm 6` on their own (`segment`).
- the page goes to Tesseract as pixels (in process) or an uncompressed PGM (the CLI; PNG compression of
  a 300 dpi page costs more than the write it saves), cleaned by `prepare_for_tesseract`: fills and
  tints to white, table rules erased, grain smoothed (each step is there for text Tesseract lost on a
  real sheet).
"""
from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter

from pipeline.extract.ocr import tessapi
from pipeline.extract.rendering import render_on_white
from pipeline.extract.ocr.illumination import even_paper
from pipeline.extract.ocr.inktiles import ink_tiles, tiled_area
from pipeline.extract.ocr.panels import light_on_dark_inverted
from pipeline.extract.ocr.words import Word, box_mean, clean_text

TESSERACT_ENV = "EXAMCORPUS_TESSERACT"  # path to the tesseract binary, when it is not on PATH (runs the CLI)
TESSERACT_MODE_ENV = "EXAMCORPUS_TESSERACT_MODE"  # "cli": one `tesseract` process per call, even where libtesseract loads
PAGE_SEGMENTATION_MODE = 3
SPARSE_TEXT_PSM = 11  # parts of a text page read on white (`masked`): as much text as can be found, in no order
# A page's time limit: the CLI's process is killed at it; in process, Tesseract stops at it while it
# recognises words (its monitor's deadline), but its layout analysis does not look at the deadline.
PAGE_TIMEOUT_S = 180.0
SMOOTHING_RADIUS_PX = 0.8  # Gaussian blur radius at 300 dpi, scaled with the rendering dpi
# How far the blur can carry ink (`smoothed`): PIL's three box passes reach ~2·radius+1 px each; the
# margin kept around the ink is well past that.
BLUR_REACH = 8.0
BLUR_MARGIN_PX = 16
RULE_MIN_INCHES = 0.4  # a straight dark run this long is a rule or frame, not a letter
WHITE_FROM = 170  # grey levels above this are paper (fills, highlights, scanner tint) and become white
_WHITEN = [value if value <= WHITE_FROM else 255 for value in range(256)]
PT_PER_INCH = 72.0


class OcrUnavailable(RuntimeError):
    """Tesseract or one of the requested language packs is not installed; the message says what to install."""


class OcrError(RuntimeError):
    """Tesseract failed on a page; the message names the file and page."""


def tesseract_command() -> str:
    """The tesseract binary: $EXAMCORPUS_TESSERACT, else `tesseract` on PATH."""
    configured = os.environ.get(TESSERACT_ENV)
    if configured:
        if not (Path(configured).is_file() and os.access(configured, os.X_OK)):
            raise OcrUnavailable(f"${TESSERACT_ENV}={configured} is not an executable file")
        return configured
    found = shutil.which("tesseract")
    if not found:
        raise OcrUnavailable(
            "tesseract is not installed (not on PATH): install the apt package tesseract-ocr "
            f"(`make setup` does), or point ${TESSERACT_ENV} at the binary"
        )
    return found


@lru_cache(maxsize=8)
def _installed_languages(command: str, tessdata_prefix: str | None) -> frozenset[str]:
    try:
        result = subprocess.run([command, "--list-langs"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OcrUnavailable(f"cannot run {command} --list-langs: {exc}") from exc
    if result.returncode != 0:
        raise OcrUnavailable(f"{command} --list-langs failed: {result.stderr.strip() or result.stdout.strip()}")
    # The first line is a header ("List of available languages in ...").
    lines = (result.stdout + "\n" + result.stderr).splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and " " not in line.strip())


def installed_languages() -> frozenset[str]:
    """Tesseract language codes installed on this machine (cached per binary and $TESSDATA_PREFIX)."""
    return _installed_languages(tesseract_command(), os.environ.get("TESSDATA_PREFIX"))


def require_languages(languages: Sequence[str]) -> None:
    """Raise OcrUnavailable naming every missing language and its apt package; do nothing when all exist."""
    if not languages:
        raise OcrUnavailable("no OCR language given: the source spec's `ocr.languages` must name at least one")
    installed = installed_languages()
    missing = [lang for lang in languages if lang not in installed]
    if missing:
        packages = " ".join(f"tesseract-ocr-{lang}" for lang in missing)
        raise OcrUnavailable(
            f"Tesseract language data missing for {', '.join(missing)}: install the apt package(s) {packages} "
            f"(installed: {', '.join(sorted(installed)) or 'none'})"
        )


_TSV_COLUMNS = ("level", "block_num", "par_num", "line_num", "left", "top", "width", "height", "conf", "text")


def parse_tsv(tsv: str) -> list[Word]:
    """The words (level 5 rows) of Tesseract's TSV, in Tesseract's order."""
    rows = tsv.splitlines()
    if not rows:
        return []
    header = rows[0].split("\t")
    col = {name: i for i, name in enumerate(header)}
    missing = [name for name in _TSV_COLUMNS if name not in col]
    if missing:
        # Tesseract prints plain text when it finds no `tsv` config (a tessdata folder without configs/).
        raise OcrError(
            f"tesseract did not print TSV (no {', '.join(missing)} column; its output began {rows[0][:60]!r}): "
            "is the `configs/tsv` file present in the tessdata folder ($TESSDATA_PREFIX)?"
        )
    words = []
    for row in rows[1:]:
        cells = row.split("\t")
        if len(cells) <= col["text"] or cells[col["level"]] != "5":
            continue
        text = clean_text(cells[col["text"]])
        if not text:
            continue
        left, top = int(cells[col["left"]]), int(cells[col["top"]])
        words.append(
            Word(
                text=text,
                conf=float(cells[col["conf"]]),
                left=left,
                top=top,
                right=left + int(cells[col["width"]]),
                bottom=top + int(cells[col["height"]]),
                line=(int(cells[col["block_num"]]), int(cells[col["par_num"]]), int(cells[col["line_num"]])),
            )
        )
    return words
KEY_CELL_PSM = 7
# A strip of lone label glyphs read as one word: as a line, Tesseract parts the strip at its wide gaps and
# reads each glyph alone, where the Greek model read a clear lone Δ as Α or ὂ (3 of 10 of a list key's
# answers); taken as one word, the same strips read right (`listcells`).
LABEL_STRIP_PSM = 8


# Widest strip of crops read as one line: Tesseract refuses images over 32767 pixels wide; a line of
# 8000 pixels holds 60–200 key cells at 150–300 dpi.
MAX_STRIP_WIDTH = 8000
STRIP_INK_BELOW = 140  # grey level: strips are binarised; Tesseract's own threshold on a small, mostly
# white strip of soft grey digits returned nothing ("58 59 60" of a NÚCEM page)


def read_strip(
    grey: Image.Image,
    boxes: list[tuple[int, int, int, int]],
    gap: int,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    path: Path,
    whitelist: str | None = None,
    binarise: bool = True,
    stretch: float = 1.0,
    psm: int = KEY_CELL_PSM,
) -> tuple[list[int], list[Word]]:
    """Crops of `grey` side by side in one strip, read as one text line (psm 7; `psm` another way): the x offset of each
    crop in the strip (its top sits at `gap`) and the words read. Lone letters read against a whitelist
    come out better grey (`binarise=False`): binarised, most "C"s of a generated key were lost.

    Crops that would make a strip wider than `MAX_STRIP_WIDTH` are read in several strips, one after
    another, their offsets and words given as if in one strip: Tesseract refuses an image over 32767
    pixels wide ("Recognize failed (status -1) on a 107291×210 image": a wide key table's cells in one
    strip), and reads a line that long worse than shorter ones. `path` then holds the last strip."""
    groups = strip_groups(boxes, gap)
    if len(groups) > 1:
        offsets, words, shift = [], [], 0
        for group in groups:
            group_offsets, group_words = read_strip(
                grey, group, gap, languages, dpi, omp_thread_limit, path, whitelist, binarise, stretch, psm
            )
            offsets += [shift + offset for offset in group_offsets]
            words += [replace(w, left=w.left + shift, right=w.right + shift) for w in group_words]
            shift += group_offsets[-1] + (group[-1][2] - group[-1][0])
        return offsets, words
    strip_height = max(d - u for _, u, _, d in boxes) + 2 * gap
    offsets, x = [], gap
    for left, _up, right, _down in boxes:
        offsets.append(x)
        x += (right - left) + gap
    strip = Image.new("L", (x, strip_height), 255)
    for (left, up, right, down), offset in zip(boxes, offsets):
        strip.paste(grey.crop((left, up, right, down)), (offset, gap))
    if binarise:
        strip = strip.point(lambda v: 0 if v < STRIP_INK_BELOW else 255)
    read = read_widened(strip, stretch, path, languages, dpi, omp_thread_limit, psm=psm, whitelist=whitelist)
    return offsets, read


def stacked(images: Sequence[Image.Image], gap: int) -> tuple[Image.Image, list[int]]:
    """`images` one under another on white, `gap` pixels around each, and the top of each in the stack: many
    small crops read in one Tesseract call."""
    tops, y = [], gap
    for image in images:
        tops.append(y)
        y += image.height + gap
    stack = Image.new("L", (max(image.width for image in images) + 2 * gap, y), 255)
    for image, top in zip(images, tops):
        stack.paste(image, (gap, top))
    return stack, tops


def strip_groups(boxes: list[tuple[int, int, int, int]], gap: int) -> list[list[tuple[int, int, int, int]]]:
    """`boxes` cut into runs that each fit a strip of at most `MAX_STRIP_WIDTH` pixels (a crop wider
    than that alone is a run of its own)."""
    groups: list[list[tuple[int, int, int, int]]] = [[]]
    width = gap
    for box in boxes:
        needed = (box[2] - box[0]) + gap
        if groups[-1] and width + needed > MAX_STRIP_WIDTH:
            groups.append([])
            width = gap
        groups[-1].append(box)
        width += needed
    return groups


def read_widened(
    image: Image.Image,
    stretch: float,
    path: Path,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    **tesseract_options,
) -> list[Word]:
    """Tesseract's words for `image` widened `stretch` times (also saved to `path`, which callers read
    again: `keycells` asks for its character boxes), boxes mapped back."""
    if stretch != 1:
        image = image.resize((round(image.width * stretch), image.height), Image.LANCZOS)
    image.save(path, format="PPM")
    words = parse_tsv(run_tesseract(image, languages, dpi, omp_thread_limit=omp_thread_limit, **tesseract_options))
    if stretch == 1:
        return words
    return [replace(w, left=round(w.left / stretch), right=round(w.right / stretch)) for w in words]


def in_process() -> bool:
    """Whether Tesseract runs in this process (`tessapi`): libtesseract loads, its version is the
    `tesseract` binary's (the OCR cache key names the binary's version), and neither
    $EXAMCORPUS_TESSERACT_MODE=cli nor $EXAMCORPUS_TESSERACT (a binary of one's choice) asks for the CLI."""
    if os.environ.get(TESSERACT_MODE_ENV, "").lower() == "cli" or os.environ.get(TESSERACT_ENV):
        return False
    library_version = tessapi.version()
    if library_version is None:
        return False
    found = shutil.which("tesseract")
    return found is not None and tesseract_version(found).partition("\n")[0] == f"tesseract {library_version}"


@lru_cache(maxsize=4)
def tesseract_version(command: str) -> str:
    """`command --version` ("tesseract 5.3.0\n leptonica-1.82.0 ..."); "unknown" when it cannot run.
    Part of the OCR cache key."""
    try:
        result = subprocess.run([command, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return (result.stdout + result.stderr).strip()


def run_tesseract(
    image: Path | Image.Image,
    languages: Sequence[str],
    dpi: int,
    *,
    omp_thread_limit: int | None,
    psm: int = PAGE_SEGMENTATION_MODE,
    whitelist: str | None = None,
    output: str = "tsv",
) -> str:
    """Tesseract's `output` ("tsv" words, or "makebox" character boxes) for one image (an image, or
    an image file): in this process (`tessapi`) where it can, else one `tesseract` process; the same
    bytes either way. `omp_thread_limit` 1: one OpenMP thread per call; None: Tesseract's default."""
    if omp_thread_limit in (1, None) and in_process():
        pixels = _pixels(image)
        if pixels is not None:
            try:
                return tessapi.recognise(
                    pixels, "+".join(languages), dpi, psm=psm, whitelist=whitelist, output=output,
                    deadline_s=PAGE_TIMEOUT_S, omp_threads=omp_thread_limit,
                )
            except tessapi.InitFailed as exc:
                packages = " ".join(f"tesseract-ocr-{lang}" for lang in exc.missing)
                raise OcrUnavailable(f"Tesseract language data missing: {exc}; install the apt package(s) {packages}") from exc
            except tessapi.RecognitionFailed as exc:
                raise OcrError(str(exc)) from exc
    if isinstance(image, Image.Image):
        with tempfile.TemporaryDirectory(prefix="examcorpus-ocr-") as folder:
            path = Path(folder) / "image.pgm"
            image.save(path, format="PPM")
            return _run_cli(path, languages, dpi, omp_thread_limit, psm, whitelist, output)
    return _run_cli(image, languages, dpi, omp_thread_limit, psm, whitelist, output)


def _pixels(image: Path | Image.Image) -> np.ndarray | None:
    """8-bit grey or RGB pixels as the CLI would read them; None for another kind of image (the CLI reads it)."""
    if not isinstance(image, Image.Image):
        with Image.open(image) as opened:
            return np.array(opened) if opened.mode in ("L", "RGB") else None
    return np.asarray(image) if image.mode in ("L", "RGB") else None


def _run_cli(
    image_path: Path, languages: Sequence[str], dpi: int, omp_thread_limit: int | None, psm: int, whitelist: str | None, output: str
) -> str:
    command = [
        tesseract_command(),
        str(image_path),
        "stdout",
        "-l",
        "+".join(languages),
        "--psm",
        str(psm),
        "--dpi",
        str(dpi),
        *(["-c", f"tessedit_char_whitelist={whitelist}"] if whitelist else []),
        output,
    ]
    env = dict(os.environ)
    if omp_thread_limit is not None:
        env["OMP_THREAD_LIMIT"] = str(omp_thread_limit)
    else:
        env.pop("OMP_THREAD_LIMIT", None)
    try:
        result = subprocess.run(command, capture_output=True, timeout=PAGE_TIMEOUT_S, env=env, check=False)
    except subprocess.TimeoutExpired as exc:
        raise OcrError(f"tesseract took longer than {PAGE_TIMEOUT_S:.0f}s") from exc
    except OSError as exc:
        raise OcrUnavailable(f"cannot run tesseract: {exc}") from exc
    if result.returncode != 0:
        raise OcrError(f"tesseract exited with {result.returncode}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout.decode("utf-8", errors="replace")


def _saturated_areas(saturated: np.ndarray, radius: int) -> np.ndarray:
    """Saturated pixels whose (2·radius+1)² window is over 0.6 saturated. Measured only around the
    saturated pixels' bounding box (most pages rendered in colour have none, or a few marks): outside it,
    and in its margin, every window mean is what the whole page would give."""
    rows, columns = np.nonzero(saturated.any(axis=1))[0], np.nonzero(saturated.any(axis=0))[0]
    if rows.size == 0:
        return saturated.copy()
    margin = radius + 1
    top, bottom = max(rows[0] - margin, 0), min(rows[-1] + margin + 1, saturated.shape[0])
    left, right = max(columns[0] - margin, 0), min(columns[-1] + margin + 1, saturated.shape[1])
    area = saturated[top:bottom, left:right]
    fill = np.zeros_like(saturated)
    fill[top:bottom, left:right] = area & (box_mean(area, radius) > 0.6)
    return fill


def straight_runs(dark: np.ndarray, length: int, axis: int) -> np.ndarray:
    """Pixels of `dark` that lie on a straight run at least `length` long along `axis`.

    By run-length encoding: each run's start and end come from one difference of the padded rows, only
    the long runs are painted back (a page has a few hundred rules among millions of pixels). Only the
    rows that can hold such a run are encoded: a run that long covers one whole aligned block of half
    its length, which ordinary text never does (5–15 times faster on the pages measured)."""
    work = dark if axis == 1 else dark.T
    h, w = work.shape
    covered = np.zeros((h, w), dtype=bool)
    block = max(1, length // 2)
    if w < length:
        return covered if axis == 1 else covered.T
    blocks = w // block
    if axis == 1:
        candidates = np.flatnonzero(work[:, : blocks * block].reshape(h, blocks, block).all(axis=2).any(axis=1))
    else:  # the same test on the untransposed array: blocks down each column
        candidates = np.flatnonzero(dark[: blocks * block].reshape(blocks, block, h).all(axis=1).any(axis=0))
    if candidates.size == 0:
        return covered if axis == 1 else covered.T
    rows = np.ascontiguousarray(work[candidates], dtype=bool)
    padded = np.zeros((rows.shape[0], w + 2), dtype=np.int8)
    padded[:, 1:-1] = rows
    steps = np.diff(padded, axis=1)
    start_rows, start_cols = np.nonzero(steps == 1)  # row-major, so starts and ends pair up in order
    _, end_cols = np.nonzero(steps == -1)
    long = end_cols - start_cols >= length
    for row, first, stop in zip(candidates[start_rows[long]].tolist(), start_cols[long].tolist(), end_cols[long].tolist()):
        covered[row, first:stop] = True
    return covered if axis == 1 else covered.T


def straight_rules(dark: np.ndarray, length: int) -> np.ndarray:
    """Pixels of `dark` on a horizontal or vertical rule at least `length` long (rules, frames).

    A rule may drift by one row (column) along its length: a 1 px rule turned straight (`deskew`'s
    resampling after the scan's) spreads over two rows, and the pixels of its lighter row cross the dark
    threshold in pieces (a NÚCEM frame left ~30 px dashes beside the row found whole, read as `|` and
    dashes glued to options). So besides the straight runs, runs are looked for in the ink widened by one
    pixel across the run (a pixel is in the band when it or a neighbour across is dark), and a dark pixel
    on a long band run is the rule's when it is thin there: not dark on both sides across the run. A
    descender's tip or a stem touching the rule has ink beyond it and is kept; a letter's stroke, whose
    band stays short, is kept."""
    covered = np.zeros(dark.shape, dtype=bool)
    _drifting_runs(dark, length, 1, covered)
    _drifting_runs(dark, length, 0, covered)
    return covered


def _drifting_runs(dark: np.ndarray, length: int, axis: int, covered: np.ndarray) -> None:
    """Into `covered`: dark pixels on a straight run at least `length` long along `axis`, or thin ones (not
    dark on both sides across the run) on such a run of `dark` widened by one pixel across `axis` (the band).

    Worked out only on the lines (rows along axis 1, columns along axis 0) where the band can hold such a run
    (`straight_runs`' aligned-block test): `dark` lies inside its band, so a line with no long band run holds
    no long dark run either, and nothing of it is covered; the thin test is made on those lines alone."""
    work = dark if axis == 1 else dark.T
    h, w = work.shape
    block = max(1, length // 2)
    if w < length or h == 0:
        return
    band = dark.copy()  # dark, or a neighbour across the run dark
    if axis == 1:
        band[1:] |= dark[:-1]
        band[:-1] |= dark[1:]
        aligned = band[:, 0 : w // block * block : block].copy()  # the blocks along a row, AND-ed a column at a time
        for k in range(1, block):
            aligned &= band[:, k : w // block * block : block]
        lines = np.flatnonzero(aligned.any(axis=1))
    else:
        band[:, 1:] |= dark[:, :-1]
        band[:, :-1] |= dark[:, 1:]
        lines = np.flatnonzero(band[: w // block * block].reshape(w // block, block, h).all(axis=1).any(axis=0))
    if lines.size == 0:
        return
    own = work[lines]
    before, after = work[np.maximum(lines - 1, 0)], work[np.minimum(lines + 1, h - 1)]
    before[lines == 0] = False  # the page's edge: no neighbour across
    after[lines == h - 1] = False
    found = _long_runs(own, length) | (own & ~(before & after) & _long_runs(band[lines] if axis == 1 else band.T[lines], length))
    if axis == 1:
        covered[lines] |= found
    else:
        covered[:, lines] |= found.T


def _long_runs(rows: np.ndarray, length: int) -> np.ndarray:
    """The pixels of each of `rows` (a 2-d boolean array) on a run of True at least `length` long."""
    n, w = rows.shape
    padded = np.zeros((n, w + 2), dtype=np.int8)
    padded[:, 1:-1] = rows
    steps = np.diff(padded, axis=1)
    start_rows, start_cols = np.nonzero(steps == 1)  # row-major, so starts and ends pair up in order
    _, end_cols = np.nonzero(steps == -1)
    long = end_cols - start_cols >= length
    kept = np.zeros((n, w), dtype=bool)
    for row, first, stop in zip(start_rows[long].tolist(), start_cols[long].tolist(), end_cols[long].tolist()):
        kept[row, first:stop] = True
    return kept


def _bounds(mask: np.ndarray) -> tuple[slice, slice] | None:
    """The rows and columns of the box around the True pixels of `mask`, or None where there are none."""
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return None
    columns = np.flatnonzero(mask[rows[0]:rows[-1] + 1].any(axis=0))
    return slice(int(rows[0]), int(rows[-1]) + 1), slice(int(columns[0]), int(columns[-1]) + 1)


def prepare_for_tesseract(image: Image.Image, dpi: int, *, smoothing: bool = True) -> Image.Image:
    """The grey page Tesseract reads: `prepared_before_whitening`, its greys above `WHITE_FROM` made paper."""
    return whitened(prepared_before_whitening(image, dpi, smoothing=smoothing))


def whitened(grey_array: np.ndarray) -> Image.Image:
    """`prepared_before_whitening`'s grey page with its greys above `WHITE_FROM` made paper: what
    `prepare_for_tesseract` gives, for a pass that keeps the page before whitening as well."""
    return Image.fromarray(grey_array, mode="L").point(_WHITEN)


def prepared_before_whitening(image: Image.Image, dpi: int, *, smoothing: bool = True) -> np.ndarray:
    """The grey page Tesseract reads: colour fills and light tints to white, table rules removed, grain smoothed.

    Each step fixed text Tesseract lost on real sheets (scanned at 200–300 dpi):
    - paper of uneven brightness (a spine's shadow, a fading lamp) is evened out (`illumination`);
      an evenly lit page is left exactly as it is;
    - coloured cell fills (a NÚCEM key column on blue) and yellow key marks become paper: the global
      threshold otherwise blackens the blue cells and their letters;
    - light greys (the NÚCEM question-number boxes) become white (10 → 14 of 14 numbers on three pages);
    - light text on a dark panel (a heading banner, a filled number row) is inverted to dark on light
      (`panels`): erasing rules would otherwise erase the panel and leave its letters as fragments;
    - straight dark runs longer than 0.4 in (table rules, frames, answer lines) are erased: single letters
      between the rules of a key table were read as "(U", ">" before; a rule may drift by a row
      (`straight_rules`: a thin rule turned straight left dashes beside it);
    - a 0.8 px blur (at 300 dpi) evens out grain (5 of 54 CONAREME question numbers recovered, NÚCEM
      key cells and variant codes read); `smoothing=False` leaves it out for condensed type, whose thin
      strokes it dissolves (see `read_condensed`);
    - then (`prepare_for_tesseract`, not here) greys above `WHITE_FROM` become paper. Before that last step the
      light grey of an accent at 150 dpi is still there (`accentlines` reads lines again from this page).
    """
    grey_array = np.asarray(image.convert("L")).copy()
    if image.mode == "RGB":
        # A pixel whose channels spread over 60 levels is at most 248 grey, so the colour test looks only
        # inside the box of the pixels below white (all of a scan; the few boxes of a page read in parts).
        inked = _bounds(grey_array < 255)
        saturated = np.zeros(grey_array.shape, dtype=bool)
        if inked is not None:
            rows, columns = inked
            rgb = np.asarray(image.crop((columns.start, rows.start, columns.stop, rows.stop)))
            red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
            # Channel by channel: numpy reduces a last axis of 3 an order of magnitude slower.
            brightest = np.maximum(np.maximum(red, green), blue)
            spread = brightest - np.minimum(np.minimum(red, green), blue)  # uint8: brightest >= darkest
            saturated[rows, columns] = (spread > 60) & (brightest > 120)
        # A fill is saturated over an area; coloured text is thin and keeps its white surroundings.
        fill = _saturated_areas(saturated, max(2, round(dpi / 30)))
        grey_array[fill] = 255
    grey_array = light_on_dark_inverted(even_paper(grey_array, dpi), dpi)
    dark = grey_array < 128
    length = max(20, round(dpi * RULE_MIN_INCHES))
    # Rules are runs of dark pixels: looked for inside the dark pixels' box, where all of them lie.
    dark_box = _bounds(dark)
    if dark_box is not None:
        grey_array[dark_box][straight_rules(dark[dark_box], length)] = 255
    if smoothing:
        grey_array = smoothed(grey_array, SMOOTHING_RADIUS_PX * dpi / 300)
    return grey_array


def smoothed(grey_array: np.ndarray, radius: float) -> np.ndarray:
    """PIL's Gaussian blur of `radius` px over the grey page, worked out only around its ink.

    Paper (255) whose whole neighbourhood is paper stays exactly 255 under the blur (each box pass rounds
    a constant back to itself, and the edges repeat their own pixel), so only the tiles around the pixels
    below 255 (`inktiles`: their boxes, with a margin wider than the blur reaches, apart by twice that) are
    blurred; the rest stays white. A page OCR'd in parts (`masked`: all white but a few boxes) is blurred
    over those boxes instead of ~9 million pixels or the whole window around them; a scan, inked all over,
    is blurred whole as before. Same pixels either way (`tests/pipeline/extract/ocr/test_prepare_in_parts.py`)."""
    margin = BLUR_MARGIN_PX + math.ceil(BLUR_REACH * radius)
    tiles = ink_tiles(grey_array < 255, margin)
    if not tiles:
        return grey_array
    blur = ImageFilter.GaussianBlur(radius)
    if tiled_area(tiles) > 0.5 * grey_array.size:
        return np.asarray(Image.fromarray(grey_array, mode="L").filter(blur)).copy()
    out = np.full_like(grey_array, 255)
    for rows, columns in tiles:
        out[rows, columns] = np.asarray(Image.fromarray(grey_array[rows, columns], mode="L").filter(blur))
    return out


def render_page(document: pdfium.PdfDocument, index: int, dpi: int) -> tuple[Image.Image, float, float]:
    """Page `index` (0-based) as an RGB image at `dpi`, with the page size in points: `page.render`'s
    pixels (`rendering.render_on_white`, white filled by numpy, not by pdfium), read by PIL from the BGR
    buffer into an RGB image of its own in one pass (the copy `convert("RGB")` made after was the same
    pixels again)."""
    page = document[index]
    try:
        width_pt, height_pt = page.get_size()
        image = render_on_white(page, dpi / PT_PER_INCH).to_pil()
    finally:
        page.close()
    return image, width_pt, height_pt
