#!/usr/bin/env bash
# make-initramfs.sh OUT.cpio INIT [FILE:DEST ...]
#
# Packs an initramfs for `regemu boot`: Debian's static busybox (package
# busybox-static) with a link for each of its applets, the folders a boot
# mounts on, /dev/console (so that /init has a console before devtmpfs is
# mounted), INIT as /init and any FILE as DEST. The archive is an
# uncompressed newc cpio written by the kernel's own usr/gen_init_cpio,
# which makes device nodes without root; it is built once from Debian's
# linux-source-6.1 and cached. Prints the archive's path as its last line.
set -euo pipefail

if (($# < 2)); then
  echo "usage: $0 OUT.cpio INIT [FILE:DEST ...]" >&2
  exit 2
fi
out=$1
init=$2
shift 2

# busybox-static's binary: a dynamic one (package busybox) has an ELF interpreter.
busybox=/bin/busybox
if ! "$busybox" --list >/dev/null 2>&1 || readelf -l "$busybox" | grep -q "program interpreter"; then
  echo "$0: a static busybox is needed: install Debian's busybox-static (tools/setup.sh does)" >&2
  exit 1
fi
[[ -r $init ]] || { echo "$0: cannot read the init '$init'" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cache=${XDG_CACHE_HOME:-$HOME/.cache}/regemu/uml
gen=$cache/gen_init_cpio
if [[ ! -x $gen ]]; then
  source_tar=/usr/src/linux-source-6.1.tar.xz
  [[ -r $source_tar ]] || { echo "$0: $source_tar is missing: install linux-source-6.1 (tools/setup.sh does)" >&2; exit 1; }
  mkdir -p "$cache"
  tar -xJf "$source_tar" -C "$scratch" linux-source-6.1/usr/gen_init_cpio.c
  cc -O2 -o "$gen.tmp.$$" "$scratch/linux-source-6.1/usr/gen_init_cpio.c"
  mv "$gen.tmp.$$" "$gen"
fi

list=$scratch/list
# gen_init_cpio makes no parent folders (and the kernel skips an entry whose
# folder is missing), so every folder is listed, each once.
declare -A dirs=()
add_dir() {
  local d=$1
  [[ $d == / || -n ${dirs[$d]:-} ]] && return 0
  add_dir "$(dirname "$d")"
  dirs[$d]=1
  echo "dir $d 0755 0 0"
}
{
  for dir in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /mnt /root /etc; do
    add_dir "$dir"
  done
  echo "nod /dev/console 0600 0 0 c 5 1"
  echo "nod /dev/null 0666 0 0 c 1 3"
  echo "file /bin/busybox $busybox 0755 0 0"
  for applet in $("$busybox" --list-full); do
    [[ /$applet == /bin/busybox ]] && continue
    echo "slink /$applet /bin/busybox 0777 0 0"
  done
  echo "file /init $(realpath "$init") 0755 0 0"
  for extra in "$@"; do
    src=${extra%%:*}
    dest=${extra#*:}
    [[ -f $src && -r $src && $dest == /* && $extra == *:* ]] || { echo "$0: '$extra' is not a readable FILE:/DEST" >&2; exit 1; }
    # gen_init_cpio's list is split at blanks
    [[ $(realpath "$src")$dest != *[[:space:]]* ]] || { echo "$0: '$extra': blanks in a path are not supported" >&2; exit 1; }
    add_dir "$(dirname "$dest")"
    echo "file $dest $(realpath "$src") $(stat -L -c %a "$src") 0 0" # the file's own mode: executables stay executable
  done
} >"$list"
"$gen" "$list" >"$out"
realpath "$out"
