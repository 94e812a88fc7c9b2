"""The compiled loops' object code kept on disk (`pipeline.extract.objectcache`): compiled once a machine and loaded by
every later process; an entry that is damaged, cut short or another key's is ignored and compiled again; the key
changes with the IR, the way it is compiled and the machine; a folder that cannot be written only means compiling."""
from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

llvm = pytest.importorskip("llvmlite.binding")

from pipeline.extract import objectcache  # noqa: E402

_ADD = """
define i64 @combine(i64 %a, i64 %b) {
entry:
  %sum = add i64 %a, %b
  ret i64 %sum
}
"""
_MULTIPLY = _ADD.replace("add i64", "mul i64")


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv(objectcache.ENV_FOLDER, str(tmp_path / "compiled"))
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return tmp_path / "compiled"


class Compiles:
    """The `prepare` step load_or_compile runs on a module it compiles (never on one it loads): counts them."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, module) -> None:
        self.count += 1


def _combine(ir_text: str, compiles: Compiles, build: str = "codegen=0") -> tuple[int, object]:
    machine = llvm.Target.from_default_triple().create_target_machine(opt=0)
    engine = objectcache.load_or_compile(llvm, ir_text, machine, build=build, prepare=compiles)
    function = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(engine.get_function_address("combine"))
    return function(6, 7), engine


def _only_entry(folder: Path) -> Path:
    entries = [p for p in folder.iterdir() if not p.name.startswith(".")]
    assert len(entries) == 1
    return entries[0]


def test_compiled_once_then_loaded_with_the_same_result(folder):
    compiles = Compiles()
    assert _combine(_ADD, compiles)[0] == 13
    assert compiles.count == 1
    entry = _only_entry(folder)
    assert _combine(_ADD, compiles)[0] == 13
    assert compiles.count == 1, "the second build loaded the kept object code"
    assert _only_entry(folder) == entry


@pytest.mark.parametrize("damage", ["cut short", "a byte of the code changed", "no header", "empty"])
def test_a_damaged_entry_is_ignored_and_replaced(folder, damage):
    compiles = Compiles()
    _combine(_ADD, compiles)
    entry = _only_entry(folder)
    data = entry.read_bytes()
    entry.write_bytes({
        "cut short": data[: len(data) - 40],
        "a byte of the code changed": data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:],
        "no header": data[len(objectcache.MAGIC):],
        "empty": b"",
    }[damage])
    assert _combine(_ADD, compiles)[0] == 13
    assert compiles.count == 2, "compiled again, not loaded from the damaged entry"
    assert entry.read_bytes() == data, "the fresh code replaced the damaged entry"
    assert _combine(_ADD, compiles)[0] == 13 and compiles.count == 2


def test_another_keys_entry_under_this_name_is_ignored(folder):
    """A whole, well-formed entry of other code copied in under this key's name (another machine's cache, a file
    renamed): its code is never loaded."""
    compiles = Compiles()
    _combine(_MULTIPLY, compiles)
    foreign = _only_entry(folder)
    key = objectcache.entry_key(llvm, _ADD, "codegen=0")
    (folder / key).write_bytes(foreign.read_bytes())
    assert _combine(_ADD, compiles)[0] == 13, "6 + 7, not the foreign entry's 6 × 7"
    assert compiles.count == 2
    assert objectcache.read_entry(folder / key, key) is not None


class _OtherCpu:
    """llvmlite's binding as on a machine with another CPU (every other name passed through)."""

    def __getattr__(self, name):
        return getattr(llvm, name)

    @staticmethod
    def get_host_cpu_name() -> str:
        return "another-cpu"


def test_the_key_holds_the_ir_the_build_and_the_machine():
    llvm.initialize_native_target()
    key = objectcache.entry_key(llvm, _ADD, "codegen=0")
    assert key == objectcache.entry_key(llvm, _ADD, "codegen=0")
    assert key != objectcache.entry_key(llvm, _MULTIPLY, "codegen=0")
    assert key != objectcache.entry_key(llvm, _ADD, "codegen=2")
    assert key != objectcache.entry_key(_OtherCpu(), _ADD, "codegen=0")


