"""Pairing sheets with keys from the facts their file rules extracted."""
from pipeline.acquire import ManifestEntry
from pipeline.acquire import pair_files
from pipeline.specs import PairingSpec


def entry(url, role, **facts):
    return ManifestEntry(url=url, final_url=url, spec="s", role=role, facts=facts, status="downloaded",
                         sha256=url[-1] * 64, path=f"raw/{url[-1]}.pdf")


def test_sheet_pairs_with_the_key_sharing_its_facts():
    entries = [
        entry("u/sheet-2019-a", "sheet", year="2019", qualification="ee09"),
        entry("u/sheet-2020-b", "sheet", year="2020", qualification="ee09"),
        entry("u/key-2019-c", "key", year="2019", qualification="ee09"),
        entry("u/key-2020-d", "key", year="2020", qualification="ee09"),
    ]
    result = pair_files(entries, PairingSpec(on=["year", "qualification"]))
    assert [(j.sheet.url, [k.url for k in j.keys]) for j in result.jobs] == [
        ("u/sheet-2019-a", ["u/key-2019-c"]),
        ("u/sheet-2020-b", ["u/key-2020-d"]),
    ]
    assert result.problems == {}


def test_a_key_without_the_form_fact_serves_every_form_only_when_the_spec_says_so():
    entries = [
        entry("u/s100-a", "sheet", year="2025", form="100"),
        entry("u/s200-b", "sheet", year="2025", form="200"),
        entry("u/zasady-c", "key", year="2025"),
    ]
    many = pair_files(entries, PairingSpec(on=["year", "form"], key_serves_many=True))
    assert [len(j.keys) for j in many.jobs] == [1, 1] and many.problems == {}
    strict = pair_files(entries, PairingSpec(on=["year", "form"]))
    assert [len(j.keys) for j in strict.jobs] == [0, 0]
    assert "no answer key" in strict.problems["u/s100-a"]
    assert "matches no sheet" in strict.problems["u/zasady-c"]


def test_sheet_without_key_is_fine_when_keys_are_not_required():
    result = pair_files([entry("u/s-a", "sheet", year="2018")], PairingSpec(on=["year"], key_required=False))
    assert len(result.jobs) == 1 and result.problems == {}


def test_rejected_files_take_no_part_in_pairing():
    bad = entry("u/key-x", "key", year="2019")
    bad.status, bad.path = "rejected", None
    result = pair_files([entry("u/s-a", "sheet", year="2019"), bad], PairingSpec(on=["year"]))
    assert result.jobs[0].keys == ()
    assert "u/key-x" not in result.problems


def test_a_fact_neither_file_carries_is_ignored_but_one_fact_must_agree():
    web = [entry("u/them_a", "sheet", form="inf_gel", session="180613"),
           entry("u/apant_b", "key", form="inf_gel", session="180613"),
           entry("u/apant_c", "key", form="mat_gel", session="180611")]
    result = pair_files(web, PairingSpec(on=["form", "year", "session"]))
    assert [k.url for k in result.jobs[0].keys] == ["u/apant_b"]
    bare = [entry("u/s-a", "sheet"), entry("u/k-b", "key")]
    assert pair_files(bare, PairingSpec(on=["year"])).jobs[0].keys == ()
