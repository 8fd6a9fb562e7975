# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the host-side scripts: cache location, progress
# messages, failures with a log path, and the Debian mirror derived from
# this machine's own apt sources.  Source it; do not run it.

PCL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PCL_CACHE=${PCMCIA_LEGACY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pcmcia-legacy}
PCL_LOGS=${PCL_LOGS:-$PCL_CACHE/logs}

# Progress goes to stderr so that callers can capture stdout.
log()
{
	printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

die()
{
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# run_logged LOGFILE WHAT CMD...: run CMD with its output in LOGFILE; on
# failure say what failed and where the log is, and return the status.
run_logged()
{
	local logfile=$1 what=$2 rc=0
	shift 2
	mkdir -p "$(dirname "$logfile")"
	"$@" >"$logfile" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		printf 'error: %s failed (exit %s); log: %s\n' "$what" "$rc" "$logfile" >&2
		tail -n 20 "$logfile" | sed 's/^/    /' >&2
	fi
	return "$rc"
}

# The machine's own Debian archive, as its apt sources name it.  apt
# resolves both sources.list formats for us.
_pcl_repo_uri()
{
	apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(TARGET_OF)' 2>/dev/null |
		awk -v want="$1" '$2 ~ want && $3 == "deb" { print $1; exit }'
}

debian_mirror()
{
	local uri
	uri=${PCL_MIRROR:-$(_pcl_repo_uri '^[a-z]+$')}
	[ -n "$uri" ] || die "no Debian archive in this machine's apt sources; set PCL_MIRROR"
	echo "${uri%/}"
}

# The security archive: the one the machine uses, else the usual sibling
# of the main archive.
security_mirror()
{
	local uri
	uri=${PCL_SECURITY_MIRROR:-$(_pcl_repo_uri '-security$')}
	[ -n "$uri" ] || uri="$(debian_mirror)-security"
	echo "${uri%/}"
}

# The archive that carries a suite.
suite_mirror()
{
	case $1 in
	*-security) security_mirror ;;
	*) debian_mirror ;;
	esac
}

# The host packages of "$@" that are not installed.
missing_host_packages()
{
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			echo "$p"
	done
}

# Install host packages that are missing.  Only ever the host's own suite.
# Parallel tests and stages install at the same time: one of them holds
# the lock and the others then find their packages there, instead of
# failing on dpkg's lock.
need_host_packages()
{
	[ -z "$(missing_host_packages "$@")" ] && return 0
	mkdir -p "$PCL_CACHE" "$PCL_LOGS"
	(
		flock 7
		missing=$(missing_host_packages "$@")
		[ -z "$missing" ] && exit 0
		log "installing host packages: $(echo $missing)"
		if [ ! -e "$PCL_CACHE/.apt-updated" ] ||
			[ -n "$(find "$PCL_CACHE/.apt-updated" -mmin +720)" ]; then
			run_logged "$PCL_LOGS/apt-update.log" "apt-get update" \
				apt-get -o DPkg::Lock::Timeout=600 update || exit 1
			touch "$PCL_CACHE/.apt-updated"
		fi
		# the timeout waits for apt runs that are not ours
		# shellcheck disable=SC2086 # one word per package
		run_logged "$PCL_LOGS/apt-install.log" "apt-get install $(echo $missing)" \
			env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			-o DPkg::Lock::Timeout=600 --no-install-recommends $missing
	) 7>"$PCL_CACHE/.host-apt.lock"
}

# Wall-clock timing of a stage, printed when it ends.
stage()
{
	local name=$1 start rc=0
	shift
	start=$(date +%s)
	log "stage $name: start"
	"$@" || rc=$?
	log "stage $name: $([ $rc -eq 0 ] && echo done || echo "FAILED ($rc)") in $(($(date +%s) - start)) s"
	return $rc
}

# stage_bg NAME CMD...: a stage that runs beside the next ones (e.g. one
# bound by downloads beside one bound by the CPU); its output goes to
# $PCL_LOGS/stage-NAME.log until stage_wait NAME prints it.
stage_bg()
{
	local name=$1 out
	shift
	out=$PCL_LOGS/stage-$name.log
	mkdir -p "$PCL_LOGS"
	log "stage $name: running in the background (output: $out)"
	stage "$name" "$@" >"$out" 2>&1 &
	eval "_pcl_stage_pid_${name//[^a-zA-Z0-9]/_}=\$!"
}

# stage_wait NAME: wait for a background stage, print its output, and
# return its status.
stage_wait()
{
	local name=$1 var rc=0
	var=_pcl_stage_pid_${name//[^a-zA-Z0-9]/_}
	[ -n "${!var:-}" ] || die "stage_wait: no background stage $name"
	log "stage $name: waiting for it"
	wait "${!var}" || rc=$?
	cat "$PCL_LOGS/stage-$name.log"
	[ $rc -eq 0 ] || printf 'error: stage %s failed (%d); its output is above and in %s\n' \
		"$name" "$rc" "$PCL_LOGS/stage-$name.log" >&2
	return $rc
}
