#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The static busybox of a guest's initramfs, for the guest kernel's word
# size: the host's own (package busybox-static) for 64-bit kernels,
# bookworm's i386 build, unpacked into the cache, for 32-bit ones (this
# machine need not be able to run it).  Prints its path.
#
# Usage: vm/guest/busybox.sh amd64|i386
set -eu

. "$(dirname "$0")/../../scripts/lib.sh"
. "$PCL_TOP/scripts/apt-suite.sh"

case ${1:-} in
amd64)
	need_host_packages busybox-static || die "cannot install busybox-static"
	echo /bin/busybox
	;;
i386)
	dir=$PCL_CACHE/guest/busybox-i386
	if [ ! -x "$dir/busybox" ]; then
		mkdir -p "$dir"
		exec 9>"$dir.lock"
		flock 9
		if [ ! -x "$dir/busybox" ]; then
			log "busybox: fetching bookworm's busybox-static:i386"
			rm -rf "$dir/debs" "$dir/root"
			run_logged "$PCL_LOGS/busybox-i386.log" "download of busybox-static:i386" \
				suite_download bookworm "$dir/debs" busybox-static:i386
			dpkg -x "$dir"/debs/busybox-static_*_i386.deb "$dir/root"
			mv "$dir/root/bin/busybox" "$dir/busybox.new"
			rm -rf "$dir/debs" "$dir/root"
			mv "$dir/busybox.new" "$dir/busybox"
		fi
	fi
	echo "$dir/busybox"
	;;
*) die "usage: $0 amd64|i386" ;;
esac
