// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared ISO 7816-3 code (iso7816.c), built as an object of the
 * cm4000_cs module; see bridges/i82092_exca.c for why every module has
 * its own copy.
 */
#include "iso7816.c"
