// SPDX-License-Identifier: GPL-2.0-only
/* The smc91c92_cs module as one compilation unit: see drivers.list. */
#include "smc91c92_cs.c"
#include "smc91c92_nic.c"
#include "pcnic.c"
