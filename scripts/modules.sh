#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make modules KVER=<release|matrix name>: build the drivers for one kernel
# with W=1.  Warnings in our files fail; warnings inside the kernel's own
# headers are listed but do not.  The kernel's tree is the host's
# /lib/modules/KVER/build if there is one, else a matrix chroot's.
#
# Builds what DKMS would build for that kernel (the drivers it does not
# ship); PCL_ALL_DRIVERS=1 builds every driver.  Prints the directory of
# the .ko files on stdout.
set -eu

. "$(dirname "$0")/lib.sh"
. "$PCL_TOP/scripts/apt-suite.sh"
. "$PCL_TOP/scripts/chroot.sh"
. "$PCL_TOP/scripts/kernels.sh"
. "$PCL_TOP/scripts/build.sh"

[ $# -eq 1 ] && [ -n "$1" ] || die "usage: make modules KVER=<kernel release or matrix name>"
kernel_locate "$1"

all=$(drivers_all)
[ -n "$all" ] || die "src/drivers.list lists no driver"
build_tree_prepare
kernel_missing_drivers
missing=$MISSING
if [ "${PCL_ALL_DRIVERS:-}" = 1 ]; then
	list=$all
else
	list=$missing
	for m in $all; do
		grep -qxF "$m" <<<"$missing" ||
			log "$m: skipped, kernel $KVER ships it ($(drivers_field "$m" 3) in $KCONFIG); PCL_ALL_DRIVERS=1 builds it"
	done
fi
# shellcheck disable=SC2086
list=$(echo $list)
if [ -z "$list" ]; then
	log "kernel $KVER ships every driver: nothing to build"
	rm -rf "$(modules_dir "$KVER")"
	mkdir -p "$(modules_dir "$KVER")"
	modules_dir "$KVER"
	exit 0
fi

logf=$PCL_LOGS/modules-$KVER.log
log "building $list for $KVER (in ${KROOT:-the host tree})"
rc=0
build_drivers "$list" "$logf" || rc=$?
if [ "$KWARN" -gt 0 ]; then
	log "$KWARN warning(s) inside the kernel's headers (not ours, not fatal); see $logf"
fi
if [ -n "$OURWARN" ]; then
	printf 'error: warnings in our files (W=1):\n' >&2
	sed 's/^[^ ]* /    /' <<<"$OURWARN" >&2
fi
if [ $rc -ne 0 ]; then
	for m in $list; do
		[[ " $BUILT " == *" $m "* ]] || printf 'error: %s did not build\n' "$m" >&2
	done
	printf 'error: build for %s failed; log: %s\n' "$KVER" "$logf" >&2
	tail -n 15 "$logf" | sed 's/^/    /' >&2
	exit 1
fi
log "built: $BUILT"
modules_dir "$KVER"
