# SPDX-License-Identifier: GPL-2.0-only
# The kernels of kernels.matrix: parse the matrix, resolve each line's
# headers package to today's newest, and find (or prepare) the build tree
# of a kernel release.  Source it after lib.sh, apt-suite.sh and chroot.sh.

PCL_MATRIX=${PCL_MATRIX:-$PCL_TOP/kernels.matrix}
. "$PCL_TOP/scripts/selfkernel.sh"
# What a build chroot needs besides the headers (which bring the compiler
# and kbuild): make, binutils (trixie's compiler package does not pull in
# the assembler), and perl for the kernel-doc check of W=1 (up to 6.x).
PCL_CHROOT_BASE="make binutils perl"

# matrix_lines: "name suite arch flags regex" for every kernel.
matrix_lines()
{
	[ -r "$PCL_MATRIX" ] || die "no kernel matrix at $PCL_MATRIX"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PCL_MATRIX" |
		awk 'NF != 5 { printf "bad matrix line: %s\n", $0 > "/dev/stderr"; exit 1 } { print }'
}

# matrix_line NAME: that kernel's line, or nothing.
matrix_line()
{
	matrix_lines | awk -v n="$1" '$1 == n'
}

# headers_resolve SUITE REGEX [PREFIX]: the newest installable package
# matching REGEX among those named PREFIX* (default linux-headers-).
# Remembered until the suite's package lists are next refreshed.
headers_resolve()
{
	local suite=$1 regex=$2 prefix=${3:-linux-headers-} pkg dir memo
	dir=$(_suite_apt_dir "$suite")
	memo=$dir/resolved/$(printf '%s' "$regex" | md5sum | cut -c1-16)
	if [ -s "$memo" ] && [ "$memo" -nt "$dir/state/updated" ] &&
		{ [ "${PCL_APT_HOLD:-}" = 1 ] || [ -z "$(find "$dir/state/updated" -mmin +360)" ]; }; then
		cat "$memo"
		return 0
	fi
	for pkg in $(suite_apt "$suite" apt-cache pkgnames "$prefix" |
		grep -E "^($regex)\$" | sort -rV); do
		# pkgnames also lists names that have no candidate any more.
		if suite_apt "$suite" apt-cache policy "$pkg" |
			grep -q '^  Candidate: [^(]'; then
			mkdir -p "$dir/resolved"
			echo "$pkg" >"$memo"
			echo "$pkg"
			return 0
		fi
	done
	return 1
}

