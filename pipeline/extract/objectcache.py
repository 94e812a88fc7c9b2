"""The object code of the loops llvmlite compiles (`charloopir`, `walkir`, `layoutir`), kept on disk between processes.

    engine = load_or_compile(llvm, ir_text, machine, build="opt=0 passes=…", prepare=run_passes)
    engine.get_function_address("anchor_rows")

Every `examcorpus extract` process builds the same loops from the same IR: parsing it, the optimiser's passes and
LLVM's code generation took about 0.03 CPU s a process (more on a loaded machine), for object code that comes out
byte for byte the same each time. So the object code is written to a file named by a key that holds everything it
depends on: the IR's text (SHA-256), how it was compiled (`build`: code generation level and passes), llvmlite's
version (and so LLVM's), the target triple and the host CPU's name and features. A later process with the same key
loads the file into an MCJIT engine (about 1 ms) instead of compiling; any change of the IR (an edited loop, another
numpy layout written into it) or of the machine is another key, compiled once and kept beside the first.

Both paths load the object code the same way (`add_object_file`): compiled now, the bytes are written and loaded;
found on disk, they are read and loaded. An entry is written atomically (`infra.write_bytes_atomic`: a reader sees
the whole file or none) and holds its own key and the SHA-256 of its code: a truncated, damaged or foreign entry (a
file whose key is another's, copied or renamed in) is ignored and compiled again, and the fresh code replaces it.
Nothing here is needed for a result: a folder that cannot be read or written only means compiling every time.

The folder: `EXAMCORPUS_COMPILED_CACHE` where set ("off" keeps nothing), else `$XDG_CACHE_HOME/examcorpus/compiled`
(`~/.cache/examcorpus/compiled`), created for its owner alone: it holds code a process runs.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline.infra import write_bytes_atomic

ENV_FOLDER = "EXAMCORPUS_COMPILED_CACHE"
OFF = "off"
# An entry's first line; a change of the layout below is a new format, and entries of another are ignored.
MAGIC = b"examcorpus compiled object 1\n"
_DIGEST_LINE = 65  # 64 hex digits and a newline


def cache_folder() -> Path | None:
    """Where entries are kept; None where the environment says to keep none."""
    chosen = os.environ.get(ENV_FOLDER, "").strip()
    if chosen.lower() == OFF:
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # no home to find (no HOME, no password entry): nothing kept
            return None
    return Path(base) / "examcorpus" / "compiled"


def entry_key(llvm: Any, ir_text: str, build: str) -> str:
    """The hex SHA-256 naming the object code of `ir_text` compiled as `build` says, by this llvmlite, for this
    target and host CPU: what the code depends on beyond the IR."""
    import llvmlite

    digest = hashlib.sha256()
    for part in (MAGIC.decode(), llvmlite.__version__, ".".join(map(str, llvm.llvm_version_info)), llvm.get_default_triple(),
                 llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten(), build,
                 hashlib.sha256(ir_text.encode("utf-8")).hexdigest()):
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def read_entry(path: Path, key: str) -> bytes | None:
    """The object code stored at `path` for `key`; None where there is none, or the file is not a whole entry of
    this format for this very key with its code as written."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(MAGIC) + 2 * _DIGEST_LINE
    if len(data) <= head or not data.startswith(MAGIC):
        return None
    stored_key = data[len(MAGIC):len(MAGIC) + _DIGEST_LINE]
    stored_digest = data[len(MAGIC) + _DIGEST_LINE:head]
    code = data[head:]
    if stored_key != key.encode() + b"\n" or stored_digest != hashlib.sha256(code).hexdigest().encode() + b"\n":
        return None
    return code


def entry_bytes(key: str, code: bytes) -> bytes:
    """An entry as written: the format's line, the key, the code's SHA-256, the code."""
    return MAGIC + key.encode() + b"\n" + hashlib.sha256(code).hexdigest().encode() + b"\n" + code


def write_entry(folder: Path, key: str, code: bytes) -> Path | None:
    """The entry written whole (temporary file, then renamed), or None where the folder cannot take it."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return write_bytes_atomic(folder / key, entry_bytes(key, code), durable=False)
    except OSError:
        return None


def load_or_compile(llvm: Any, ir_text: str, machine: Any, build: str, prepare: Callable[[Any], None] | None = None) -> Any:
    """An MCJIT engine holding `ir_text` compiled by `machine`: the cached object code where an entry for its key is
    on disk, else the IR parsed, verified, `prepare`d (the optimiser's passes, which `build` must name) and compiled,
    and the code kept for the next process. The engine must stay alive as long as its functions are called."""
    folder = cache_folder()
    key = entry_key(llvm, ir_text, build) if folder is not None else ""
    code = read_entry(folder / key, key) if folder is not None else None
    if code is None:
        module = llvm.parse_assembly(ir_text)
        module.verify()
        if prepare is not None:
            prepare(module)
        code = machine.emit_object(module)
        if folder is not None:
            write_entry(folder, key, code)
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
    engine.add_object_file(llvm.ObjectFileRef.from_data(code))
    engine.finalize_object()
    return engine
