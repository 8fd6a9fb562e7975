// SPDX-License-Identifier: GPL-2.0-only
/* The nmclan_cs module as one compilation unit: see drivers.list. */
#include "nmclan_cs.c"
#include "nmclan_nic.c"
#include "pcnic.c"