# kernel_prepare NAME: resolve NAME's headers, make sure its chroot has
# them, and set KNAME KSUITE KARCH KFLAGS KPKG KVER KROOT KDIR (KDIR is the
# build tree as seen inside KROOT) and KMAKE_ARCH (ARCH= for kbuild, or
# empty: the tree's own).
kernel_prepare()
{
	local line regex
	line=$(matrix_line "$1")
	[ -n "$line" ] || die "no kernel named '$1' in $PCL_MATRIX"
	read -r KNAME KSUITE KARCH KFLAGS regex <<<"$line"
	KMAKE_ARCH=""
	if [[ ,$KFLAGS, == *,self,* ]]; then
		_kernel_prepare_self
		return
	fi
	KPKG=$(headers_resolve "$KSUITE" "$regex") || {
		printf 'error: no package in %s matches %s\n' "$KSUITE" "$regex" >&2
		return 1
	}
	KVER=${KPKG#linux-headers-}
	KDIR=/lib/modules/$KVER/build
	if [ "$KARCH" = i386 ] && ! host_runs_i386; then
		_kernel_prepare_biarch
		return
	fi
	KROOT=$(chroot_dir "$KSUITE" "$KARCH")
	chroot_ensure "$KSUITE" "$KARCH" $PCL_CHROOT_BASE "$KPKG" || return 1
	chroot_purge_except "$KSUITE" "$KARCH" "$regex" "$KPKG" || return 1
	# The build link is absolute: look from inside.
	chroot_run "$KROOT" test -e "$KDIR/Makefile" || {
		printf 'error: %s installed but %s has no Makefile in %s\n' "$KPKG" "$KDIR" "$KROOT" >&2
		return 1
	}
}

# _kernel_prepare_self: a self-built line (scripts/selfkernel.sh), built
# now unless cached; its kbuild tree is in the cache, which kernel_run
# shows inside the suite's amd64 chroot.
_kernel_prepare_self()
{
	selfkernel_resolve "$KNAME" || return 1
	selfkernel_build || return 1
	KPKG=$SK_PKG
	KVER=$(cat "$SK_DIR/guest/release")
	KARCH=amd64 KMAKE_ARCH=$SK_KARCH
	KROOT=$(chroot_dir "$KSUITE" "$KARCH")
	KDIR=$SK_DIR/build
	# what `make modules_install` leaves on a self-built kernel's system:
	# /lib/modules/RELEASE/build, for DKMS and the feature probe (it
	# resolves where kernel_run binds the cache)
	mkdir -p "$KROOT/lib/modules/$KVER"
	ln -sfn "$KDIR" "$KROOT/lib/modules/$KVER/build"
}

# host_runs_i386: whether this machine's kernel runs 32-bit x86 programs
# (IA32 emulation can be left out of a kernel or switched off at boot).
host_runs_i386()
{
	local probe=$PCL_CACHE/probe/i386-exit
	if [ -z "${_pcl_host_i386:-}" ]; then
		_pcl_host_i386=no
		if [ ! -x "$probe" ]; then
			mkdir -p "$(dirname "$probe")"
			# exit(0) through the 32-bit system call gate; no libc needed
			printf 'void _start(void)\n{\n\t__asm__ volatile("movl $1, %%eax; xorl %%ebx, %%ebx; int $0x80");\n}\n' |
				gcc -m32 -nostdlib -static -x c -o "$probe.$$" - 2>/dev/null &&
				mv "$probe.$$" "$probe"
		fi
		if [ -x "$probe" ] && "$probe" 2>/dev/null; then
			_pcl_host_i386=yes
		fi
	fi
	[ "$_pcl_host_i386" = yes ]
}

# _kernel_prepare_biarch: a 686-pae kernel on a host that cannot run i386
# programs builds in the amd64 chroot of its suite, the way the kernel
# itself is cross-built: same compiler (the 32-bit flags come from the
# kernel's own .config), the amd64 build of the same kbuild tools, and the
# flavour's headers unpacked beside the amd64 ones (installing them would
# drag in the i386 compiler, which cannot run here).  One tool must be the
# i386 one: modpost knows the device table layouts of the word size it was
# built for (Debian's amd64 kbuild has 64-bit layouts only); it runs under
# qemu-user.
_kernel_prepare_biarch()
{
	local deps debs stamp old kbuild hdr
	KARCH=amd64
	KROOT=$(chroot_dir "$KSUITE" "$KARCH")
	hdr=$KROOT/usr/src/linux-headers-$KVER
	stamp=$hdr/.pcl-unpacked
	deps=$(suite_apt "$KSUITE" apt-cache show "$KPKG:i386" |
		sed -n 's/^Depends: //p' | head -n 1 | tr ',' '\n' |
		sed 's/([^)]*)//; s/|.*//; s/[[:space:]]//g') || return 1
	kbuild=$(grep '^linux-kbuild-' <<<"$deps") ||
		die "$KPKG: no linux-kbuild dependency"
	_chroot_foreign_i386 "$KSUITE" || return 1
	# shellcheck disable=SC2086 # one word per package
	chroot_ensure "$KSUITE" "$KARCH" $PCL_CHROOT_BASE $deps qemu-user libc6:i386 || return 1
	[ -e "$stamp" ] && return 0
	debs=$PCL_CACHE/biarch/$KVER
	log "kernel $KVER: unpacking the i386 headers into the $KSUITE/amd64 chroot"
	run_logged "$PCL_LOGS/biarch-$KVER.log" "download of $KPKG:i386 and $kbuild:i386" \
		suite_download "$KSUITE" "$debs" "$KPKG:i386" "$kbuild:i386" || return 1
	# what an earlier (or interrupted) unpack left
	rm -rf "$hdr"
	for old in "$KROOT"/usr/src/linux-headers-*-686-pae; do
		[ -e "$old/.pcl-unpacked" ] || continue
		rm -rf "$old" "$KROOT/lib/modules/$(basename "${old#*/linux-headers-}")"
	done
	# through a copy that follows the chroot's merged-/usr symlinks
	# (dpkg -x into the root would replace /lib with a directory)
	mkdir -p "$debs/headers" "$debs/kbuild"
	dpkg -x "$debs"/"$KPKG"_*.deb "$debs/headers" || return 1
	dpkg -x "$debs"/"$kbuild"_*.deb "$debs/kbuild" || return 1
	tar -C "$debs/headers" -cf - . | tar -C "$KROOT" -xf - --keep-directory-symlink || return 1
	_biarch_modpost "$hdr" "$debs/kbuild/usr/lib/$kbuild/scripts/mod/modpost.real-lsb-32" || return 1
	rm -rf "$debs"
	touch "$stamp"
}

# _chroot_foreign_i386 SUITE: the suite's amd64 chroot takes i386 packages.
_chroot_foreign_i386()
{
	local root
	root=$(chroot_dir "$1" amd64)
	chroot_ensure "$1" amd64 || return 1
	chroot_run "$root" dpkg --print-foreign-architectures | grep -qx i386 && return 0
	chroot_run "$root" dpkg --add-architecture i386
}

# _biarch_modpost HEADERS MODPOST: the flavour's scripts directory becomes
# a tree of links to kbuild's, except modpost: the given i386 one, run by
# qemu-i386 (the libc it needs is the chroot's libc6:i386).
_biarch_modpost()
{
	local hdr=$1 real=$2 kb e
	kb=$(readlink "$hdr/scripts") || die "$hdr/scripts is not kbuild's link"
	rm "$hdr/scripts"
	mkdir -p "$hdr/scripts/mod"
	for e in "$hdr/$kb"/*; do
		[ "${e##*/}" = mod ] || ln -s "../$kb/${e##*/}" "$hdr/scripts/"
	done
	cp "$real" "$hdr/scripts/mod/modpost.i386"
	cat >"$hdr/scripts/mod/modpost" <<-'SH'
		#!/bin/sh
		# i386 modpost: its device table layouts are the 32-bit ones
		exec qemu-i386 "$(dirname "$0")/modpost.i386" "$@"
	SH
	chmod 755 "$hdr/scripts/mod/modpost"
}

# kernel_locate KVER: set KROOT (empty: the host) and KDIR for a kernel
# release (or a matrix name): the host's own headers first, then a chroot
# that has them, then the matrix line whose headers resolve to it.
kernel_locate()
{
	local kver=$1 d name suite arch flags regex pkg
	KNAME="" KFLAGS=-
	if [ -n "$(matrix_line "$kver")" ]; then
		kernel_prepare "$kver"
		return
	fi
	KVER=$kver
	if [ -e "/lib/modules/$kver/build/Makefile" ]; then
		KROOT="" KDIR=/lib/modules/$kver/build
		return 0
	fi
	for d in "$PCL_CACHE"/chroots/*/lib/modules/"$kver"/build; do
		[ -L "$d" ] || [ -d "$d" ] || continue
		d=${d%/lib/modules/"$kver"/build}
		chroot_run "$d" test -e "/lib/modules/$kver/build/Makefile" || continue
		KROOT=$d KDIR=/lib/modules/$kver/build
		# chroots are named SUITE-ARCH
		d=$(basename "$d")
		chroot_ensure "${d%-*}" "${d##*-}" $PCL_CHROOT_BASE
		return
	done
	local known=""
	while read -r name suite arch flags regex; do
		if [[ ,$flags, == *,self,* ]]; then
			selfkernel_resolve "$name" || continue
			pkg=$(cat "$SK_DIR/guest/release" 2>/dev/null) || pkg="(self-built, not built yet)"
			if [ "$pkg" = "$kver" ]; then
				kernel_prepare "$name"
				return
			fi
			known+=$(printf '         %-20s %s' "$name" "$pkg")$'\n'
			continue
		fi
		pkg=$(headers_resolve "$suite" "$regex") || continue
		if [ "$pkg" = "linux-headers-$kver" ]; then
			kernel_prepare "$name"
			return
		fi
		known+=$(printf '         %-20s %s' "$name" "${pkg#linux-headers-}")$'\n'
	done < <(matrix_lines)
	printf 'error: no headers for kernel %s: not on this host, in no chroot, and no\n' "$kver" >&2
	printf '       line of %s resolves to it.  Kernels of the matrix today:\n%s' \
		"$PCL_MATRIX" "$known" >&2
	return 1
}

# kernel_run CMD...: run CMD where the kernel's tree is (chroot or host),
# with the cache's build directory visible at the same path.
kernel_run()
{
	if [ -n "$KROOT" ]; then
		local binds=(--bind "$PCL_CACHE/build:$PCL_CACHE/build")
		mkdir -p "$PCL_CACHE/build"
		# a self-built kernel's tree is in the cache too
		[[ $KDIR != "$PCL_SELFBUILT"/* ]] || binds+=(--bind "$PCL_SELFBUILT:$PCL_SELFBUILT")
		chroot_run "$KROOT" "${binds[@]}" "$@"
	else
		"$@"
	fi
}
