"""Language files: one per language, validated once; every spec's language has one; extract reads them."""
from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

import pipeline.languages as languages
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.extract import STAGE_VERSION, ExtractOptions, assess_text_layer, extract_document
from pipeline.extract.stage import language_words_sha256
from pipeline.languages import LanguageDataError, UnknownLanguage, all_languages, language
from pipeline.specs import available_specs, load_spec, spec_path


def test_every_language_a_shipped_spec_names_has_a_file_and_so_do_korean_vietnamese_and_turkish():
    named = {load_spec(name).metadata.language for name in available_specs()}
    assert named >= {"pl", "el", "sk", "es", "pt"}
    assert named | {"ko", "vi", "tr", "en"} <= set(all_languages())


def test_each_file_is_named_by_its_code_and_its_ocr_names_are_the_ones_the_specs_use():
    for name in available_specs():
        spec = load_spec(name)
        assert set(language(spec.metadata.language).codes.tesseract) <= set(spec.ocr.languages)
    for code, record in all_languages().items():
        assert record.code == code


def test_the_registry_loads_once_and_names_the_file_to_add_for_an_unknown_code():
    assert all_languages() is all_languages()
    assert language("pl").prompt.answer == "Odpowiedź" and language("el").script == "Greek"
    with pytest.raises(UnknownLanguage) as err:
        language("fi")
    assert "pipeline/languages/data/fi.yaml" in str(err.value) and "pl" in str(err.value)


GOOD = yaml.safe_load((languages.DATA_DIR / "en.yaml").read_text(encoding="utf-8"))


def _edited(change) -> dict:
    data = yaml.safe_load(yaml.safe_dump(GOOD))
    change(data)
    return data


@pytest.mark.parametrize("name, change, problem", [
    ("en", lambda d: d.update(answer_word=["Answer"]), "field 'answer_word': Extra inputs are not permitted"),
    ("en", lambda d: d["prompt"].update(finish_with="End with the letter."), "finish_with must show the answer line 'Answer: X'"),
    ("en", lambda d: d.update(answer_words=["Final answer"]), "answer_words must include the prompt's answer word 'Answer'"),
    ("en", lambda d: d.update(text_quality={"split_letters": "Ž"}), "lower-case letters only"),
    ("en", lambda d: d.update(text_quality={"split_letters": "ž", "never_initial": "ů"}), "never_initial letters 'ů' must also be split_letters"),
    ("en", lambda d: d.update(text_quality={"misread_letters": {"RI": "n"}}), "misread_letters map printed letters to other letters"),
    ("en", lambda d: d.update(text_quality={"misread_letters": {"n": "n"}}), "misread_letters map printed letters to other letters"),
    ("en", lambda d: d["true_false"].update(false_words=["f", "True"]), "words both true and false: ['true']"),
    ("en", lambda d: d.update(refusal_phrases=["I cannot"]), "give these in lower case"),
    ("en", lambda d: d.update(decimal_mark=";"), "field 'decimal_mark'"),
    ("de", lambda d: None, "'en' must match the file name 'de'"),
    ("en", lambda d: d["numerals"].pop(13), "field 'numerals': Value error, no words for 13"),
    ("en", lambda d: d["numerals"][70].append("twenty"), "'twenty' is given under 20 and 70"),
    ("en", lambda d: d["numerals"].update({5: ["Five"]}), "5: 'Five' must be in lower case"),
])
def test_a_bad_language_file_is_an_error_naming_the_file_and_the_field(tmp_path, monkeypatch, name, change, problem):
    (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump(_edited(change), allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(languages, "DATA_DIR", tmp_path)
    languages.all_languages.cache_clear()
    try:
        with pytest.raises(LanguageDataError) as err:
            all_languages()
        assert f"{name}.yaml" in str(err.value) and problem in str(err.value)
    finally:
        languages.all_languages.cache_clear()


def test_every_language_writes_its_numbers_from_0_to_20_and_its_tens_to_100_as_words():
    for code, record in all_languages().items():
        assert set(record.numerals) >= {*range(21), *range(30, 101, 10)}, code
    assert language("sk").numerals[3] == ["tri", "traja"] and "πέντε" in language("el").numerals[5]
    assert {"오", "다섯"} <= set(language("ko").numerals[5])  # Sino-Korean and native
    assert language("tr").numerals[10] == ["on"]  # not YAML's boolean


def test_specs_check_refuses_a_spec_whose_language_has_no_file(tmp_path):
    data = yaml.safe_load(spec_path("sample_pl").read_text(encoding="utf-8"))
    data["name"], data["metadata"]["language"] = "family_fi", "fi"
    path = tmp_path / "family_fi.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    shipped = spec_path("sample_pl")
    result = subprocess.run([sys.executable, "-m", "pipeline.cli", "specs", "check", "--skip-ocr-check", str(path), str(shipped)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert "field 'metadata.language'" in result.stderr and "no language data for 'fi'" in result.stderr
    assert "pipeline/languages/data/fi.yaml" in result.stderr
    assert f"{shipped}: ok (sample_pl)" in result.stdout


@pytest.mark.parametrize("footer", ["Sayfa 3 / 12", "Trang 3/12", "Strona 3 z 12", "Σελίδα 3 από 12"])
def test_page_footers_in_any_language_files_words_are_removed(tmp_path, footer):
    body = "1. Hangi protokol IP adreslerini dağıtır? A. DHCP B. HTTP C. SMTP D. FTP"
    path = build_pdf(tmp_path / "sheet.pdf", [PageSpec([TextBox(body, 20, 40, 170), TextBox(footer, 90, 285, 40, size=9)])])
    text = [line.text for page in extract_document(path, "0" * 64, ExtractOptions(remove_repeated_lines=False)).pages
            for line in page.lines]
    assert footer not in text and any("DHCP" in line for line in text)


def test_a_glyph_split_off_a_turkish_word_sends_the_page_to_ocr_and_clean_turkish_does_not():
    clean = ("Bağımsız değişkenlerin çoğu öğrenciler için önemli bir düşünce kaynağıdır ve sınavda "
             "doğru cevabı bulmak için dikkatli okumak gerekir. ") * 3
    split = clean.replace("ğ", " ğ")
    assert assess_text_layer(clean).usable
    verdict = assess_text_layer(split)
    assert not verdict.usable and verdict.reason.startswith("broken glyph spacing")


def test_an_edited_furniture_word_changes_the_extract_stage_version_so_no_cached_extraction_is_reused(tmp_path, monkeypatch):
    assert STAGE_VERSION.endswith(f"/words-{language_words_sha256()[:12]}")
    before = language_words_sha256()
    for path in languages.DATA_DIR.glob("*.yaml"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    data = yaml.safe_load((tmp_path / "tr.yaml").read_text(encoding="utf-8"))
    data["page_furniture"]["page_words"].append("Sf.")
    (tmp_path / "tr.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(languages, "DATA_DIR", tmp_path)
    languages.all_languages.cache_clear()
    try:
        assert language_words_sha256() != before
    finally:
        languages.all_languages.cache_clear()


def test_every_language_file_reads_the_same_with_the_pure_python_parser():
    """Language files are read by libyaml's parser where PyYAML has it (a process reads all of them at
    start): each file must give the very values PyYAML's own parser gives."""
    from pipeline.languages import DATA_DIR, _LOADER

    files = sorted(DATA_DIR.glob("*.yaml"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=_LOADER) == yaml.load(text, Loader=yaml.SafeLoader), path.name
