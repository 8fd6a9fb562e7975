#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build chroots: one debootstrap chroot per suite and architecture under
# $PCL_CACHE/chroots, holding that suite's compiler and the kernel headers
# of the matrix.  kbuild's host programs (fixdep, modpost, objtool) are
# linked against their suite's libc, so each kernel builds in its own suite.
#
# Source it after lib.sh and apt-suite.sh, or run it:
#   scripts/chroot.sh SUITE ARCH [PACKAGE...]   create/refresh, install packages
#   scripts/chroot.sh --run SUITE ARCH CMD...   run CMD inside
#
# 686-pae kernels build in an i386 chroot where the host kernel runs i386
# programs (IA32 emulation): that is the compiler, kbuild programs and libc
# a 32-bit Debian user's DKMS build uses.  Where it cannot (IA32 emulation
# compiled out or off), they build in the amd64 chroot like a kernel
# cross build (scripts/kernels.sh, _kernel_prepare_biarch).
#
# Mounts (/proc for objtool, the build directory) are made in a private
# mount namespace (unshare -m): they vanish when the command ends, however
# it ends, and never show up in the host's mount table.

chroot_dir()
{
	echo "$PCL_CACHE/chroots/$1-$2"
}

# debootstrap knows release names, not the backports overlay.
_chroot_base_suite()
{
	echo "${1%-backports}"
}

# The host's own stance on Release file dates (an archive snapshot may
# carry expired Valid-Until stamps), so that the chroot's apt agrees with
# the host's.
_chroot_host_apt_validity()
{
	local key val
	for key in Acquire::Check-Valid-Until Acquire::Check-Date; do
		val=$(apt-config dump "$key" 2>/dev/null | awk -v k="$key" '$1 == k { gsub(/[";]/, "", $2); print $2 }')
		[ -z "$val" ] || printf '%s "%s";\n' "$key" "$val"
	done
}