def test_switched_off_or_unwritable_it_compiles_each_time(tmp_path, monkeypatch):
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    compiles = Compiles()
    monkeypatch.setenv(objectcache.ENV_FOLDER, "off")
    assert _combine(_ADD, compiles)[0] == 13 and _combine(_ADD, compiles)[0] == 13
    assert compiles.count == 2
    blocked = tmp_path / "a file where the folder would be"
    blocked.write_text("")
    monkeypatch.setenv(objectcache.ENV_FOLDER, str(blocked / "compiled"))
    assert _combine(_ADD, compiles)[0] == 13 and _combine(_ADD, compiles)[0] == 13
    assert compiles.count == 4


def test_the_default_folder_is_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.delenv(objectcache.ENV_FOLDER, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert objectcache.cache_folder() == tmp_path / "examcorpus" / "compiled"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert objectcache.cache_folder() == tmp_path / "home" / ".cache" / "examcorpus" / "compiled"


def test_with_no_home_to_find_nothing_is_kept_and_the_loops_still_build(monkeypatch):
    """A process with no home directory (a service account without HOME): the loops are compiled as before, not lost."""
    monkeypatch.delenv(objectcache.ENV_FOLDER, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert objectcache.cache_folder() is None
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    assert _combine(_ADD, Compiles())[0] == 13


# A fresh process building the loops a run builds (layout's, the characters' and the walks'), printing how many
# modules it compiled (parsed from their IR: `load_or_compile` parses an empty module to load kept code into)
# and a layout result and a walk status computed through them.
_BUILD_LOOPS = """
import llvmlite.binding as llvm
compiled = []
parse = llvm.parse_assembly
llvm.parse_assembly = lambda text: compiled.append(1) or parse(text) if text else parse(text)
import numpy as np
from pipeline.extract import charloopir, layoutir
layout, chars = layoutir.build(), charloopir.build()
print(len(compiled), layout.lex_order(np.array([3.0, 1.0, 2.0, 1.0]), np.array([0.0, 5.0, 0.0, 4.0])).tolist(),
      chars.path_fills is not None and chars.ink_objects is not None)
"""


def test_a_second_process_loads_every_loop_a_run_builds(tmp_path):
    """What the cache is for: the first process compiles layout's, the characters' and the walks' loops (three
    modules) and keeps them; the next compiles none and computes the same."""
    env = os.environ | {objectcache.ENV_FOLDER: str(tmp_path / "compiled")}
    root = Path(__file__).resolve().parents[3]
    runs = [subprocess.run([sys.executable, "-c", _BUILD_LOOPS], capture_output=True, text=True, env=env, cwd=root, check=True).stdout.split(maxsplit=1)
            for _ in range(2)]
    assert [run[0] for run in runs] == ["3", "0"]
    assert runs[0][1] == runs[1][1]
    assert len(list((tmp_path / "compiled").iterdir())) == 3


def test_loops_loaded_from_the_cache_lay_out_as_those_compiled(folder):
    from pipeline.extract import layoutir

    fresh, loaded = layoutir.build(), layoutir.build()
    rng = np.random.default_rng(7)
    top = np.sort(rng.uniform(0, 800, 200))
    bottom, size = top + rng.uniform(4, 14, 200), rng.uniform(6, 14, 200)
    x0 = rng.uniform(0, 500, 200)
    for a, b in zip(fresh.anchor_rows(top, bottom, size), loaded.anchor_rows(top, bottom, size)):
        assert np.array_equal(a, b)
    assert np.array_equal(fresh.lex_order(np.round(x0 / 50), top), loaded.lex_order(np.round(x0 / 50), top))
