#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Guest disk images for the package scenarios (tests/test_package.py) and
# `make demo`: a Debian system as a user has it (systemd, udev, apt, dkms,
# pcmciautils, GRUB, a Debian kernel with its headers), plus the local apt
# repository its scenarios install from.  See vm/image/README.md.
#
# usage: vm/image/build.sh [--rebuild] NAME     build if needed; print its directory
#        vm/image/build.sh --list               the image names
#
# An image is built once per recipe (this script, finish.py, rootfs/ and
# the guest tools it copies) and kept in $PCL_CACHE/images/NAME:
#   disk.qcow2  the system: boots with its own GRUB, never written by tests
#               (guests run on qcow2 overlays)
#   repo.img    ext4 disk with a flat apt repository: exactly what the
#               scenario steps download (apt --download-only in the image's
#               own chroot), so guests install offline and repeatably
#   manifest    key=value: name, suite, kernel (what it boots), recipe,
#               install.STEP (apt-get install arguments of a scenario
#               step), repo.PACKAGE (version)
# --rebuild builds again with the archive's current packages.
#
# Built natively: debootstrap and apt in a chroot (scripts/chroot.sh), the
# file system made without mounting (mke2fs -d), then two boots in our
# QEMU: the first installs GRUB with grub-install and update-grub from
# inside, the second checks that the disk boots by itself.
set -eu

. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
. "$PCL_TOP/scripts/apt-suite.sh"
. "$PCL_TOP/scripts/chroot.sh"

HERE=$PCL_TOP/vm/image
# PCL_IMAGES: another place for the images, so that a branch with another
# recipe does not rebuild the images other checkouts' runs share
IMAGES=${PCL_IMAGES:-$PCL_CACHE/images}
DISK_MIB=6144

# What every image holds besides its kernel.  No recommends (the guests'
# apt does not install them either).
BASE_PACKAGES=(systemd-sysv udev dbus kmod dkms pcmciautils grub-pc initramfs-tools
	zstd e2fsprogs procps pciutils openssl)

IMAGE_NAMES="bookworm trixie trixie-bpo"

# The PC/SC stack our libifd-cm40xx serves, installed in the same apt run
# as our packages (libifd-cm40xx depends on pcscd).
PCSC_STEP="pcsc=pcscd pcsc-tools opensc"

# image_spec NAME: the recipe of one image.
#   suite        the release debootstrap installs
#   apt_suite    what apt knows while building (scripts/apt-suite.sh names)
#   boot_pkgs    apt-get install arguments of the kernel the image boots
#                ("OLD-META": the metapackages one version before the newest)
#   steps        STEP=apt-get-install-arguments of each scenario step; the
#                local repository holds what they download
#   repo_suite   the Suite of the local repository's Release file
#   repo_flags   extra Release fields (backports: NotAutomatic)
image_spec()
{
	repo_flags=()
	case $1 in
	bookworm)
		# 6.1 one ABI before the newest, so that the newest is an update;
		# 6.12 from bookworm-security is the kernel upgrade.
		suite=bookworm apt_suite=bookworm repo_suite=bookworm-security
		boot_pkgs=OLD-META
		steps=("kernel=linux-image-6.12-amd64 linux-headers-6.12-amd64"
			"abi_update=linux-image-amd64 linux-headers-amd64" "$PCSC_STEP")
		;;
	trixie)
		suite=trixie apt_suite=trixie-backports repo_suite=trixie-backports
		boot_pkgs="linux-image-amd64 linux-headers-amd64"
		steps=("kernel=-t trixie-backports linux-image-amd64 linux-headers-amd64"
			"$PCSC_STEP")
		repo_flags=(NotAutomatic=yes ButAutomaticUpgrades=yes)
		;;
	trixie-bpo)
		# The demo: a kernel that lacks every driver of ours.
		suite=trixie apt_suite=trixie-backports repo_suite=trixie-backports
		boot_pkgs="-t trixie-backports linux-image-amd64 linux-headers-amd64"
		steps=()
		repo_flags=(NotAutomatic=yes ButAutomaticUpgrades=yes)
		;;
	*) die "unknown image '$1' (known: $IMAGE_NAMES)" ;;
	esac
}

recipe_hash()
{
	{
		echo "$1"
		cat "$HERE/build.sh" "$HERE/finish.py" "$PCL_TOP/vm/guest/rootfs/sbin/pcl-wait"
		(cd "$HERE/rootfs" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum)
	} | sha256sum | cut -c1-16
}

in_root()
{
	chroot_run "$root" "$@"
}

step_log()
{
	echo "$PCL_LOGS/image-$image-$1.log"
}

