"""The docs site and the README, checked as a reader would meet them: the site builds with
`mkdocs build --strict` (a broken link or anchor fails it), every command the docs show is one the
code accepts (a real subcommand, only flags it has, a Makefile target that exists), the README stays a
five-minute read with the two commands first, and the hand-written pages keep up with the code."""
from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from pipeline.devkit.docgen import command_parsers, option_strings
from pipeline.diagnostics import Code
from pipeline.records import QUESTION_FIELDS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
SHELL_FENCES = {"", "bash", "sh", "shell", "console"}
SEPARATORS = {"|", "||", "&&", ";"}


def _mkdocs_build(config: Path, site: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(site)],
        cwd=cwd, capture_output=True, text=True, timeout=300, env={"NO_MKDOCS_2_WARNING": "1", **_env()},
    )


def _env() -> dict[str, str]:
    """This checkout first on the path, so the hook renders this code's CLI and records."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


# ---------------------------------------------------------------- the site builds, strictly


def test_the_site_builds_strictly_with_the_references_generated_from_the_code(tmp_path):
    built = _mkdocs_build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 0, built.stderr[-4000:]
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in ("examcorpus extract", "examcorpus eval run", "examcorpus score-extraction", "examcorpus specs check"):
        assert command in cli
    assert "--api-key-env" in cli and "--skip-ocr-check" in cli
    records = (tmp_path / "site" / "reference" / "records" / "index.html").read_text(encoding="utf-8")
    assert all(f"<code>{name}</code>" in records for name in QUESTION_FIELDS)
    run_folder = (tmp_path / "site" / "reference" / "run-folder" / "index.html").read_text(encoding="utf-8")
    assert "attempts.jsonl" in run_folder and "<!-- include:" not in run_folder
    diagnostics = (tmp_path / "site" / "reference" / "diagnostics" / "index.html").read_text(encoding="utf-8")
    assert all(f"<code>{member.code}</code>" in diagnostics for member in Code)


def test_a_broken_link_fails_the_strict_build(tmp_path):
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nSee [the guide](guides/missing.md).\n", encoding="utf-8")
    config.update(docs_dir=str(tmp_path / "docs"), nav=["index.md"])
    config.pop("hooks")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    built = _mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site", cwd=tmp_path)
    assert built.returncode != 0
    assert "guides/missing.md" in built.stderr


def test_no_plugin_fetches_anything_at_build_time():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    plugins = [p if isinstance(p, str) else next(iter(p)) for p in config.get("plugins", [])]
    assert set(plugins) <= {"search"}, f"offline builds only: {plugins}"
    assert config["theme"].get("font") is False, "Material would link Google Fonts"


# ---------------------------------------------------------------- the commands the docs show


@dataclass(frozen=True)
class Command:
    page: str
    line: str
    words: tuple[str, ...]


def shell_commands(markdown: str, page: str) -> list[Command]:
    """Every command in the page's shell code blocks: continuation lines joined, comments dropped, and
    `a && b`, `a | b` taken apart."""
    commands: list[Command] = []
    fence: str | None = None
    pending = ""
    for raw in markdown.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip().lower()
            pending = ""
            continue
        if fence not in SHELL_FENCES:
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        line, pending = pending + stripped, ""
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            words = line.split("#", 1)[0].split()
        current: list[str] = []
        for word in words + [";"]:
            if word in SEPARATORS:
                if current:
                    commands.append(Command(page, line, tuple(current)))
                current = []
            else:
                current.append(word)
    return commands


def makefile_targets(makefile: Path = ROOT / "Makefile") -> set[str]:
    return {m.group(1) for m in re.finditer(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", makefile.read_text(encoding="utf-8"), re.MULTILINE)}


def _program(words: tuple[str, ...]) -> tuple[str, list[str]]:
    """The program's name and its arguments, after any leading VAR=value assignments."""
    rest = list(words)
    while rest and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", rest[0]):
        rest.pop(0)
    return (Path(rest[0]).name, rest[1:]) if rest else ("", [])


