"""Registering `examcorpus` subcommands: one way to add a command, one table of who adds them.

Every command is an argparse sub-parser whose parsed arguments carry the function that runs it;
`add_command` makes one (help, description, handler) so that no stage spells that out again.
`register_commands` calls each stage's `register(subparsers)` from a "module:function" table,
importing it only then (a stage's heavy imports stay out of `--help` of another), and leaves out
a part whose top-level package is not installed (eval is optional to a curator). Given the command
about to run, it stops once that command is registered: `examcorpus extract` never imports the review
server, the publisher or eval (about half a CPU second of every run's start, and of every re-run).
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
from collections.abc import Callable, Iterable

Handler = Callable[[argparse.Namespace], int]
Registrar = Callable[[object], object] | str


def add_command(subparsers, name: str, handler: Handler, *, help: str, description: str | None = None,
                dest: str = "func", **options) -> argparse.ArgumentParser:
    """A sub-parser `name` whose parsed arguments carry `handler` under `dest` (`args.func` by default)."""
    parser = subparsers.add_parser(name, help=help, description=description or help, **options)
    parser.set_defaults(**{dest: handler})
    return parser


def register_commands(subparsers, registrars: Iterable[Registrar], *, wanted: str | None = None) -> list[str]:
    """Call each registrar (a function, or "module:function") with `subparsers`; returns the ones left
    out because their top-level package is not installed. A missing function in an installed module
    is an error. `wanted`: the command about to run; the registrars after the one that adds it are
    neither imported nor called (None: every command, as `--help` lists them)."""
    left_out = []
    for registrar in registrars:
        if wanted is not None and wanted in subparsers.choices:
            break
        if callable(registrar):
            registrar(subparsers)
            continue
        module_name, _, function_name = registrar.partition(":")
        if importlib.util.find_spec(module_name.split(".")[0]) is None:
            left_out.append(registrar)
            continue
        register = getattr(importlib.import_module(module_name), function_name)
        register(subparsers)
    return left_out
