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

cache=${XDG_CACHE_HOME:-$HOME/.cache}/regemu/uml
gen=$cache/gen_init_cpio
if [[ ! -x $gen ]]; then
  source_tar=/usr/src/linux-source-6.1.tar.xz
  [[ -r $source_tar ]] || { echo "$0: $source_tar is missing: install linux-source-6.1 (tools/setup.sh does)" >&2; exit 1; }
  mkdir -p "$cache"
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  tar -xJf "$source_tar" -C "$scratch" linux-source-6.1/usr/gen_init_cpio.c
  cc -O2 -o "$gen.tmp.$$" "$scratch/linux-source-6.1/usr/gen_init_cpio.c"
  mv "$gen.tmp.$$" "$gen"
fi

list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
  for dir in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /mnt /root /etc; do
    echo "dir $dir 0755 0 0"
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
    [[ -r $src && $dest == /* && $extra == *:* ]] || { echo "$0: '$extra' is not a readable FILE:/DEST" >&2; exit 1; }
    echo "file $dest $(realpath "$src") 0644 0 0"
  done
} >"$list"
"$gen" "$list" >"$out"
realpath "$out"
