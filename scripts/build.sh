# SPDX-License-Identifier: GPL-2.0-only
# Build the drivers of src/ for one kernel (KROOT, KDIR, KVER as set by
# kernel_prepare/kernel_locate in kernels.sh), with W=1, and judge the
# warnings: ours fail the build, the kernel headers' are only reported.
# Source it after lib.sh, apt-suite.sh, chroot.sh and kernels.sh.
#
# Out-of-tree output: kbuild writes its objects next to the sources (M=),
# and MO= (a separate output directory) only exists from 6.13, so each
# kernel builds a fresh copy of src/ in $PCL_CACHE/build/KVER; src/ stays
# clean.  The copy is rebuilt from scratch every time: an object kept from
# an earlier build would hide its warnings.

PCL_DRIVERS_SH=$PCL_TOP/src/drivers.sh

# drivers_all / drivers_field MODULE N: the table, via src/drivers.sh.
drivers_all()
{
	bash "$PCL_DRIVERS_SH" all
}

drivers_field()
{
	bash "$PCL_DRIVERS_SH" field "$1" "$2"
}

build_dir()
{
	echo "$PCL_CACHE/build/$1"
}

# Where a kernel's built modules go: $PCL_CACHE/modules/KVER, or
# PCL_MODULES_OUT/KVER (a test's private copy, which no parallel build
# can replace under it).
modules_dir()
{
	echo "${PCL_MODULES_OUT:-$PCL_CACHE/modules}/$1"
}

# build_tree_prepare: a fresh copy of src/ for the current kernel.  It
# takes the kernel's build lock, held until the next kernel's or the end of
# the process: parallel callers (test workers) build one kernel in turn.
build_tree_prepare()
{
	local bdir
	bdir=$(build_dir "$KVER")
	mkdir -p "$(dirname "$bdir")"
	[ -z "${_pcl_build_lock:-}" ] || exec {_pcl_build_lock}>&-
	exec {_pcl_build_lock}>"$bdir.lock"
	flock "$_pcl_build_lock"
	rm -rf "$bdir"
	mkdir -p "$bdir"
	cp -a "$PCL_TOP/src/." "$bdir/"
	# A developer's stray build output in src/ must not leak in.
	find "$bdir" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '.*.cmd' -o -name pcl-features.h -o -name modules.order \
		-o -name Module.symvers \) -delete
}

# kernel_missing_drivers: the drivers this kernel lacks (what DKMS builds),
# decided inside the kernel's own environment by the same code as DKMS's
# (the build tree's copy of drivers.sh).  Sets MISSING (one a line) and
# KCONFIG (the config file it read; empty: none readable, all missing).
kernel_missing_drivers()
{
	local sh
	sh=$(build_dir "$KVER")/drivers.sh
	KCONFIG=$(kernel_run bash "$sh" config "$KVER" "$KDIR" || true)
	MISSING=$(kernel_run bash "$sh" missing "$KCONFIG")
}

