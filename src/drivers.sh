# SPDX-License-Identifier: GPL-2.0-only
# Which drivers to build for a kernel: the one implementation of that rule,
# shared by dkms.conf (which sources this file), src/Makefile and the
# scripts (which run it).  bash; no set -e assumptions.
#
#   drivers.sh all                   every driver of drivers.list
#   drivers.sh table                 drivers.list without comments
#   drivers.sh config KVER [KSRC]    the kernel's config file, if readable
#   drivers.sh missing CONFIG        the drivers that kernel does not ship
#   drivers.sh field MODULE N        column N of MODULE's line (1 = module)
#
# A kernel ships a driver when its config has the upstream symbol =y or =m.
# Without a readable config every driver counts as missing: building one
# too many is recoverable, leaving a machine without its driver is not.

pcl_drivers_dir=${pcl_drivers_dir:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}

# The table without comments and blank lines, one driver per line.
pcl_drivers_table()
{
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$pcl_drivers_dir/drivers.list"
}

pcl_drivers_all()
{
	pcl_drivers_table | awk '{ print $1 }'
}

pcl_driver_field()
{
	pcl_drivers_table | awk -v m="$1" -v n="$2" '$1 == m { print $n }'
}

# pcl_kernel_config KVER [KSRC]: the first readable config of that kernel:
# /boot (Debian up to 6.12), /usr/lib/modules/KVER/config (Debian 7.x), or
# the headers' .config.
pcl_kernel_config()
{
	local kver=$1 ksrc=${2:-} f
	for f in "/boot/config-$kver" "/usr/lib/modules/$kver/config" \
		"/lib/modules/$kver/config" ${ksrc:+"$ksrc/.config"} \
		"/lib/modules/$kver/build/.config"; do
		if [ -n "$kver" ] && [ -r "$f" ] && [ -s "$f" ]; then
			echo "$f"
			return 0
		fi
	done
	return 1
}

# pcl_config_has CONFIG SYMBOL: the kernel has SYMBOL built in or modular.
pcl_config_has()
{
	grep -qE "^$2=[ym]\$" "$1"
}

# pcl_drivers_missing [CONFIG]: the drivers the kernel of CONFIG lacks; all
# of them when CONFIG is empty or unreadable.
pcl_drivers_missing()
{
	local config=${1:-} module dir symbol rest
	while read -r module dir symbol rest; do
		[ -n "$module" ] || continue
		if [ -z "$config" ] || [ ! -r "$config" ] ||
			! pcl_config_has "$config" "$symbol"; then
			echo "$module"
		fi
	done <<<"$(pcl_drivers_table)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	case ${1:-} in
	all) pcl_drivers_all ;;
	table) pcl_drivers_table ;;
	config) pcl_kernel_config "${2:?kernel release}" "${3:-}" ;;
	missing) pcl_drivers_missing "${2:-}" ;;
	field) pcl_driver_field "${2:?module}" "${3:?column}" ;;
	*)
		echo "usage: $0 all | table | config KVER [KSRC] | missing [CONFIG] | field MODULE N" >&2
		exit 2
		;;
	esac
fi
