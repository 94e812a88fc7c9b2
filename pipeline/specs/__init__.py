"""Source specs: per-exam-family knowledge, declared in YAML under pipeline/sources/.

A spec says where the files are (index pages and link patterns on the web; file patterns in a local
folder), how a sheet pairs with its key, which OCR languages to use, and the layout rules the parser
needs. Nothing exam-specific lives in Python. Every model forbids unknown fields, so a typo in a spec
is an error naming the file and the field, never a silently ignored setting; so is a key given twice
in one mapping (plain YAML keeps the last one silently), a regex without the named groups its field
needs, and a file rule that cannot give the facts `pairing.on` pairs by. `environment_problems` adds
what only this machine can tell: whether the spec's OCR languages are installed.
"""
from pipeline.specs.loading import (
    available_specs,
    environment_problems,
    load_spec,
    load_spec_file,
    parse_spec,
    spec_path,
)
from pipeline.specs.model import (
    PAIRING_GROUPS,
    QUESTION_TYPES,
    SOURCES_DIR,
    TESSERACT_LANGUAGES,
    DownloadSpec,
    FileRule,
    KeySpec,
    LayoutSpec,
    LocalSpec,
    Metadata,
    OcrPassesSpec,
    OcrSpec,
    OptionsSpec,
    PairingSpec,
    SectionRule,
    SourceSpec,
    SpecError,
    TrueFalseSpec,
    TypeRule,
    _Strict,
    default_voided,
    tesseract_package,
)

__all__ = [
    "PAIRING_GROUPS", "QUESTION_TYPES", "SOURCES_DIR", "TESSERACT_LANGUAGES", "DownloadSpec", "FileRule", "KeySpec",
    "LayoutSpec", "LocalSpec", "Metadata", "OcrPassesSpec", "OcrSpec", "OptionsSpec", "PairingSpec", "SectionRule",
    "SourceSpec", "SpecError", "TrueFalseSpec", "TypeRule", "_Strict", "available_specs", "default_voided",
    "environment_problems", "load_spec", "load_spec_file", "parse_spec", "spec_path", "tesseract_package",
]