do_debootstrap()
{
	local include
	include=$(IFS=,; echo "${BASE_PACKAGES[*]}")
	# In a private mount namespace, so that an interrupted run leaves no
	# mounts behind.  Packages of the release itself; apt adds the
	# updates below.
	mkdir -p "$debs/debootstrap" || return 1
	run_logged "$(step_log debootstrap)" "debootstrap $suite" \
		unshare --mount --propagation private -- \
		debootstrap --variant=minbase --arch=amd64 --include="$include" \
		--cache-dir="$debs/debootstrap" "$suite" "$root" "$(debian_mirror)"
}

# The metapackage version one before the newest, if the archive has two.
older_meta()
{
	in_root apt-cache madison linux-image-amd64 |
		awk -F ' *[|] *' '$3 ~ /Packages/ { print $2 }' | sort -uV | tail -n 2 |
		sed -n '1{N;P}'
}

do_packages()
{
	local boot old
	_chroot_write_apt_config "$root" "$apt_suite" || return 1
	# Root and the two data disks (vm/guest/pclguest.py attaches both, the
	# files disk empty if need be), by label; the kernel packages'
	# initramfs then knows the root file system's type (fsck).  Under TCG
	# on a busy machine udev may take half a minute to see the disks.
	cat >"$root/etc/fstab" <<-'FSTAB' || return 1
		LABEL=pcl-root   /                ext4  errors=remount-ro  0 1
		LABEL=pcl-repo   /media/pcl-repo  ext4  ro,nofail,x-systemd.device-timeout=180s  0 0
		LABEL=pcl-files  /pcl             ext4  ro,nofail,x-systemd.device-timeout=180s  0 0
	FSTAB
	mkdir -p "$debs/apt/partial" || return 1
	run_logged "$(step_log apt)" "apt-get update" in_root apt-get update || return 1
	boot=$boot_pkgs
	if [ "$boot" = OLD-META ]; then
		old=$(older_meta)
		if [ -n "$old" ]; then
			boot="linux-image-amd64=$old linux-headers-amd64=$old"
		else
			# One kernel ABI only: the closest honest step is a
			# reinstall of the same kernel, which runs the same hooks.
			log "image $image: the archive has one 6.1 ABI only; the ABI update step becomes a reinstall"
			boot="linux-image-amd64 linux-headers-amd64"
			reinstall_abi=1
		fi
	fi
	# GRUB goes onto the disk from inside the guest (finish.py).
	printf '%s\n' 'grub-pc grub-pc/install_devices multiselect' \
		'grub-pc grub-pc/install_devices_empty boolean true' |
		in_root debconf-set-selections || return 1
	log "image $image: installing $boot and the base packages"
	# shellcheck disable=SC2086 # apt-get arguments
	run_logged "$(step_log install)" "apt-get install in the $image image" \
		in_root --bind "$debs/apt:/var/cache/apt/archives" \
		apt-get install -y -q "${BASE_PACKAGES[@]}" $boot || return 1
	kernel=$(in_root linux-version list | sort -V | tail -n 1)
	[ -n "$kernel" ] || { log "image $image: no kernel installed"; return 1; }
	if [ "${reinstall_abi:-0}" = 1 ]; then
		steps=("${steps[@]/#abi_update=*/abi_update=--reinstall linux-image-$kernel linux-headers-$kernel}")
	fi
}

