"""How a sheet is scanned, as the measuring tools name it: one record, one parser and one written form for the
`--scans` syntax `dpi/blur/jpeg[/tilt[/PART...]]`, where a PART is a NOISE, `gGRAIN` (Gaussian grain of that
standard deviation), `sSPECKS` (salt-and-pepper specks on that share of pixels) or a bare number (grain), or a native
scan's FAULT (`scanfaults`): `bT` bilevel thresholded at T or `d` dithered, `iD` uneven light, `vO` bleed-through,
`eW` a dark border, `cA` bent lines, `pL` grey paper. Without a NOISE the grain is 0.01 and there are no specks;
without a tilt the page is straight; without a FAULT the scan is byte-identical to one made before faults existed.

    ScanSetting.parse("200/0.6/80")              # 200 dpi, blur 0.6, JPEG quality 80
    ScanSetting.parse("200/0.6/80/-1.5/s0.003")  # ... tilted 1.5° clockwise, specked
    ScanSetting.parse("300/0.5/80/0/b140/i0.4")  # ... stored 1-bit (threshold 140), the spine's side darkened by 40 %
    ScanSetting.parse_list("150/0.8/70,300/0.4/90")

`str(setting)` writes the syntax back (the shortest form that parses to the same setting); `label()` is the
form the tools print; `folder()` names the folder a tool keeps the scan in; `rasterise` scans a PDF with
`raster.rasterize_pdf`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.devkit.sample.raster import rasterize_pdf
from pipeline.devkit.sample.scanfaults import ScanFaults, is_fault_part, with_part

SYNTAX = "dpi/blur/jpeg[/tilt[/gGRAIN|sSPECKS|GRAIN|bT|d|iD|vO|eW|cA|pL...]]"
MAX_PARTS = 4 + 2 + 6  # dpi, blur, jpeg, tilt; two noises; six faults
DEFAULT_GRAIN = 0.01


@dataclass(frozen=True)
class ScanSetting:
    """A scan: resolution (dpi), Gaussian blur radius (px), JPEG quality (1–100), tilt (degrees, counter-clockwise
    positive), Gaussian grain (a fraction of full scale), specks (the share of pixels turned black or white) and a native
    scan's faults (`scanfaults.ScanFaults`, none by default)."""

    dpi: int
    blur: float
    jpeg: int
    tilt: float = 0.0
    noise: float = DEFAULT_GRAIN
    speckle: float = 0.0
    faults: ScanFaults = ScanFaults()

    def __post_init__(self) -> None:
        if self.dpi <= 0:
            raise ValueError(f"scan {self}: dpi must be positive, not {self.dpi}")
        if self.blur < 0 or self.noise < 0 or not 0 <= self.speckle <= 1:
            raise ValueError(f"scan {self}: blur and grain must not be negative, specks a share from 0 to 1")
        if not 1 <= self.jpeg <= 100:
            raise ValueError(f"scan {self}: JPEG quality must be 1 to 100, not {self.jpeg}")

    @classmethod
    def parse(cls, text: str) -> ScanSetting:
        """The setting `text` names (`SYNTAX`, e.g. `200/0.6/80/-1.5/s0.003`); a ValueError saying what is wrong otherwise."""
        parts = text.strip().split("/")
        if not 3 <= len(parts) <= MAX_PARTS or sum(not is_fault_part(part) for part in parts[4:]) > 2:
            raise ValueError(f"scan {text!r}: expected {SYNTAX}")
        try:
            dpi, blur, jpeg = int(parts[0]), float(parts[1]), int(parts[2])
            tilt = float(parts[3]) if len(parts) > 3 else 0.0
        except ValueError:
            raise ValueError(f"scan {text!r}: dpi and JPEG quality are whole numbers, blur and tilt numbers ({SYNTAX})") from None
        noise, speckle, seen, faults = DEFAULT_GRAIN, 0.0, set(), ScanFaults()
        for part in parts[4:]:
            if is_fault_part(part):
                faults = with_part(faults, part, text)
                continue
            kind, amount = (part[0], part[1:]) if part[:1] in ("g", "s") else ("g", part)
            if kind in seen:
                raise ValueError(f"scan {text!r}: {'grain' if kind == 'g' else 'specks'} given twice")
            seen.add(kind)
            try:
                value = float(amount)
            except ValueError:
                raise ValueError(f"scan {text!r}: a noise is g<grain>, s<specks share> or a grain number, a fault "
                                 f"bT, d, iD, vO, eW, cA or pL, not {part!r}") from None
            noise, speckle = (value, speckle) if kind == "g" else (noise, value)
        return cls(dpi, blur, jpeg, tilt, noise, speckle, faults)

    @classmethod
    def parse_list(cls, text: str) -> list[ScanSetting]:
        """The settings of a comma-separated `--scans` value, in order (empty items left out)."""
        return [cls.parse(item) for item in text.split(",") if item.strip()]

    def __str__(self) -> str:
        text = f"{self.dpi}/{self.blur}/{self.jpeg}"
        extra = [f"g{self.noise}"] if self.noise != DEFAULT_GRAIN else []
        extra += [f"s{self.speckle}"] if self.speckle else []
        extra += self.faults.parts()
        if self.tilt or extra:
            text += f"/{self.tilt}" + "".join(f"/{e}" for e in extra)
        return text

    def label(self) -> str:
        """`200dpi blur 0.6 q80`, then what differs from a straight scan of the default grain without specks."""
        extra = (f" tilt {self.tilt:+.1f}" if self.tilt else "") + (f" grain {self.noise}" if self.noise != DEFAULT_GRAIN else "") + (
            f" specks {self.speckle}" if self.speckle else "") + self.faults.label()
        return f"{self.dpi}dpi blur {self.blur} q{self.jpeg}{extra}"

    def folder(self) -> str:
        """`200-0.6-80`; with a tilt, another grain or specks, all three after it; then each fault that is on."""
        plain = f"{self.dpi}-{self.blur}-{self.jpeg}"
        if (self.tilt, self.noise, self.speckle) != (0.0, DEFAULT_GRAIN, 0.0):
            plain = f"{plain}-t{self.tilt}-g{self.noise}-s{self.speckle}"
        return "-".join([plain, *self.faults.parts()])

    def rasterise(self, clean: Path | str, target: Path | str, *, seed: int | None = None, colour: bool = False) -> Path:
        """`clean` scanned as this setting says into `target`; the noise seeded by `seed` (dpi + JPEG quality when None)."""
        return rasterize_pdf(clean, target, dpi=self.dpi, blur=self.blur, jpeg_quality=self.jpeg, noise=self.noise,
                             rotate_deg=self.tilt, speckle=self.speckle, seed=self.dpi + self.jpeg if seed is None else seed,
                             colour=colour, faults=self.faults or None)
