"""The split rule as a typed config: which years are private, and how leakage is checked.

Read from YAML (`default_split.yaml` beside this module when none is given); every problem is reported
with the file it came from. The config's canonical JSON is hashed so a release records exactly which
rule made it.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

from pipeline.infra import load_yaml

DEFAULT_CONFIG = Path(__file__).with_name("default_split.yaml")
ON_LEAK = ("fail", "withhold_public")


class SplitConfigError(ValueError):
    """A split config that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class LeakageSettings:
    near_duplicate_jaccard: float = 0.8
    shingle_chars: int = 5
    num_perm: int = 128
    on_leak: str = "fail"
    contained_min_chars: int = 40  # a private text shorter than this (an option "True") is not looked for inside public ones
    allowed_pairs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SplitConfig:
    version: int = 1
    newest_years: int = 1
    private_years: dict[str, tuple[int, ...]] = field(default_factory=dict)  # source -> explicit years
    withhold_flagged: bool = True
    leakage: LeakageSettings = LeakageSettings()
    path: str = "<built-in>"  # where it was read from (not part of the rule's hash)

    def to_dict(self) -> dict:
        data = asdict(self)
        data.pop("path")
        data["private_years"] = {k: sorted(v) for k, v in sorted(self.private_years.items())}
        data["leakage"]["allowed_pairs"] = sorted(list(p) for p in self.leakage.allowed_pairs)
        return data

    def sha256(self) -> str:
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()

    def describe(self) -> str:
        text = f"the newest {self.newest_years} year(s) of each exam family are private"
        if self.private_years:
            explicit = "; ".join(f"{s}: {', '.join(map(str, sorted(y)))}" for s, y in sorted(self.private_years.items()))
            text += f", except where years are named ({explicit})"
        return text


def load_split_config(path: str | Path | None = None) -> SplitConfig:
    path = Path(path) if path is not None else DEFAULT_CONFIG
    try:
        data = load_yaml(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise SplitConfigError(f"{path}: cannot read the split config ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        raise SplitConfigError(f"{path}: not valid YAML ({exc})") from None
    return parse_split_config(data, source=str(path))


def parse_split_config(data: object, *, source: str = "<dict>") -> SplitConfig:
    def fail(problem: str):
        raise SplitConfigError(f"{source}: {problem}")

    if not isinstance(data, dict):
        fail("the top level must be a mapping")
    _only(data, {"version", "private", "withhold_flagged", "leakage"}, "", fail)
    private = data.get("private") or {}
    leak = data.get("leakage") or {}
    if not isinstance(private, dict) or not isinstance(leak, dict):
        fail("'private' and 'leakage' must be mappings")
    _only(private, {"newest_years", "years"}, "private.", fail)
    _only(leak, {f for f in LeakageSettings.__dataclass_fields__}, "leakage.", fail)

    version = _int(data.get("version", 1), "version", fail, minimum=1)
    newest = _int(private.get("newest_years", 1), "private.newest_years", fail, minimum=0)
    years = private.get("years") or {}
    if not isinstance(years, dict):
        fail("private.years must map a source name to a list of years")
    explicit = {}
    for name, values in years.items():
        if not isinstance(values, list) or not values:
            fail(f"private.years.{name} must be a non-empty list of years")
        explicit[str(name)] = tuple(_int(v, f"private.years.{name}", fail, minimum=1900) for v in values)
    threshold = leak.get("near_duplicate_jaccard", 0.8)
    if not isinstance(threshold, (int, float)) or not 0 < threshold <= 1:
        fail(f"leakage.near_duplicate_jaccard must be a number in (0, 1], got {threshold!r}")
    on_leak = leak.get("on_leak", "fail")
    if on_leak not in ON_LEAK:
        fail(f"leakage.on_leak must be one of {', '.join(ON_LEAK)}, got {on_leak!r}")
    pairs = []
    for pair in leak.get("allowed_pairs") or []:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            fail(f"leakage.allowed_pairs entries are [private_id, public_id], got {pair!r}")
        pairs.append((pair[0], pair[1]))
    withhold = data.get("withhold_flagged", True)
    if not isinstance(withhold, bool):
        fail(f"withhold_flagged must be true or false, got {withhold!r}")
    settings = LeakageSettings(
        near_duplicate_jaccard=float(threshold),
        shingle_chars=_int(leak.get("shingle_chars", 5), "leakage.shingle_chars", fail, minimum=1),
        num_perm=_int(leak.get("num_perm", 128), "leakage.num_perm", fail, minimum=16),
        on_leak=on_leak,
        contained_min_chars=_int(leak.get("contained_min_chars", 40), "leakage.contained_min_chars", fail, minimum=8),
        allowed_pairs=tuple(pairs),
    )
    return SplitConfig(version, newest, explicit, withhold, settings, path=source)


def _only(mapping: dict, allowed: set[str], prefix: str, fail) -> None:
    unknown = sorted(set(map(str, mapping)) - allowed)
    if unknown:
        fail(f"unknown key(s) {', '.join(prefix + k for k in unknown)}; allowed: {', '.join(sorted(allowed))}")


def _int(value: object, name: str, fail, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        fail(f"{name} must be an integer ≥ {minimum}, got {value!r}")
    return value
