// SPDX-License-Identifier: GPL-2.0-only
/* The axnet_cs module as one compilation unit: see drivers.list. */
#include "axnet_cs.c"
#include "axnet_nic.c"
#include "axnet_phy.c"
#include "pcnic.c"
