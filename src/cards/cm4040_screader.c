// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared smart card reader code (screader.c), built as an object of
 * the cm4040_cs module; see bridges/i82092_exca.c for why every module has
 * its own copy.
 */
#include "screader.c"
