#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Print the version of pcmcia-legacy: the second word of CHANGELOG's first
# line ("pcmcia-legacy 0.1.0 (unreleased)"), the single source of it.
set -eu

changelog=$(cd "$(dirname "$0")/.." && pwd)/CHANGELOG
read -r name version _ <"$changelog" || true
if [ "$name" != pcmcia-legacy ] || ! [[ $version =~ ^[0-9]+(\.[0-9]+)+([~+.a-z0-9]*)$ ]]; then
	echo "error: $changelog must start with 'pcmcia-legacy <version> ...'" >&2
	exit 1
fi
echo "$version"
