"""The run folder, and everything read back from it alone (no model, no network).

Input: a run folder (plan.json, prompts.jsonl, attempts.jsonl, sessions.jsonl, scores.json, run.json,
manifest.json). Output: report.html, typed records, the manifest check, statuses recomputed from evidence, scores
with intervals, and the offline audit `eval rescore` prints.

Public:
- `records`: `PlanRecord`, `PromptRecord`, `AttemptRecord`, `SessionRecord`, `Scores`, `RunState`, `run_folder_schema`
- `runfolder`: `RunFolder`, `read_record`, `read_records`, `read_json`, `read_jsonl`, `dumps`, `RunFolderError`
- `integrity`: `write_manifest`, `verify`, `require_verified`, `manifest_sha256`
- `recompute`: `recompute`, `mismatch`, `StatusMismatch`
- `scoring`: `load_matrix`, `score_matrix`, `score_folder`, `blocking_reasons`, `run_blocking_reasons`
- `rescore`: `audit`, `Audit`
- `browse`: `render_report`, `write_report`, `report_rows`, `REPORT` (report.html: the run as a page to browse)
"""