# The local repository: what each scenario step downloads in the image as
# it is now (and so installs in the guest, which has nothing else).
do_repo()
{
	local step args n fields=() f
	mkdir -p "$work/repo"
	in_root apt-get clean || return 1
	for step in "${steps[@]}"; do
		args=${step#*=}
		log "image $image: downloading for step ${step%%=*}: apt-get install $args"
		# shellcheck disable=SC2086 # apt-get arguments
		run_logged "$(step_log "repo-${step%%=*}")" "apt-get install --download-only $args" \
			in_root apt-get install -y -q --download-only $args || return 1
		mv "$root"/var/cache/apt/archives/*.deb "$work/repo/" 2>/dev/null || true
	done
	n=$(find "$work/repo" -name '*.deb' | wc -l)
	log "image $image: local repository of $n packages"
	for f in "${repo_flags[@]}"; do
		fields+=(-o "APT::FTPArchive::Release::${f%%=*}=${f#*=}")
	done
	(
		cd "$work/repo" &&
			apt-ftparchive packages . >Packages &&
			apt-ftparchive -o APT::FTPArchive::Release::Origin=pcmcia-legacy \
			-o "APT::FTPArchive::Release::Label=pcmcia-legacy local repository" \
			-o "APT::FTPArchive::Release::Suite=$repo_suite" \
			-o "APT::FTPArchive::Release::Codename=$repo_suite" \
			"${fields[@]}" release . >../Release.new &&
			mv ../Release.new Release
	) || return 1
	run_logged "$(step_log repo)" "mke2fs of the repository" \
		mke2fs -q -F -t ext4 -L pcl-repo -d "$work/repo" "$work/repo.img" \
		"$(($(du -sm "$work/repo" | cut -f1) * 11 / 10 + 16))M"
}

# The guest's side: our console, its configuration, apt offline.
do_finish_root()
{
	cp -a --no-preserve=ownership "$HERE/rootfs/." "$root/" &&
		install -m 755 "$PCL_TOP/vm/guest/rootfs/sbin/pcl-wait" "$root/usr/local/sbin/pcl-wait" &&
		echo pcl-guest >"$root/etc/hostname" &&
		printf '127.0.0.1\tlocalhost\n127.0.1.1\tpcl-guest\n' >"$root/etc/hosts" &&
		mkdir -p "$root/media/pcl-repo" "$root/pcl" || return 1
	# The console is ours: no gettys on the serial ports or the (absent)
	# display.
	run_logged "$(step_log root)" "systemctl enable/mask" \
		in_root sh -c 'systemctl enable pcl-console.service &&
			systemctl mask serial-getty@ttyS0.service serial-getty@ttyS1.service \
				getty@tty1.service getty-static.service' ||
		return 1
	# No network, no host resolver; services start again.
	rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf" &&
		: >"$root/etc/apt/sources.list" &&
		in_root apt-get clean &&
		rm -rf "$root"/var/lib/apt/lists/* &&
		cp "$root/boot/vmlinuz-$kernel" "$work/vmlinuz" &&
		cp "$root/boot/initrd.img-$kernel" "$work/initrd.img"
}

do_disk()
{
	local raw=$work/disk.raw
	rm -f "$raw" && truncate -s "${DISK_MIB}M" "$raw" || return 1
	run_logged "$(step_log disk)" "mke2fs of the root file system" \
		mke2fs -q -F -t ext4 -L pcl-root -d "$root" -E offset=1048576 \
		"$raw" "$((DISK_MIB - 1))M" || return 1
	printf 'label: dos\nstart=2048, type=83, bootable\n' |
		run_logged "$(step_log disk)" "sfdisk" \
			sfdisk -q --wipe never --wipe-partitions never "$raw" || return 1
	run_logged "$(step_log disk)" "qemu-img convert" \
		qemu-img convert -f raw -O qcow2 "$raw" "$work/disk.qcow2" || return 1
	rm -f "$raw"
}

do_boots()
{
	run_logged "$(step_log boot)" "the image's first boots (finish.py)" \
		/usr/bin/python3 "$HERE/finish.py" "$image" "$work" "$kernel"
}

write_manifest()
{
	local step
	{
		echo "name=$image"
		echo "suite=$suite"
		echo "kernel=$kernel"
		echo "recipe=$recipe"
		echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		for step in "${steps[@]}"; do
			echo "install.$step"
		done
		if [ -s "$work/repo/Packages" ]; then
			awk '/^Package:/ { p = $2 } /^Version:/ { print "repo." p "=" $2 }' \
				"$work/repo/Packages"
		fi
	} >"$work/manifest"
}

build_image()
{
	work=$IMAGES/$image.new
	root=$work/root
	rm -rf "$work"
	mkdir -p "$work"
	need_host_packages debootstrap qemu-utils fdisk e2fsprogs apt-utils || return 1
	stage "image-$image-debootstrap" do_debootstrap &&
		stage "image-$image-packages" do_packages &&
		stage "image-$image-repo" do_repo &&
		stage "image-$image-root" do_finish_root &&
		stage "image-$image-disk" do_disk || return 1
	rm -rf "$root" && stage "image-$image-boots" do_boots || return 1
	write_manifest &&
		rm -rf "$work/repo" "$work/vmlinuz" "$work/initrd.img" "$dir" &&
		mv "$work" "$dir"
}

main()
{
	local rebuild=0
	case ${1:-} in
	--list)
		echo "$IMAGE_NAMES" | tr ' ' '\n'
		return 0
		;;
	--rebuild)
		rebuild=1
		shift
		;;
	esac
	[ $# -eq 1 ] || die "usage: $0 [--rebuild] NAME | --list"
	image=$1
	image_spec "$image"
	# Downloaded packages, kept between builds of an image (a rebuild
	# fetches only what changed in the archive).
	debs=$PCL_CACHE/images/debs/$image
	recipe=$(recipe_hash "$image")
	dir=$IMAGES/$image
	mkdir -p "$IMAGES"
	exec {lock}>"$IMAGES/$image.lock"
	flock "$lock"
	if [ $rebuild = 0 ] && [ -e "$dir/manifest" ] &&
		grep -qx "recipe=$recipe" "$dir/manifest"; then
		echo "$dir"
		return 0
	fi
	log "image $image: building (recipe $recipe; a few minutes; logs: $PCL_LOGS/image-$image-*.log)"
	stage "image-$image" build_image || die "image $image: build failed"
	log "image $image: ready in $dir (kernel $kernel)"
	echo "$dir"
}

main "$@"
