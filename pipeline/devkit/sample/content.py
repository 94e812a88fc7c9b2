"""The questions printed on the sample sheets, with their correct answers.

Written for the sample archive only (not copied from real papers), in the style of the CKE vocational
written exam (Poland) and the Panhellenic exams (Greece). Each question is stored once, here; the
booklet, the answer key and truth.json are all rendered from it, so they cannot disagree.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.devkit.sample.figures import circuit_png

TRUE_FALSE_EL = ("Σωστό", "Λάθος")  # choice texts; the labels are their initials, as keys abbreviate them
TRUE_FALSE_EL_LABELS = ("Σ", "Λ")


@dataclass(frozen=True)
class SampleQuestion:
    number: str  # as printed: "7", "Α1", "Α5.β"
    type: str  # a pipeline.records.QuestionType value
    question: str
    choices: tuple[str, ...] = ()  # option texts without their labels
    choice_labels: tuple[str, ...] = ()
    answer: str | None = None  # a label from choice_labels; None for open questions
    context: str | None = None  # shared instruction or passage printed before the question
    figure: bytes | None = field(default=None, repr=False)
    grid: bool = False  # options printed two per line
    points: int | None = None
    model_answer: str | None = None  # what the key prints for an open question
    answer_space: float = 0.0  # blank millimetres left after the question for working ("miejsce na obliczenia")

    @property
    def answer_index(self) -> int | None:
        return self.choice_labels.index(self.answer) if self.answer is not None else None


@dataclass(frozen=True)
class SampleSheet:
    """One exam paper and its key, as the archive publishes them."""

    spec: str  # the source spec that must find it
    sheet_file: str  # path relative to the site root
    key_file: str
    language: str
    year: int
    session: str | None
    sheet_code: str
    title: str
    scanned: bool
    questions: tuple[SampleQuestion, ...]
    extra: dict[str, str] = field(default_factory=dict)  # style-specific cover facts
    # A real booklet's length beyond its questions: a page of rules after the cover, and blank scratch
    # pages ("BRUDNOPIS") at the end. The embedded sample keeps the short form: no rules page, one scratch page.
    rules: tuple[str, ...] = ()
    scratch_pages: int = 1


def _abcd(number: int, question: str, options: tuple[str, str, str, str], answer: str, **kw) -> SampleQuestion:
    return SampleQuestion(str(number), "single_choice", question, options, ("A", "B", "C", "D"), answer, **kw)


def _greek(number: str, question: str, options: tuple[str, str, str, str], answer: str, **kw) -> SampleQuestion:
    return SampleQuestion(number, "single_choice", question, options, ("α", "β", "γ", "δ"), answer, **kw)


def _greek_true_false(parent: str, statements: list[tuple[str, bool]], instruction: str) -> list[SampleQuestion]:
    return [
        SampleQuestion(
            f"{parent}.{letter}",
            "true_false",
            text,
            TRUE_FALSE_EL,
            TRUE_FALSE_EL_LABELS,
            TRUE_FALSE_EL_LABELS[0] if correct else TRUE_FALSE_EL_LABELS[1],
            context=instruction,
            points=2,
        )
        for letter, (text, correct) in zip("αβγδε", statements)
    ]


ELE02_2023 = SampleSheet(
    spec="sample_pl",
    sheet_file="zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny.pdf",
    key_file="zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny-odpowiedzi.pdf",
    language="pl",
    year=2023,
    session="czerwiec",
    sheet_code="ELE.02-X-23.06",
    title="Montaż, uruchamianie i konserwacja instalacji, maszyn i urządzeń elektrycznych",
    scanned=False,
    extra={"qualification": "ELE.02", "duration": "60 minut", "basis": "PODSTAWA PROGRAMOWA 2019"},
    questions=(
        _abcd(
            1,
            "Który z wymienionych przewodów należy zastosować do wykonania instalacji podtynkowej "
            "w pomieszczeniu mieszkalnym?",
            ("YDYp 3×2,5 mm²", "OWY 3×1,5 mm²", "H07RN-F 3×2,5 mm²", "YLY 3×1,5 mm²"),
            "A",
        ),
        _abcd(
            2,
            "Jaką funkcję pełni wyłącznik różnicowoprądowy w instalacji elektrycznej?",
            (
                "Chroni przewody przed skutkami przeciążeń.",
                "Chroni przed porażeniem prądem elektrycznym przy dotyku pośrednim.",
                "Ogranicza przepięcia pochodzenia atmosferycznego.",
                "Kompensuje moc bierną pobieraną przez odbiorniki.",
            ),
            "B",
        ),
        _abcd(
            3,
            "Oblicz rezystancję zastępczą układu przedstawionego na rysunku, jeżeli R1 = 10 Ω, "
            "R2 = 30 Ω, R3 = 60 Ω.",
            ("30 Ω", "20 Ω", "50 Ω", "100 Ω"),
            "A",
            figure=circuit_png(("R1", "R2", "R3")),
        ),
        _abcd(
            4,
            "Jaka jest znamionowa wartość napięcia fazowego w sieci niskiego napięcia w Polsce?",
            ("400 V", "500 V", "110 V", "230 V"),
            "D",
            grid=True,
        ),
        _abcd(5, "Symbolem PE oznacza się przewód", ("neutralny.", "fazowy.", "ochronny.", "ochronno-neutralny."), "C"),
        _abcd(
            6,
            "Do pomiaru rezystancji izolacji przewodów instalacji elektrycznej należy użyć",
            (
                "omomierza cyfrowego.",
                "induktora (megaomomierza).",
                "mostka Wheatstone'a.",
                "multimetru w trybie pomiaru napięcia.",
            ),
            "B",
        ),
        _abcd(
            7,
            "Uzwojenia stojana silnika indukcyjnego trójfazowego przystosowane są do napięcia 230/400 V. "
            "Przy zasilaniu z sieci 3×400 V uzwojenia te należy połączyć w",
            ("trójkąt.", "gwiazdę.", "układ gwiazda-trójkąt.", "zygzak."),
            "B",
        ),
        _abcd(8, "Przewód ochronny PE ma izolację koloru", ("niebieskiego.", "brązowego.", "czarnego.", "żółto-zielonego."), "D"),
        _abcd(
            9,
            "Który wyłącznik nadprądowy należy zastosować do zabezpieczenia obwodu gniazd wtyczkowych "
            "wykonanego przewodem miedzianym o przekroju 2,5 mm²?",
            ("B16", "B32", "C40", "D50"),
            "A",
        ),
        _abcd(
            10,
            "Jaką moc pobiera grzejnik o rezystancji 46 Ω zasilany napięciem 230 V?",
            ("5 W", "2300 W", "1150 W", "10580 W"),
            "C",
        ),
    ),
)

INF02_2024 = SampleSheet(
    spec="sample_pl",
    sheet_file="zawodowy/inf02-2024-styczen-egzamin-zawodowy-pisemny.pdf",
    key_file="zawodowy/inf02-2024-styczen-egzamin-zawodowy-pisemny-odpowiedzi.pdf",
    language="pl",
    year=2024,
    session="styczen",
    sheet_code="INF.02-X-24.01",
    title="Administracja i eksploatacja systemów komputerowych, urządzeń peryferyjnych i lokalnych sieci komputerowych",
    scanned=True,
    extra={"qualification": "INF.02", "duration": "60 minut", "basis": "PODSTAWA PROGRAMOWA 2019"},
    questions=(
        _abcd(
            1,
            "Który protokół służy do automatycznego przydzielania adresów IP komputerom w sieci lokalnej?",
            ("DNS", "DHCP", "FTP", "SMTP"),
            "B",
        ),
        _abcd(
            2,
            "Ile wynosi maksymalna liczba adresów hostów w podsieci z maską 255.255.255.192?",
            ("62", "64", "126", "30"),
            "A",
        ),
        _abcd(
            3,
            "Polecenie systemu Windows służące do wyświetlenia konfiguracji interfejsów sieciowych to",
            ("ping", "tracert", "ipconfig", "netstat"),
            "C",
        ),
        _abcd(
            4,
            "Który standard złącza umożliwia podłączenie dysku SSD bezpośrednio do magistrali PCI Express?",
            ("SATA II", "M.2 NVMe", "IDE", "SCSI"),
            "B",
        ),
        _abcd(
            5,
            "W której warstwie modelu ISO/OSI działa przełącznik niezarządzalny?",
            ("Fizycznej.", "Łącza danych.", "Sieciowej.", "Transportowej."),
            "B",
        ),
        _abcd(6, "Jaki jest domyślny numer portu usługi HTTPS?", ("21", "80", "443", "8080"), "C", grid=True),
        _abcd(
            7,
            "Który system plików pozwala nadawać uprawnienia do plików i folderów w systemie Windows?",
            ("FAT16", "FAT32", "exFAT", "NTFS"),
            "D",
        ),
        _abcd(
            8,
            "Kabel typu skrętka, w którym każda para przewodów jest ekranowana folią, a całość dodatkowo "
            "oplotem, oznacza się symbolem",
            ("U/UTP", "F/UTP", "S/FTP", "U/FTP"),
            "C",
        ),
    ),
)

_GREEK_MC_INSTRUCTION = (
    "Για τις προτάσεις Α1 έως και Α4 να γράψετε στο τετράδιό σας τον αριθμό της πρότασης και, δίπλα, "
    "το γράμμα που αντιστοιχεί στη σωστή απάντηση."
)
_GREEK_TF_INSTRUCTION = (
    "Να χαρακτηρίσετε τις προτάσεις που ακολουθούν, γράφοντας στο τετράδιό σας δίπλα στο γράμμα που "
    "αντιστοιχεί σε κάθε πρόταση τη λέξη Σωστό, αν η πρόταση είναι σωστή, ή τη λέξη Λάθος, αν η πρόταση "
    "είναι λανθασμένη."
)

PLIR_2023 = SampleSheet(
    spec="sample_el",
    sheet_file="panellinies/2023/GEL/pliroforiki/them_plir_gel_2023.pdf",
    key_file="panellinies/2023/GEL/pliroforiki/apant_plir_gel_2023.pdf",
    language="el",
    year=2023,
    session=None,
    sheet_code="plir_gel",
    title="ΠΛΗΡΟΦΟΡΙΚΗ",
    scanned=False,
    extra={"date": "ΠΑΡΑΣΚΕΥΗ 9 ΙΟΥΝΙΟΥ 2023", "school": "Γ΄ ΤΑΞΗΣ ΗΜΕΡΗΣΙΟΥ ΓΕΝΙΚΟΥ ΛΥΚΕΙΟΥ"},
    questions=(
        _greek(
            "Α1",
            "Η δομή δεδομένων στην οποία η εισαγωγή και η εξαγωγή στοιχείων γίνονται από το ίδιο άκρο ονομάζεται",
            ("ουρά.", "στοίβα.", "λίστα.", "δένδρο."),
            "β",
            context=_GREEK_MC_INSTRUCTION,
            points=3,
        ),
        _greek(
            "Α2",
            "Ο μέγιστος αριθμός συγκρίσεων που απαιτεί η δυαδική αναζήτηση σε ταξινομημένο πίνακα 1024 στοιχείων είναι",
            ("10.", "512.", "11.", "1024."),
            "γ",
            context=_GREEK_MC_INSTRUCTION,
            points=3,
        ),
        _greek(
            "Α3",
            "Ποια από τις παρακάτω εκφράσεις έχει τιμή ΑΛΗΘΗΣ, όταν Χ = 5 και Υ = 3;",
            ("Χ < Υ ΚΑΙ Υ > 0", "ΟΧΙ (Χ > Υ)", "Χ MOD Υ = 2 Η Χ < 0", "Χ DIV Υ = 2"),
            "γ",
            context=_GREEK_MC_INSTRUCTION,
            points=3,
        ),
        _greek(
            "Α4",
            "Η ταξινόμηση ευθείας ανταλλαγής (φυσαλίδας) στη χειρότερη περίπτωση έχει πολυπλοκότητα",
            ("τετραγωνική.", "γραμμική.", "λογαριθμική.", "σταθερή."),
            "α",
            context=_GREEK_MC_INSTRUCTION,
            points=3,
        ),
        *_greek_true_false(
            "Α5",
            [
                ("Κάθε αλγόριθμος πρέπει να τερματίζει μετά από πεπερασμένο αριθμό βημάτων.", True),
                ("Η εντολή ΟΣΟ...ΕΠΑΝΑΛΑΒΕ εκτελεί το σώμα της επανάληψης τουλάχιστον μία φορά.", False),
                ("Σε μια ουρά το στοιχείο που εισάγεται πρώτο είναι και το πρώτο που εξάγεται.", True),
                ("Μια συνάρτηση στη ΓΛΩΣΣΑ μπορεί να επιστρέφει περισσότερες από μία τιμές.", False),
                ("Η δυαδική αναζήτηση απαιτεί τα στοιχεία του πίνακα να είναι ταξινομημένα.", True),
            ],
            _GREEK_TF_INSTRUCTION,
        ),
        SampleQuestion(
            "Β1",
            "open",
            "Να αναφέρετε τα κριτήρια που πρέπει να ικανοποιεί κάθε αλγόριθμος.",
            points=5,
            model_answer="Είσοδος, έξοδος, καθοριστικότητα, περατότητα, αποτελεσματικότητα.",
        ),
    ),
)

PLIR_2022 = SampleSheet(
    spec="sample_el",
    sheet_file="panellinies/2022/GEL/pliroforiki/them_plir_gel_2022.pdf",
    key_file="panellinies/2022/GEL/pliroforiki/apant_plir_gel_2022.pdf",
    language="el",
    year=2022,
    session=None,
    sheet_code="plir_gel",
    title="ΠΛΗΡΟΦΟΡΙΚΗ",
    scanned=True,
    extra={"date": "ΤΕΤΑΡΤΗ 8 ΙΟΥΝΙΟΥ 2022", "school": "Γ΄ ΤΑΞΗΣ ΗΜΕΡΗΣΙΟΥ ΓΕΝΙΚΟΥ ΛΥΚΕΙΟΥ"},
    questions=(
        _greek(
            "Α1",
            "Η εντολή που επιτρέπει την επιλογή ανάμεσα σε δύο ή περισσότερες διαδρομές εκτέλεσης ονομάζεται εντολή",
            ("εκχώρησης.", "επανάληψης.", "επιλογής.", "εξόδου."),
            "γ",
            context=_GREEK_MC_INSTRUCTION,
            points=3,
        ),
        _greek(
            "Α2",
            "Η εντολή ΓΡΑΨΕ 17 DIV 5 εμφανίζει",
            ("την τιμή 2.", "την τιμή 3.", "την τιμή 3.4.", "την τιμή 12."),
            "β",
            context=_GREEK_MC_INSTRUCTION,
            points=3,
        ),
        _greek(
            "Α3",
            "Σε πίνακα δέκα στοιχείων η σειριακή αναζήτηση στη χειρότερη περίπτωση εκτελεί",
            ("1 σύγκριση.", "5 συγκρίσεις.", "10 συγκρίσεις.", "100 συγκρίσεις."),
            "γ",
            context=_GREEK_MC_INSTRUCTION,
            points=3,
        ),
        _greek(
            "Α4",
            "Η στοίβα ακολουθεί τη μέθοδο",
            ("πρώτο μέσα, πρώτο έξω.", "τελευταίο μέσα, πρώτο έξω.", "τυχαίας προσπέλασης.", "δυαδικής αναζήτησης."),
            "β",
            context=_GREEK_MC_INSTRUCTION,
            points=3,
        ),
        *_greek_true_false(
            "Α5",
            [
                ("Οι μεταβλητές στη ΓΛΩΣΣΑ είναι ακέραιες, πραγματικές, χαρακτήρες ή λογικές.", True),
                ("Η εντολή ΓΙΑ...ΑΠΟ...ΜΕΧΡΙ εκτελεί πάντα το σώμα της τουλάχιστον μία φορά.", False),
                ("Ο δείκτης ενός πίνακα στη ΓΛΩΣΣΑ ξεκινά από το 1.", True),
                ("Η ταξινόμηση φυσαλίδας απαιτεί τα δεδομένα να είναι ήδη ταξινομημένα.", False),
                ("Οι διαδικασίες επιστρέφουν αποτελέσματα μέσω των παραμέτρων τους.", True),
            ],
            _GREEK_TF_INSTRUCTION,
        ),
    ),
)

SAMPLE_SHEETS: tuple[SampleSheet, ...] = (ELE02_2023, INF02_2024, PLIR_2023, PLIR_2022)
