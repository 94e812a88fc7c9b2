"""A YAML file far larger than any the project reads (a spec, a split config, a plan: a few kilobytes) is refused before
it is parsed, with a clear message; before (`3fa8f0e`), 4 MiB of short keys took PyYAML 21 CPU s and 690 MB, and
16 MiB more. Measured in `docs/results.md`, "Trust at the seams a ninth time"."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from pipeline.infra import YamlTooLargeError, load_yaml
from pipeline.infra.yamlfile import MAX_YAML_CHARS
from pipeline.specs import SpecError, load_spec_file

ROOT = Path(__file__).resolve().parents[2]


def many_keys(chars: int) -> str:
    return "".join(f"k{i}: {i}\n" for i in range(chars // 10))


@pytest.mark.parametrize("text", [many_keys(4 << 20), 'x: "' + "a" * (4 << 20) + '"\n'], ids=["4 MiB of keys", "a 4 MiB scalar"])
def test_a_yaml_document_past_the_bound_is_refused_before_it_is_read(text):
    started = time.process_time()
    with pytest.raises(YamlTooLargeError, match="more than the 1,048,576") as refused:
        load_yaml(text)
    assert isinstance(refused.value, yaml.YAMLError)
    assert time.process_time() - started < 0.5


def test_a_spec_past_the_bound_fails_its_check_naming_the_file(tmp_path):
    shipped = (ROOT / "pipeline" / "sources" / "es_inap.yaml").read_text(encoding="utf-8")
    path = tmp_path / "es_inap.yaml"
    path.write_text(shipped + "\n# " + "x" * MAX_YAML_CHARS + "\n", encoding="utf-8")
    with pytest.raises(SpecError) as refused:
        load_spec_file(path)
    assert "not valid YAML" in str(refused.value) and "more than the" in str(refused.value)


def test_every_shipped_yaml_file_is_far_within_the_bound():
    sizes = [len(p.read_text(encoding="utf-8")) for p in (ROOT / "pipeline").rglob("*.yaml")]
    assert sizes and max(sizes) * 100 < MAX_YAML_CHARS
