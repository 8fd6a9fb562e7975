# SPDX-License-Identifier: GPL-2.0-only
#
# pcmcia-legacy: out-of-tree PC Card bridge and card drivers.
#
# Kernel builds, chroots, QEMU sources and guest images live in the cache
# directory ($(PCL_CACHE)), never in this tree.  Nothing here ever loads a
# module into the running kernel: modules are loaded only inside QEMU guests.

SHELL := /bin/bash
export PCMCIA_LEGACY_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/pcmcia-legacy

# make check TESTS=<pattern>: only the tests whose name contains <pattern>.
TESTS ?=
# make modules KVER=<kernel release>
KVER ?=
# PCL_ALL_DRIVERS=1 builds every driver, also those the kernel still ships
# (for development and the tests; DKMS installs never set it).
export PCL_ALL_DRIVERS

.PHONY: all help demo modules matrix lint qemu check soak deb rpm clean

all: help

help:
	@echo 'make demo                 build the package, boot an emulated PC Card machine, install it'
	@echo 'make check [TESTS=pat]    run the tests (the CI command)'
	@echo 'make soak [TESTS=pat]     the tests with the full stress counts'
	@echo 'make modules KVER=rel     build the drivers for one kernel of the matrix'
	@echo 'make matrix               build the drivers for every kernel in kernels.matrix'
	@echo 'make lint                 checkpatch --strict, sparse and Coccinelle over src/'
	@echo 'make qemu                 build QEMU with the emulated PC Card hardware'
	@echo 'make deb / make rpm       build the DKMS packages into out/'

demo:
	@scripts/demo.sh

modules:
	@scripts/modules.sh $(KVER)

matrix:
	@scripts/matrix.sh

lint:
	@scripts/lint.sh

qemu:
	@vm/qemu/build.sh

# the slowest tests are listed at the end: CI's time budget is watched there
check:
	@tests/run "$(TESTS)" --durations=20

soak:
	@PCL_STRESS=soak tests/run $(TESTS)

deb rpm:
	@scripts/package.sh $@

clean:
	rm -rf out
	find src -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' \
		-o -name modules.order -o -name Module.symvers | xargs rm -f
