// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared EtherLink III code (elink3_lib.c), built as an object of the
 * 3c574_cs module; see bridges/i82092_exca.c for why every module has its
 * own copy.
 */
#include "elink3_lib.c"
