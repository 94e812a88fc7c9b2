"""Running an evaluation.

Input: a plan (YAML/JSON file or CLI flags) naming data, protocol, model and settings.
Output: a run folder (eval.log) with every attempt kept, resumable after a kill, and the run's outcome.

Public:
- `plan`: `load_plan`, `RunPlan`, `ModelSettings`, `RetryPolicy`
- `runner`: `run`, `prepare`, `finish`, `load_descriptions`, `environment`, `RunOutcome`, `RunError`
- `provenance`: `code_revision`, `sha256_cached`
"""
