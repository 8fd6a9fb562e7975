// SPDX-License-Identifier: GPL-2.0-only
/* The cm4040_cs module as one compilation unit: see drivers.list. */
#include "cm4040_cs.c"
#include "screader.c"
#include "iso7816.c"
