"""The shipped real-family specs find the right files on sites laid out like the real ones
(URL patterns from notes/sources.md), served on 127.0.0.1, and pair every sheet with its key."""
from __future__ import annotations

from pipeline.acquire import download_source
from pipeline.acquire import pair_files
from pipeline.specs import load_spec

from .support import make_pdf

CKE = "/images/_EGZAMIN_MATURALNY_OD_2015/Arkusze_egzaminacyjne"


def _fetch(spec_name, site, raw_dir, fast, years=None):
    spec = load_spec(spec_name)
    result = download_source(spec, raw_dir, years=years, base_url=site.base_url, progress=False, options=fast)
    jobs = pair_files(result.entries, spec.pairing)
    return result, {job.sheet.url.rsplit("/", 1)[-1]: sorted(k.url.rsplit("/", 1)[-1] for k in job.keys) for job in jobs.jobs}, jobs


def test_cke_matura_year_pages_give_standard_sheets_paired_with_their_marking_schemes(site, raw_dir, fast):
    files = {
        f"{CKE}/2016/formula_przed_2015/informatyka/MIN-P1_1P-162.pdf": "arkusz PP 2016",
        f"{CKE}/2016/formula_przed_2015/informatyka/MIN-P2_1P-162.pdf": "arkusz PP 2016 cz. II",
        f"{CKE}/2016/formula_przed_2015/zasady/MIN-P1_1P-162_zasady_oceniania.pdf": "zasady PP 2016",
        f"{CKE}/2016/formula_przed_2015/informatyka/MIN-P1_4P-162.pdf": "arkusz dostosowany",
        "/images/_EGZAMIN_MATURALNY_OD_2023/Arkusze_egzaminacyjne/2025/Informatyka/MINP-R0-100-2505.pdf": "F2023",
        "/images/_EGZAMIN_MATURALNY_OD_2023/Arkusze_egzaminacyjne/2025/Informatyka/MINP-R0-200-2505.pdf": "F2023 200",
        "/images/_EGZAMIN_MATURALNY_OD_2023/Arkusze_egzaminacyjne/2025/Informatyka/MINP-R0-100-2505-zasady.pdf": "zasady",
        "/images/_EGZAMIN_MATURALNY_OD_2023/Arkusze_egzaminacyjne/2025/Matematyka/MMAP-R0-100-2505.pdf": "math",
    }
    for path, text in files.items():
        site.put(path, make_pdf(text))
    site.page("/egzamin-maturalny/egzamin-w-starej-formule/arkusze/2016-2/maj-2016/index.html",
              [p for p in files if "/2016/" in p] + ["/egzamin-maturalny/"])
    site.page("/egzamin-maturalny/egzamin-maturalny-w-formule-2023/arkusze/2025-2/index.html",
              [p for p in files if "/2025/" in p])
    result, pairs, jobs = _fetch("pl_cke_matura_informatyka", site, raw_dir, fast, years=[2016, 2025])
    assert pairs == {
        "MIN-P1_1P-162.pdf": ["MIN-P1_1P-162_zasady_oceniania.pdf"],
        "MIN-P2_1P-162.pdf": ["MIN-P1_1P-162_zasady_oceniania.pdf"],
        "MINP-R0-100-2505.pdf": ["MINP-R0-100-2505-zasady.pdf"],
    }
    assert jobs.problems == {}
    assert {e.facts["year"] for e in result.entries} == {"2016", "2025"}
    # year pages this site lacks: F2015 for both years, the old formula for 2025, F2023 for 2016
    assert len(result.notes) == 4 and all("could not be read" in n for n in result.notes)


def test_greek_ministry_file_names_pair_papers_with_answers_by_subject_and_date(site, raw_dir, fast):
    names = [
        "them_ist_op_c_hmer_180613.pdf", "apant_ist_op_c_hmer_180613.pdf",
        "them_mat_op_c_hmer_180611.pdf", "apant_mat_op_c_hmer_180611.pdf",
        "2024_06_them_sc_epal_240611.pdf", "2024_06_apant_sc_epal_240611.pdf",
        "sxol_mat_op_c_hmer_180611.pdf",
    ]
    for name in names:
        site.put(f"/themata/{name}", make_pdf(name))
    site.page("/themata/index.html", names)
    result, pairs, jobs = _fetch("gr_panellinies", site, raw_dir, fast)
    assert pairs == {
        "them_ist_op_c_hmer_180613.pdf": ["apant_ist_op_c_hmer_180613.pdf"],
        "them_mat_op_c_hmer_180611.pdf": ["apant_mat_op_c_hmer_180611.pdf"],
        "2024_06_them_sc_epal_240611.pdf": ["2024_06_apant_sc_epal_240611.pdf"],
    }
    assert jobs.problems == {} and result.unmatched == 1


def test_cke_vocational_templates_fetch_written_sheets_and_answer_lists(site, raw_dir, fast):
    for name in ("ee09-2021-czerwiec-egzamin-zawodowy-pisemny.pdf", "ee09-2021-czerwiec-egzamin-zawodowy-pisemny-odpowiedzi.pdf",
                 "inf03-2021-styczen-egzamin-zawodowy-pisemny.pdf"):
        site.put(f"/zawodowy/{name}", make_pdf(name))
    result, pairs, jobs = _fetch("pl_cke_zawodowy", site, raw_dir, fast, years=[2021])
    assert pairs == {
        "ee09-2021-czerwiec-egzamin-zawodowy-pisemny.pdf": ["ee09-2021-czerwiec-egzamin-zawodowy-pisemny-odpowiedzi.pdf"],
        "inf03-2021-styczen-egzamin-zawodowy-pisemny.pdf": [],
    }
    downloaded = sorted(e.url.rsplit("/", 1)[-1] for e in result.entries if e.ok)
    assert len(downloaded) == 3
    assert all("404" in (e.error or "") for e in result.entries if not e.ok)
