#!/usr/bin/env bash
# Issue 18: one record run in bounded memory, checked against the literature.
# Runs `analyze GAME --to 2^LOG2N --window` with its value stream kept,
# under /usr/bin/time -v (wall time, CPU time, peak memory), then checks the
# stream's histogram at every power of two up to 2^LOG2N against Rogalski's
# published one (../shared/data/octal/rogalski/histograms/GAME/N) where it
# exists, and, with FULL_AT=K, against a full-table run's histogram at 2^K.
# The stream is removed at the end unless KEEP=1 (2^28 heaps at two bytes a
# value are 512 MiB).
#   bash bench/record_run.sh GAME LOG2N [EXTRA FLAGS…]
#   e.g. FULL_AT=24 bash bench/record_run.sh grundy 28
#        bash bench/record_run.sh 0.167 28
# Build first: cargo build --release -p grundy-cli
set -euo pipefail
cd "$(dirname "$0")/.."
G=${GRUNDY:-${CARGO_TARGET_DIR:-target}/release/grundy}
game=$1
log2n=$2
shift 2
refs=../shared/data/octal/rogalski/histograms/$game
dir=${RECORD_DIR:-$(mktemp -d)}
mkdir -p "$dir"
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$dir/values" "$dir/ckpt"' EXIT
/usr/bin/time -v -o "$dir/time" nice -n "${NICE:-0}" "$G" analyze "$game" --to "2^$log2n" \
  --window --values-out "$dir/values" --checkpoint "$dir/ckpt" --log-every 60 \
  --format json "$@" >"$dir/report.json" 2>"$dir/log"
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time")
user=$(awk -F': ' '/User time/ {print $2}' "$dir/time")
peak=$(awk -F': ' '/Maximum resident/ {print $2}' "$dir/time")
python3 - "$dir/report.json" "$wall" "$user" "$peak" <<'PY'
import json, sys
report, wall, user, peak = sys.argv[1], *sys.argv[2:]
r = json.load(open(report))
rec = r["record"]
print(f"{r['game']} to {r['computed_to']}: wall {wall}, user {user} s, peak {int(peak) / 1024:.1f} MiB, "
      f"largest {r['max_value']} at {r['max_value_at']}, rare {r['rare_count']} (last {r['last_rare']}), "
      f"far scans {rec['far_scans']}, values read back {rec['values_read']}, window {rec['window_bytes']} bytes, "
      f"root {rec['root']}, period {r['period']} ({r['support']})")
PY
checked=0
failed=0
for k in $(seq 1 "$log2n"); do
  n=$((1 << k))
  [ -f "$refs/$n" ] || continue
  if "$G" stream hist "$dir/values" --to "$n" | diff -q - "$refs/$n" >/dev/null; then
    checked=$((checked + 1))
  else
    echo "MISMATCH with Rogalski's histogram at $n"
    failed=$((failed + 1))
  fi
done
[ "$checked" -gt 0 ] && echo "Rogalski's histograms matched at $checked powers of two (2^1..2^$log2n present in $refs), $failed mismatches"
if [ -n "${FULL_AT:-}" ]; then
  n=$((1 << FULL_AT))
  "$G" analyze "$game" --to "$n" --engine sparse --format json >"$dir/full.json"
  "$G" stream hist "$dir/values" --to "$n" --format json >"$dir/hist.json"
  python3 - "$dir/full.json" "$dir/hist.json" "$n" <<'PY'
import json, sys
full, hist, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def counts(h):
    rows = [(r["value"], r["count"]) if isinstance(r, dict) else tuple(r) for r in h["histogram"]]
    return {v: c for v, c in rows if c}
a, b = counts(full), counts(hist)
a[0] = a.get(0, 0) - 1  # the table counts heap 0; Rogalski's range is 1..=N
a = {v: c for v, c in a.items() if c}
print(f"histogram at {n}: " + ("equal to the full table's" if a == b else f"DIFFERS from the full table's"))
sys.exit(0 if a == b else 1)
PY
fi
exit "$failed"
