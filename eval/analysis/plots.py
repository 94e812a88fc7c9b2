"""Figures for the analyses: matplotlib on the Agg backend, each saved as PNG and SVG, atomically."""
from __future__ import annotations

import io
import re
from pathlib import Path

ALL = "(all)"


def pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("plots need matplotlib: pip install 'examcorpus[analysis]'") from None
    return plt


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def save(fig, stem: Path) -> list[Path]:
    """stem.png and stem.svg, each written whole or not at all."""
    from pipeline.infra import write_bytes_atomic

    plt = pyplot()
    written = []
    for fmt in ("png", "svg"):
        buffer = io.BytesIO()
        # SVG text stays text (searchable, smaller); a fixed hash salt keeps the SVG identical from run to run.
        plt.rcParams["svg.fonttype"] = "none"
        plt.rcParams["svg.hashsalt"] = "examcorpus"
        fig.savefig(buffer, format=fmt, dpi=120, metadata={"Date": None} if fmt == "svg" else None)
        path = stem.with_suffix(f".{fmt}")
        write_bytes_atomic(path, buffer.getvalue())
        written.append(path)
    plt.close(fig)
    return written


def correlation_plots(scores, human, out: Path) -> list[Path]:
    """Per exam type: model and human curves by year, and a scatter of model accuracy against the human result."""
    plt = pyplot()
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for exam_type in sorted({s.exam_type for s in scores}):
        series = {}
        for s in scores:
            if s.exam_type == exam_type and s.category == ALL:
                series.setdefault(s.model, {})[s.year] = s.accuracy_pct
        people = {h.year: h for h in human if h.exam_type == exam_type and h.category == ALL}
        if not series:
            continue
        metric = "/".join(sorted({h.metric for h in people.values()})) or "no human result"

        fig, ax = plt.subplots(figsize=(8.0, 3.8))
        for model, by_year in sorted(series.items()):
            years = sorted(by_year)
            ax.plot(years, [by_year[y] for y in years], marker="o", ms=3, lw=1.2, label=model)
        if people:
            years = sorted(people)
            ax.plot(years, [people[y].value for y in years], color="black", ls="--", marker="s", ms=4, lw=1.8,
                    label=f"humans ({metric})")
        ax.set_title(f"{exam_type}: model accuracy and human results by year", fontsize=9)
        ax.set_xlabel("year")
        ax.set_ylabel("%")
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        fig.tight_layout()
        written += save(fig, out / f"by_year_{slug(exam_type)}")

        fig, ax = plt.subplots(figsize=(7.0, 4.0))
        for model, by_year in sorted(series.items()):
            years = sorted(set(by_year) & set(people))
            ax.scatter([people[y].value for y in years], [by_year[y] for y in years], s=16, label=model)
        ax.set_title(f"{exam_type}: one point per year", fontsize=9)
        ax.set_xlabel(f"human result ({metric}, %)")
        ax.set_ylabel("model accuracy (%)")
        ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        fig.tight_layout()
        written += save(fig, out / f"scatter_{slug(exam_type)}")
    return written


def leaderboard_plots(points: list[tuple[str, float, object, float | None]], out: Path) -> list[Path]:
    """Accuracy against model size (log scale) and against release date: (label, accuracy %, released, params_b)."""
    plt = pyplot()
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for stem, index, xlabel in (("accuracy_vs_size", 3, "parameters (billions, log scale)"), ("accuracy_vs_release", 2, "release date")):
        drawn = [p for p in points if p[index] is not None]
        if not drawn:
            continue
        fig, ax = plt.subplots(figsize=(6.4, 4.0))
        ax.scatter([p[index] for p in drawn], [p[1] for p in drawn], s=24, color="#4C72B0")
        for p in drawn:
            ax.annotate(p[0], (p[index], p[1]), fontsize=6, xytext=(3, 3), textcoords="offset points")
        if index == 3:
            ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("accuracy, all datasets (%)")
        ax.set_title("leaderboard: each dataset one vote", fontsize=9)
        if index == 2:
            fig.autofmt_xdate()
        fig.tight_layout()
        written += save(fig, out / stem)
    return written
