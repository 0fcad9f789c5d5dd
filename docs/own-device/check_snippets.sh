#!/bin/sh
# Checks that the code blocks of a markdown file are the files they quote.
# A block opened as
#   ```LANG file=PATH       must equal the file PATH, byte for byte (less its last newline)
#   ```LANG excerpt=PATH    must appear in the file PATH as consecutive whole lines
# (PATH relative to the current directory); blocks without either are not
# checked. Exits 1 after listing every block that differs, 2 when a quoted
# file cannot be read or the markdown names no file at all.
#   sh docs/own-device/check_snippets.sh docs/own-device.md    # from the source root
set -eu
[ $# -eq 1 ] || { echo "usage: $0 FILE.md" >&2; exit 2; }
awk -v md="$1" '
function slurp(path,    text, line, status) {
  text = ""
  while ((status = (getline line < path)) > 0) text = text line "\n"
  if (status < 0) { printf "%s:%d: cannot read %s\n", md, start, path; missing = 1; return "" }
  close(path)
  return text
}
/^```/ && !inside && match($0, /(file|excerpt)=[^ ]+/) {
  split(substr($0, RSTART, RLENGTH), kv, "=")
  mode = kv[1]; path = kv[2]; block = ""; inside = 1; start = NR; ++blocks
  next
}
/^```[ \t]*$/ && inside {
  inside = 0
  text = slurp(path)
  if (missing) exit 2
  ok = (mode == "file") ? (text == block) : (index("\n" text, "\n" block) > 0)
  if (!ok) { printf "%s:%d: the block differs from %s (%s)\n", md, start, path, mode; ++bad }
  next
}
inside { block = block $0 "\n" }
END {
  if (missing) exit 2
  if (inside) { printf "%s:%d: block never closed\n", md, start; exit 1 }
  if (blocks == 0) { printf "%s: no block names a file\n", md; exit 2 }
  if (bad) exit 1
  printf "%s: %d blocks match their files\n", md, blocks
}' "$1"
