"""A small file someone else wrote (a release's manifest.json or SHA256SUMS), read only when it is what it claims.

`Path.read_text` reads whatever the name opens: a named pipe holds the read until a writer comes (forever), a link to
/dev/zero fills memory, a link to a large file is read whole. `read_small_file` opens without waiting (O_NONBLOCK),
reads only a regular file of at most `limit` bytes, and only through a link that stays within `links_within`.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path


def read_small_file(path: Path, limit: int, links_within: Path | None = None) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes (a link leading within `links_within` when given);
    OSError saying why not otherwise."""
    target = Path(path).resolve()
    if links_within is not None and Path(path).is_symlink() and not target.is_relative_to(links_within):
        raise OSError(f"a symbolic link to {target}, outside {links_within}; not read")
    with open(target, "rb", opener=lambda name, flags: os.open(name, flags | os.O_NONBLOCK)) as handle:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise OSError("not a regular file (a device, a pipe or a socket); not read")
        if status.st_size > limit:
            raise OSError(f"{status.st_size:,} bytes, over the {limit:,} bytes allowed; not read")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"grew past the {limit:,} bytes allowed while read; not read")
    return data
