"""Counters the measuring tools sum over sheets and scans, with one `add` for all of them."""
from __future__ import annotations


class Counts:
    """For a dataclass of counters: `add` sums each numeric field of another tally of the same kind into this
    one; other fields (notes, lists) are the tool's own to merge."""

    def add(self, other: Counts) -> None:
        for name, value in vars(other).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                setattr(self, name, getattr(self, name) + value)
