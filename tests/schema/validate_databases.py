#!/usr/bin/env python3
"""Validate regemu database files against the JSON Schema `regemu schema` writes.

    validate_databases.py SCHEMA FILE...          every FILE must validate
    validate_databases.py SCHEMA --markdown PAGE...  every ```yaml block of
        the pages that is a whole database (not marked file= or excerpt=)
        must validate
    validate_databases.py SCHEMA --misspell FILE PATH KEY WRONG
        a copy of FILE with KEY renamed WRONG in the mapping at PATH
        (registers/3) must be rejected, and an error must name WRONG at PATH

The YAML is read as the YAML language server reads it (YAML 1.2: only
true/false are booleans), not as PyYAML's YAML 1.1 default would, where the
reactions key `on:` would turn into the boolean True.
"""
import json
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:
    sys.exit(f"{e}: install python3-jsonschema and python3-yaml (tools/setup.sh does)")


class Yaml12Loader(yaml.SafeLoader):
    pass


# Drop YAML 1.1's yes/no/on/off booleans: keep only true/false.
Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=Yaml12Loader)


def error_path(error):
    return "/".join(str(part) for part in error.absolute_path) or "(top level)"


def deepest(errors):
    # An error under anyOf/if-then carries the branch errors as its context;
    # the most specific one names the misspelt key.
    out = []
    for e in errors:
        out.append(e)
        out.extend(deepest(e.context or []))
    return out


def markdown_databases(page):
    """(where, document) for each ```yaml block of page that is a database."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    out = []
    for match in re.finditer(r"^```yaml([^\n]*)\n(.*?)^```", text, re.S | re.M):
        if "file=" in match.group(1) or "excerpt=" in match.group(1):
            continue
        line = text.count("\n", 0, match.start()) + 1
        out.append((f"{page}:{line}", yaml.load(match.group(2), Loader=Yaml12Loader)))
    return out


def validate_all(validator, documents):
    failed = 0
    for path, document in documents:
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        for e in errors:
            print(f"{path}: {error_path(e)}: {e.message}", file=sys.stderr)
        failed += bool(errors)
    print(f"{len(documents) - failed} of {len(documents)} databases validate")
    return 1 if failed else 0


def check_misspelling(validator, path, where, key, wrong):
    document = load(path)
    mapping = document
    for part in where.split("/"):
        mapping = mapping[int(part)] if isinstance(mapping, list) else mapping[part]
    if key not in mapping:
        print(f"{path}: {where} has no key '{key}' to misspell", file=sys.stderr)
        return 1
    mapping[wrong] = mapping.pop(key)
    errors = deepest(validator.iter_errors(document))
    named = [e for e in errors if error_path(e) == where and f"'{wrong}'" in e.message]
    for e in errors:
        print(f"{path} ({wrong}): {error_path(e)}: {e.message}")
    if not named:
        print(f"{path}: the misspelt key '{wrong}' was not reported at {where}", file=sys.stderr)
        return 1
    return 0


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    if argv[2] == "--misspell":
        if len(argv) != 7:
            print(__doc__, file=sys.stderr)
            return 2
        return check_misspelling(validator, *argv[3:7])
    if argv[2] == "--markdown":
        documents = [block for page in argv[3:] for block in markdown_databases(page)]
        if not documents:
            print("no yaml database block in the pages", file=sys.stderr)
            return 1
        return validate_all(validator, documents)
    return validate_all(validator, [(path, load(path)) for path in argv[2:]])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
