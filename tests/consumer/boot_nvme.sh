#!/usr/bin/env bash
# boot_nvme.sh REGEMU SHARE_DIR: `regemu boot` as a user meets it from the
# installed package: the installed initramfs packer, the user's own /init,
# the installed yaml/nvme, and the kernel REGEMU_UML_KERNEL names
# (tools/test.sh builds it; exit 77, ctest's skip, without it).
set -euo pipefail
regemu=$1
share=$2
if [[ -z ${REGEMU_UML_KERNEL:-} ]]; then
  echo "REGEMU_UML_KERNEL is not set: build a kernel with $share/uml/build-kernel.sh and set it"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
echo "model: $(cat /sys/class/nvme/nvme0/model 2>/dev/null) state: $(cat /sys/class/nvme/nvme0/state)"
poweroff -f
INIT
"$share/uml/make-initramfs.sh" "$scratch/initramfs.cpio" "$scratch/init" >/dev/null
"$regemu" boot --kernel "$REGEMU_UML_KERNEL" --initrd "$scratch/initramfs.cpio" --timeout 120 \
  "$share/yaml/nvme" >"$scratch/console" 2>"$scratch/report"
grep -q "state: live" "$scratch/console" || { cat "$scratch/console" "$scratch/report"; exit 1; }
grep -q "the kernel powered off" "$scratch/report" || { cat "$scratch/report"; exit 1; }
echo "booted: $(grep 'state:' "$scratch/console")"
