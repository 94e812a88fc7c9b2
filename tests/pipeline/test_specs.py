"""Source specs: every shipped spec is valid, and a broken one fails naming the file and the field."""
import pytest
import yaml

from pipeline.specs import SpecError, available_specs, load_spec, load_spec_file


@pytest.mark.parametrize("name", available_specs())
def test_every_shipped_spec_is_valid(name):
    spec = load_spec(name)
    assert spec.name == name
    assert spec.download is not None or spec.local is not None


def _write(tmp_path, name, data):
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _valid_data(name="family_x"):
    base = yaml.safe_load(open(_any_spec_path(), encoding="utf-8"))
    base["name"] = name
    return base


def _any_spec_path():
    from pipeline.specs import spec_path

    names = available_specs()
    if not names:
        pytest.skip("no shipped spec yet")
    return spec_path(names[0])


def test_a_copy_of_a_shipped_spec_under_a_new_name_loads(tmp_path):
    spec = load_spec_file(_write(tmp_path, "family_x", _valid_data()))
    assert spec.name == "family_x"


def test_a_misspelt_field_is_named_with_its_file(tmp_path):
    data = _valid_data()
    data["metadata"]["contry"] = "PL"
    path = _write(tmp_path, "family_x", data)
    with pytest.raises(SpecError) as err:
        load_spec_file(path)
    assert str(path) in str(err.value)
    assert "metadata.contry" in str(err.value) and "unknown field" in str(err.value)


def test_a_missing_required_field_is_named(tmp_path):
    data = _valid_data()
    del data["layout"]["question_start"]
    with pytest.raises(SpecError, match=r"layout\.question_start': required field is missing"):
        load_spec_file(_write(tmp_path, "family_x", data))


def test_a_broken_regular_expression_is_explained(tmp_path):
    data = _valid_data()
    data["layout"]["question_start"] = "Zadanie (\\d+"
    with pytest.raises(SpecError, match=r"layout\.question_start.*not a valid regular expression"):
        load_spec_file(_write(tmp_path, "family_x", data))


def test_the_name_must_match_the_file_name(tmp_path):
    with pytest.raises(SpecError, match="must match the file name"):
        load_spec_file(_write(tmp_path, "family_y", _valid_data("family_x")))


def test_invalid_yaml_and_non_mapping_are_reported(tmp_path):
    bad = tmp_path / "broken.yaml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(SpecError, match="not valid YAML"):
        load_spec_file(bad)
    listy = tmp_path / "listy.yaml"
    listy.write_text("- a\n- b\n", encoding="utf-8")
    with pytest.raises(SpecError, match="top level must be a mapping"):
        load_spec_file(listy)


def test_an_unknown_spec_name_lists_the_available_ones():
    with pytest.raises(SpecError, match="available"):
        load_spec("no_such_family")


def test_a_bare_yaml_on_key_in_pairing_means_the_field_on(tmp_path):
    data = _valid_data()
    text = yaml.safe_dump(data, allow_unicode=True).replace("'on':", "on:")
    path = tmp_path / "family_x.yaml"
    path.write_text(text, encoding="utf-8")
    assert "\n  on:" in text
    assert load_spec_file(path).pairing.on == data["pairing"]["on"]


# --------------------------------------------------------------------------- what `specs check` catches
# Each of these specs loaded before and then crashed or misbehaved at run time.


def _shipped(name: str, new_name: str = "family_x") -> dict:
    from pipeline.specs import spec_path

    data = yaml.safe_load(spec_path(name).read_text(encoding="utf-8"))
    data["name"] = new_name
    return data


def _check(*paths, env=None):
    """`examcorpus specs check` as a user runs it."""
    import os
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "pipeline.cli", "specs", "check", *map(str, paths)],
                          capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=120)


def test_a_variant_pattern_without_a_variant_group_is_an_error(tmp_path):
    data = _shipped("sk_maturita_sjl")
    data["key"]["variant_pattern"] = r"^\d{2}\s+(\d{4})\s*$"
    path = _write(tmp_path, "family_x", data)
    with pytest.raises(SpecError) as err:
        load_spec_file(path)
    assert str(path) in str(err.value)
    assert "field 'key.variant_pattern'" in str(err.value) and "(?P<variant>...)" in str(err.value)


