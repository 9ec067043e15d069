#!/usr/bin/env bash
# The sparse-space benchmark against every peer: see bench/sparse.py.
#   bash bench/sparse.sh [--quick] [--moonshot] [--write] [--runs N]
set -euo pipefail
exec python3 "$(dirname "$0")/sparse.py" "$@"
