#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Self-built kernels: the lines of kernels.matrix flagged "self" are built
# from their suite's linux-source package with a small configuration of
# our own applied to allnoconfig: vm/kernels/guest.config (what every
# test guest needs) and vm/kernels/NAME.config.  They build in
# the suite's amd64 chroot (an i386 line builds with ARCH=i386, as a
# cross build) and are cached by source version and configuration.
#
# Source it after lib.sh, apt-suite.sh, chroot.sh and kernels.sh, or run:
#   scripts/selfkernel.sh NAME     build NAME unless cached; print its dir
#
# The directory holds:
#   guest/   vmlinuz, config, release, lib/modules/RELEASE: the layout of
#            vm/guest/kernel.sh, so every guest test can boot it
#   build/   kbuild's output tree, cleaned down to what out-of-tree
#            modules need: the KDIR of our module builds
#   build.log

PCL_SELFBUILT=$PCL_CACHE/selfbuilt
# What every self-built guest kernel has; NAME.config adds to it.
PCL_SELFKERNEL_BASE=$PCL_TOP/vm/kernels/guest.config
# What building a kernel takes besides the chroot's make and compiler.
PCL_SELFKERNEL_DEPS="make gcc bc bison flex libelf-dev libssl-dev cpio kmod xz-utils perl"

# selfkernel_resolve NAME: set SK_NAME SK_SUITE SK_ARCH SK_KARCH SK_PKG
# SK_SRCVER SK_CONFIG SK_DIR for a self-built line of the matrix.
selfkernel_resolve()
{
	local line flags regex hash
	line=$(matrix_line "$1")
	[ -n "$line" ] || die "no kernel named '$1' in $PCL_MATRIX"
	read -r SK_NAME SK_SUITE SK_ARCH flags regex <<<"$line"
	[[ ,$flags, == *,self,* ]] || die "kernel '$1' is not a self-built line of $PCL_MATRIX"
	case $SK_ARCH in
	amd64) SK_KARCH=x86_64 ;;
	i386) SK_KARCH=i386 ;;
	*) die "kernel '$1': no self-built kernels for $SK_ARCH" ;;
	esac
	SK_CONFIG=$PCL_TOP/vm/kernels/$SK_NAME.config
	[ -r "$SK_CONFIG" ] || die "kernel '$1': no configuration $SK_CONFIG"
	[ -r "$PCL_SELFKERNEL_BASE" ] || die "no $PCL_SELFKERNEL_BASE"
	SK_PKG=$(headers_resolve "$SK_SUITE" "$regex" linux-source-) || {
		printf 'error: no package in %s matches %s\n' "$SK_SUITE" "$regex" >&2
		return 1
	}
	SK_SRCVER=$(suite_apt "$SK_SUITE" apt-cache policy "$SK_PKG" |
		sed -n 's/^  Candidate: //p')
	[ -n "$SK_SRCVER" ] || die "$SK_PKG: no candidate version in $SK_SUITE"
	hash=$(_sk_fragment | md5sum | cut -c1-12)
	SK_DIR=$PCL_SELFBUILT/$SK_NAME/${SK_SRCVER//[~:+]/_}-$hash
}

# _sk_fragment: the configuration applied to allnoconfig.
_sk_fragment()
{
	cat "$PCL_SELFKERNEL_BASE" "$SK_CONFIG"
}

# _sk_run CMD...: in the suite's amd64 chroot, with the cache of
# self-built kernels at its own path.
_sk_run()
{
	chroot_run "$(chroot_dir "$SK_SUITE" amd64)" \
		--bind "$PCL_SELFBUILT:$PCL_SELFBUILT" "$@"
}

