"""A national archive at scale: hundreds or thousands of generated sheets in the two sample booklet styles.

`archive_sheets(count)` composes `count` distinct sheets (four in five CKE vocational written exams, one
in five Panhellenic papers) from word pools, deterministically: the same count and seed give the same
sheets, and a larger count starts with the sheets of a smaller one. Every layout the two booklet styles
print occurs across the archive: stems and options wrapping over lines, options two per line, circuit
figures, Greek statement blocks answered Σωστό/Λάθος, open questions with a model answer in the key, a
shared instruction before a group. An even `scanned_share` of each style's sheets (5 % by default) is
published as a scan. `build_archive_site(dest, count)` writes them with their keys, the index page and truth.json
through `site.build_sample_site`, so the archive is served and curated exactly as the embedded sample is
(specs `sample_pl` and `sample_el`).

    python -m pipeline.devkit.sample.archive DEST --sheets 200
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import replace
from datetime import date
from functools import lru_cache
from pathlib import Path

from pipeline.devkit.sample.content import TRUE_FALSE_EL, TRUE_FALSE_EL_LABELS, SampleQuestion, SampleSheet
from pipeline.devkit.sample.figures import circuit_png
from pipeline.devkit.sample.site import SampleSite, build_sample_site

SCANNED_SHARE = 0.05
GREEK_EVERY = 5  # one sheet in five is a Panhellenic paper
FIGURE_EVERY = 3  # about one CKE question in three shows a circuit
GRID_EVERY = 6  # about one CKE question in six prints its short options two per line
# Real booklets run 16-24 pages for about 13 questions a sheet (1,500 sheets, 30,000 pages, 19,000
# questions in the Polish archive): a rules page, long stems over a described situation, figures, room
# left for working, blank scratch pages at the end. These ranges give that shape on average.
CKE_QUESTIONS = (9, 17)  # questions per vocational sheet, inclusive range (the key fits one page)
CKE_SCRATCH_PAGES = (3, 5)
CKE_ANSWER_SPACE_MM = (120.0, 160.0, 200.0)  # room for working after a question, at most what its page holds
EL_ANSWER_SPACE_MM = (150.0, 190.0, 230.0)

# --------------------------------------------------------------------------- CKE vocational (Polish)

# Qualification prefixes and the trade each names; a qualification is a prefix and a two-digit number.
_QUALIFICATIONS = {
    "ELE": "Montaż i konserwacja instalacji elektrycznych",
    "INF": "Administracja i eksploatacja systemów komputerowych",
    "MEC": "Montaż i obsługa maszyn i urządzeń",
    "BUD": "Wykonywanie robót murarskich i tynkarskich",
    "ELM": "Montaż i utrzymanie urządzeń elektronicznych",
    "AUT": "Obsługa i naprawa pojazdów samochodowych",
    "ROL": "Prowadzenie produkcji rolniczej",
    "HGT": "Przygotowanie i wydawanie dań",
    "EKA": "Prowadzenie dokumentacji w jednostce organizacyjnej",
    "TRA": "Organizacja transportu",
    "SPL": "Obsługa magazynów",
    "CHM": "Obsługa aparatury i urządzeń przemysłu chemicznego",
}
_SESSIONS = (("styczen", 1), ("czerwiec", 6))
_FIRST_PL_YEAR = 2012

_PL_DEVICES = (
    "przewodu", "wyłącznika", "transformatora", "silnika", "przekaźnika", "rezystora", "kondensatora",
    "stycznika", "falownika", "czujnika", "serwera", "przełącznika", "routera", "dysku", "procesora",
    "zasilacza", "sterownika", "akumulatora", "pompy", "sprężarki", "zaworu", "regulatora", "licznika",
)
_PL_SYSTEMS = (
    "instalacji oświetleniowej", "sieci lokalnej", "układu chłodzenia", "instalacji grzewczej",
    "linii produkcyjnej", "magazynu wysokiego składowania", "układu sterowania", "sieci zasilającej",
    "stanowiska montażowego", "instalacji odgromowej", "systemu alarmowego", "układu napędowego",
)
_PL_ACTIVITIES = (
    "uruchomieniem urządzenia", "wymianą elementu", "pomiarem rezystancji", "konserwacją okresową",
    "odbiorem technicznym", "demontażem obudowy", "pierwszym załączeniem", "regulacją parametrów",
)
_PL_PROPERTIES = ("sprawność", "trwałość", "bezpieczeństwo obsługi", "pobór mocy", "czas reakcji", "koszt eksploatacji")
_PL_ADJECTIVES = (
    "odpowiedni", "zewnętrzny", "wewnętrzny", "dodatkowy", "pomocniczy", "główny", "rezerwowy", "przenośny",
    "cyfrowy", "analogowy", "izolowany", "uziemiony", "zabezpieczający", "pomiarowy",
)
_PL_TOOLS = (
    "miernik rezystancji izolacji", "klucz dynamometryczny", "wskaźnik napięcia", "multimetr cyfrowy",
    "oscyloskop", "tester okablowania", "suwmiarka", "poziomica laserowa", "kamera termowizyjna",
    "analizator sieci", "lutownica transformatorowa", "ściągacz izolacji",
)
_PL_UNITS = (("napięcie", "V"), ("prąd", "A"), ("moc", "W"), ("rezystancja", "Ω"), ("częstotliwość", "Hz"))
_PL_PLACES = ("hali produkcyjnej", "budynku biurowego", "warsztatu szkolnego", "stacji transformatorowej",
              "serwerowni", "magazynu", "kotłowni", "laboratorium pomiarowego", "zakładu przetwórczego")
_PL_SITUATION = (
    "W {place} zamontowano nowy element typu {device} jako część {system}.",
    "Podczas przeglądu {system} w {place} technik zanotował wyniki pomiarów w dzienniku prac.",
    "Dokumentacja techniczno-ruchowa {device} wymaga, aby przed {activity} odłączyć zasilanie i sprawdzić brak napięcia.",
    "Pracownik przygotował stanowisko do prac związanych z {activity} zgodnie z instrukcją stanowiskową.",
    "Kierownik zmiany zlecił sprawdzenie, czy {property} {system} spełnia wymagania producenta.",
    "Na schemacie ideowym {system} zaznaczono miejsce przyłączenia {device} oraz punkty pomiarowe.",
)
_PL_RULES = (
    "Arkusz egzaminacyjny składa się z części zawierającej zadania testowe oraz z brudnopisu umieszczonego na "
    "ostatnich stronach. Zapisy w brudnopisie nie podlegają ocenie.",
    "Przed rozpoczęciem pracy sprawdź, czy karta odpowiedzi jest zgodna z wersją arkusza oraz czy zawiera "
    "miejsca na numer PESEL, datę urodzenia i kod ośrodka egzaminacyjnego.",
    "Odpowiedzi zaznaczaj wyłącznie na karcie odpowiedzi długopisem z czarnym tuszem. Błędne zaznaczenie "
    "otocz kółkiem i zaznacz właściwą odpowiedź. Nie używaj korektora.",
    "Podczas egzaminu możesz korzystać z kalkulatora prostego. Nie wolno korzystać z telefonów komórkowych ani "
    "innych urządzeń telekomunikacyjnych.",
    "Zadania rozwiązuj samodzielnie. Jeżeli zadanie wymaga obliczeń, wykonaj je w miejscu pozostawionym pod "
    "treścią zadania lub w brudnopisie.",
    "Po zakończeniu pracy pozostaw arkusz i kartę odpowiedzi na stoliku. Zespół nadzorujący sprawdzi "
    "kompletność materiałów przed opuszczeniem sali przez zdających.",
)


def _pl_situation(rng: random.Random, device: str, system: str) -> str:
    """Two to four sentences setting the scene, printed before the question as real stems do."""
    return " ".join(
        template.format(place=rng.choice(_PL_PLACES), device=device, system=system,
                        activity=rng.choice(_PL_ACTIVITIES), property=rng.choice(_PL_PROPERTIES))
        for template in rng.sample(_PL_SITUATION, rng.randint(2, 4))
    )


def _pl_question(rng: random.Random, number: int) -> SampleQuestion:
    device, system = rng.choice(_PL_DEVICES), rng.choice(_PL_SYSTEMS)
    form = rng.randrange(4)
    if form == 0:
        stem = f"Który przyrząd należy zastosować do sprawdzenia {device} przed {rng.choice(_PL_ACTIVITIES)}?"
        options = rng.sample(_PL_TOOLS, 4)
    elif form == 1:
        stem = f"Jaką funkcję pełni element {device} w układzie {system}?"
        options = [f"Zapewnia {adjective} obwód {rng.choice(_PL_DEVICES)} i chroni go przed przeciążeniem."
                   for adjective in rng.sample(_PL_ADJECTIVES, 4)]
    elif form == 2:
        quantity, unit = rng.choice(_PL_UNITS)
        stem = (f"Na tabliczce znamionowej {device} podano {quantity} znamionowe. "
                f"Jaka jest jego wartość dla {system}?")
        options = [f"{value} {unit}" for value in rng.sample(range(5, 990, 5), 4)]
    else:
        stem = f"Od którego parametru {device} zależy przede wszystkim {rng.choice(_PL_PROPERTIES)} {system}?"
        options = [f"Od wartości parametru {rng.choice(_PL_DEVICES)}, gdy obwód jest {adjective}." for adjective in rng.sample(_PL_ADJECTIVES, 4)]
    if rng.random() < 0.6:
        stem = f"{_pl_situation(rng, device, system)} {stem}"
    figure = _circuit(number) if number % FIGURE_EVERY == 0 else None
    grid = form == 2 and number % GRID_EVERY == 0
    answer = "ABCD"[rng.randrange(4)]
    return SampleQuestion(str(number), "single_choice", stem, tuple(options), ("A", "B", "C", "D"), answer,
                          figure=figure, grid=grid, answer_space=rng.choice(CKE_ANSWER_SPACE_MM))


@lru_cache(maxsize=8)
def _circuit(number: int) -> bytes:
    return circuit_png((f"R{number}", f"R{number + 1}", f"R{number + 2}"))


def _pl_sheet(index: int, rng: random.Random, scanned: bool) -> SampleSheet:
    prefixes = sorted(_QUALIFICATIONS)
    codes = [(prefix, n) for n in range(1, 7) for prefix in prefixes]
    prefix, qualification_number = codes[index % len(codes)]
    session, month = _SESSIONS[(index // len(codes)) % len(_SESSIONS)]
    year = _FIRST_PL_YEAR + index // (len(codes) * len(_SESSIONS))
    qualification = f"{prefix}.{qualification_number:02d}"
    file_stem = f"zawodowy/{prefix.lower()}{qualification_number:02d}-{year}-{session}-egzamin-zawodowy-pisemny"
    count = rng.randint(*CKE_QUESTIONS)
    return SampleSheet(
        spec="sample_pl",
        sheet_file=f"{file_stem}.pdf",
        key_file=f"{file_stem}-odpowiedzi.pdf",
        language="pl",
        year=year,
        session=session,
        sheet_code=f"{qualification}-X-{year % 100:02d}.{month:02d}",
        title=_QUALIFICATIONS[prefix],
        scanned=scanned,
        questions=tuple(_pl_question(rng, n) for n in range(1, count + 1)),
        extra={"qualification": qualification, "duration": "60 minut", "basis": "PODSTAWA PROGRAMOWA 2019"},
        rules=_PL_RULES,
        scratch_pages=rng.randint(*CKE_SCRATCH_PAGES),
    )


# --------------------------------------------------------------------------- Panhellenic (Greek)

# Mirror folder -> subject title as the paper prints it.
_SUBJECTS = {
    "pliroforiki": "ΠΛΗΡΟΦΟΡΙΚΗ", "fysiki": "ΦΥΣΙΚΗ", "chimeia": "ΧΗΜΕΙΑ", "viologia": "ΒΙΟΛΟΓΙΑ",
    "oikonomia": "ΟΙΚΟΝΟΜΙΑ", "istoria": "ΙΣΤΟΡΙΑ", "mathimatika": "ΜΑΘΗΜΑΤΙΚΑ", "aoth": "ΑΡΧΕΣ ΟΙΚΟΝΟΜΙΚΗΣ ΘΕΩΡΙΑΣ",
    "latinika": "ΛΑΤΙΝΙΚΑ", "koinoniologia": "ΚΟΙΝΩΝΙΟΛΟΓΙΑ", "aepp": "ΑΝΑΠΤΥΞΗ ΕΦΑΡΜΟΓΩΝ", "neoellinika": "ΝΕΟΕΛΛΗΝΙΚΗ ΓΛΩΣΣΑ",
}
_FIRST_EL_YEAR = 2000
_EL_WEEKDAYS = ("ΔΕΥΤΕΡΑ", "ΤΡΙΤΗ", "ΤΕΤΑΡΤΗ", "ΠΕΜΠΤΗ", "ΠΑΡΑΣΚΕΥΗ", "ΣΑΒΒΑΤΟ")
_EL_NOUNS = (
    "η διαδικασία", "η μέθοδος", "η δομή", "η μεταβλητή", "η συνάρτηση", "η εξίσωση", "η αντίδραση",
    "η δύναμη", "η ενέργεια", "η αγορά", "η ζήτηση", "η προσφορά", "η κυτταρική διαίρεση", "η πρωτεΐνη",
    "η θερμοκρασία", "η ταχύτητα", "η επιτάχυνση", "η πίεση", "η συγκέντρωση", "η οργάνωση",
)
_EL_VERBS = (
    "μεταβάλλεται με σταθερό ρυθμό", "εξαρτάται από την αρχική κατάσταση", "παραμένει πάντα σταθερή",
    "αυξάνεται όταν μειώνεται ο όγκος", "περιγράφεται από γραμμική σχέση", "ορίζεται μόνο για θετικές τιμές",
    "εφαρμόζεται σε κλειστά συστήματα", "μελετάται με πειραματικά δεδομένα", "προκύπτει από τον ορισμό",
)
_EL_OPTIONS = (
    "ισορροπία", "μεταβολή", "επιτάχυνση", "ταξινόμηση", "αναζήτηση", "ελαστικότητα", "ομοιόσταση",
    "οξείδωση", "αναγωγή", "ανακύκλωση", "επανάληψη", "εκχώρηση", "σύνθεση", "ανάλυση", "διάσπαση",
    "κατανομή", "σύγκλιση", "απόκλιση", "μεγέθυνση", "συμπίεση",
)
_EL_MC_INSTRUCTION = (
    "Για τις προτάσεις Α1 έως και Α{last} να γράψετε στο τετράδιό σας τον αριθμό της πρότασης και, δίπλα, "
    "το γράμμα που αντιστοιχεί στη σωστή απάντηση."
)
_EL_TF_INSTRUCTION = (
    "Να χαρακτηρίσετε τις προτάσεις που ακολουθούν, γράφοντας στο τετράδιό σας δίπλα στο γράμμα που "
    "αντιστοιχεί σε κάθε πρόταση τη λέξη Σωστό, αν η πρόταση είναι σωστή, ή τη λέξη Λάθος, αν η πρόταση "
    "είναι λανθασμένη."
)


def _el_questions(rng: random.Random) -> list[SampleQuestion]:
    choices = rng.randint(3, 4)
    instruction = _EL_MC_INSTRUCTION.format(last=choices)
    questions = [
        SampleQuestion(
            f"Α{n}", "single_choice",
            f"Όταν {rng.choice(_EL_NOUNS)} {rng.choice(_EL_VERBS)}, το φαινόμενο αυτό ονομάζεται",
            tuple(f"{word}." for word in rng.sample(_EL_OPTIONS, 4)), ("α", "β", "γ", "δ"),
            "αβγδ"[rng.randrange(4)], context=instruction, points=rng.choice((3, 4, 5)),
        )
        for n in range(1, choices + 1)
    ]
    tf_parent = f"Α{choices + 1}"
    statements = rng.randint(4, 5)
    for letter in "αβγδε"[:statements]:
        statement = f"{rng.choice(_EL_NOUNS).capitalize()} {rng.choice(_EL_VERBS)}."
        correct = rng.random() < 0.5
        questions.append(SampleQuestion(
            f"{tf_parent}.{letter}", "true_false", statement, TRUE_FALSE_EL, TRUE_FALSE_EL_LABELS,
            TRUE_FALSE_EL_LABELS[0] if correct else TRUE_FALSE_EL_LABELS[1], context=_EL_TF_INSTRUCTION, points=2,
        ))
    # Themes Β to Δ: open questions, the later ones over a described situation, with room for working.
    for section in "ΒΓΔ":
        for n in range(1, rng.randint(2, 4) + 1):
            noun = rng.choice(_EL_NOUNS)
            situation = " ".join(f"Θεωρούμε ότι {rng.choice(_EL_NOUNS)} {rng.choice(_EL_VERBS)}." for _ in range(rng.randint(1, 6)))
            questions.append(SampleQuestion(
                f"{section}{n}", "open", f"{situation} Να εξηγήσετε πότε {noun} {rng.choice(_EL_VERBS)}.".strip(),
                points=rng.choice((5, 6, 8)), model_answer=f"Όταν {noun} {rng.choice(_EL_VERBS)}, σύμφωνα με τον ορισμό.",
                answer_space=rng.choice(EL_ANSWER_SPACE_MM),
            ))
    return questions


def _el_sheet(index: int, rng: random.Random, scanned: bool) -> SampleSheet:
    folders = sorted(_SUBJECTS)
    folder = folders[index % len(folders)]
    year = _FIRST_EL_YEAR + index // len(folders)
    day = date(year, 6, 1 + index % len(folders))
    weekday = day.weekday()
    if weekday == 6:  # no exams on Sunday
        day, weekday = date(year, 6, day.day + 1), 0
    stem = f"panellinies/{year}/GEL/{folder}"
    return SampleSheet(
        spec="sample_el",
        sheet_file=f"{stem}/them_{folder}_gel_{year}.pdf",
        key_file=f"{stem}/apant_{folder}_gel_{year}.pdf",
        language="el",
        year=year,
        session=None,
        sheet_code=f"{folder}_gel",
        title=_SUBJECTS[folder],
        scanned=scanned,
        questions=tuple(_el_questions(rng)),
        extra={"date": f"{_EL_WEEKDAYS[weekday]} {day.day} ΙΟΥΝΙΟΥ {year}", "school": "Γ΄ ΤΑΞΗΣ ΗΜΕΡΗΣΙΟΥ ΓΕΝΙΚΟΥ ΛΥΚΕΙΟΥ"},
    )


# --------------------------------------------------------------------------- the archive


def is_scanned(position: int, share: float) -> bool:
    """Scans spread evenly: sheet `position` is a scan when the running count of scans steps up there."""
    return int((position + 1) * share) > int(position * share)


def archive_sheets(count: int, *, scanned_share: float = SCANNED_SHARE, seed: int = 0,
                   filler: bool = True) -> tuple[SampleSheet, ...]:
    """`count` distinct sheets; sheet i depends only on (i, seed, scanned_share, filler), never on `count`.
    `filler=False` drops what only makes a booklet long (the rules page, all scratch pages but one, the
    room for working): the same questions on fewer pages, for tests that OCR a sheet."""
    if count < 1:
        raise ValueError(f"an archive needs at least one sheet, not {count}")
    if not 0.0 <= scanned_share <= 1.0:
        raise ValueError(f"scanned_share is a share of the sheets, 0 to 1, not {scanned_share}")
    sheets = []
    for position in range(count):
        rng = random.Random(f"{seed}:{position}")
        greek, index = divmod(position, GREEK_EVERY)
        # Scans are counted within each style, so both styles get their share of them.
        if index == GREEK_EVERY - 1:
            sheets.append(_el_sheet(greek, rng, is_scanned(greek, scanned_share)))
        else:
            polish = greek * (GREEK_EVERY - 1) + index
            sheets.append(_pl_sheet(polish, rng, is_scanned(polish, scanned_share)))
    return tuple(sheets) if filler else tuple(_without_filler(sheet) for sheet in sheets)


def _without_filler(sheet: SampleSheet) -> SampleSheet:
    questions = tuple(replace(q, answer_space=0.0) for q in sheet.questions)
    return replace(sheet, rules=(), scratch_pages=1, questions=questions)


def build_archive_site(
    dest: Path | str, count: int, *, scanned_share: float = SCANNED_SHARE, seed: int = 0, workers: int = 1,
    filler: bool = True,
) -> SampleSite:
    """Write an archive of `count` sheets, their keys, the index page and truth.json into `dest`,
    rendering in `workers` processes."""
    sheets = archive_sheets(count, scanned_share=scanned_share, seed=seed, filler=filler)
    return build_sample_site(dest, sheets, workers=workers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.sample.archive", description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, help="folder to write the archive into")
    parser.add_argument("--sheets", type=int, default=200, help="how many sheets (default 200)")
    parser.add_argument("--scanned-share", type=float, default=SCANNED_SHARE, help="share of sheets published as scans")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="render in this many processes")
    args = parser.parse_args(argv)
    try:
        site = build_archive_site(args.dest, args.sheets, scanned_share=args.scanned_share, seed=args.seed, workers=args.workers)
    except ValueError as exc:
        print(f"archive: {exc}", file=sys.stderr)
        return 2
    pages = sum(t.page_count for t in site.truth.values())
    questions = sum(len(t.questions) for t in site.truth.values())
    scans = sum(t.scanned for t in site.truth.values())
    print(f"{len(site.truth)} sheets ({scans} scanned), {pages} sheet pages, {questions} questions: {site.index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