def test_a_file_rule_without_a_fact_pairing_needs_is_an_error(tmp_path):
    data = _shipped("sample_pl")
    key_rule = data["download"]["links"][0]
    assert key_rule["role"] == "key"
    key_rule["pattern"] = key_rule["pattern"].replace("(?P<session>[a-z]+)", "[a-z]+")
    path = _write(tmp_path, "family_x", data)
    with pytest.raises(SpecError) as err:
        load_spec_file(path)
    message = str(err.value)
    assert str(path) in message and "field 'download.links.0.pattern'" in message
    assert "pairing.on pairs by ['session']" in message and "can never pair" in message


def test_an_ocr_language_that_does_not_exist_is_an_error(tmp_path):
    data = _valid_data()
    data["ocr"]["languages"] = ["polish"]
    with pytest.raises(SpecError, match=r"field 'ocr\.languages': .*not a Tesseract language code: \['polish'\]"):
        load_spec_file(_write(tmp_path, "family_x", data))


def test_a_key_given_twice_is_an_error_naming_both_lines(tmp_path):
    path = tmp_path / "family_x.yaml"
    text = yaml.safe_dump(_valid_data(), allow_unicode=True, sort_keys=False)
    path.write_text(text + "description: a second description\n", encoding="utf-8")
    first = 1 + text.splitlines().index(next(l for l in text.splitlines() if l.startswith("description:")))
    last = len(text.splitlines()) + 1
    with pytest.raises(SpecError) as err:
        load_spec_file(path)
    assert str(path) in str(err.value)
    assert f"field 'description': given twice (lines {first} and {last})" in str(err.value)


def test_a_nested_duplicate_key_names_its_dotted_field(tmp_path):
    path = tmp_path / "family_x.yaml"
    text = yaml.safe_dump(_valid_data(), allow_unicode=True, sort_keys=False)
    path.write_text(text.replace("\nocr:\n", "\nocr:\n  dpi: 200\n  dpi: 300\n", 1), encoding="utf-8")
    with pytest.raises(SpecError, match=r"field 'ocr\.dpi': given twice"):
        load_spec_file(path)


def test_an_unknown_field_lists_the_valid_ones(tmp_path):
    data = _valid_data()
    data["layout"].setdefault("options", {})["lables"] = ["A", "B"]
    with pytest.raises(SpecError) as err:
        load_spec_file(_write(tmp_path, "family_x", data))
    assert "field 'layout.options.lables': unknown field" in str(err.value)
    assert "valid fields here: keep_partial, labels, min_count, styles" in str(err.value)


def test_an_unknown_field_inside_a_list_item_lists_that_items_fields(tmp_path):
    data = _shipped("sample_pl")
    data["download"]["links"][1]["rle"] = "sheet"
    with pytest.raises(SpecError, match=r"download\.links\.1\.rle': unknown field.*valid fields here: facts, pattern, role"):
        load_spec_file(_write(tmp_path, "family_x", data))


needs_tesseract = pytest.mark.skipif(__import__("shutil").which("tesseract") is None, reason="needs Tesseract")


@needs_tesseract
def test_specs_check_names_the_apt_package_of_a_language_not_installed(tmp_path):
    from pipeline.extract.ocr import installed_languages

    missing = next(lang for lang in ("deu", "fra", "ita", "chi_sim") if lang not in installed_languages())
    data = _valid_data()
    data["ocr"]["languages"] = [missing]
    path = _write(tmp_path, "family_x", data)
    load_spec_file(path)  # valid as a spec: only this machine lacks the language

    result = _check(path)

    assert result.returncode == 1
    assert str(path) in result.stderr and "field 'ocr.languages'" in result.stderr
    assert f"Tesseract language '{missing}' is not installed" in result.stderr
    assert f"tesseract-ocr-{missing.replace('_', '-')}" in result.stderr


def test_specs_check_reports_a_tesseract_that_cannot_run(tmp_path):
    path = _write(tmp_path, "family_x", _valid_data())
    result = _check(path, env={"EXAMCORPUS_TESSERACT": str(tmp_path / "no-tesseract")})
    assert result.returncode == 1
    assert "field 'ocr.languages': cannot check the OCR languages" in result.stderr and "EXAMCORPUS_TESSERACT" in result.stderr


@needs_tesseract
def test_every_shipped_spec_passes_specs_check_here():
    from pipeline.specs import spec_path

    result = _check(*[spec_path(name) for name in available_specs()])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(": ok (") == len(available_specs())
