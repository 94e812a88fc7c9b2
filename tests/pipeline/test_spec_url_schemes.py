"""A spec's download URLs name the web, nothing else: `specs check` refuses any other scheme, naming the spec.

Before (`aea7eac`), `specs check` said "ok" to a spec whose `base_url` was `file:///etc` or whose index page was
`file:///etc/passwd`; the download client refused each URL when it came to fetch it ("only http and https URLs are
supported"), so nothing outside was read, but a curator's check passed a spec that could fetch nothing, and the
refusal came only as a note of the run. Now the spec fails its check with the field named.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pipeline.cli import main as examcorpus
from pipeline.specs import SpecError, load_spec

SAMPLE = Path(__file__).resolve().parents[2] / "pipeline" / "sources" / "sample_pl.yaml"


def _spec_with(tmp_path: Path, **download: object) -> Path:
    spec = yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))
    spec["download"].update(download)
    path = tmp_path / "sample_pl.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("base_url", ["file:///etc", "FILE:///etc", "ftp://archive.example", "javascript:alert(1)",
                                      "//evil.test", "http:///etc", "data:text/html,<script>1</script>", "gopher://x/"])
def test_a_base_url_of_another_scheme_fails_the_check_naming_the_spec_and_field(tmp_path, base_url, capsys):
    path = _spec_with(tmp_path, base_url=base_url)
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert str(path) in str(caught.value) and "download.base_url" in str(caught.value)
    assert examcorpus(["specs", "check", str(path)]) != 0
    assert "download.base_url" in capsys.readouterr().err


@pytest.mark.parametrize("field", ["index_pages", "url_templates"])
@pytest.mark.parametrize("url", ["file:///etc/passwd", "file://localhost/{year}.pdf", "ftp://archive.example/{year}.pdf",
                                 "/etc/{year}.pdf", "../../{year}.pdf"])
def test_an_index_page_or_template_of_another_scheme_fails_the_check(tmp_path, field, url):
    path = _spec_with(tmp_path, **{field: [url]})
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert f"download.{field}" in str(caught.value) and str(path) in str(caught.value)


def test_web_urls_and_base_url_templates_still_pass(tmp_path):
    path = _spec_with(tmp_path, base_url="HTTPS://Archive.Example:8443", index_pages=["{base_url}/index.html"],
                      url_templates=["https://cdn.example/{year}.pdf", "http://127.0.0.1:8000/a?x=1"])
    assert load_spec(path).download.base_url == "HTTPS://Archive.Example:8443"
