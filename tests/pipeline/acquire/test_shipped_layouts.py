"""Shipped specs whose file names carry every fact read a folder in any layout (issue 26, item 11): the
files where the development corpus keeps them (one folder per sitting), all in one folder, or under
folders of the curator's own naming, are the same sheets and keys with the same facts."""
from __future__ import annotations

import pytest

from pipeline.acquire import match_rules
from pipeline.specs import load_spec

# (spec, file name, role, facts): as published, one file per sitting.
FILES = [
    ("br_fgv_oab", "2016-19.pdf", "sheet", {"year": "2016", "session": "19"}),
    ("br_fgv_oab", "2016-19-as.pdf", "key", {"year": "2016", "session": "19"}),
    ("br_inep_revalida", "revalida_2023_1_prova.pdf", "sheet", {"year": "2023", "session": "1"}),
    ("br_inep_revalida", "revalida_2023_1_gabarito.pdf", "key", {"year": "2023", "session": "1"}),
    ("cl_demre_paes", "M1-2023-1.pdf", "sheet", {"sheet_code": "M1", "year": "2023", "session": "1"}),
    ("cl_demre_paes", "clavijero-M1-2023-1.pdf", "key", {"sheet_code": "M1", "year": "2023", "session": "1"}),
]
LAYOUTS = {
    "flat": lambda name: name,
    "one folder per sitting": lambda name: f"{name.removeprefix('clavijero-').removesuffix('.pdf').removesuffix('-as')}/{name}",
    "folders of the curator's own": lambda name: f"exams/descargas 2024/{name}",
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("spec_name, name, role, facts", FILES)
def test_a_file_is_read_with_its_facts_in_any_folder_layout(spec_name, name, role, facts, layout):
    spec = load_spec(spec_name)
    found = match_rules(LAYOUTS[layout](name), spec.local.files)
    assert found is not None and (found.role, found.facts) == (role, facts)
