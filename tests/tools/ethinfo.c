// SPDX-License-Identifier: GPL-2.0-only
/*
 * ethinfo IFACE: what ethtool -i and ethtool IFACE would say, for guests
 * without ethtool.  See README.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

static const char *errname(void)
{
	const char *name = strerrorname_np(errno);

	return name ? name : "?";
}

static int ethtool(int fd, const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr);
}

int main(int argc, char **argv)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_value link = { .cmd = ETHTOOL_GLINK };
	struct ethtool_cmd set = { .cmd = ETHTOOL_GSET };
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: ethinfo IFACE\n");
		return 1;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || ethtool(fd, argv[1], &info) < 0) {
		printf("ERRNO %s\n", errname());
		return 2;
	}
	printf("DRIVER %s\nBUS %s\n", info.driver, info.bus_info);
	if (ethtool(fd, argv[1], &link) < 0)
		printf("LINK %s\n", errname());
	else
		printf("LINK %u\n", link.data);
	if (ethtool(fd, argv[1], &set) < 0)
		printf("SETTINGS %s\n", errname());
	else
		printf("SPEED %u DUPLEX %s AUTONEG %s\n", ethtool_cmd_speed(&set),
		       set.duplex == DUPLEX_FULL ? "full" : "half",
		       set.autoneg ? "on" : "off");
	close(fd);
	return 0;
}
