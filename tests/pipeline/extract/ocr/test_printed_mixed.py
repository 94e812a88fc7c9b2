"""Words of a class printed with the characters the shape rules read as confusions (`certainty.printed_mixed`): a web or
mail address, a unit with a micro prefix read as the Greek mu. Read alike by the second recogniser, they are not judged
by their shape; read otherwise, or not read again, they stay judged; a word that is no such class stays judged however
both read it."""
from __future__ import annotations

from pipeline.extract.ocr.certainty import SECOND_READER_DIFFERS, unsure_reason, unsure_words
from pipeline.extract.ocr.printedmixed import printed_mixed
from pipeline.extract.ocr.lexicon import Lexicon

LEXICON = Lexicon({w: w for w in ("casa", "de", "la", "sede", "telefono")})


def test_an_address_read_alike_by_both_recognisers_is_not_judged_by_its_digits_or_its_at_sign():
    for address in ("https://sede.telefono060.es", "(www.boe2.es).", "ana.k2@uni3.edu,", "ftp://x9.org/a1b"):
        assert printed_mixed(address), address
        assert unsure_reason(address, 61.5, LEXICON, second=address) is None, address
    # Not read again: the shape rules judge it as before (a misread `l` for `1` in an address is a misread).
    assert unsure_reason("https://sede.telefono060.es", 61.5, LEXICON) == "digits glued to a word"
    assert unsure_reason("ana.k2@uni3.edu", 90.0, LEXICON) == "a symbol inside a word"
    # Read otherwise: judged by its shape and by the difference, whatever its class.
    assert unsure_reason("https://sede.telefono060.es", 61.5, LEXICON, second="https://sede.telefonoO60.es") == "digits glued to a word"
    assert unsure_reason("www.boe.es", 61.5, LEXICON, second="www.hoe.es") == SECOND_READER_DIFFERS


def test_a_unit_whose_micro_prefix_reads_as_the_greek_mu_is_not_two_scripts_where_both_read_it_alike():
    for unit in ("000/μL", "000/μL.", "μmol/L.", "12000/μL", "μg/kg/min"):
        assert printed_mixed(unit), unit
        assert unsure_reason(unit, 85.0, LEXICON, second=unit) is None, unit
        assert unsure_reason(unit, 85.0, LEXICON) == "two scripts in one word", unit  # not read again: judged by shape


def test_words_of_no_such_class_stay_judged_by_their_shape_however_both_recognisers_read_them():
    for word, reason in (("μέλλoντα", "two scripts in one word"),  # a Latin o inside a Greek word
                         ("μnder", "two scripts in one word"),  # a mu inside a Latin word: no unit
                         ("36μL", "two scripts in one word"),  # a unit glued to its number with no slash: no shape of the data
                         ("el7", "a digit beside a look-alike letter"),
                         ("c@sa", "a symbol inside a word"),  # an `@` with no host after it
                         ("x@y.1", "a symbol inside a word")):  # a host with no top-level domain of letters
        assert not printed_mixed(word), word
        assert unsure_reason(word, 95.0, LEXICON, second=word) == reason, word


def test_a_line_holding_an_address_and_a_micro_unit_read_alike_rests_on_neither():
    line = [("Véase", 96.0, None), ("https://sede.telefono060.es", 61.5, "https://sede.telefono060.es"),
            ("y", 95.0, None), ("12000/μL.", 80.6, "12000/μL."), ("el7", 90.0, "el7")]
    assert unsure_words(line, LEXICON) == ["el7"]  # the look-alike beside a digit still is, read alike or not
    # The second reader read the micro as `u`: a difference, and the shape judges the word again.
    assert unsure_words([("12000/μL.", 80.6, "12000/uL.")], LEXICON) == ["12000/μL."]
