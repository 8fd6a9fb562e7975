#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build QEMU with the pcmcia-legacy device models (vm/qemu/hw/pcmcia).
#
# Source: Debian's qemu source package for this machine's suite, fetched
# with `apt-get source` (so Debian's patches are applied) through the
# private apt configuration of scripts/apt-suite.sh.  Our models are
# linked into the tree as hw/pcmcia/pcl; vm/qemu/patches/*.patch is the
# only change to QEMU's own files.  Firmware: Debian's seabios and
# qemu-system-data, compiled in as the firmware search path.
#
# usage: vm/qemu/build.sh [--print-binary | --force]
#   (none)          build if anything changed; print the binary's path
#   --print-binary  only print the path (fails if it was never built)
#   --force         run the build even if nothing seems to have changed
# Environment: PCL_JOBS (default 2), PCL_QEMU_SUITE (default: the host's),
# PCL_QEMU_REFRESH=1 fetches the source again (a from-scratch build),
# PCL_QEMU_HOME (default $PCL_CACHE/qemu) holds the source and the build:
# a second one lets work on other models go on beside running guests (a
# copy of a home configures its tree afresh, since a meson build
# directory holds absolute paths; its source is reused),
# PCL_QEMU_DEBUG=1 builds with debug info.

set -eu
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
. "$PCL_TOP/scripts/apt-suite.sh"

QEMU_HOME=${PCL_QEMU_HOME:-$PCL_CACHE/qemu}
BIN=$QEMU_HOME/bin/qemu-system-x86_64
STAMP=$QEMU_HOME/bin/.inputs
MODELS=$PCL_TOP/vm/qemu/hw/pcmcia
PATCHES=$PCL_TOP/vm/qemu/patches
JOBS=${PCL_JOBS:-2}
FIRMWARE=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
BUILD_LOG=$PCL_LOGS/qemu-build.log

CONFIGURE_OPTS=(
	--target-list=x86_64-softmmu
	# optional libraries off: a small, reproducible build; then the
	# few features the tests use
	--without-default-features
	--enable-kvm
	--enable-slirp
	--enable-fdt=system
	--disable-install-blobs
	--firmwarepath="$FIRMWARE"
	--with-pkgversion=pcmcia-legacy
)
[ "${PCL_QEMU_DEBUG:-0}" = 1 ] && CONFIGURE_OPTS+=(--enable-debug-info)

BUILD_DEPS=(dpkg-dev gcc make python3 ninja-build meson pkg-config
	libglib2.0-dev libpixman-1-dev zlib1g-dev libslirp-dev libfdt-dev flex bison
	seabios qemu-system-data)

host_suite()
{
	local suite
	suite=${PCL_QEMU_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-}")}
	[ -n "$suite" ] || die "cannot tell this machine's Debian suite; set PCL_QEMU_SUITE"
	echo "$suite"
}

# The unpacked source tree (a stable link to the version apt fetched).
tree()
{
	echo "$QEMU_HOME/tree"
}

# A copied home whose link still names the original's tree: its own copy.
own_tree()
{
	local own
	[ -L "$(tree)" ] || return 0
	own=$QEMU_HOME/src/$(basename "$(readlink "$(tree)")")
	if [ -d "$own" ] && [ "$(readlink -f "$(tree)")" != "$(readlink -f "$own")" ]; then
		log "this home is a copy: building its own tree $own"
		ln -sfn "${own#"$QEMU_HOME"/}" "$(tree)"
	fi
}

fetch_source()
{
	local suite dir
	if [ "${PCL_QEMU_REFRESH:-0}" = 1 ]; then
		rm -rf "$QEMU_HOME/src" "$QEMU_HOME/tree"
	fi
	own_tree
	[ -e "$(tree)/debian/changelog" ] && return 0
	suite=$(host_suite)
	rm -rf "$QEMU_HOME/src"
	mkdir -p "$QEMU_HOME/src"
	log "fetching Debian's qemu source for $suite"
	(cd "$QEMU_HOME/src" &&
		run_logged "$PCL_LOGS/qemu-source.log" "apt-get source qemu ($suite)" \
			suite_apt "$suite" apt-get source -q qemu) || return 1
	dir=$(find "$QEMU_HOME/src" -mindepth 1 -maxdepth 1 -type d -name 'qemu-*' | head -n 1)
	[ -n "$dir" ] || die "apt-get source left no qemu-* directory; log: $PCL_LOGS/qemu-source.log"
	# a pristine tree: no patch of ours yet
	: >"$dir/.pcl-patches"
	# relative, so that a copy of the home links to its own copy
	ln -sfn "${dir#"$QEMU_HOME"/}" "$QEMU_HOME/tree"
	log "source: $(dpkg-parsechangelog -l "$dir/debian/changelog" -S Version)"
}

# The patch set a tree should have: names and contents.
patch_set()
{
	(cd "$PATCHES" && sha256sum -- *.patch)
}

