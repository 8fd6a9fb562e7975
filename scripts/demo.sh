#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `make demo`: from a fresh Debian machine to PC Cards working with the
# DKMS package, in a QEMU guest.  Sets up what it needs (host packages,
# our QEMU, the guest image), builds the .deb, boots a Debian trixie guest
# on trixie-backports' kernel (which lacks every driver of ours) with the
# emulated Intel 82092AA bridge, a CompactFlash card and a CardMan 4000,
# installs the package with apt and shows the cards working.
#
# Everything big goes to $PCL_CACHE; a second run reuses it and takes a
# few minutes (the guest runs under TCG).  PCL_DEMO_IMAGE picks another
# image of vm/image/build.sh (e.g. bookworm, whose 6.1 needs nothing).
set -eu

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

image=${PCL_DEMO_IMAGE:-trixie-bpo}

host_packages()
{
	need_host_packages python3 git e2fsprogs qemu-utils
}

qemu()
{
	"$PCL_TOP/vm/qemu/build.sh" >/dev/null
}

guest_image()
{
	"$PCL_TOP/vm/image/build.sh" "$image" >/dev/null
}

package()
{
	"$PCL_TOP/scripts/package.sh" deb >/dev/null
}

tools()
{
	"$PCL_TOP/tests/tools/build.sh" >/dev/null
}

log "pcmcia-legacy demo: the first run builds QEMU and a guest image (20-40 min on 2 cores); later runs take minutes"
stage "host packages" host_packages
stage "QEMU with the PC Card models (make qemu)" qemu
stage "guest image $image (vm/image/build.sh)" guest_image
stage "the .deb (make deb)" package
stage "guest tools (sctool)" tools
stage "the guest" /usr/bin/python3 "$PCL_TOP/scripts/demo.py" "$image"
