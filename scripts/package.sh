#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the source packages: `package.sh deb` or `package.sh rpm`.  The
# tracked files of this tree are exported to out/ and built there, so the
# work tree stays clean.  The version always comes from CHANGELOG.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

version=$("$top/scripts/version.sh")
out=${PCL_OUT:-$top/out}
name=pcmcia-legacy-$version

# export_tree DIR: the tracked (and not ignored, new) files, as they are
# now; outside a git checkout (a release tarball), everything but out/.
export_tree()
{
	rm -rf "$1"
	mkdir -p "$1"
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$top" && git ls-files -co --exclude-standard -z |
			xargs -0 tar -cf - --) | tar -xf - -C "$1"
	else
		tar -cf - -C "$top" --exclude=./out --exclude=./.git . | tar -xf - -C "$1"
	fi
}

check_changelogs()
{
	local deb
	deb=$(cd "$top" && dpkg-parsechangelog -S Version)
	[ "$deb" = "$version" ] ||
		die "debian/changelog is at $deb but CHANGELOG at $version: add a debian/changelog entry"
}

build_deb()
{
	need_host_packages dpkg-dev debhelper dh-dkms lintian fakeroot \
		build-essential libpcsclite-dev pkgconf
	check_changelogs
	export_tree "$out/deb/$name"
	log "building the .deb ($version)"
	run_logged "$out/deb/build.log" "dpkg-buildpackage" \
		sh -c "cd '$out/deb/$name' && dpkg-buildpackage -us -uc -b" || exit 1
	log "lintian"
	run_logged "$out/deb/lintian.log" "lintian" \
		lintian --fail-on error,warning "$out"/deb/pcmcia-legacy_"${version}"_*.changes || exit 1
	ls "$out"/deb/*.deb
}

build_rpm()
{
	need_host_packages rpm rpmlint build-essential libpcsclite-dev pkgconf
	export_tree "$out/rpm/$name"
	mkdir -p "$out/rpm/SOURCES"
	tar -czf "$out/rpm/SOURCES/$name.tar.gz" -C "$out/rpm" "$name"
	log "building the .rpm ($version)"
	run_logged "$out/rpm/build.log" "rpmbuild" \
		rpmbuild -bb --nodeps --define "_topdir $out/rpm" \
		--define "pcl_version $version" "$top/rpm/pcmcia-legacy.spec" || exit 1
	log "rpmlint"
	run_logged "$out/rpm/rpmlint.log" "rpmlint" \
		rpmlint -c "$top/rpm/rpmlint.toml" "$out"/rpm/RPMS/*/*.rpm || exit 1
	ls "$out"/rpm/RPMS/*/*.rpm
}

case ${1:-} in
deb) build_deb ;;
rpm) build_rpm ;;
*) die "usage: $0 deb|rpm" ;;
esac
