# SPDX-License-Identifier: GPL-2.0-only
# apt for any Debian suite without touching the host's apt sources: a
# private configuration, state and archive cache under $PCL_CACHE/apt/SUITE.
# Source it after lib.sh.

# The archive suites that make up a release as a user would configure it.
suite_sources()
{
	case $1 in
	bookworm) echo bookworm bookworm-updates bookworm-security ;;
	trixie) echo trixie trixie-updates trixie-security ;;
	trixie-backports) echo trixie trixie-updates trixie-security trixie-backports ;;
	sid | unstable) echo sid ;;
	*) die "unknown suite '$1'" ;;
	esac
}

_suite_apt_dir()
{
	echo "$PCL_CACHE/apt/$1"
}

_suite_apt_setup()
{
	local suite=$1 dir s uri
	dir=$(_suite_apt_dir "$suite")
	mkdir -p "$dir"/etc/preferences.d "$dir"/state/lists/partial \
		"$dir"/cache/archives/partial
	: >"$dir/etc/sources.list.new"
	for s in $(suite_sources "$suite"); do
		uri=$(suite_mirror "$s")
		printf 'deb [arch=amd64,i386] %s %s main\ndeb-src %s %s main\n' \
			"$uri" "$s" "$uri" "$s" >>"$dir/etc/sources.list.new"
	done
	mv "$dir/etc/sources.list.new" "$dir/etc/sources.list"
	cat >"$dir/etc/apt.conf" <<-CONF
		Dir::Etc::SourceList "$dir/etc/sources.list";
		Dir::Etc::SourceParts "/nonexistent";
		Dir::Etc::Preferences "/nonexistent";
		Dir::Etc::PreferencesParts "$dir/etc/preferences.d";
		Dir::State "$dir/state";
		Dir::State::status "$dir/state/status";
		Dir::Cache "$dir/cache";
		APT::Architectures { "amd64"; "i386"; };
		Acquire::Languages "none";
	CONF
	[ -e "$dir/state/status" ] || : >"$dir/state/status"
}

# suite_apt SUITE CMD ARGS...: run apt-get/apt-cache with SUITE's private
# configuration.  Package lists are refreshed at most every 6 hours.
suite_apt()
{
	local suite=$1 dir
	shift
	dir=$(_suite_apt_dir "$suite")
	if _suite_apt_stale "$dir"; then
		mkdir -p "$dir"
		# Parallel callers (test workers) refresh one at a time; the
		# others then find the lists fresh.
		(
			flock 8
			_suite_apt_stale "$dir" || exit 0
			_suite_apt_setup "$suite"
			log "apt: refreshing package lists of $suite"
			_suite_apt_update "$suite" "$dir" || exit 1
			touch "$dir/state/updated"
		) 8>"$dir/.update.lock" || return 1
	fi
	APT_CONFIG="$dir/etc/apt.conf" "$@"
}

_suite_apt_update()
{
	local suite=$1 dir=$2
	apt_update_tolerant "$PCL_LOGS/apt-$suite-update.log" "apt-get update ($suite)" \
		"$dir/etc/sources.list" env APT_CONFIG="$dir/etc/apt.conf" apt-get update
}

# apt_update_tolerant LOGFILE WHAT SOURCES CMD...: run CMD, an apt-get
# update that reads the sources file SOURCES.  A mirror in the middle of
# a sync serves index files that do not match its Release file: one more
# try 20 s later.  apt then drops every suite with a bad index whole (its
# amd64 lists too), so when all that still fails is i386 indexes (seen
# for days on bookworm-security's), those suites' lines lose i386 and the
# update runs once more: only the 32-bit packages of those suites are
# missing then (the 686-pae headers come from the suite's main archive).
apt_update_tolerant()
{
	local logf=$1 what=$2 sources=$3 try suites s
	shift 3
	mkdir -p "$(dirname "$logf")"
	for try in 1 2; do
		"$@" >"$logf" 2>&1 && ! grep -q '^E: ' "$logf" && return 0
		[ "$try" -eq 2 ] && break
		log "apt: $what: package lists failed to download; again in 20 s"
		sleep 20
	done
	suites=$(_apt_i386_only_failures "$logf") || {
		_apt_update_failed "$logf" "$what"
		return 1
	}
	for s in $suites; do
		sed -i -E "s#^deb (\[[^]]*\] )?([^ ]+) $s main\$#deb [arch=amd64] \2 $s main#" "$sources"
	done
	log "apt: warning: $what: the i386 lists of ${suites//$'\n'/ } failed to download; going on without them (log: $logf)"
	"$@" >"$logf" 2>&1 && ! grep -q '^E: ' "$logf" && return 0
	_apt_update_failed "$logf" "$what"
	return 1
}

# The suites whose i386 indexes failed, or failure if anything else did.
_apt_i386_only_failures()
{
	local failed
	failed=$(grep '^E: Failed to fetch' "$1") || return 1
	! grep -qv '/binary-i386/' <<<"$failed" || return 1
	sed -n 's#.*/dists/\([^/]*\)/[^/]*/binary-i386/.*#\1#p' <<<"$failed" | sort -u
}

_apt_update_failed()
{
	printf 'error: %s failed; log: %s\n' "$2" "$1" >&2
	tail -n 20 "$1" | sed 's/^/    /' >&2
}

# Lists older than 6 hours are stale; under PCL_APT_HOLD=1 (a test run,
# see apt_refresh_all) lists that exist are never refreshed, so that one
# run sees one state of the archive from its first test to its last.
_suite_apt_stale()
{
	[ ! -e "$1/etc/apt.conf" ] || [ ! -e "$1/state/updated" ] && return 0
	[ "${PCL_APT_HOLD:-}" != 1 ] && [ -n "$(find "$1/state/updated" -mmin +360)" ]
}

# apt_refresh_all: refresh the stale lists of every suite set up so far.
# tests/run calls it before the tests and then holds the lists: a kernel
# resolved by one test must not move under another when a point release
# reaches the archive mid-run.  Suites first used during the run get
# fresh lists then, which hold for the rest of it.
apt_refresh_all()
{
	local dir
	for dir in "$PCL_CACHE"/apt/*/; do
		[ -e "$dir/etc/apt.conf" ] || continue
		suite_apt "$(basename "$dir")" true || return 1
	done
}

# suite_latest SUITE REGEX: the newest package name matching REGEX (by
# version order of the names), e.g. the newest linux-headers-*-amd64.
suite_latest()
{
	suite_apt "$1" apt-cache pkgnames |
		grep -E "^($2)\$" | sort -V | tail -n 1
}

# suite_download SUITE DESTDIR PKG...: fetch .debs into DESTDIR (cached).
suite_download()
{
	local suite=$1 dest=$2
	shift 2
	mkdir -p "$dest"
	(cd "$dest" && suite_apt "$suite" apt-get download -q "$@")
}
