#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make lint: the kernel's own checkers over src/, zero findings allowed.
#
#   scripts/lint.sh [checkpatch] [sparse] [coccinelle] [waits]  (default: all)
#
# checkpatch.pl --strict and the Coccinelle semantic patches come from
# Debian's linux-source-6.1 (bookworm), extracted once into the cache;
# spatch is Debian's coccinelle.  sparse runs through kbuild (C=2) in the
# chroots of PCL_LINT_KERNELS (matrix names), where kernel headers are.
# Findings inside kernel headers are reported but are not ours.  "waits"
# is this project's own checker (scripts/lint_waits.py).
set -eu

. "$(dirname "$0")/lib.sh"
. "$PCL_TOP/scripts/apt-suite.sh"
. "$PCL_TOP/scripts/chroot.sh"
. "$PCL_TOP/scripts/kernels.sh"
. "$PCL_TOP/scripts/build.sh"

# sid's sparse (0.6.5) parses 7.x headers; trixie's 0.6.4 stops at
# __typeof_unqual__ in them before it reaches our code.
PCL_LINT_KERNELS=${PCL_LINT_KERNELS:-bookworm-6.1 sid}
lint_dir=$PCL_CACHE/lint
summary=()
total=0

# Our C files (the generated pcl-features.h never is in src/).
our_sources()
{
	(cd "$PCL_TOP" && find src -name '*.[ch]' ! -name pcl-features.h | sort)
}

# The kernel's scripts from linux-source-6.1, cached with its version.
kernel_scripts()
{
	local ver deb stamp=$lint_dir/linux-source.version
	ver=$(suite_apt bookworm apt-cache policy linux-source-6.1 |
		awk '/Candidate:/ { print $2 }')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "bookworm has no linux-source-6.1"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$ver" ] &&
		[ -f "$lint_dir/scripts/checkpatch.pl" ]; then
		return 0
	fi
	need_host_packages xz-utils || exit 1
	log "lint: fetching checkpatch and Coccinelle scripts from linux-source-6.1 $ver"
	run_logged "$PCL_LOGS/lint-download.log" "download linux-source-6.1" \
		suite_download bookworm "$PCL_CACHE/downloads" "linux-source-6.1=$ver" || exit 1
	deb=$(ls "$PCL_CACHE"/downloads/linux-source-6.1_"${ver//:/%3a}"_all.deb)
	rm -rf "$lint_dir/scripts" "$lint_dir/extract"
	mkdir -p "$lint_dir/extract"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz |
		tar -xJ -C "$lint_dir/extract" --wildcards --strip-components=1 \
			'linux-source-6.1/scripts/checkpatch.pl' \
			'linux-source-6.1/scripts/spelling.txt' \
			'linux-source-6.1/scripts/const_structs.checkpatch' \
			'linux-source-6.1/scripts/coccicheck' \
			'linux-source-6.1/scripts/coccinelle/*'
	mv "$lint_dir/extract/scripts" "$lint_dir/scripts"
	rm -rf "$lint_dir/extract" "$deb"
	echo "$ver" >"$stamp"
}

# report TOOL WHAT FINDINGS: one line of the summary.
report()
{
	summary+=("$(printf '%-12s %-46s %s finding(s)' "$1" "$2" "$3")")
	total=$((total + $3))
}

# api_identifier WORD: WORD is declared by the kernel's own headers (the
# 6.1 headers of the matrix), e.g. socket_state_t's Vcc and Vpp.
api_identifier()
{
	grep -rqw --include='*.h' -e "$1" "$api_include"
}

