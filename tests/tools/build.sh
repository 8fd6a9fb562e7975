#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the guest-side test tools (tests/tools/*.c) as static binaries in
# the cache, each only when its source changed.  Prints the directory.
set -eu
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

out=$PCL_CACHE/tools
need_host_packages gcc libc6-dev
mkdir -p "$out"
for src in "$PCL_TOP"/tests/tools/*.c; do
	name=$(basename "$src" .c)
	bin=$out/$name
	[ -x "$bin" ] && [ "$bin" -nt "$src" ] && continue
	log "building $name (static)"
	run_logged "$PCL_LOGS/tools-$name.log" "gcc -static $name.c" \
		gcc -static -O2 -Wall -Wextra -Werror -o "$bin.new.$$" "$src"
	mv -f "$bin.new.$$" "$bin"
done
echo "$out"
