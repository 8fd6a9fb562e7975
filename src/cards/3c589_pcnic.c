// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared Ethernet PC Card life cycle (pcnic.c), built as an object of
 * the 3c589_cs module; see bridges/i82092_exca.c for why every module has
 * its own copy.
 */
#include "pcnic.c"
