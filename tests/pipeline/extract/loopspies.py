"""A process's compiled loops watched: which loop each page went through, and whether numba's reader was asked for."""
from __future__ import annotations

import dataclasses

from pipeline.extract import charloop, pagechars


def spy_on_loops(monkeypatch, loops, names: tuple[str, ...]) -> tuple[list[str], list[bool]]:
    """The llvmlite `loops` put in place with `names` counted, numba's reader replaced by a probe, and the process's
    character counts at zero (as in a fresh process): (the names called, in order; one entry per ask for numba)."""
    calls: list[str] = []
    asked: list[bool] = []

    def counted(name: str):
        function = getattr(loops, name)
        return lambda *args: (calls.append(name), function(*args))[1]

    spy = dataclasses.replace(loops, **{name: counted(name) for name in names})
    monkeypatch.setattr(charloop, "char_loops", lambda: spy)
    monkeypatch.setattr(charloop, "compiled_reader", lambda: asked.append(True))
    monkeypatch.delenv(charloop.ENV_SWITCH, raising=False)
    for name in ("read", "files_left", "files_read", "read_at_plan", "read_in_files", "repaid"):
        monkeypatch.setattr(pagechars._Characters, name, 0)
    return calls, asked
