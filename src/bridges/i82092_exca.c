// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shared ExCA code, built as an object of the i82092 module.  Every
 * module that uses exca.c has a file like this one: one object shared by
 * two modules would be built with an ambiguous KBUILD_MODNAME (and W=1
 * warns about it), and a helper module would add a module that the
 * per-kernel module selection and users' setups would have to know about.
 */
#include "exca.c"