def problems_in(commands: list[Command]) -> list[str]:
    """What is wrong with each `examcorpus`, `make` and `python -m` command: an unknown subcommand, a flag
    the subcommand does not have, a Makefile target that does not exist, a module that cannot be found."""
    parsers = command_parsers()
    targets = makefile_targets()
    problems: list[str] = []
    for command in commands:
        program, args = _program(command.words)
        where = f"{command.page}: `{command.line}`"
        if program == "examcorpus":
            path: tuple[str, ...] = ()
            while args and path + (args[0],) in parsers:
                path, args = path + (args[0],), args[1:]
            parser = parsers[path]
            has_subcommands = any(len(p) == len(path) + 1 and p[:len(path)] == path for p in parsers)
            if has_subcommands and args and not args[0].startswith("-"):
                problems.append(f"{where}: `examcorpus {' '.join(path)}` has no subcommand {args[0]!r}")
                continue
            known = option_strings(parser)
            for word in args:
                flag = word.strip("[]").split("=", 1)[0]
                if flag.startswith("-") and flag not in ("-", "--") and not flag.startswith("-" * 3) and flag not in known:
                    problems.append(f"{where}: `examcorpus {' '.join(path)}` has no option {flag}")
        elif program == "make":
            for word in args:
                if "=" not in word and not word.startswith("-") and word not in targets:
                    problems.append(f"{where}: the Makefile has no target {word!r}")
        elif program.startswith("python") and args[:1] == ["-m"] and len(args) > 1:
            module = args[1]
            if importlib.util.find_spec(module.split(".")[0]) is None or importlib.util.find_spec(module) is None:
                problems.append(f"{where}: no module {module}")
    return problems


def _documented_commands() -> list[Command]:
    pages = sorted(DOCS.rglob("*.md")) + [README]
    return [c for page in pages for c in shell_commands(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))]


def test_every_command_in_the_docs_is_one_the_code_accepts():
    commands = _documented_commands()
    programs = [_program(c.words)[0] for c in commands]
    assert programs.count("examcorpus") >= 30 and programs.count("make") >= 10, "the guides' commands were not found"
    assert problems_in(commands) == []


def test_a_misspelt_flag_subcommand_or_target_is_caught():
    page = (
        "```bash\n"
        ".venv/bin/examcorpus extract --sorce sample_pl              # flag typo\n"
        "examcorpus specs chek my.yaml\n"
        "examcorpus eval run --data curated/ --model hf:x \\\n"
        "    --protocl mcq --out runs/x\n"
        "make extract && make publsh REPO=a/b\n"
        "python -m pipeline.devkit.no_such_module\n"
        "examcorpus score-extraction curated/x.parquet truth.yaml --jsn\n"
        "```\n"
        "```python\nexamcorpus extract --not-a-shell-block\n```\n"
    )
    problems = problems_in(shell_commands(page, "page.md"))
    assert [p.rsplit(": ", 1)[1] for p in problems] == [
        "`examcorpus extract` has no option --sorce",
        "`examcorpus specs` has no subcommand 'chek'",
        "`examcorpus eval run` has no option --protocl",
        "the Makefile has no target 'publsh'",
        "no module pipeline.devkit.no_such_module",
        "`examcorpus score-extraction` has no option --jsn",
    ]
    fine = "```bash\nexamcorpus extract --source sample_pl --strict\nmake split && make publish\n```\n"
    assert problems_in(shell_commands(fine, "page.md")) == []


# ---------------------------------------------------------------- the README


def test_the_readme_is_short_and_opens_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    first_block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    assert text.index("```bash") < text.index("\n## "), "the commands come before any section"
    assert [line.split()[:2] for line in first_block.splitlines()] == [["make", "extract"], ["make", "test"]]
    for role in ("curators", "annotators", "researchers"):
        assert f"## For {role}" in text


def test_every_relative_link_in_the_readme_and_the_docs_leads_to_a_file():
    broken = []
    for page in [README] + sorted(DOCS.rglob("*.md")):
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            if not (page.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{page.relative_to(ROOT)} → {target}")
    assert broken == []


# ---------------------------------------------------------------- hand-written pages keep up with the code


def test_every_record_field_is_explained_on_the_records_page():
    page = (DOCS / "concepts" / "records.md").read_text(encoding="utf-8")
    explained = {name for row in re.findall(r"^\| (.+?) \|", page, re.MULTILINE) for name in re.findall(r"`(\w+)`", row)}
    assert set(QUESTION_FIELDS) - explained == set(), "add a row to docs/concepts/records.md for each new field"


def test_every_measured_figure_says_when_it_was_measured():
    page = (DOCS / "results.md").read_text(encoding="utf-8")
    sections = page.split("\n## ")[1:]
    assert len(sections) >= 5
    for section in sections:
        title, _, body = section.partition("\n")
        assert re.search(r"Measured as of commit `[0-9a-f]{7,}` \(\d{4}-\d{2}-\d{2}\)", body), title


@pytest.mark.parametrize("guide", ["new-exam-family", "review-and-audit", "publishing", "evaluation", "scaling-out"])
def test_each_guide_the_issue_names_exists_and_is_in_the_nav(guide):
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert (DOCS / "guides" / f"{guide}.md").is_file()
    assert f"guides/{guide}.md" in nav
