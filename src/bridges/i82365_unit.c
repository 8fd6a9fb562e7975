// SPDX-License-Identifier: GPL-2.0-only
/* The i82365 module as one compilation unit: see drivers.list. */
#include "i82365.c"
#include "exca.c"
#include "isa_socket.c"
