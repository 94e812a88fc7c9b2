"""Lexicon-guided OCR word repairs: which misreadings are mended, which words are never touched, and
where the word lists come from (Tesseract's own language data, cached)."""
from __future__ import annotations

import pytest

from pipeline.extract.ocr import lexicon as lexicon_module
from pipeline.extract.ocr import Lexicon, LexiconUnavailable, load_lexicon
from pipeline.extract.ocr.lexicon import word_list
from tests.pipeline.extract.ocr.builders import needs_tesseract


def _lexicon(*words: str) -> Lexicon:
    return Lexicon({w.casefold(): w.lower() for w in words})


needs_spa = needs_tesseract("spa")


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    lexicon_module._load.cache_clear()
    yield tmp_path / "cache" / "examcorpus" / "lexicons"
    lexicon_module._load.cache_clear()


# --------------------------------------------------------------------------- the rules


@pytest.mark.parametrize(
    ("read", "meant"),
    [
        ("Infuenza", "Influenza"),  # l lost after f
        ("Atrofa", "Atrofia"),  # i lost after f
        ("políicas", "políticas"),  # t lost before i
        ("Faringiis", "Faringitis"),  # two letters lost
        ("latrogénica", "Iatrogénica"),  # capital I read as l
    ],
)
def test_a_letter_lost_in_a_ligature_pair_is_restored(read, meant):
    words = _lexicon("influenza", "atrofia", "políticas", "faringitis", "iatrogénica")
    assert words.repair(read) == meant


def test_case_and_surrounding_punctuation_are_kept():
    words = _lexicon("influenza")
    assert words.repair("(INFUENZA),") == "(INFLUENZA),"
    assert words.repair("infuenza?") == "influenza?"


def test_known_words_are_never_touched():
    words = _lexicon("fiebre", "febre")  # both known: the reading stands
    assert words.repair("febre") == "febre"


def test_a_word_with_two_possible_repairs_is_left_as_read():
    words = _lexicon("bafia", "bafla")
    assert words.repair("bafa") == "bafa"


def test_only_ligature_pairs_count():
    # "cara" → "carta" would insert t between r and a: no ligature there, so a real word stays.
    assert _lexicon("carta").repair("cara") == "cara"


def test_letters_are_never_added_at_either_end():
    # An inflection the list lacks ("privodil" + "i") must not be "repaired" into the form it knows.
    assert _lexicon("privodili").repair("privodil") == "privodil"


def test_short_words_and_words_with_digits_are_left_alone():
    words = _lexicon("ftir", "fi2t")
    assert words.repair("ftr") == "ftr"
    assert words.repair("f2t") == "f2t"


# --------------------------------------------------------------------------- Tesseract's word lists


@needs_spa
def test_spanish_list_comes_from_tesseract_and_mends_a_real_misreading(fresh_cache):
    spanish = load_lexicon(["spa"])
    assert spanish is not None and spanish.knows("influenza") and spanish.knows("(Eosinófilos),")
    assert spanish.repair("Eosinóflos") == "Eosinófilos"
    assert list(fresh_cache.glob("spa-*.txt")), "the extracted list is cached"


@needs_spa
def test_a_cached_list_is_read_without_tesseracts_tools(fresh_cache, monkeypatch):
    first = word_list("spa")
    monkeypatch.setenv("TESSDATA_PREFIX", str(lexicon_module._tessdata_dir()))
    monkeypatch.setenv("PATH", "/nonexistent")
    assert word_list("spa") == first


@needs_spa
def test_without_the_tools_repairs_are_off_with_a_warning(fresh_cache, monkeypatch):
    monkeypatch.setenv("TESSDATA_PREFIX", str(lexicon_module._tessdata_dir()))
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(LexiconUnavailable, match="combine_tessdata"):
        word_list("spa")
    with pytest.warns(UserWarning, match="OCR word repairs off for spa"):
        assert load_lexicon(["spa"]) is None


def test_a_language_without_data_names_the_file(fresh_cache, monkeypatch, tmp_path):
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path))
    with pytest.raises(LexiconUnavailable, match=r"xxx\.traineddata: no such file"):
        word_list("xxx")
