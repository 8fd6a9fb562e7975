// SPDX-License-Identifier: GPL-2.0-only
/* The i82092 module as one compilation unit: see drivers.list. */
#include "i82092aa.c"
#include "exca.c"
