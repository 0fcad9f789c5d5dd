#!/usr/bin/env bash
# Builds the User-Mode Linux kernel regemu boots, from Debian 12's
# linux-source-6.1 package, the patches in tools/uml/patches/ (applied in
# name order) and the fragment tools/uml/uml.config.
#
#   tools/uml/build-kernel.sh [OUT_DIR]
#
# The kernel lands in OUT_DIR/<key>/linux (default OUT_DIR:
# ${XDG_CACHE_HOME:-$HOME/.cache}/regemu/uml), where <key> hashes the
# fragment, the patches, the linux-source-6.1 package version and this
# script: a second call with the same inputs only prints the path. The final
# .config is kept next to it as OUT_DIR/<key>/config.
#
# The kernel's absolute path is the last (and only) line of stdout; progress
# and the build's output go to stderr. REGEMU_UML_JOBS sets make's -j
# (default: nproc). The build runs under `nice -n 19`.
#
# The unpacked, patched sources and the out-of-tree build directory are
# cached in ${XDG_CACHE_HOME:-$HOME/.cache}/regemu/uml-src/<version>-<patches>
# and .../uml-build/<version>-<patches>; the build directory is reused, so a
# changed fragment rebuilds incrementally.
set -euo pipefail

exec 3>&1 1>&2 # stdout is for the result only

die() {
  echo "build-kernel: error: $*"
  exit 1
}
log() { echo "build-kernel: $*"; }

script=$(readlink -f "${BASH_SOURCE[0]}")
here=$(dirname "$script")
fragment="$here/uml.config"
shopt -s nullglob
patches=("$here"/patches/*.patch) # the glob sorts them by name
shopt -u nullglob
pkg=linux-source-6.1
tarball=/usr/src/linux-source-6.1.tar.xz
cache="${XDG_CACHE_HOME:-$HOME/.cache}/regemu"
out_dir="${1:-$cache/uml}"

(($# <= 1)) || die "usage: $0 [OUT_DIR]"
[[ -r $fragment ]] || die "the fragment $fragment is missing"

if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
  [[ ! -r $tarball ]]; then
  die "the Debian package $pkg is not installed ($tarball missing): run tools/setup.sh," \
    "or: sudo apt-get install $pkg busybox-static bc bison flex libelf-dev cpio"
fi
version=$(dpkg-query -W -f='${Version}' "$pkg")

patches_key=$(for p in "${patches[@]}"; do
  printf '%s ' "$(basename "$p")"
  sha256sum <"$p"
done | sha256sum | cut -c1-8)
key=$({
  printf 'linux-source-6.1 %s\npatches %s\n' "$version" "$patches_key"
  sha256sum <"$fragment"
  sha256sum <"$script"
} | sha256sum | cut -c1-16)

mkdir -p "$out_dir"
out_dir=$(readlink -f "$out_dir")
result="$out_dir/$key/linux"

if [[ -x $result ]]; then
  log "up to date: $result"
  echo "$result" >&3
  exit 0
fi

jobs="${REGEMU_UML_JOBS:-$(nproc)}"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "REGEMU_UML_JOBS must be a positive integer, not '$jobs'"

missing=()
for tool in make gcc bc bison flex xz patch flock; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
((${#missing[@]} == 0)) || die "missing tools: ${missing[*]} (tools/setup.sh installs them)"

src_root="$cache/uml-src/$version-$patches_key"
src="$src_root/linux-source-6.1"
build="$cache/uml-build/$version-$patches_key"
mkdir -p "$cache/uml-src" "$cache/uml-build"

# One build at a time per cache: the source and build directories are shared.
exec 9>"$cache/uml-build/.lock"
if ! flock -n 9; then
  log "waiting for another build-kernel.sh to finish (lock $cache/uml-build/.lock)"
  flock 9
fi
if [[ -x $result ]]; then # built by the one we waited for
  echo "$result" >&3
  exit 0
fi

start=$SECONDS

if [[ ! -f $src_root/.unpacked ]]; then
  log "unpacking $tarball ($pkg $version) into $src_root"
  rm -rf "$src_root" "$src_root.tmp"
  mkdir -p "$src_root.tmp"
  nice -n 19 tar -xf "$tarball" -C "$src_root.tmp"
  [[ -f $src_root.tmp/linux-source-6.1/Makefile ]] ||
    die "$tarball did not unpack to linux-source-6.1/"
  for p in "${patches[@]}"; do
    log "applying $(basename "$p")"
    patch -d "$src_root.tmp/linux-source-6.1" -p1 --forward --batch --quiet <"$p" ||
      die "$p does not apply to $pkg $version"
  done
  touch "$src_root.tmp/.unpacked"
  mv "$src_root.tmp" "$src_root"
fi

mkdir -p "$build"
kmake() { nice -n 19 make -C "$src" O="$build" ARCH=um "$@"; }

log "configuring in $build: tinyconfig + $fragment"
kmake -s tinyconfig
(cd "$src" && ARCH=um scripts/kconfig/merge_config.sh -m -O "$build" "$build/.config" "$fragment")
kmake -s olddefconfig

# Every line of the fragment must have survived olddefconfig: an option whose
# dependencies are not met is dropped silently.
bad=0
while IFS= read -r line || [[ -n $line ]]; do
  line="${line%"${line##*[![:space:]]}"}"
  if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
    opt=${BASH_REMATCH[1]}
    grep -qxF -- "$line" "$build/.config" && continue
    got=$(grep -E "^$opt=|^# $opt is not set" "$build/.config" || true)
    echo "build-kernel: error: $opt: the fragment asks for '$line', the final .config has '${got:-nothing: its dependencies are not met, or there is no such option}'"
    bad=1
  elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
    opt=${BASH_REMATCH[1]}
    if got=$(grep -E "^$opt=" "$build/.config"); then
      echo "build-kernel: error: $opt: the fragment says it is not set, the final .config has '$got'"
      bad=1
    fi
  fi
done <"$fragment"
((bad == 0)) || die "the final configuration ($build/.config) differs from $fragment;" \
  "see the option's 'depends on' in the Kconfig files (make -C $src O=$build ARCH=um menuconfig, then / and its name, shows why)"
log "configuration checked: every line of $(basename "$fragment") is in the final .config"

log "building with -j$jobs"
kmake -j"$jobs" linux

# ELF magic, ELFCLASS64 (byte 4 = 2) and EM_X86_64 (bytes 18-19 = 0x3e 0).
header=$(od -An -tx1 -N20 "$build/linux" | tr -d ' \n')
[[ $header == 7f454c4602* && ${header:36:4} == 3e00 ]] ||
  die "$build/linux is not a 64-bit x86-64 ELF (CONFIG_64BIT?): header $header"

mkdir -p "$out_dir/$key"
cp "$build/.config" "$out_dir/$key/config"
cp "$build/linux" "$result.tmp"
mv "$result.tmp" "$result"
log "built in $((SECONDS - start)) s: $result ($(stat -c %s "$result") bytes)"
echo "$result" >&3
