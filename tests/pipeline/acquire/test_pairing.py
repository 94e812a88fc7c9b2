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


def _brute_force_pairs(entries, pairing):
    """The pairing rule applied to every sheet and key: what indexed pairing must agree with."""
    from pipeline.acquire.pairing import _key_fits

    sheets = sorted((e for e in entries if e.role == "sheet"), key=lambda e: e.url)
    keys = sorted((e for e in entries if e.role == "key"), key=lambda e: e.url)
    return [(s.url, [k.url for k in keys if _key_fits(s, k, pairing)]) for s in sheets]


def test_pairing_agrees_with_the_rule_for_every_mix_of_missing_and_differing_facts():
    import random

    rng = random.Random(7)
    values = {"year": ["2019", 2019, "2020", None], "form": ["100", "200", None], "qualification": ["ee08", "ee09", None]}
    for key_serves_many in (False, True):
        pairing = PairingSpec(on=["year", "form", "qualification"], key_serves_many=key_serves_many)
        entries = [
            entry(f"u/{role}-{n:03d}", role, **{f: v for f, choices in values.items() if (v := rng.choice(choices)) is not None})
            for n in range(300) for role in (rng.choice(("sheet", "key")),)
        ]
        result = pair_files(entries, pairing)
        assert [(j.sheet.url, [k.url for k in j.keys]) for j in result.jobs] == _brute_force_pairs(entries, pairing)
        assert any(len(j.keys) > 1 for j in result.jobs) and any(not j.keys for j in result.jobs)


def test_pairing_an_archive_compares_each_sheet_with_the_keys_that_can_fit_not_every_key(monkeypatch):
    """1,500 sheets and 1,500 keys: a fit test per sheet and candidate key (here one), not 2.25 million."""
    from pipeline.acquire import pairing as pairing_module

    calls = 0
    rule = pairing_module._key_fits

    def counted(sheet, key, pairing):
        nonlocal calls
        calls += 1
        return rule(sheet, key, pairing)

    monkeypatch.setattr(pairing_module, "_key_fits", counted)
    entries = [entry(f"u/{role}-{n}", role, year=str(2000 + n % 20), qualification=f"q{n // 20}")
               for n in range(1500) for role in ("sheet", "key")]
    result = pair_files(entries, PairingSpec(on=["year", "qualification"]))
    assert all(len(job.keys) == 1 and job.keys[0].url == job.sheet.url.replace("sheet", "key") for job in result.jobs)
    assert len(result.jobs) == 1500 and result.problems == {}
    assert calls <= 2 * 1500
