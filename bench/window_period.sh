#!/usr/bin/env bash
# Issue 18: periods of windowed runs. The same adaptive analysis (no --to:
# step by step until the period is proven) by the full table
# (`--engine sparse`) and by the windowed engine searching only its last
# WINDOW heaps for a period (`--window --period-window WINDOW`), one thread
# each, in the same run; checks that both reports agree on every field but
# the windowed run's own `record` and the count of pairs scanned, and
# prints both times, peak memory (/usr/bin/time) and the ratio.
#   bash bench/window_period.sh [GAME] [MAX] [WINDOW]   (default 0.376 2^23 64)
# Build first: cargo build --release -p grundy-cli
set -euo pipefail
cd "$(dirname "$0")/.."
G=${GRUNDY:-${CARGO_TARGET_DIR:-target}/release/grundy}
game=${1:-0.376}
max=${2:-2^23}
window=${3:-64}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Seconds and peak kilobytes of one command, its stdout in $dir/$1.
measure() {
  local out=$1
  shift
  /usr/bin/time -f "%e %M" -o "$dir/time" nice -n 10 "$@" >"$dir/$out"
  cat "$dir/time"
}
read -r ft fm < <(measure full "$G" analyze "$game" --max "$max" --engine sparse --threads 1 --format json)
read -r wt wm < <(measure windowed "$G" analyze "$game" --max "$max" --window --period-window "$window" --format json)
python3 - "$dir/full" "$dir/windowed" <<'PY'
import json, sys
full, windowed = (json.load(open(p)) for p in sys.argv[1:])
record = windowed.pop("record")
# The pairs the scans counted may differ: each run learns where its scans
# look first by timing its own heaps (solve/probe.rs).
differ = [k for k in full if k not in ("record", "sparse_scan_pairs") and full[k] != windowed.get(k)]
print(f"period {full['period']}, pre-period {full['preperiod']}, {full['support']}, "
      f"computed to {full['computed_to']}; windowed: window {record['window_bytes']} bytes, "
      f"far scans {record['far_scans']}, root {record['root']}")
print("reports agree on every field" if not differ else f"REPORTS DIFFER: {differ}")
sys.exit(1 if differ else 0)
PY
ratio=$(python3 -c "print(f'{$ft / $wt:.3f}')")
echo "$game --max $max: full table ${ft}s ${fm}KB, windowed (period window $window) ${wt}s ${wm}KB, windowed/full speed = $ratio"
