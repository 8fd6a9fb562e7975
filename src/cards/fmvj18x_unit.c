// SPDX-License-Identifier: GPL-2.0-only
/* The fmvj18x_cs module as one compilation unit: see drivers.list. */
#include "fmvj18x_cs.c"
#include "fmvj18x_nic.c"
#include "pcnic.c"