# _sk_source: the unpacked source tree of SK_PKG SK_SRCVER (shared by all
# configurations); prints its path.
_sk_source()
{
	local src=$PCL_SELFBUILT/src/${SK_SRCVER//[~:+]/_} debs tarball lock
	# every line's build uses the same tree: one unpack at a time
	mkdir -p "$PCL_SELFBUILT"
	exec {lock}>"$PCL_SELFBUILT/src.lock"
	flock "$lock"
	if [ ! -e "$src/.complete" ]; then
		debs=$PCL_SELFBUILT/debs/$SK_PKG
		rm -rf "$src" "$debs"
		log "kernel $SK_NAME: fetching $SK_PKG $SK_SRCVER" >&2
		run_logged "$PCL_LOGS/selfkernel-$SK_NAME-fetch.log" "download of $SK_PKG" \
			suite_download "$SK_SUITE" "$debs" "$SK_PKG=$SK_SRCVER" >&2 || return 1
		dpkg -x "$debs"/"$SK_PKG"_*.deb "$debs/root" || return 1
		tarball=$(find "$debs/root/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' | head -n 1)
		[ -n "$tarball" ] || die "$SK_PKG holds no source tarball"
		log "kernel $SK_NAME: unpacking $(basename "$tarball")" >&2
		mkdir -p "$src"
		tar -C "$src" --strip-components=1 -xf "$tarball" || return 1
		rm -rf "$debs"
		touch "$src/.complete"
	fi
	exec {lock}>&-
	echo "$src"
}

# _sk_check_config BUILD: every line of the fragment took effect (a symbol
# whose dependencies are not met is silently dropped by kconfig).
_sk_check_config()
{
	local cfg=$1/.config bad=() line sym val
	while read -r line; do
		case $line in
		'# CONFIG_'*' is not set')
			sym=${line#\# }
			sym=${sym%% *}
			grep -q "^$sym=" "$cfg" && bad+=("$sym=n")
			;;
		CONFIG_*=*)
			sym=${line%%=*} val=${line#*=}
			grep -qxF "$sym=$val" "$cfg" || bad+=("$line")
			;;
		esac
	done <"$SK_DIR/fragment.config"
	[ ${#bad[@]} -eq 0 ] && return 0
	printf 'error: kernel %s: these settings of %s and %s did not take effect (unmet dependencies?):\n' \
		"$SK_NAME" "$PCL_SELFKERNEL_BASE" "$SK_CONFIG" >&2
	printf '    %s\n' "${bad[@]}" >&2
	return 1
}

# _sk_make_progress LOG CMD...: run a kernel build, printing every 30 s how
# many objects it has compiled (of the last build's count, when known).
_sk_make_progress()
{
	local logf=$1 pid n total="" rc=0
	shift
	[ -r "$PCL_SELFBUILT/$SK_NAME/objects" ] && total=$(cat "$PCL_SELFBUILT/$SK_NAME/objects")
	"$@" >>"$logf" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 30 &
		wait $! || true
		n=$(grep -c '^  CC' "$logf" || true)
		log "kernel $SK_NAME: compiled $n${total:+ of about $total} objects"
	done
	wait "$pid" || rc=$?
	[ $rc -ne 0 ] || grep -c '^  CC' "$logf" >"$PCL_SELFBUILT/$SK_NAME/objects" || true
	return $rc
}

# selfkernel_build: build SK_DIR unless it is complete.
selfkernel_build()
{
	local src bld guest logf rel start
	if [ -e "$SK_DIR/.complete" ]; then
		# the last use, for _sk_prune
		touch "$SK_DIR/.complete"
		return 0
	fi
	mkdir -p "$PCL_SELFBUILT/$SK_NAME"
	exec {_pcl_sk_lock}>"$PCL_SELFBUILT/$SK_NAME.lock"
	flock "$_pcl_sk_lock"
	if [ -e "$SK_DIR/.complete" ]; then
		exec {_pcl_sk_lock}>&-
		return 0
	fi
	start=$(date +%s)
	# shellcheck disable=SC2086 # one word per package
	chroot_ensure "$SK_SUITE" amd64 $PCL_SELFKERNEL_DEPS || return 1
	src=$(_sk_source) || return 1
	bld=$SK_DIR/build guest=$SK_DIR/guest logf=$SK_DIR/build.log
	rm -rf "$SK_DIR"
	mkdir -p "$bld" "$guest"
	# which source tree it uses: _sk_prune keeps that one
	basename "$src" >"$SK_DIR/source"
	log "kernel $SK_NAME: configuring $SK_PKG $SK_SRCVER with $(basename "$PCL_SELFKERNEL_BASE") and $(basename "$SK_CONFIG") (log: $logf)"
	_sk_fragment >"$SK_DIR/fragment.config"
	run_logged "$logf" "allnoconfig of $SK_NAME" \
		_sk_run make -C "$src" O="$bld" ARCH="$SK_KARCH" \
		KCONFIG_ALLCONFIG="$SK_DIR/fragment.config" allnoconfig || return 1
	_sk_check_config "$bld" || return 1
	log "kernel $SK_NAME: building on $(nproc) CPUs"
	_sk_make_progress "$logf" _sk_run make -C "$bld" ARCH="$SK_KARCH" \
		-j"$(nproc)" bzImage modules || {
		printf 'error: build of kernel %s failed; log: %s\n' "$SK_NAME" "$logf" >&2
		tail -n 20 "$logf" | sed 's/^/    /' >&2
		return 1
	}
	rel=$(_sk_run make -s -C "$bld" ARCH="$SK_KARCH" kernelrelease)
	run_logged "$SK_DIR/install.log" "modules_install of $SK_NAME" \
		_sk_run make -C "$bld" ARCH="$SK_KARCH" INSTALL_MOD_PATH="$guest" \
		INSTALL_MOD_STRIP=1 modules_install || return 1
	cp "$bld/arch/x86/boot/bzImage" "$guest/vmlinuz"
	cp "$bld/.config" "$guest/config"
	echo "$rel" >"$guest/release"
	# The module tree's links point into the build; the guests do not
	# need them.
	rm -f "$guest/lib/modules/$rel/build" "$guest/lib/modules/$rel/source"
	# Objects out, what out-of-tree modules need stays (kbuild's "clean").
	run_logged "$SK_DIR/install.log" "make clean of $SK_NAME" \
		_sk_run make -C "$bld" ARCH="$SK_KARCH" clean || return 1
	touch "$SK_DIR/.complete"
	_sk_prune
	log "kernel $SK_NAME: $rel built in $(($(date +%s) - start)) s: $SK_DIR"
	exec {_pcl_sk_lock}>&-
}

# _sk_prune: builds of NAME but the current one and the one used last
# before it (two checkouts with different configurations, say a branch
# and main, do not rebuild in turn; a build is 10-20 MB), and source
# trees no build uses any more.
_sk_prune()
{
	local d used keep
	keep=$(ls -td "$PCL_SELFBUILT/$SK_NAME"/*/.complete 2>/dev/null |
		grep -vxF "$SK_DIR/.complete" | head -n 1 || true)
	for d in "$PCL_SELFBUILT/$SK_NAME"/*/; do
		d=${d%/}
		[ "$d" = "$SK_DIR" ] || [ "$d/.complete" = "$keep" ] || [ ! -d "$d" ] || rm -rf "$d"
	done
	used=$(cat "$PCL_SELFBUILT"/*/*/source 2>/dev/null || true)
	for d in "$PCL_SELFBUILT"/src/*/; do
		d=${d%/}
		grep -qxF "$(basename "$d")" <<<"$used" || rm -rf "$d"
	done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -eu
	. "$(dirname "$0")/lib.sh"
	. "$PCL_TOP/scripts/apt-suite.sh"
	. "$PCL_TOP/scripts/chroot.sh"
	. "$PCL_TOP/scripts/kernels.sh"
	[ $# -eq 1 ] || die "usage: $0 NAME (a line of kernels.matrix flagged self)"
	selfkernel_resolve "$1"
	selfkernel_build
	echo "$SK_DIR"
fi
