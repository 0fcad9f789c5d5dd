#!/usr/bin/env bash
# Real-kernel numbers for yaml/nvme under `regemu boot` (docs/real-kernels.md),
# each against a baseline measured in the same run:
#   - boot to /dev/nvme0n1: virtual time (the guest's /proc/uptime) and wall
#     time (the host's clock when the guest prints it);
#   - 4 KiB O_DIRECT reads of /dev/nvme0n1 per second of wall time, and the
#     same number of 4 KiB reads of /dev/zero (no device at all) in the same
#     boot, so the device path's own cost per read is the difference.
# Not run in CI (a benchmark, not a test).
#
#   bench/uml_nvme_bench.sh [REGEMU] [READS]
#       REGEMU: the regemu binary (default build/release/bin/regemu)
#       READS:  reads per measurement (default 4000)
set -euo pipefail
cd "$(dirname "$0")/.."
regemu=${1:-build/release/bin/regemu}
reads=${2:-4000}
kernel=$(tools/uml/build-kernel.sh | tail -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/init" <<SH
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
while [ ! -b /dev/nvme0n1 ]; do sleep 0.01; done
echo "bench: nvme0n1 \$(cut -d' ' -f1 /proc/uptime)"
echo "bench: zero start \$(cut -d' ' -f1 /proc/uptime)"
dd if=/dev/zero of=/dev/null bs=4096 count=$reads 2>/dev/null
echo "bench: zero end \$(cut -d' ' -f1 /proc/uptime)"
echo "bench: nvme start \$(cut -d' ' -f1 /proc/uptime)"
dd if=/dev/nvme0n1 of=/dev/null bs=4096 count=$reads iflag=direct 2>/dev/null
echo "bench: nvme end \$(cut -d' ' -f1 /proc/uptime)"
poweroff -f
SH
tools/uml/make-initramfs.sh "$work/bench.cpio" "$work/init" >/dev/null

# Each console line stamped with the host's clock as it arrives.
start=$EPOCHREALTIME
"$regemu" boot --kernel "$kernel" --initrd "$work/bench.cpio" --timeout 600 yaml/nvme 2>"$work/err" |
  while IFS= read -r line; do
    case $line in bench:*) echo "$EPOCHREALTIME ${line%$'\r'}" ;; esac
  done > "$work/stamps"
grep -q "regemu boot: the kernel powered off" "$work/err" || { cat "$work/err" >&2; exit 1; }

awk -v start="$start" -v reads="$reads" '
  { wall[$3 ($4 == "start" || $4 == "end" ? " " $4 : "")] = $1; virt[$3 ($4 == "start" || $4 == "end" ? " " $4 : "")] = $NF }
  END {
    printf "boot to /dev/nvme0n1: %.3f s virtual, %.3f s wall\n", virt["nvme0n1"], wall["nvme0n1"] - start
    zero = wall["zero end"] - wall["zero start"]
    nvme = wall["nvme end"] - wall["nvme start"]
    printf "%d reads of 4 KiB: /dev/zero %.3f s wall (%.0f/s), /dev/nvme0n1 O_DIRECT %.3f s wall (%.0f/s, %.2f s virtual)\n",
           reads, zero, reads / zero, nvme, reads / nvme, virt["nvme end"] - virt["nvme start"]
    printf "the device path per read: %.1f us wall (nvme minus zero)\n", (nvme - zero) / reads * 1e6
  }' "$work/stamps"
