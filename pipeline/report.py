"""The run report: per file, what happened and why, as JSON (for tools) and Markdown (for people).

Every line is a typed diagnostic (pipeline.diagnostics): `errors` are a file's problems, `notes` what is
worth reading and no loss. A line given as plain text is typed by where it is put (a problem, a note).
`--strict` counts the diagnostics of severity `error`, wherever they are: `problem_count`. The JSON
keeps `errors` and `notes` as lines of text and adds `diagnostics` (code, severity, concerns, message).
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import unquote

from pipeline.diagnostics import Code, Diagnostic, Severity, as_diagnostic, diagnose, has_code
from pipeline.infra import console_text, printable, write_text_atomic
from pipeline.acquire import ManifestEntry
from pipeline.records import Question

IGNORED_SHOWN = 20  # ignored files named in the report; the rest counted


@dataclass
class FileReport:
    url: str
    role: str
    status: str
    sha256: str | None
    pages: int = 0
    ocr_pages: int = 0
    questions: int = 0
    keyed: int = 0
    flagged: int = 0
    # Answers of records curated by an earlier run, kept because this run's key could not be used: not
    # counted in `keyed`, which says what this run's key gave.
    keyed_kept: int = 0
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # worth reading, not problems: annulled questions, stop_at
    # Its questions read by OCR unsurely (`ocr.uncertain`), each "number: the flag": the audit queue's first.
    unsure: list[str] = field(default_factory=list)

    def diagnostics(self) -> list[Diagnostic]:
        """Its problems, then its notes, typed, each concerning this file."""
        typed = [as_diagnostic(e, Code.PROBLEM) for e in self.errors] + [as_diagnostic(n, Code.NOTE) for n in self.notes]
        return [d.about(source_url=self.url, source_sha256=self.sha256) for d in typed]

    @classmethod
    def from_entry(cls, entry: ManifestEntry) -> "FileReport":
        report = cls(url=entry.url, role=entry.role, status=entry.status, sha256=entry.sha256)
        if entry.error:
            report.errors.append(diagnose(Code.FILE_FAILED, text=entry.error))
        return report

    def add_failure(self, error: str) -> None:
        """The stage could not do its work on this file this run (OCR unavailable); the file is not bad."""
        self.status = "failed"
        self.errors.append(diagnose(Code.STAGE_UNAVAILABLE, text=error))

    def add_extraction(self, pages: int, ocr_pages: int, error: str | None) -> None:
        self.pages, self.ocr_pages = pages, ocr_pages
        if error:
            self.status = "quarantined"
            self.errors.append(diagnose(Code.EXTRACT_REJECTED, text=error))

    def add_parse(self, questions: list[Question], problems: list[str]) -> None:
        self.questions = len(questions)
        self.keyed = sum(1 for q in questions if q.answer is not None)
        # Flagged: a flag a curator must look at; an info flag says what was set aside and is no fault of the record.
        self.flagged = sum(1 for q in questions if any(getattr(f, "severity", None) is not Severity.INFO for f in q.flags))
        self.errors.extend(problems)
        self.unsure = [f"{q.number}: {flag}" for q in questions for flag in q.flags if has_code([flag], Code.OCR_UNCERTAIN)]
        if self.unsure:
            numbers = [line.split(":", 1)[0] for line in self.unsure]
            self.notes.append(diagnose(Code.OCR_UNSURE_QUESTIONS, count=len(numbers), numbers=_shown(numbers)))

    def add_kept(self, kept: list[Question], problems: list[str]) -> None:
        """This run's key was unusable and the sheet's earlier records were kept: their answers count
        as kept, not as keyed by this run."""
        self.add_parse(kept, problems)
        self.keyed_kept, self.keyed = self.keyed, 0

    @property
    def keyed_cell(self) -> str:
        """The table's keyed column: what this run's key gave, and the answers kept from an earlier run."""
        return f"{self.keyed} (+{self.keyed_kept} kept)" if self.keyed_kept else str(self.keyed)


@dataclass
class RunReport:
    source: str
    pipeline_version: str
    files: list[FileReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # problems not tied to one file: an index page down
    ignored_links: int = 0  # links or local files that no file rule of the spec claims
    ignored_names: list[str] = field(default_factory=list)  # the local files and linked PDFs among them
    # Curators' corrections from the extraction audit (annotations/overrides.jsonl): applied, dropped
    # because the sheet changed, or left over. Lines to read, not problems.
    overrides: list[str] = field(default_factory=list)
    # Accepted figure descriptions (the review page's decisions) carried by the curated records this run
    # wrote; None when the root holds no review state. `descriptions`: records left without them.
    descriptions_applied: int | None = None
    descriptions: list[str] = field(default_factory=list)
    curated_path: str | None = None
    curated_questions: int | None = None
    curated_unchanged: bool = False  # --strict found problems: the curated file was not written
    # Nothing new since the last settled run (pipeline.seasonsnapshot): nothing parsed, the curated file
    # not rewritten; the files' lines are that run's, their statuses this run's.
    nothing_new: bool = False
    seconds: float | None = None
    # Where the seconds went: download, parse and curate in the run's own process; text, layout, ocr and
    # figures summed over the workers that extracted files this run (cached files cost none).
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic of the run: its own notes (not tied to one file), then each file's."""
        return [as_diagnostic(n, Code.PROBLEM) for n in self.notes] + [d for f in self.files for d in f.diagnostics()]

    @property
    def problem_count(self) -> int:
        """What --strict fails on: the diagnostics of severity error."""
        return sum(1 for d in self.diagnostics() if d.severity is Severity.ERROR)

    @property
    def has_problems(self) -> bool:
        return self.problem_count > 0

    def problem_lines(self) -> list[str]:
        """Every error-severity diagnostic as one line: a run note, or "file name: problem"."""
        own = [n for n in self.notes if as_diagnostic(n, Code.PROBLEM).severity is Severity.ERROR]
        return own + [
            f"{_file_name(f.url)}: {d}" for f in self.files for d in f.diagnostics() if d.severity is Severity.ERROR
        ]

    def totals(self) -> dict[str, int]:
        keys = ("pages", "ocr_pages", "questions", "keyed", "keyed_kept", "flagged")
        totals = {k: sum(getattr(f, k) for f in self.files) for k in keys}
        totals["files"] = len(self.files)
        totals["ignored_links"] = self.ignored_links
        totals["problems"] = self.problem_count
        totals["warnings"] = sum(1 for d in self.diagnostics() if d.severity is Severity.WARNING)
        return totals

    def to_json(self) -> str:
        data = asdict(self)
        data["diagnostics"] = [as_diagnostic(n, Code.PROBLEM).to_dict() for n in self.notes]
        for file_data, f in zip(data["files"], self.files):
            file_data["diagnostics"] = [d.to_dict() for d in f.diagnostics()]
        data["totals"] = self.totals()
        return json.dumps(data, ensure_ascii=False, indent=1)

    def _curated_line(self) -> str:
        count = "no" if self.curated_questions is None else self.curated_questions
        if self.curated_unchanged:
            return f"curated: `{self.curated_path}` left unchanged by --strict ({count} questions)"
        if self.nothing_new:
            return f"curated: `{self.curated_path}` unchanged, nothing new since the last run ({count} questions)"
        return f"curated: `{self.curated_path}` ({count} questions)"

    def to_markdown(self) -> str:
        lines = [
            f"# Extraction report: {self.source}",
            "",
            f"pipeline {self.pipeline_version} · {self._curated_line()} · {self.seconds} s",
            "",
            "| file | role | status | pages | OCR | questions | keyed | flagged | problems |",
            "|---|---|---|---:|---:|---:|---:|---:|---|",
        ]
        for f in self.files:
            name = _file_name(f.url)
            problems = "<br>".join(
                [printable(e).replace("|", "\\|") for e in f.errors] + [f"note: {printable(n)}".replace("|", "\\|") for n in f.notes]
            ) or "—"
            lines.append(
                f"| {name} | {f.role} | {f.status} | {f.pages} | {f.ocr_pages} | {f.questions} | {f.keyed_cell} "
                f"| {f.flagged} | {problems} |"
            )
        t = self.totals()
        lines += [f"- **problem:** {printable(note)}" for note in self.notes]
        lines += [f"- curator's correction: {line}" for line in self.overrides]
        if self.descriptions_applied is not None:
            lines.append(f"- accepted figure descriptions applied: {self.descriptions_applied} records carry them")
        lines += [f"- figure descriptions: {line}" for line in self.descriptions]
        lines += self._unsure_lines()
        lines += self._codes_table()
        lines += [
            "",
            f"**Totals:** {t['files']} files, {t['pages']} pages ({t['ocr_pages']} OCR), {t['questions']} questions, "
            f"{t['keyed']} keyed{self._kept_words(t)}, {t['flagged']} flagged, {t['problems']} problems; "
            f"{t['ignored_links']} links or files matched no rule of the spec{self._ignored_words()}.",
            "",
        ]
        if self.stage_seconds:
            spent = ", ".join(f"{stage} {seconds:.2f}" for stage, seconds in self.stage_seconds.items())
            lines += [f"Seconds per stage (text, layout, ocr, figures: summed over workers): {spent}.", ""]
        return "\n".join(lines)

    @staticmethod
    def _kept_words(totals: dict[str, int]) -> str:
        kept = totals["keyed_kept"]
        return f" (+{kept} answers kept from earlier runs: their keys were unusable this run)" if kept else ""

    def _ignored_words(self, shown: int = IGNORED_SHOWN) -> str:
        """The ignored files by name (the first `shown`), so a curator can fix the rule that missed one."""
        if not self.ignored_names:
            return ""
        names = [printable(display_name(n), newlines=False) for n in self.ignored_names[:shown]]
        more = len(self.ignored_names) - len(names)
        # The other links of an index page are its navigation: only files are named.
        among = "" if len(self.ignored_names) >= self.ignored_links else f"; the {len(self.ignored_names)} files among them"
        return among + ": " + ", ".join(f"`{n}`" for n in names) + (f" and {more} more" if more else "")

    def _unsure_lines(self) -> list[str]:
        """Every question read by OCR unsurely, by file: what a curator checks first on the audit page."""
        unsure = [(f, line) for f in self.files for line in f.unsure]
        if not unsure:
            return []
        lines = ["", f"**Read by OCR unsurely ({len(unsure)} questions; first in the audit queue):**", ""]
        return lines + [f"- {_file_name(f.url)}, question {printable(line)}".replace("|", "\\|") for f, line in unsure]

    def _codes_table(self) -> list[str]:
        """How many diagnostics of each code (the audit page filters records by these codes)."""
        counted = Counter((d.code.code, d.severity.value) for d in self.diagnostics())
        if not counted:
            return []
        rows = [f"| `{code}` | {severity} | {n} |" for (code, severity), n in sorted(counted.items())]
        return ["", "| code | severity | count |", "|---|---|---:|", *rows]

    def write(self, directory: Path) -> tuple[Path, Path]:
        json_path = write_text_atomic(Path(directory) / f"{self.source}.json", self.to_json())
        md_path = write_text_atomic(Path(directory) / f"{self.source}.md", self.to_markdown())
        return md_path, json_path

    def print_summary(self, console=None) -> None:
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        console = console or Console(width=max(Console().width, 110))
        table = Table(title=console_text(f"{self.source}: {self.curated_questions} curated questions → {self.curated_path}"))
        numeric = ("pages", "OCR", "questions", "keyed", "flagged", "problems")
        # Every column but the file's keeps its header's width (rich measures East Asian wide letters as
        # two cells); a long file name folds onto more lines instead of squeezing the counts away.
        table.add_column("file", overflow="fold", ratio=1)
        for column in ("role", "status") + numeric:
            table.add_column(column, justify="right" if column in numeric else "left", no_wrap=True,
                             min_width=max(len(column), 5 if column in numeric else len(column)))
        # An archive's thousands of files are a report's, not a terminal's (and rich lays out each row
        # at about 2 ms, most of a re-run's time at archive size): past SUMMARY_FILES the table lists
        # the files with a problem, and one row adds up every file.
        listed = self.files if len(self.files) <= SUMMARY_FILES else [f for f in self.files if f.errors][:SUMMARY_FILES]
        for f in listed:
            table.add_row(
                Text(_file_name(f.url)), f.role, f.status, str(f.pages), str(f.ocr_pages), str(f.questions),
                f.keyed_cell, str(f.flagged), str(len(f.errors)),
            )
        if len(listed) < len(self.files):
            t = self.totals()
            keyed = f"{t['keyed']} (+{t['keyed_kept']} kept)" if t["keyed_kept"] else str(t["keyed"])
            shown = f"{len(listed)} listed above, " if listed else ""
            table.add_row(f"all {len(self.files)} files ({shown}each in the report)", "", "", str(t["pages"]),
                          str(t["ocr_pages"]), str(t["questions"]), keyed, str(t["flagged"]),
                          str(sum(len(f.errors) for f in self.files)))
        console.print(table)
        for line in self.problem_lines():
            console.print(f"[bold red]problem[/] {console_text(line)}", highlight=False, soft_wrap=True)
        if self.descriptions_applied is not None:
            console.print(f"accepted figure descriptions applied: {self.descriptions_applied} records carry them", highlight=False)
        for f in self.files:
            for note in f.notes:
                console.print(f"[cyan]note[/] {console_text(_file_name(f.url))}: {console_text(note)}", highlight=False, soft_wrap=True)
        if self.ignored_links:
            console.print(f"{self.ignored_links} links or files matched no rule of the spec{self._ignored_words()}",
                          highlight=False, soft_wrap=True, markup=False)


def display_name(url_or_path: str) -> str:
    """A file's name as a person reads it: a URL's percent-encoded letters (`file:` URIs of non-ASCII
    names, links) decoded."""
    return unquote(url_or_path)


SUMMARY_FILES = 60  # files the terminal summary lists one by one; a larger run's table lists those with a problem
SHOWN_NUMBERS = 30  # question numbers a report line names; the rest are counted


def _shown(numbers: list[str]) -> str:
    more = len(numbers) - SHOWN_NUMBERS
    return ", ".join(numbers[:SHOWN_NUMBERS]) + (f" and {more} more" if more > 0 else "")


def _file_name(url: str) -> str:
    """The file's name as printed: decoded, its control characters shown as escapes (`infra.terminal`)."""
    return printable(display_name(url.rstrip("/").rsplit("/", 1)[-1]), newlines=False)
