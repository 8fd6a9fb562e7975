#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the guest-side test tools (tests/tools/*.c) as static binaries in
# the cache, each only when its source (or a header of ours) changed.
# Prints the directory.
#
#   tests/tools/build.sh          x86-64 tools in $PCL_CACHE/tools
#   tests/tools/build.sh i386     32-bit tools in $PCL_CACHE/tools/i386
#                                 (gcc -m32, for the drivers' compat paths)
set -eu
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

# One build at a time: parallel test workers share the cache.
mkdir -p "$PCL_CACHE"
exec 9>"$PCL_CACHE/tools.lock"
flock 9

arch=${1:-native}
case $arch in
native)
	out=$PCL_CACHE/tools
	flags=()
	need_host_packages gcc libc6-dev
	;;
i386)
	out=$PCL_CACHE/tools/i386
	flags=(-m32)
	need_host_packages gcc gcc-multilib
	;;
*) die "usage: $0 [i386]" ;;
esac
# The drivers' user-space headers, as a package installs them.
uapi=$PCL_TOP/src/include/uapi
mkdir -p "$out"
for src in "$PCL_TOP"/tests/tools/*.c; do
	name=$(basename "$src" .c)
	bin=$out/$name
	if [ -x "$bin" ] && [ "$bin" -nt "$src" ] &&
		! find "$uapi" -name '*.h' -newer "$bin" | grep -q .; then
		continue
	fi
	log "building $name (static${flags[*]:+, ${flags[*]}})"
	run_logged "$PCL_LOGS/tools-$name-$arch.log" "gcc -static ${flags[*]:-} $name.c" \
		gcc -static -pthread -O2 -Wall -Wextra -Werror "${flags[@]}" -I"$uapi" \
		-o "$bin.new" "$src"
	mv -f "$bin.new" "$bin"
done
echo "$out"
