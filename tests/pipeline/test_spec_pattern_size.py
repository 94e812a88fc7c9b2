"""A spec pattern that would ask gigabytes to compile is refused where the spec is loaded, naming its field.

The `regex` module, which runs every spec pattern (`pipeline.patterns`), writes out each required repetition of a
group, so nested counts multiply: `(?:(?:(?:a{1000}){1000}){1000})`, 34 characters in a community spec, passed the
spec's check (Python's `re` compiles it in microseconds) and had the run that compiled it killed for memory (past
2.8 GB under a 3 GB limit: MemoryError). Groups nested a thousand deep raised RecursionError out of the spec's
check, naming no file. Now a pattern past `MAX_COMPILED_NODES` (the shipped specs' largest is under a hundred) or
nested too deep is a spec error naming the field, and `SpecPattern` refuses it before compiling. Measured in
`docs/results.md`, "Trust at the seams a twelfth time".
"""
from __future__ import annotations

import pytest

from pipeline.patterns import MAX_COMPILED_NODES, AnyPattern, PatternTooLarge, compiled_size, spec_pattern
from pipeline.specs import SpecError, load_spec_file
from tests.pipeline.test_specs import _valid_data, _write

BOMB = "(?:(?:(?:a{1000}){1000}){1000})"
NUMBER = r"Zadanie (?P<number>\d+)"  # what a question start needs besides


def test_nested_counts_are_counted_as_the_regex_module_writes_them_out():
    assert compiled_size("(?:ab){300}") == 1 + 300 * 2  # the repeat, and 300 copies of its two letters
    assert compiled_size(BOMB) > 10 ** 9
    assert compiled_size("(?:ab){0,100000}") < 10 and compiled_size("(?:ab){2,}") < 10  # only required copies


@pytest.mark.parametrize("pattern, said", [
    (NUMBER + BOMB, "too large: it compiles to 1,001,001,012 nodes"),
    ("(" * 1000 + NUMBER + ")" * 1000, "nest too deep"),
])
def test_a_spec_pattern_too_large_to_compile_is_a_spec_error_naming_its_field(tmp_path, pattern, said):
    data = _valid_data()
    data["layout"]["question_start"] = pattern
    with pytest.raises(SpecError) as err:
        load_spec_file(_write(tmp_path, "family_x", data))
    assert "layout.question_start" in str(err.value) and said in str(err.value), str(err.value)


def test_a_pattern_past_the_bound_is_not_compiled_by_a_run():
    """Past the bound by twice (about 50 MB where it compiled): refused before `regex` is asked."""
    pattern = "(?:(?:ab){1000}){100}"
    assert compiled_size(pattern) > MAX_COMPILED_NODES
    with pytest.raises(PatternTooLarge, match="is not compiled: it compiles to"):
        spec_pattern(pattern)


def test_patterns_each_within_the_bound_are_searched_one_by_one_where_joined_they_would_pass_it():
    members = ["(?:ab){30000}c", "(?:xy){30000}z"]
    assert all(compiled_size(m) <= MAX_COMPILED_NODES for m in members)
    found = AnyPattern(members)
    assert found.joined is None
    assert found.found_in("xy" * 30000 + "z") and not found.found_in("ab" * 29999 + "c")
