#!/usr/bin/env python3
"""Run scripts with `regemu run --json` and validate each document against
docs/run-json.schema.json.

    validate_run_json.py REGEMU SCHEMA SOURCE_DIR SCRIPT...

Each SCRIPT runs from SOURCE_DIR the way its header line says a user runs
it (`#   regemu run DB SCRIPT    # exits N`, as tests/CMakeLists.txt reads
it). The document must validate, its `exit_status` must be regemu's exit
status and the header's, its `result` must agree with the status, and its
commands and summary must agree with each other: the shape is a contract
tools rely on, so a key the schema does not name fails too.
"""
import json
import re
import subprocess
import sys

try:
    import jsonschema
except ImportError as e:
    sys.exit(f"{e}: install python3-jsonschema (tools/setup.sh does)")

HEADER = re.compile(r"^#   regemu run (\S+) (\S+) +# exits ([0-9])", re.M)
RESULT = {0: "pass", 1: "fail", 2: "error"}


def check(regemu, validator, source_dir, script):
    with open(f"{source_dir}/{script}" if not script.startswith("/") else script, encoding="utf-8") as f:
        header = HEADER.search(f.read())
    if not header:
        return [f"{script}: no header line '#   regemu run DB SCRIPT    # exits N'"]
    db, path, expected = header.group(1), header.group(2), int(header.group(3))
    run = subprocess.run([regemu, "run", "--json", db, path], cwd=source_dir, capture_output=True, text=True)
    try:
        document = json.loads(run.stdout)
    except json.JSONDecodeError as e:
        return [f"{path}: stdout is not one JSON document ({e}); stderr: {run.stderr[:2000]}"]
    problems = [f"{path}: {'/'.join(map(str, e.absolute_path)) or '(top level)'}: {e.message}"
                for e in validator.iter_errors(document)]
    if problems:
        return problems
    if run.returncode != expected or document["exit_status"] != run.returncode:
        problems.append(f"{path}: exit {run.returncode}, exit_status {document['exit_status']}, "
                        f"the header says {expected}")
    if document["result"] != RESULT[document["exit_status"]]:
        problems.append(f"{path}: result {document['result']} for exit status {document['exit_status']}")
    summary = document["summary"]
    checks = [c for c in document["commands"] if c["check"] is not None]
    if len(document["commands"]) != summary["commands"] or len(checks) != summary["checks"]:
        problems.append(f"{path}: {len(document['commands'])} commands and {len(checks)} checks listed, "
                        f"the summary says {summary['commands']} and {summary['checks']}")
    if len(document["failures"]) != summary["failed"]:
        problems.append(f"{path}: {len(document['failures'])} failures listed, the summary says {summary['failed']}")
    for command in document["commands"]:
        if command["end_ns"] < command["start_ns"]:
            problems.append(f"{path}:{command['line']}: time went back")
        for index in command["violations"]:
            if index >= len(document["violations"]) or document["violations"][index]["line"] != command["line"]:
                problems.append(f"{path}:{command['line']}: violation index {index} is not one of its own")
    return problems


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    regemu, schema_path, source_dir, scripts = argv[1], argv[2], argv[3], argv[4:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    failed = 0
    for script in scripts:
        problems = check(regemu, validator, source_dir, script)
        for problem in problems:
            print(problem, file=sys.stderr)
        failed += bool(problems)
    print(f"{len(scripts) - failed} of {len(scripts)} runs validate")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
