"""What a source spec says about reading its scans, gathered in one value built once from the spec."""
from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.extract.layout import LayoutParams
from pipeline.extract.ocr.certainty import CertaintyPolicy


@dataclass(frozen=True)
class OcrSettings:
    """How the pages of one source are read.

    - `languages`: Tesseract language data, e.g. ("pol",) or ("ell", "eng");
    - `dpi`: the resolution pages are rendered at (and the resolution of an image given to `ocr_image`);
    - `layout`: the LayoutParams the text path uses for this source (segment gap, column rules), so
      rows, option grids and columns come out in the same order on both paths;
    - `option_labels`: the spec's option labels; they turn on the label repairs (`c.` → `C.`,
      `{B)` → `(B)`, key cells read against them); None leaves Tesseract's text as it is;
    - `ellipsis`: the publisher sets "…", which Tesseract reads as three dots (spec `ocr.ellipsis`);
    - `reread_prose`: segment the page by layout and read its prose regions again as uniform text
      blocks (`pipeline.extract.ocr.segment`); `reread_below`: only regions whose psm-3 mean word
      confidence is below this are read again (each re-read costs Tesseract time);
    - `deskew`: straighten a tilted scan before reading it (`pipeline.extract.ocr.deskew`);
    - `disabled_passes`: names of page passes not to run (spec `ocr.passes.disable`; the registry is
      `pipeline.extract.ocr.pagepasses.PAGE_PASSES`, listed by `examcorpus ocr passes`);
    - `parts_only`: the image is parts of a text page, everything else painted white (`masked`): a few
      short words ("f(x)", "1. D") are a reading, not an empty page, and no figure is looked for. Not
      part of a page's cache key: masked readings have their own (`masked.masked_key`).
    - `certainty`: when a read word counts as unsure (`pipeline.extract.ocr.certainty`); judged at
      layout, like `layout` not part of the OCR cache key.
    """

    languages: tuple[str, ...] = ("eng",)
    dpi: int = 300
    layout: LayoutParams = field(default_factory=LayoutParams)
    option_labels: tuple[str, ...] | None = None
    ellipsis: bool = False
    reread_prose: bool = True
    reread_below: float = 90.0
    deskew: bool = True
    disabled_passes: tuple[str, ...] = ()
    parts_only: bool = False
    certainty: CertaintyPolicy = field(default_factory=CertaintyPolicy)

    @classmethod
    def from_spec(cls, spec) -> OcrSettings:
        """The settings a `pipeline.specs.SourceSpec` declares (its `ocr` and `layout` sections)."""
        return cls(
            languages=tuple(spec.ocr.languages),
            dpi=spec.ocr.dpi,
            layout=LayoutParams(segment_gap=spec.layout.segment_gap),
            option_labels=tuple(spec.layout.options.labels),
            ellipsis=spec.ocr.ellipsis,
            disabled_passes=tuple(sorted(set(spec.ocr.passes.page))),  # one key whatever the order; parse's passes are not read here
        )