# warnings_classify LOG BUILDDIR: print "ours MODULE|* LINE" for warnings in
# our files (MODULE: the driver whose object it is, * when it is in one of
# our headers), "kernel - LINE" for warnings inside the kernel's headers.
# A kernel-header warning whose macro expansion starts in our file is ours.
warnings_classify()
{
	local log=$1 bdir=$2
	awk -v bdir="$bdir/" -v src="$PCL_TOP/src/" -v table="$(bash "$PCL_DRIVERS_SH" table)" '
	function ours(path) {
		if (index(path, bdir) == 1) return substr(path, length(bdir) + 1)
		if (path ~ /^(bridges|cards)\// || path ~ /^[^\/]+\.[ch]$/) return path
		return ""
	}
	# The drivers a source file of ours is built into; "*" for our headers.
	function owner(rel,   i, n, f, obj, dir, who) {
		if (rel !~ /\.[co]$/) return "*"
		n = split(rel, f, "/"); obj = f[n]; sub(/\.c$/, ".o", obj)
		dir = (n > 1) ? f[1] : ""
		who = ""
		for (i = 1; i <= nmods; i++)
			if (moddir[i] == dir && index(" " modobjs[i] " ", " " obj " "))
				who = who (who == "" ? "" : ",") modname[i]
		return who == "" ? "*" : who
	}
	# A unit (drivers.list) and the sources it includes, as objects.
	function unit_objs(dir, unit,   file, line, objs) {
		objs = unit
		file = src dir "/" unit; sub(/\.o$/, ".c", file)
		while ((getline line < file) > 0)
			if (line ~ /^#include "[^"]+\.c"/) {
				sub(/^#include "/, "", line); sub(/\.c".*/, ".o", line)
				objs = objs " " line
			}
		close(file)
		return objs
	}
	function flush() {
		if (pending == "") return
		if (cause != "") print "ours " owner(cause) " " pending
		else print "kernel - " pending
		pending = ""; cause = ""
	}
	BEGIN {
		nmods = split(table, rows, "\n")
		for (i = 1; i <= nmods; i++) {
			split(rows[i], c, " "); modname[i] = c[1]; moddir[i] = c[2]
			modobjs[i] = rows[i]; sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", modobjs[i])
			modobjs[i] = unit_objs(moddir[i], modobjs[i])
		}
	}
	/: (warning|error): / {
		flush()
		path = $0; sub(/:.*/, "", path)
		rel = ours(path)
		if (rel != "") print "ours " owner(rel) " " $0
		else { pending = $0; cause = "" }
		next
	}
	/: note: in expansion of macro/ && pending != "" {
		path = $0; sub(/:.*/, "", path)
		rel = ours(path)
		if (rel != "") cause = rel
		next
	}
	/^(WARNING|ERROR): modpost: / || /is added to multiple modules/ {
		flush()
		who = "*"
		for (i = 1; i <= nmods; i++)
			if ($0 ~ ("[ /]" modname[i] "\\.(o|ko)"))
				who = modname[i]
		print "ours " who " " $0
		next
	}
	END { flush() }
	' "$log"
}

# Clean builds are kept by what went into them (build_key), so that the
# same sources built for the same kernel are compiled once: make matrix
# builds every driver for every kernel, and the tests' builds of the same
# sources are then copies.  Only a build without a warning of ours is
# kept, so a reused build is one that passed W=1.
PCL_BUILT=$PCL_CACHE/built

# build_key LIST: the identity of a build of LIST in the prepared tree:
# its files, the kernel (release, headers package version or self-built
# tree, configuration, exported symbols), the compiler package, ARCH and this
# script.  Empty when the kernel's tree has no identity (the host's, a
# chroot's found by release): those are always built.
build_key()
{
	local list=$1 bdir kid
	bdir=$(build_dir "$KVER")
	[ -n "$KROOT" ] && [ -n "${KPKG:-}" ] || return 0
	# shellcheck disable=SC2016 # expanded by the inner shell
	kid=$(kernel_run sh -c 'dpkg-query -W -f "\${Version}\n" "$1" 2>/dev/null
		cat "$2/.config" "$2/Module.symvers"; dpkg-query -W "gcc-[0-9]*" 2>/dev/null' \
		sh "$KPKG" "$KDIR" | md5sum) || return 0
	{
		echo "$KVER ${KMAKE_ARCH:-} $KDIR $list $kid"
		md5sum "$PCL_TOP/scripts/build.sh" | cut -d' ' -f1
		(cd "$bdir" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum)
	} | md5sum | cut -c1-20
}

# _build_reuse KEY LIST LOG MDIR: the kept build KEY into MDIR, with its
# log; sets BUILT OURWARN KWARN as the build did.  Fails if none is kept.
_build_reuse()
{
	local key=$1 list=$2 log=$3 mdir=$4 kept m
	kept=$PCL_BUILT/$key
	[ -n "$key" ] && [ -e "$kept/.complete" ] || return 1
	for m in $list; do
		cp "$kept/$m.ko" "$mdir/" || return 1
	done
	{
		echo "# reused: the clean build kept as $kept (same sources, kernel and compiler)"
		cat "$kept/build.log"
	} >>"$log"
	BUILT=$list OURWARN="" KWARN=$(cat "$kept/kwarn")
	touch "$kept/.complete"
	log "$KVER: the same sources built clean before; reused $kept"
}

# _build_keep KEY LIST LOG: keep this clean build (its .ko files, its log).
_build_keep()
{
	local key=$1 list=$2 log=$3 bdir tmp m
	[ -n "$key" ] || return 0
	bdir=$(build_dir "$KVER")
	mkdir -p "$PCL_BUILT"
	tmp=$(mktemp -d "$PCL_BUILT/.new.XXXXXX")
	for m in $list; do
		cp "$bdir/$m.ko" "$tmp/"
	done
	cp "$log" "$tmp/build.log"
	echo "$KWARN" >"$tmp/kwarn"
	touch "$tmp/.complete"
	chmod 755 "$tmp"
	rm -rf "${PCL_BUILT:?}/$key"
	mv "$tmp" "$PCL_BUILT/$key" 2>/dev/null || rm -rf "$tmp"
	# builds nobody reused for a week go
	find "$PCL_BUILT" -mindepth 2 -maxdepth 2 -name .complete -mtime +7 -printf '%h\0' |
		xargs -0 -r rm -rf
}

# build_drivers LIST LOG: build the named drivers (space separated) for the
# current kernel, in the tree build_tree_prepare made, or reuse a kept
# build of the same (build_key).  Sets BUILT (the modules that compiled),
# OURWARN (warnings in our files, "MODULE LINE"), KWARN (the number of
# warnings inside the kernel's headers).  Returns non-zero when make failed
# or our files warned; only a clean build's .ko files are copied to
# modules_dir.
build_drivers()
{
	local list=$1 log=$2 bdir mdir rc=0 m key
	bdir=$(build_dir "$KVER")
	mdir=$(modules_dir "$KVER")
	[ -f "$bdir/Kbuild" ] || build_tree_prepare
	rm -rf "$mdir"
	mkdir -p "$mdir" "$(dirname "$log")"
	{
		echo "# kernel $KVER (${KROOT:-host}), build tree $KDIR"
		echo "# drivers: $list"
	} >"$log"
	key=$(build_key "$list")
	if _build_reuse "$key" "$list" "$log" "$mdir"; then
		return 0
	fi
	kernel_run make -C "$bdir" KERNELDIR="$KDIR" PCL_MODULES="${list// /,}" \
		${KMAKE_ARCH:+ARCH="$KMAKE_ARCH"} \
		W=1 -j"${PCL_JOBS:-2}" >>"$log" 2>&1 || rc=$?
	BUILT=""
	for m in $list; do
		[ "$rc" -ne 0 ] || [ ! -f "$bdir/$m.ko" ] || BUILT="$BUILT $m"
	done
	BUILT=${BUILT# }
	OURWARN=$(warnings_classify "$log" "$bdir" | sed -n 's/^ours //p')
	KWARN=$(warnings_classify "$log" "$bdir" | grep -c '^kernel ' || true)
	[ "$rc" -eq 0 ] && [ -z "$OURWARN" ] || return 1
	# Only a clean build's modules are handed out.
	for m in $BUILT; do
		cp "$bdir/$m.ko" "$mdir/"
	done
	_build_keep "$key" "$list" "$log"
}
