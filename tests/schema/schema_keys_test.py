#!/usr/bin/env python3
"""Every mapping the loader accepts is a mapping of the JSON Schema, key for key.

    schema_keys_test.py SCHEMA SOURCE_DIR

The loader checks a mapping's keys with SchemaReader::ExpectMap(node, what,
kSomeKeys); the key arrays are constexpr arrays of string literals in
regdb/*.cpp, regdb/checks/*.cpp and regdb/behaviour_configs/*.cpp. This test reads those arrays
(the ones passed to ExpectMap) and compares them with the schema's closed
mappings (additionalProperties: false), in both directions:

- every key array the loader uses equals the keys of some schema mapping
  (a key the loader accepts and the schema lacks would be marked as an
  error in the editor);
- every closed schema mapping equals some key array (a key the schema
  offers and the loader refuses would be completed, then rejected by
  `regemu check`).

`acknowledge`, which ExpectMap accepts in every mapping, is compared apart:
it must be on every closed mapping of the schema.
"""
import glob
import json
import os
import re
import sys

ACKNOWLEDGE = "acknowledge"
# Every behaviour kind's mapping takes `for_each`, which the loader reads
# before the kind's check (regdb/behaviour_table.hpp): compared apart too.
FOR_EACH = "for_each"

# Schema mappings that are narrower than the array the loader checks them
# with, on purpose, with the reason.
NARROWER = {
    # A block's registers are read with the register keys; `space` is then
    # refused ("inherited from the block"), so the schema leaves it out.
    "block_register": ("register", {"space"}),
}

ARRAY = re.compile(r"std::array<std::string_view,\s*\d+>\s+(k\w+)\s*\{([^}]*)\}")
ROLES = re.compile(r"std::array<Role,\s*\d+>\s+(k\w+)\s*\{\{(.*?)\}\};", re.S)
EXPECT_MAP = re.compile(r"ExpectMap\(([^;]*?)\)\)")


def loader_key_sets(source_dir):
    """(file:array, frozenset of keys) for each key array passed to ExpectMap."""
    files = glob.glob(os.path.join(source_dir, "regdb", "*.cpp"))
    files += glob.glob(os.path.join(source_dir, "regdb", "behaviour_configs", "*.cpp"))
    files += glob.glob(os.path.join(source_dir, "regdb", "checks", "*.cpp"))
    out = []
    for path in sorted(files):
        text = open(path, encoding="utf-8").read()
        arrays = {}
        for name, body in ARRAY.findall(text):
            arrays.setdefault(name, []).append(frozenset(re.findall(r'"([^"]*)"', body)))
        for name, body in ROLES.findall(text):
            # oa_unit.cpp's register roles: {"control", &...}, the key first.
            arrays.setdefault("roles", []).append(frozenset(re.findall(r'\{"(\w+)"', body)))
        used = set()
        for call in EXPECT_MAP.findall(text):
            used.update(re.findall(r"\b(k\w*Keys)\b", call))
            if re.search(r",\s*keys\s*$", call):
                used.add("roles")  # built from kRoles at run time
        for name in sorted(used):
            if name not in arrays:
                sys.exit(f"{path}: ExpectMap uses {name}, whose definition this test cannot read")
            for keys in arrays[name]:
                out.append((f"{os.path.relpath(path, source_dir)}:{name}", keys))
    if len(out) < 50:
        sys.exit(f"found only {len(out)} key arrays in {source_dir}: the source layout changed")
    return out


def schema_mappings(schema):
    """(path in the schema, frozenset of keys) for each closed mapping."""
    out = []

    def walk(node, path):
        if isinstance(node, dict):
            if node.get("additionalProperties") is False and "properties" in node:
                out.append((path, node["properties"]))
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}/{i}")

    walk(schema, "#")
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.load(open(argv[1], encoding="utf-8"))
    loader = loader_key_sets(argv[2])
    loader_sets = {keys for _, keys in loader}
    failures = []

    mappings = schema_mappings(schema)
    schema_sets = set()
    for path, properties in mappings:
        if ACKNOWLEDGE not in properties:
            failures.append(f"schema {path}: no `{ACKNOWLEDGE}` (the loader accepts it in every mapping)")
        keys = frozenset(properties) - {ACKNOWLEDGE}
        name = path.rsplit("/", 1)[-1]
        if name.startswith("behaviour_") and "kind" in properties:
            if FOR_EACH not in properties:
                failures.append(f"schema {path}: no `{FOR_EACH}` (every behaviour kind takes it)")
            keys -= {FOR_EACH}
        if name in NARROWER:
            wider, left_out = NARROWER[name]
            keys |= left_out
        schema_sets.add(keys)
        if keys not in loader_sets:
            closest = min(loader, key=lambda item: len(item[1] ^ keys))
            failures.append(f"schema {path}: keys {sorted(keys)} are no mapping of the loader; closest is "
                            f"{closest[0]}: only in the schema {sorted(keys - closest[1])}, only in the loader "
                            f"{sorted(closest[1] - keys)}")

    for where, keys in loader:
        if keys not in schema_sets:
            closest = min(mappings, key=lambda item: len(frozenset(item[1]) - {ACKNOWLEDGE} ^ keys))
            theirs = frozenset(closest[1]) - {ACKNOWLEDGE}
            failures.append(f"{where}: keys {sorted(keys)} are no mapping of the schema; closest is {closest[0]}: "
                            f"only in the loader {sorted(keys - theirs)}, only in the schema {sorted(theirs - keys)}")

    for failure in failures:
        print(failure, file=sys.stderr)
    print(f"{len(loader)} loader key arrays, {len(mappings)} closed schema mappings, {len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
