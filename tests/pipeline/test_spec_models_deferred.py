"""The spec and language-data models build their validators when first validated, not at import: a process
that loads one spec and the language data builds the validators of the models it validates (a nested model's
inlined in its parent's), and none for the models it only holds inside them."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, pydantic, pydantic_core
import pipeline.specs.model as specs_model, pipeline.languages.model as languages_model
from pipeline.specs import load_spec_file
from pipeline.languages import all_languages

def built():
    return sorted(name for module in (specs_model, languages_model) for name, value in vars(module).items()
                  if isinstance(value, type) and issubclass(value, pydantic.BaseModel)
                  and value.__module__ == module.__name__
                  and isinstance(value.__pydantic_validator__, pydantic_core.SchemaValidator))

at_import = built()
spec = load_spec_file("pipeline/sources/sample_el.yaml")
languages = all_languages()
print(json.dumps({"at_import": at_import, "after_load": built(), "spec": spec.name, "languages": len(languages)}))
"""


def test_a_process_builds_the_validators_of_what_it_validates_only():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    seen = json.loads(done.stdout)
    assert seen["at_import"] == []
    assert seen["spec"] == "sample_el" and seen["languages"] > 1
    assert "SourceSpec" in seen["after_load"] and "Language" in seen["after_load"]
    # Held only inside a validated spec: validated by SourceSpec's validator, never built on their own.
    for nested in ("Metadata", "DownloadSpec", "LayoutSpec", "KeySpec", "OptionsSpec"):
        assert nested not in seen["after_load"]