lint_checkpatch()
{
	local logf=$PCL_LOGS/lint-checkpatch.log files n=0 line word api=0
	need_host_packages perl || exit 1
	kernel_scripts
	# checkpatch without a kernel tree cannot tell kernel interfaces from
	# our names in its CamelCase check: look them up in real headers.
	kernel_prepare bookworm-6.1 || exit 1
	api_include=$(ls -d "$KROOT"/usr/src/linux-headers-"${KVER%-*}"-common/include 2>/dev/null ||
		echo "$KROOT/usr/src/linux-headers-$KVER/include")
	mapfile -t files < <(our_sources)
	log "lint: checkpatch --strict on ${#files[@]} files"
	# From a scratch directory: checkpatch leaves a CamelCase cache file in
	# its working directory and would look for a kernel's git there.
	mkdir -p "$lint_dir/work"
	(cd "$lint_dir/work" && perl "$lint_dir/scripts/checkpatch.pl" --strict --no-tree \
		--root="${api_include%/include}" --terse --show-types --no-summary -f "${files[@]/#/$PCL_TOP/}") 2>&1 |
		sed "s|^$PCL_TOP/||" >"$logf" || true
	while IFS= read -r line; do
		if [[ $line =~ ^[^\ ]+:[0-9]+:\ (ERROR|WARNING|CHECK): ]]; then
			if [[ $line =~ CAMELCASE:\ Avoid\ CamelCase:\ \<([A-Za-z0-9_]+)\> ]] &&
				api_identifier "${BASH_REMATCH[1]}"; then
				api=$((api + 1))
				continue
			fi
			# user-space headers keep the typedef names of the removed
			# upstream header, which programs use
			if [[ $line == src/include/uapi/*:NEW_TYPEDEFS:* ]]; then
				api=$((api + 1))
				continue
			fi
			echo "    $line"
		else
			# checkpatch only prints findings with these options.
			echo "    unexpected checkpatch output: $line"
		fi
		n=$((n + 1))
	done <"$logf"
	[ $api -eq 0 ] || log "lint: checkpatch: $api CamelCase or user-space typedef name(s) are existing interfaces (not counted)"
	report checkpatch "--strict, ${#files[@]} files" "$n"
}

lint_sparse()
{
	local name logf n k rc
	for name in $PCL_LINT_KERNELS; do
		kernel_prepare "$name" || exit 1
		chroot_ensure "$KSUITE" "$KARCH" sparse || exit 1
		build_tree_prepare
		logf=$PCL_LOGS/lint-sparse-$name.log
		log "lint: sparse (C=2) against $name ($KVER)"
		rc=0
		# KBUILD_CHECKSRC=2 is C=2 without kbuild's checker-valid.sh test:
		# Debian's 7.x headers lack that script, so C=2 silently skips sparse.
		kernel_run make -C "$(build_dir "$KVER")" KERNELDIR="$KDIR" \
			PCL_MODULES="$(drivers_all | paste -sd,)" KBUILD_CHECKSRC=2 \
			-j"${PCL_JOBS:-2}" >"$logf" 2>&1 || rc=$?
		# Make sure sparse really looked at every C file it compiled.
		if [ "$(grep -c '^  CHECK ' "$logf")" -ne "$(grep -cE '^  CC \[M\]  (.*/)?(bridges|cards)/' "$logf")" ] ||
			! grep -q '^  CHECK ' "$logf"; then
			printf 'error: sparse did not check every file for %s; log: %s\n' "$name" "$logf" >&2
			rc=1
		fi
		n=$(warnings_classify "$logf" "$(build_dir "$KVER")" | grep -c '^ours ' || true)
		k=$(warnings_classify "$logf" "$(build_dir "$KVER")" | grep -c '^kernel ' || true)
		warnings_classify "$logf" "$(build_dir "$KVER")" | sed -n 's/^ours [^ ]* /    /p'
		if [ $rc -ne 0 ]; then
			printf 'error: the sparse build for %s failed; log: %s\n' "$name" "$logf" >&2
			tail -n 15 "$logf" | sed 's/^/    /' >&2
			n=$((n + 1))
		fi
		[ "$k" -eq 0 ] || log "lint: $k finding(s) inside $KVER's headers (not ours); log: $logf"
		report sparse "C=2, $KVER" "$n"
	done
}

lint_coccinelle()
{
	local logf=$PCL_LOGS/lint-coccinelle.log tree n rules
	# ocaml-nox: some of the kernel's rules carry OCaml scripts that spatch
	# compiles when it runs them (coccinelle does not depend on a compiler)
	need_host_packages coccinelle ocaml-nox || exit 1
	kernel_scripts
	# a private copy: two lint runs at once must not share (or delete)
	# each other's tree
	mkdir -p "$lint_dir"
	tree=$(mktemp -d "$lint_dir/tree.XXXXXX")
	cp -a "$PCL_TOP/src" "$tree/src"
	rules=$(find "$lint_dir/scripts/coccinelle" -name '*.cocci' | wc -l)
	log "lint: Coccinelle ($rules semantic patches, report mode)"
	# The kernel's own driver script, as "make coccicheck MODE=report M=..."
	# runs it; srctree only needs scripts/ for it.
	if ! (cd "$tree" && env srctree="$lint_dir" KBUILD_EXTMOD="$tree/src" \
		MODE=report J="${PCL_JOBS:-2}" V=0 \
		bash "$lint_dir/scripts/coccicheck") >"$logf" 2>&1; then
		printf 'error: coccicheck failed; log: %s\n' "$logf" >&2
		tail -n 15 "$logf" | sed 's/^/    /' >&2
		rm -rf "$tree"
		report coccinelle "coccicheck failed" 1
		return
	fi
	n=$(grep -c "^$tree/src/" "$logf" || true)
	grep "^$tree/src/" "$logf" | sed "s|^$tree/||; s/^/    /" || true
	rm -rf "$tree"
	report coccinelle "$rules semantic patches of 6.1, report mode" "$n"
}

# Our own rules (scripts/lint_waits.py): no busy-wait of 100 us or more,
# no KERN_* level in a debug message.
lint_waits()
{
	local logf=$PCL_LOGS/lint-waits.log files n
	mapfile -t files < <(our_sources)
	log "lint: busy-waits and debug levels in ${#files[@]} files"
	mkdir -p "$PCL_LOGS"
	/usr/bin/python3 "$PCL_TOP/scripts/lint_waits.py" "$PCL_TOP" "${files[@]}" >"$logf" 2>&1 || true
	n=$(grep -c '^src/' "$logf" || true)
	sed 's/^/    /' "$logf"
	if grep -qv '^src/' "$logf"; then
		printf 'error: lint_waits.py failed; log: %s\n' "$logf" >&2
		n=$((n + 1))
	fi
	report waits "busy-wait >= 100 us, KERN_* in debug" "$n"
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(checkpatch sparse coccinelle waits)
for t in "${tools[@]}"; do
	case $t in
	checkpatch | sparse | coccinelle | waits) "lint_$t" ;;
	*) die "unknown lint tool '$t' (checkpatch, sparse, coccinelle, waits)" ;;
	esac
done

echo
echo "lint report (logs in $PCL_LOGS/lint-*.log):"
printf '  %s\n' "${summary[@]}"
echo "lint: $total finding(s) in our files"
[ "$total" -eq 0 ]