# Our glue: the patches and the link to our models.  A fresh source takes
# the patches once and records them in .pcl-patches; a tree with other
# patches (one changed or removed since, or a tree of before the record)
# is fetched again, since a patch cannot be taken back reliably.
add_models()
{
	local p t applied
	t=$(tree)
	applied=$(cat "$t/.pcl-patches" 2>/dev/null) || applied=unknown
	if [ "$applied" != "$(patch_set)" ]; then
		if [ -n "$applied" ]; then
			log "the cached tree has other patches than vm/qemu/patches: fetching the source again"
			PCL_QEMU_REFRESH=1 fetch_source || return 1
			t=$(tree)
		fi
		rm -f "$t/.pcl-patches"
		for p in "$PATCHES"/*.patch; do
			log "applying $(basename "$p")"
			# shellcheck disable=SC2094 # the patch is only read
			run_logged "$PCL_LOGS/qemu-patch.log" "patch $(basename "$p")" \
				patch -d "$t" -p1 -N <"$p" || return 1
		done
		patch_set >"$t/.pcl-patches"
	fi
	if [ "$(readlink "$t/hw/pcmcia/pcl" 2>/dev/null)" != "$MODELS" ]; then
		# another checkout's models: ninja goes by file times, and this
		# checkout's may be older than the objects built from the other's
		rm -f "$t"/build/*/hw_pcmcia_pcl_* "$t"/build/trace/*hw_pcmcia_pcl*
	fi
	ln -sfn "$MODELS" "$t/hw/pcmcia/pcl"
}

configure_tree()
{
	local b want where
	b=$(tree)/build
	want="${CONFIGURE_OPTS[*]}"
	# a copied build directory would still compile the original's files
	where=$(cd "$b" 2>/dev/null && pwd -P) || where=
	if [ -e "$b/build.ninja" ] && [ "$(cat "$b/.pcl-configure" 2>/dev/null)" = "$want" ] &&
		[ "$(cat "$b/.pcl-where" 2>/dev/null || echo "$where")" = "$where" ]; then
		echo "$where" >"$b/.pcl-where"
		return 0
	fi
	rm -rf "$b"
	mkdir -p "$b"
	log "configuring: ${CONFIGURE_OPTS[*]}"
	(cd "$b" && run_logged "$PCL_LOGS/qemu-configure.log" "QEMU configure" \
		../configure "${CONFIGURE_OPTS[@]}") || return 1
	echo "$want" >"$b/.pcl-configure"
	(cd "$b" && pwd -P) >"$b/.pcl-where"
}

# ninja in the background, its [step/total] progress every 20 s.
compile()
{
	local b pid rc=0 n=0
	b=$(tree)/build
	mkdir -p "$(dirname "$BUILD_LOG")"
	ninja -C "$b" -j"$JOBS" qemu-system-x86_64 >"$BUILD_LOG" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		n=$((n + 1))
		if [ $((n % 20)) -eq 0 ]; then
			log "compiling $(grep -o '^\[[0-9]*/[0-9]*\]' "$BUILD_LOG" | tail -n 1)"
		fi
	done
	wait "$pid" || rc=$?
	# our own warnings stay visible even when the build succeeds
	grep -E '(^|/)hw/pcmcia/pcl/[^ ]*: (warning|error)' "$BUILD_LOG" >&2 || true
	if [ "$rc" -ne 0 ]; then
		printf 'error: QEMU build failed (exit %s); log: %s\n' "$rc" "$BUILD_LOG" >&2
		grep -E 'error|FAILED' "$BUILD_LOG" | head -n 20 | sed 's/^/    /' >&2
		return "$rc"
	fi
}

install_binary()
{
	local b
	b=$(tree)/build
	mkdir -p "$(dirname "$BIN")"
	cp "$b/qemu-system-x86_64" "$BIN.new"
	mv -f "$BIN.new" "$BIN"
	# the models must have registered
	"$BIN" -machine none -device help 2>/dev/null | grep -q '"i82092"' ||
		die "$BIN lacks the i82092 device; build log: $BUILD_LOG"
}

# Everything that decides the binary's content, as one hash.
inputs_hash()
{
	{
		echo "${CONFIGURE_OPTS[*]}"
		readlink -f "$(tree)" 2>/dev/null || true
		# paths relative to the checkout: checkouts with the same models
		# share the build
		(cd "$PCL_TOP/vm/qemu" &&
			find hw/pcmcia patches -type f -print0 | sort -z | xargs -0 sha256sum)
	} | sha256sum | cut -d' ' -f1
}

main()
{
	local force=0 hash
	case ${1:-} in
	--print-binary)
		[ -x "$BIN" ] || die "QEMU is not built yet; run make qemu"
		echo "$BIN"
		return 0
		;;
	--force) force=1 ;;
	'') ;;
	*) die "usage: $0 [--print-binary | --force]" ;;
	esac

	# one build at a time: several scripts may ask for QEMU at once
	mkdir -p "$QEMU_HOME"
	exec 9>"$QEMU_HOME/.build.lock"
	if ! flock -n 9; then
		log "waiting for another QEMU build to finish"
		flock 9
	fi
	hash=$(inputs_hash)
	if [ "$force" = 0 ] && [ -x "$BIN" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$hash" ]; then
		log "QEMU is up to date"
		echo "$BIN"
		return 0
	fi
	stage host-packages need_host_packages "${BUILD_DEPS[@]}"
	stage qemu-source fetch_source
	stage qemu-glue add_models
	stage qemu-configure configure_tree
	# what this build compiles (sources edited meanwhile rebuild next time)
	hash=$(inputs_hash)
	stage qemu-compile compile
	install_binary
	echo "$hash" >"$STAMP"
	log "QEMU built: $BIN"
	echo "$BIN"
}

main "$@"
