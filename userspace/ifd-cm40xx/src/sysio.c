// SPDX-License-Identifier: GPL-2.0-only
/* The real system calls. */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "sysio.h"

/*
 * The drivers refuse O_NONBLOCK opens (EAGAIN): the flag is set after
 * the open, where it makes their waits for a card fail with EAGAIN.
 */
static int sys_open(const char *path, bool nonblock)
{
	int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (nonblock && fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	return fd;
}

static int sys_close(int fd)
{
	return close(fd) ? -errno : 0;
}

static ssize_t sys_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static ssize_t sys_write(int fd, const void *buf, size_t len)
{
	ssize_t n;

	do
		n = write(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int sys_ioctl(int fd, unsigned long req, void *arg)
{
	int rc;

	do
		rc = ioctl(fd, req, arg);
	while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : rc;
}

static void sys_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static const struct ifd_sys real_sys = {
	.open = sys_open,
	.close = sys_close,
	.read = sys_read,
	.write = sys_write,
	.ioctl = sys_ioctl,
	.sleep_ms = sys_sleep_ms,
};

const struct ifd_sys *ifd_sys = &real_sys;
