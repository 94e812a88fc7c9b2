"""Small infrastructure every stage shares: how files are written, cached and worked on in parallel.

Public functions:
- `write_bytes_atomic(path, data)`, `write_text_atomic(path, text)`: temp file + rename, so a reader or
  a re-run after kill -9 sees the old file or the new one, never half of one (`atomic`).
- `fingerprint(*parts)`, `StageCache(root, stage)`: per-file stage outputs stored under a hash of
  exactly their inputs (`stagecache`).
- `make_executor(kind, workers)`: inline, local process pool or Ray tasks for per-file work; `pool_size(kind,
  workers)`: in how many processes (`executors`).
- `progress(total=, desc=)`: the one progress style of long steps: a bar on a terminal, plain periodic lines
  elsewhere (`progress`).
- `sha256_file(path)`: a file's SHA-256, read in chunks (`hashing`).
- `read_small_file(path, limit, links_within=)`: a small file someone else wrote, read only when it is a regular file
  within the bound (a named pipe, /dev/zero or a large file refused unread) (`smallfile`).
- `load_yaml(text)`: `yaml.safe_load` that refuses alias bombs (`YamlAliasBombError`), deep nesting
  (`YamlNestingError`), a key given twice in one mapping (`YamlDuplicateKeyError`) and a document past 1 MiB of
  characters (`YamlTooLargeError`), all `yaml.YAMLError`s,
  for every YAML file a user gives (`yamlfile`).
- `read_jsonl(path, tail=)`, `iter_jsonl`, `AppendLog(path)`, `rewrite_jsonl(path, records)`, `cut_torn_tail`,
  `dumps_line`, `JsonlError`; `loads_unique_keys(text)`: JSON of a user's file, a key given twice refused
  (`JsonDuplicateKeyError`): JSON Lines read with line-numbered errors and a declared torn-tail policy,
  appended with one fsync'ed O_APPEND write, rewritten atomically (`jsonl`).
- `add_command(subparsers, name, handler, help=)`, `register_commands(subparsers, registrars)`: how every
  `examcorpus` subcommand is added, from one table of registrars (`commands`).
- `timed(stage)`, `take()`, `take_detail()`, `add_seconds(a, b)`: cheap per-stage timers for the run report, and
  per stage part with CPU seconds for the benchmarks (`clock`).
- `own_process()`, `settle()`: a program's long-lived objects set aside from the cyclic garbage collector once
  loaded; nothing in a process that is not a program's own, such as a test run (`heap`).
- `one_file()`, `per_file(fn)`: the collector held back while one file is extracted or parsed and run once
  after it, thresholds restored (`collector`).
- `ascii_int(text, max_digits=)`: a number from text someone else wrote (a header, a query parameter): ASCII
  digits only, bounded in length, else None (`numbers`).
- `Deadline(seconds)`: a whole network exchange's deadline; the sockets it `watch`es are shut down when it
  passes (`deadline`).
- `bounded_transport(seconds, limit)`, `ResponseTooLarge`, `UnreadableEncoding`, `MAX_RESPONSE_BYTES`: an httpx transport for SDK clients
  (Gemini) whose requests each end within `seconds` and whose bodies stop at `limit` bytes (`boundedhttpx`);
  `bound_hub_client()`, `BodyInflatesTooFar`: huggingface_hub's client with each encoded body decoded by us and refused
  past 100 times its bytes on the wire (a mirror's gzip bomb); `undo_content_coding(pieces, header)`: a body's gzip or
  deflate undone in bounded steps, for a caller that counts what comes out (acquire's pages and files)
- `without_userinfo(url)`, `redact_userinfo(text)`: a URL, or every URL in a text, without the user:password@
  it may carry, for what is printed, raised or published (`urls`).
- `printable(text)`, `console_text(text)`: text someone else wrote (a file name, a PDF's text) with its control
  characters and bidi controls shown as escapes, and for `rich` its markup escaped, for a terminal (`terminal`).
"""
from pipeline.infra.atomic import write_bytes_atomic, write_text_atomic
from pipeline.infra.boundedhttpx import (MAX_RESPONSE_BYTES, BodyInflatesTooFar, ResponseTooLarge, UnreadableEncoding, bound_hub_client,
                                         bounded_transport, undo_content_coding)
from pipeline.infra.clock import add_seconds, take, take_detail, timed
from pipeline.infra.collector import one_file, per_file
from pipeline.infra.commands import add_command, register_commands
from pipeline.infra.deadline import Deadline
from pipeline.infra.executors import make_executor, pool_size
from pipeline.infra.hashing import sha256_file
from pipeline.infra.heap import own_process, settle
from pipeline.infra.jsonl import (AppendLog, JsonDuplicateKeyError, JsonlError, cut_torn_tail, dumps_line, iter_jsonl, loads_unique_keys,
                                  read_jsonl, rewrite_jsonl)
from pipeline.infra.numbers import ascii_int
from pipeline.infra.progress import SilentProgress, progress
from pipeline.infra.smallfile import read_small_file
from pipeline.infra.stagecache import StageCache, fingerprint
from pipeline.infra.terminal import console_text, printable
from pipeline.infra.urls import redact_userinfo, without_userinfo
from pipeline.infra.yamlfile import YamlAliasBombError, YamlDuplicateKeyError, YamlNestingError, YamlTooLargeError, load_yaml

__all__ = ["AppendLog", "BodyInflatesTooFar", "Deadline", "MAX_RESPONSE_BYTES", "ResponseTooLarge", "UnreadableEncoding", "bound_hub_client",
           "bounded_transport", "undo_content_coding", "JsonDuplicateKeyError", "JsonlError", "StageCache", "YamlAliasBombError", "YamlDuplicateKeyError", "YamlNestingError", "YamlTooLargeError", "add_command", "add_seconds", "ascii_int", "console_text", "cut_torn_tail",
           "dumps_line", "fingerprint", "iter_jsonl", "load_yaml", "loads_unique_keys", "make_executor", "one_file", "own_process", "per_file", "pool_size", "printable", "progress", "read_jsonl", "read_small_file", "SilentProgress",
           "redact_userinfo", "register_commands", "rewrite_jsonl", "settle", "sha256_file", "take", "take_detail", "timed", "without_userinfo", "write_bytes_atomic", "write_text_atomic"]
