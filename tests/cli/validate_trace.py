#!/usr/bin/env python3
"""Runs a checker with --format json and validates its output against
docs/trace-format.schema.json, plus the facts the schema cannot state.

usage: validate_trace.py SCHEMA OUTCOME[:KIND] EXIT_CODE COMMAND [ARG...]
Fails (never skips) when python3-jsonschema is missing."""
import json
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("FAIL: the Python module jsonschema is missing; install it (Debian: apt-get install python3-jsonschema)")

schema_path, expected, expected_exit, command = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)

extra = ["--format", "json"] + ([] if "simulate" in command else ["--progress", "0"])  # simulate has no progress lines
run = subprocess.run(command + extra, capture_output=True, text=True, check=False)
if run.returncode != expected_exit:
    sys.exit(f"FAIL: exit code {run.returncode}, expected {expected_exit}; stderr: {run.stderr}")
doc = json.loads(run.stdout)
errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
for e in errors:
    print(f"FAIL: at /{'/'.join(str(p) for p in e.path)}: {e.message}")
if errors:
    sys.exit(1)

outcome, _, kind = expected.partition(":")
if doc["outcome"] != outcome:
    sys.exit(f"FAIL: outcome {doc['outcome']}, expected {outcome}")
if kind and doc["violation"]["kind"] != kind:
    sys.exit(f"FAIL: violation kind {doc['violation']['kind']}, expected {kind}")
for key in ("violation", "error"):
    if key in doc and doc[key]["trace"] and doc[key]["length"] != len(doc[key]["trace"]) - 1:
        sys.exit(f"FAIL: {key}.length {doc[key]['length']} but {len(doc[key]['trace'])} states in the trace")
if "stats" in doc and doc["stats"]["states_per_level"] and sum(doc["stats"]["states_per_level"]) != doc["stats"]["distinct"]:
    sys.exit("FAIL: states_per_level does not add up to distinct")
print(f"ok: {doc['run']['spec']} {doc['outcome']} validates against {schema_path}")
