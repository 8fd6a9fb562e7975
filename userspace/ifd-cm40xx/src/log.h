/* SPDX-License-Identifier: GPL-2.0-only */
/* Messages go to pcscd's log (its log_msg(), which drivers may call). */
#ifndef IFD_CM40XX_LOG_H
#define IFD_CM40XX_LOG_H

#include <debuglog.h>

#define ifd_log(prio, fmt, ...) \
	log_msg(prio, "ifd-cm40xx: " fmt, ##__VA_ARGS__)
#define ifd_log_debug(fmt, ...)	ifd_log(PCSC_LOG_DEBUG, fmt, ##__VA_ARGS__)
#define ifd_log_info(fmt, ...)	ifd_log(PCSC_LOG_INFO, fmt, ##__VA_ARGS__)
#define ifd_log_error(fmt, ...)	ifd_log(PCSC_LOG_ERROR, fmt, ##__VA_ARGS__)

#endif
