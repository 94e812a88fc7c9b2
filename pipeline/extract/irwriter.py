"""A small writer of LLVM IR functions on `llvmlite.ir`'s builder, written as a C compiler at -O0 writes them: every
variable a stack slot (`Code.var`), loops and branches as blocks (`Code.loop`, `Code.while_`, the builder's
`if_then`/`if_else`), conditions that guard a read asked in order (`Code.all`), and numpy arrays taken as the array
objects themselves (`Array`). An optimiser's passes (`layoutir.build`) make the slots registers.

    code = Code(module, "name", I64, [("values", Array(P64)), ("count", I64)])
    total = code.var(F64, const(0.0))
    with code.loop(ZERO, code.a["count"]) as turn:
        total.set(code.b.fadd(total.get(), code.load(code.a["values"], turn.k)))
    code.b.ret(...); code.done()
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from llvmlite import ir

F64, I64, I8, I1 = ir.DoubleType(), ir.IntType(64), ir.IntType(8), ir.IntType(1)
P64, PI64, PI8 = F64.as_pointer(), I64.as_pointer(), I8.as_pointer()


class Var:
    """A local variable: one stack slot."""

    def __init__(self, code: Code, kind: ir.Type, initial: Any):
        self.code = code
        self.slot = code.slots.alloca(kind)
        if initial is not None:
            self.set(initial)

    def get(self) -> Any:
        return self.code.b.load(self.slot)

    def set(self, value: Any) -> None:
        self.code.b.store(value, self.slot)


class Loop:
    """A loop being written: its counter's value this turn (`k`), `stop()` (break) and `next()` (continue),
    each the last statement of the block it ends."""

    def __init__(self, code: Code, k: Any, step: ir.Block, end: ir.Block):
        self.code, self.k, self._step, self._end = code, k, step, end

    def stop(self) -> None:
        self.code.b.branch(self._end)

    def next(self) -> None:
        self.code.b.branch(self._step)


@dataclass(frozen=True)
class Array:
    """A parameter that is a numpy array object (C-contiguous, of this element type): the function reads its data
    pointer, `PyArrayObject.data`, the word after the object's header (numpy's ABI), so the call passes the array
    itself (`ctypes.py_object`) instead of asking it for its address (several times the cost of the call)."""

    pointer: ir.Type


DATA_WORD = 2  # PyArrayObject: ob_refcnt, ob_type, then data


class Code:
    """One function being written: `b` the builder, `a` its arguments by name (an `Array`'s as its data pointer),
    stack slots in its first block."""

    def __init__(self, module: ir.Module, name: str, returns: ir.Type, parameters: list[tuple[str, Any]], inner: bool = False):
        kinds = [PI8 if isinstance(kind, Array) else kind for _, kind in parameters]
        self.function = ir.Function(module, ir.FunctionType(returns, kinds), name)
        if inner:
            self.function.linkage = "internal"
        self.slots = ir.IRBuilder(self.function.append_basic_block("slots"))
        body = self.function.append_basic_block("body")
        self.b = ir.IRBuilder(body)
        self.a = {}
        for argument, (label, kind) in zip(self.function.args, parameters):
            argument.name = label
            if isinstance(kind, Array):
                words = self.b.bitcast(argument, PI8.as_pointer())
                self.a[label] = self.b.bitcast(self.b.load(self.b.gep(words, [const(DATA_WORD, I64)])), kind.pointer)
            else:
                self.a[label] = argument

    def done(self) -> None:
        self.slots.branch(self.function.basic_blocks[1])

    def var(self, kind: ir.Type, initial: Any = None) -> Var:
        return Var(self, kind, initial)

    def at(self, pointer: Any, index: Any) -> Any:
        return self.b.gep(pointer, [index])

    def load(self, pointer: Any, index: Any) -> Any:
        return self.b.load(self.at(pointer, index))

    def store(self, pointer: Any, index: Any, value: Any) -> None:
        self.b.store(value, self.at(pointer, index))

    def f(self, op: str, x: Any, y: Any) -> Any:
        """An ordered float comparison: false where either is a NaN (as Python's and numba's `<`, `<=`, `==`)."""
        return self.b.fcmp_ordered(op, x, y)

    def i(self, op: str, x: Any, y: Any) -> Any:
        return self.b.icmp_signed(op, x, y)

    def nan(self, x: Any) -> Any:
        return self.b.fcmp_unordered("!=", x, x)

    def all(self, *conditions: Callable[[], Any]) -> Any:
        """`c1 and c2 and ...`, each asked only where those before it held (a later one may read what an earlier
        one guards)."""
        result = self.var(I1, ir.Constant(I1, 0))

        def nest(rest: tuple[Callable[[], Any], ...]) -> None:
            if not rest:
                result.set(ir.Constant(I1, 1))
                return
            with self.b.if_then(rest[0]()):
                nest(rest[1:])
        nest(conditions)
        return result.get()

    @contextmanager
    def loop(self, lo: Any, hi: Any) -> Iterator[Loop]:
        """`for k in range(lo, hi)`, `hi` read once."""
        k = self.var(I64, lo)
        head, body, step, end = (self.function.append_basic_block(name) for name in ("head", "do", "step", "end"))
        self.b.branch(head)
        self.b.position_at_end(head)
        self.b.cbranch(self.i("<", k.get(), hi), body, end)
        self.b.position_at_end(body)
        yield Loop(self, k.get(), step, end)
        if self.b.block.terminator is None:
            self.b.branch(step)
        self.b.position_at_end(step)
        k.set(self.b.add(k.get(), ir.Constant(I64, 1)))
        self.b.branch(head)
        self.b.position_at_end(end)

    @contextmanager
    def while_(self, condition: Callable[[], Any]) -> Iterator[Loop]:
        """`while condition():` (asked before each turn)."""
        head, body, end = (self.function.append_basic_block(name) for name in ("while", "wdo", "wend"))
        self.b.branch(head)
        self.b.position_at_end(head)
        self.b.cbranch(condition(), body, end)
        self.b.position_at_end(body)
        yield Loop(self, None, head, end)
        if self.b.block.terminator is None:
            self.b.branch(head)
        self.b.position_at_end(end)


def const(value: float | int, kind: ir.Type = F64) -> ir.Constant:
    return ir.Constant(kind, value)


ZERO, ONE = const(0, I64), const(1, I64)


# A compiled loop reads its arrays C-contiguous and of the type its signature names: the array itself where it already
# is, else a copy (the loops of `layoutir`, `rowir` and `segmentir` are called through these).
def c_floats(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.float64)


def c_ints(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.int64)


def c_flags(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.bool_)
