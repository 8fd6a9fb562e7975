/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The system calls the readers' transports make, behind one table so
 * that the unit tests can put a scripted device in the kernel's place.
 * Every call returns a negative errno on failure.
 */
#ifndef IFD_CM40XX_SYSIO_H
#define IFD_CM40XX_SYSIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ifd_sys {
	int (*open)(const char *path, bool nonblock);
	int (*close)(int fd);
	ssize_t (*read)(int fd, void *buf, size_t len);
	ssize_t (*write)(int fd, const void *buf, size_t len);
	int (*ioctl)(int fd, unsigned long req, void *arg);
	void (*sleep_ms)(unsigned int ms);
};

extern const struct ifd_sys *ifd_sys;

#endif
