// SPDX-License-Identifier: GPL-2.0-only
/* The tcic module as one compilation unit: see drivers.list. */
#include "tcic.c"
#include "isa_socket.c"
