// SPDX-License-Identifier: GPL-2.0-only
/* The 3c574_cs module as one compilation unit: see drivers.list. */
#include "3c574_cs.c"
#include "3c574_nic.c"
#include "elink3_lib.c"
#include "pcnic.c"
