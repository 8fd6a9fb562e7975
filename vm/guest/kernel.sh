#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Fetch a Debian kernel for the test guests into the cache and make its
# modules loadable from a busybox initramfs: the image, its config and the
# module tree, decompressed, with modules.dep made by the host's depmod.
#
# Usage: vm/guest/kernel.sh KERNEL
#   KERNEL is a series (6.1, 6.12, 7.3) or a name of kernels.matrix,
#   resolved like the matrix to the newest release with installable
#   headers, or an exact release such as 6.1.0-57-amd64 or
#   6.1.0-57-686-pae.  A self-built line of the matrix (debug, i686) is
#   built by scripts/selfkernel.sh.
# Prints the kernel's directory on stdout:
#   DIR/vmlinuz  DIR/config  DIR/release  DIR/lib/modules/RELEASE/...
set -eu

. "$(dirname "$0")/../../scripts/lib.sh"
. "$PCL_TOP/scripts/apt-suite.sh"
. "$PCL_TOP/scripts/chroot.sh"
. "$PCL_TOP/scripts/kernels.sh"

KERNELS=$PCL_CACHE/guest/kernels

# Which kernel a name means: "SUITE HEADERS-REGEX".  A name of
# kernels.matrix (bookworm-6.1, trixie-bpo, ...) means that line, so a
# guest runs the ABI `make matrix` built for; the series 6.1, 6.12 and 7.3
# are shorthands with the same regexes as the matrix.
kernel_spec()
{
	local matrix=$PCL_TOP/kernels.matrix line
	case $1 in
	6.1) echo 'bookworm linux-headers-6\.1\.0-[0-9]+-amd64' ;;
	6.12) echo 'bookworm linux-headers-6\.12\.[0-9]+\+deb12-amd64' ;;
	7.[0-9]*) echo "trixie-backports linux-headers-${1//./\\.}\\.[0-9]+\\+deb13(\\.[0-9]+)?-amd64" ;;
	*)
		[ -r "$matrix" ] && line=$(sed 's/#.*//' "$matrix" |
			awk -v n="$1" '$1 == n { print $2, $5; exit }')
		[ -n "${line:-}" ] ||
			die "unknown kernel '$1': use 6.1, 6.12, 7.3, a name of kernels.matrix or a release"
		echo "$line"
		;;
	esac
}

# The suite that carries a release.
release_suite()
{
	case $1 in
	*+deb13*) echo trixie-backports ;;
	*+deb14*) echo sid ;;
	*) echo bookworm ;;
	esac
}

# Newest release whose headers are installable: the matrix's own
# resolution (scripts/kernels.sh), so guest and build agree.
latest_release()
{
	local pkg
	pkg=$(headers_resolve "$1" "$2") || return 1
	echo "${pkg#linux-headers-}"
}

# Packages holding one release's image and modules (686-pae: Debian's
# i386 flavour, fetched as i386 packages).
release_packages()
{
	case $1 in
	7.*) echo "linux-binary-$1 linux-modules-$1 linux-base-$1" ;;
	*-686-pae) echo "linux-image-$1-unsigned:i386" ;;
	*) echo "linux-image-$1-unsigned" ;;
	esac
}

# Flatten the packages' layouts into DIR: vmlinuz, config, lib/modules/REL.
unpack_release()
{
	local rel=$1 debs=$2 dir=$3 root=$3/root deb
	rm -rf "$dir" "$root"
	mkdir -p "$root"
	for deb in "$debs"/*.deb; do
		log "unpacking $(basename "$deb")"
		dpkg -x "$deb" "$root"
	done
	# Up to 6.12 image and config are in /boot; 7.x keeps them beside
	# the modules in /usr/lib/modules/REL.
	if [ -e "$root/boot/vmlinuz-$rel" ]; then
		mv "$root/boot/vmlinuz-$rel" "$dir/vmlinuz"
		mv "$root/boot/config-$rel" "$dir/config"
	else
		mv "$root/usr/lib/modules/$rel/vmlinuz" "$dir/vmlinuz"
		mv "$root/usr/lib/modules/$rel/config" "$dir/config"
	fi
	mkdir -p "$dir/lib/modules"
	if [ -d "$root/usr/lib/modules/$rel/kernel" ]; then
		mv "$root/usr/lib/modules/$rel" "$dir/lib/modules/$rel"
	else
		mv "$root/lib/modules/$rel" "$dir/lib/modules/$rel"
	fi
	rm -rf "$root"
}

# busybox's insmod cannot read compressed modules: decompress them all.
decompress_modules()
{
	local mods=$1 n
	n=$(find "$mods" -name '*.ko.xz' | wc -l)
	[ "$n" -gt 0 ] || return 0
	log "decompressing $n modules"
	find "$mods" -name '*.ko.xz' -print0 | xargs -0 -r -n 64 -P "$(nproc)" xz -d
}

main()
{
	local want=${1:-} rel suite dir debs spec
	[ -n "$want" ] || die "usage: $0 KERNEL (6.1, 6.12, 7.3, a kernels.matrix name or a release)"
	# A self-built line of the matrix comes with its guest layout.
	if [[ ,$(matrix_line "$want" | awk '{ print $4 }'), == *,self,* ]]; then
		selfkernel_resolve "$want"
		selfkernel_build
		echo "$SK_DIR/guest"
		return 0
	fi
	case $want in
	*-amd64 | *-686-pae) rel=$want ;;
	*)
		spec=$(kernel_spec "$want")
		# shellcheck disable=SC2086 # "suite regex"
		rel=$(latest_release $spec) || die "no installable headers for kernel '$want' ($spec)"
		;;
	esac
	dir=$KERNELS/$rel
	if [ -e "$dir/.complete" ]; then
		echo "$dir"
		return 0
	fi
	# One fetch per release at a time (parallel test workers).
	mkdir -p "$KERNELS"
	exec 8>"$KERNELS/.$rel.lock"
	flock 8
	if [ -e "$dir/.complete" ]; then
		echo "$dir"
		return 0
	fi
	need_host_packages kmod xz-utils || die "cannot install kmod and xz-utils"
	suite=$(release_suite "$rel")
	debs=$PCL_CACHE/guest/debs/$rel
	log "kernel $rel: fetching $(release_packages "$rel") from $suite"
	# shellcheck disable=SC2046 # one word per package
	run_logged "$PCL_LOGS/guest-kernel-$rel.log" "download of kernel $rel" \
		suite_download "$suite" "$debs" $(release_packages "$rel")
	unpack_release "$rel" "$debs" "$dir"
	decompress_modules "$dir/lib/modules/$rel"
	log "kernel $rel: depmod"
	run_logged "$PCL_LOGS/guest-kernel-$rel.log" "depmod for $rel" \
		depmod -b "$dir" "$rel"
	echo "$rel" >"$dir/release"
	# The .debs are not needed once unpacked.
	rm -rf "$debs"
	touch "$dir/.complete"
	log "kernel $rel: ready in $dir"
	echo "$dir"
}

main "$@"
