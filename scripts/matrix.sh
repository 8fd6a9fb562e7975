#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make matrix: build every driver for every kernel of kernels.matrix, each
# in its suite's chroot, and print a table kernel x driver.  Every driver
# is built everywhere (it is a build test), and the table says for which
# kernels DKMS would build it ("dkms": the kernel lacks it) and where it is
# "also" built although the kernel ships it.
#
# Exit status: non-zero when anything failed.  PCL_ROLLING_SOFT=1 (set by
# .ci/run) turns failures of "rolling" kernels (sid, backports: they change
# under us) into loud warnings that do not fail.
#   PCL_MATRIX_ONLY="name ..."  build only these lines of the matrix
set -eu

. "$(dirname "$0")/lib.sh"
. "$PCL_TOP/scripts/apt-suite.sh"
. "$PCL_TOP/scripts/chroot.sh"
. "$PCL_TOP/scripts/kernels.sh"
. "$PCL_TOP/scripts/build.sh"

all=$(drivers_all)
[ -n "$all" ] || die "src/drivers.list lists no driver"
# shellcheck disable=SC2086
all=$(echo $all)

rows=() notes=() hard_fail=0 soft_fail=0 start=$(date +%s)

# cell MODULE: the table cell of one driver for the current kernel.
cell()
{
	local m=$1 where
	grep -qxF "$m" <<<"$missing" && where=dkms || where=also
	if [[ " $BUILT " == *" $m "* ]] && ! grep -q "^$m[ ,]\|^[^ ]*,$m[ ,]\|^\* " <<<"$OURWARN"; then
		echo "built/$where"
	elif [[ " $BUILT " == *" $m "* ]]; then
		echo "FAILED:warnings"
	else
		echo FAILED
	fi
}

while read -r name suite arch flags regex; do
	if [ -n "${PCL_MATRIX_ONLY:-}" ] && [[ " $PCL_MATRIX_ONLY " != *" $name "* ]]; then
		continue
	fi
	t0=$(date +%s)
	log "matrix: $name ($suite/$arch)"
	failed=0 line=""
	if ! kernel_prepare "$name"; then
		failed=1
		line=$(printf '%-22s %-26s' "$name" "(no headers)")
		for m in $all; do line+=$(printf ' %-16s' "not-built"); done
		notes+=("$name: could not prepare the kernel headers (see the error above; logs in $PCL_LOGS)")
	else
		build_tree_prepare
		kernel_missing_drivers
		missing=$MISSING
		logf=$PCL_LOGS/matrix-$name.log
		build_drivers "$all" "$logf" || failed=1
		line=$(printf '%-22s %-26s' "$name" "$KVER")
		for m in $all; do line+=$(printf ' %-16s' "$(cell "$m")"); done
		if [ $failed -eq 1 ]; then
			notes+=("$name ($KVER): build failed; log: $logf")
			[ -z "$OURWARN" ] || notes+=("$(sed 's/^[^ ]* /    /' <<<"$OURWARN")")
		fi
		[ "$KWARN" -eq 0 ] || notes+=("$name: $KWARN warning(s) inside the kernel's headers (not fatal); log: $logf")
	fi
	if [ $failed -eq 1 ]; then
		if [[ ,$flags, == *,rolling,* ]] && [ "${PCL_ROLLING_SOFT:-}" = 1 ]; then
			soft_fail=$((soft_fail + 1))
			line+="  (rolling: not fatal)"
		else
			hard_fail=$((hard_fail + 1))
		fi
	fi
	rows+=("$line")
	log "matrix: $name done in $(($(date +%s) - t0)) s"
done < <(matrix_lines)

header=$(printf '%-22s %-26s' kernel release)
for m in $all; do header+=$(printf ' %-16s' "$m"); done
echo
echo "$header"
printf '%s\n' "${rows[@]}"
echo
echo "built/dkms: the kernel lacks the driver, DKMS builds it there"
echo "built/also: the kernel ships the driver; built anyway as a build test"
for n in "${notes[@]}"; do echo "$n"; done
echo "matrix: ${#rows[@]} kernel(s), $hard_fail failed, $soft_fail rolling failure(s) tolerated, $(($(date +%s) - start)) s"
if [ $soft_fail -gt 0 ]; then
	echo "WARNING: a rolling kernel failed; PCL_ROLLING_SOFT=1 keeps it from failing this run. Fix it next." >&2
fi
[ $hard_fail -eq 0 ]
