"""Turn a corpus folder into "scans": every PDF becomes an image-only PDF (no text layer), other files
(ground truths: CSV, JSON) are copied, and the folder layout is kept. The OCR path can then be run and
scored on real sheets against the same truths as the text path:

    python -m tests.bench.rasterize_corpus ../shared/corpus /tmp/corpus_scans
    examcorpus extract --source pe_conareme --from /tmp/corpus_scans/pe_conareme_residentado_medico --out /tmp/pe_ocr.parquet
    examcorpus score-extraction /tmp/pe_ocr.parquet "/tmp/corpus_scans/pe_conareme_residentado_medico/Year2018/PRUEBA A.csv"

Scans are in colour by default (a key marked in yellow must survive); --grey uses pdfgen's grey scans.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from tqdm import tqdm

from pipeline.devkit.sample.pdfgen import rasterize_pdf


def rasterize_folder(
    source: Path, destination: Path, *, dpi: int = 200, noise: float = 0.02, blur: float = 0.4, grey: bool = False
) -> list[Path]:
    """Scan every PDF under `source` into the same relative path under `destination`; copy other files."""
    source, destination = Path(source).resolve(), Path(destination).resolve()
    if not source.is_dir():
        raise SystemExit(f"{source}: not a folder")
    if destination == source or source in destination.parents:
        raise SystemExit(f"{destination}: must not be inside the source folder {source}")
    files = sorted(p for p in source.rglob("*") if p.is_file())
    written = []
    for path in tqdm(files, desc="scanning", unit="file", disable=not sys.stderr.isatty()):
        target = destination / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".pdf":
            rasterize_pdf(path, target, dpi=dpi, noise=noise, blur=blur, seed=1, jpeg_quality=85, colour=not grey)
        else:
            shutil.copy2(path, target)
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.rasterize_corpus", description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="corpus folder (e.g. ../shared/corpus or one family inside it)")
    parser.add_argument("destination", type=Path, help="folder to write the scans to (created)")
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--noise", type=float, default=0.02, help="pixel noise, fraction of full scale")
    parser.add_argument("--blur", type=float, default=0.4, help="blur radius in pixels")
    parser.add_argument("--grey", action="store_true", help="grey scans (pdfgen.rasterize_pdf) instead of colour")
    args = parser.parse_args(argv)
    written = rasterize_folder(args.source, args.destination, dpi=args.dpi, noise=args.noise, blur=args.blur, grey=args.grey)
    pdfs = sum(1 for p in written if p.suffix.lower() == ".pdf")
    print(f"{pdfs} PDFs scanned, {len(written) - pdfs} other files copied into {args.destination}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
