// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared ISA bridge code, built as an object of the i82365 module
 * (see i82092_exca.c for why each module has its own copy of the object).
 */
#include "isa_socket.c"