# Build chroots need kernel headers, not kernels: Debian's 6.12+ headers
# depend on the image, so keep its module tree out and never build an
# initramfs (minutes of CPU per kernel otherwise).
_chroot_slim()
{
	local root=$1
	cat >"$root/etc/dpkg/dpkg.cfg.d/90pcmcia-legacy" <<-'CFG'
		path-exclude=/lib/modules/*/kernel/*
		path-exclude=/usr/lib/modules/*/kernel/*
	CFG
	chroot_run "$root" dpkg-divert --local --rename --add /usr/sbin/update-initramfs >/dev/null
	ln -sf /bin/true "$root/usr/sbin/update-initramfs"
}

_chroot_write_apt_config()
{
	local root=$1 suite=$2 s uri
	: >"$root/etc/apt/sources.list"
	for s in $(suite_sources "$suite"); do
		uri=$(suite_mirror "$s")
		echo "deb $uri $s main" >>"$root/etc/apt/sources.list"
	done
	cat >"$root/etc/apt/apt.conf.d/90pcmcia-legacy" <<-CONF
		APT::Install-Recommends "false";
		APT::Install-Suggests "false";
		Acquire::Languages "none";
		Dpkg::Use-Pty "false";
		$(_chroot_host_apt_validity)
	CONF
	# Never start services from package scripts inside the chroot.
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}

# chroot_run ROOT [--bind HOSTDIR:CHROOTDIR]... CMD...: run CMD in ROOT with
# /proc mounted and a clean environment.
chroot_run()
{
	local root=$1 binds=()
	shift
	while [ "${1:-}" = --bind ]; do
		binds+=("$2")
		shift 2
	done
	unshare --mount --propagation private -- /bin/bash -euc '
		root=$1 nbinds=$2
		shift 2
		mount -t proc proc "$root/proc"
		while [ "$nbinds" -gt 0 ]; do
			src=${1%%:*} dst=$root${1#*:}
			mkdir -p "$dst"
			mount --bind "$src" "$dst"
			shift
			nbinds=$((nbinds - 1))
		done
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
	' pcl-chroot "$root" "${#binds[@]}" "${binds[@]}" "$@"
}

_chroot_create()
{
	local suite=$1 arch=$2 root tmp base
	root=$(chroot_dir "$suite" "$arch")
	tmp=$root.new
	base=$(_chroot_base_suite "$suite")
	need_host_packages debootstrap || return 1
	rm -rf "$tmp"
	mkdir -p "$(dirname "$root")"
	log "chroot $suite/$arch: debootstrap $base (a few minutes)"
	# In a private mount namespace so that an interrupted debootstrap
	# leaves no mounts behind.
	run_logged "$PCL_LOGS/chroot-$suite-$arch-debootstrap.log" \
		"debootstrap $base $arch" \
		unshare --mount --propagation private -- \
		debootstrap --variant=minbase --arch="$arch" --include=make \
		"$base" "$tmp" "$(debian_mirror)" || return 1
	_chroot_write_apt_config "$tmp" "$suite"
	_chroot_slim "$tmp"
	log "chroot $suite/$arch: apt-get update"
	apt_update_tolerant "$PCL_LOGS/chroot-$suite-$arch-update.log" "apt-get update in $suite/$arch" \
		"$tmp/etc/apt/sources.list" chroot_run "$tmp" apt-get update || return 1
	run_logged "$PCL_LOGS/chroot-$suite-$arch-clean.log" "apt-get clean in $suite/$arch" \
		chroot_run "$tmp" apt-get clean || return 1
	date +%s >"$tmp/.pcl-updated"
	mv "$tmp" "$root"
}

# Before installing what is missing (a kernel's headers changed): refresh
# the chroot's package lists, and upgrade it unless that happened in the
# last PCL_CHROOT_UPGRADE_MIN minutes (the compiler should match the
# suite's current kernel).
_chroot_refresh()
{
	local suite=$1 arch=$2 root
	root=$(chroot_dir "$suite" "$arch")
	_chroot_write_apt_config "$root" "$suite"
	log "chroot $suite/$arch: apt-get update"
	apt_update_tolerant "$PCL_LOGS/chroot-$suite-$arch-update.log" "apt-get update in $suite/$arch" \
		"$root/etc/apt/sources.list" chroot_run "$root" apt-get update || return 1
	if [ -e "$root/.pcl-updated" ] &&
		[ -z "$(find "$root/.pcl-updated" -mmin +"${PCL_CHROOT_UPGRADE_MIN:-60}")" ]; then
		return 0
	fi
	log "chroot $suite/$arch: apt-get upgrade"
	run_logged "$PCL_LOGS/chroot-$suite-$arch-upgrade.log" "apt-get upgrade in $suite/$arch" \
		chroot_run "$root" apt-get -y -q upgrade || return 1
	date +%s >"$root/.pcl-updated"
}

_chroot_missing()
{
	local root=$1 p
	shift
	for p in "$@"; do
		chroot_run "$root" dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'ok installed' || echo "$p"
	done
}

# chroot_ensure SUITE ARCH [PACKAGE...]: the chroot exists and has the
# packages installed.  Cheap when it is already so: no apt call at all.
# Backports packages are installed from backports (-t).
chroot_ensure()
{
	local suite=$1 arch=$2 root missing rc=0
	shift 2
	root=$(chroot_dir "$suite" "$arch")
	mkdir -p "$(dirname "$root")"
	exec {_pcl_lock}>"$root.lock"
	flock "$_pcl_lock"
	if [ ! -x "$root/usr/bin/apt-get" ]; then
		_chroot_create "$suite" "$arch" || rc=$?
	fi
	if [ $rc -eq 0 ] && [ $# -gt 0 ]; then
		missing=$(_chroot_missing "$root" "$@")
		if [ -n "$missing" ]; then
			_chroot_refresh "$suite" "$arch" || rc=$?
			if [ $rc -eq 0 ]; then
				local target=()
				[[ $suite == *-backports ]] && target=(-t "$suite")
				log "chroot $suite/$arch: installing" $missing
				# shellcheck disable=SC2086
				run_logged "$PCL_LOGS/chroot-$suite-$arch-install.log" \
					"apt-get install $(echo $missing) in $suite/$arch" \
					chroot_run "$root" apt-get install -y -q "${target[@]}" $missing || rc=$?
				chroot_run "$root" apt-get clean || true
			fi
		fi
	fi
	flock -u "$_pcl_lock"
	exec {_pcl_lock}>&-
	return $rc
}

# chroot_purge_except SUITE ARCH REGEX KEEP: remove the packages matching
# REGEX other than KEEP (older kernel headers replaced by a newer one).
chroot_purge_except()
{
	local suite=$1 arch=$2 regex=$3 keep=$4 root old
	root=$(chroot_dir "$suite" "$arch")
	old=$(chroot_run "$root" dpkg-query -W -f='${Package} ${Status}\n' 2>/dev/null |
		awk '/ok installed/ { print $1 }' | grep -E "^($regex)\$" | grep -vxF "$keep" || true)
	[ -n "$old" ] || return 0
	log "chroot $suite/$arch: removing superseded" $old
	# shellcheck disable=SC2086
	run_logged "$PCL_LOGS/chroot-$suite-$arch-purge.log" "purging $(echo $old)" \
		chroot_run "$root" apt-get purge -y -q --autoremove $old
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -eu
	. "$(dirname "$0")/lib.sh"
	. "$(dirname "$0")/apt-suite.sh"
	if [ "${1:-}" = --run ]; then
		[ $# -ge 4 ] || die "usage: $0 --run SUITE ARCH CMD..."
		root=$(chroot_dir "$2" "$3")
		[ -x "$root/usr/bin/apt-get" ] || die "no chroot $2/$3 (create it: $0 $2 $3)"
		shift 3
		chroot_run "$root" "$@"
	else
		[ $# -ge 2 ] || die "usage: $0 SUITE ARCH [PACKAGE...] | $0 --run SUITE ARCH CMD..."
		chroot_ensure "$@"
		log "chroot $1/$2 ready: $(chroot_dir "$1" "$2")"
	fi
fi
