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
