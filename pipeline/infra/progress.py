"""Progress bars for long steps: on stderr, and only when a person is watching (a terminal)."""
from __future__ import annotations

import sys

from tqdm import tqdm


def progress(*, total: int, desc: str, unit: str = "it", enabled: bool = True) -> tqdm:
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=None if enabled else True, dynamic_ncols=True)
