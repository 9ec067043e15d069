#!/usr/bin/env bash
# Sparse-space engine against the reference tool ogsolve 0.0.7 (crates.io),
# both run here, one after the other, on the same work; grundy runs twice,
# on one thread (--threads 1) and on two (the default). Prints a Markdown
# table of times and ratios; with --write, also replaces the sparse section
# of BENCHMARKS.md.
#
#   bash bench/sparse.sh [--quick] [--moonshot] [--write]
#
# Each time is the best of RUNS runs (default 2; the moonshot runs once).
# --quick skips the two slowest runs (0.106, which ogsolve needs -m rc2 for,
# and Grundy's game to 2^22); --moonshot adds the proof of 0.1777's period
# (about two minutes per run), with its peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
write=false
moonshot=false
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    --moonshot) moonshot=true ;;
    --write) write=true ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done

tools=bench/.tools
if [ ! -x "$tools/bin/ogsolve" ]; then
  echo "installing ogsolve 0.0.7 into $tools ..." >&2
  cargo install ogsolve --version 0.0.7 --locked --root "$tools" >&2 2>&1 || \
    cargo install ogsolve --version 0.0.7 --root "$tools" >&2
fi
cargo build --release -p grundy-cli >&2
grundy=target/release/grundy
ogsolve=$tools/bin/ogsolve

# Seconds taken by a command, its output discarded: the best of $RUNS runs
# (default 2), since these machines are noisy.
seconds() {
  local best="" start end took
  for _ in $(seq "${RUNS:-2}"); do
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    took=$(python3 -c "print($end - $start)")
    best=$(python3 -c "print(min(x for x in [$took, ${best:-$took}]))")
  done
  echo "$best"
}

rows=()
# name | grundy arguments | baseline name | baseline command (or "none":
# no peer here runs this work, so the row has times and no ratio) | goal
compare() {
  local name=$1 args=$2 base_name=$3 base_cmd=$4 goal=$5
  local one two base=none
  one=$(seconds bash -c "$grundy $args --threads 1")
  two=$(seconds bash -c "$grundy $args --threads 2")
  if [[ $base_cmd != none ]]; then
    base=$(seconds bash -c "$base_cmd")
  fi
  rows+=("$(python3 - "$name" "$base_name" "$goal" "$one" "$two" "$base" <<'PY'
import sys
name, base_name, goal = sys.argv[1:4]
one, two = map(float, sys.argv[4:6])
if sys.argv[6] == 'none':
    print('| %s | %.2f s | %.2f s | %.2fx | %s | | | | %s |'
          % (name, one, two, one / two, base_name, goal))
else:
    base = float(sys.argv[6])
    print('| %s | %.2f s | %.2f s | %.2fx | %s | %.2f s | %.2fx | %.2fx | %s |'
          % (name, one, two, one / two, base_name, base, base / one, base / two, goal))
PY
)")
  echo "${rows[-1]}" >&2
}

compare "0.354: prove the period (20.1M heaps)" \
  "analyze 0.354 --max 2^25 --format json" \
  "ogsolve -m rc -n 20200000" "$ogsolve -m rc -n 20200000 0.354" ">= 2x"
compare "0.376 to 2^21" \
  "analyze 0.376 --to 2^21 --format json" \
  "ogsolve -m rc -n 2097152" "$ogsolve -m rc -n 2097152 0.376" ">= 4x"
compare "Grundy's game to 2^20" \
  "analyze grundy --to 2^20 --format json" \
  "none measured here (ogsolve does not take it)" none "see issue 17"
if ! $quick; then
  compare "0.106 to 2^20" \
    "analyze 0.106 --to 2^20 --format json" \
    "ogsolve -m rc2 -n 1048576" "$ogsolve -m rc2 -n 1048576 0.106" ">= 1x"
  compare "Grundy's game to 2^22" \
    "analyze grundy --to 2^22 --format json" \
    "none measured here" none "under 60 s"
fi
if $moonshot; then
  RUNS=1 compare "0.1777: prove the period (443M heaps)" \
    "analyze 0.1777 --max 2^29 --format json" \
    "none measured here" none "under 300 s"
  peak=$( { /usr/bin/time -f "%M" "$grundy" analyze 0.1777 --max 2^29 --format json > /dev/null; } 2>&1 | tail -1)
  rows+=("| 0.1777: peak memory | $((peak / 1024)) MiB | | | none measured here | | | | <= 1 GiB |")
  echo "${rows[-1]}" >&2
fi

machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
table=$(printf '%s\n' \
  "Latest run ($(date -u +%Y-%m-%d), $machine):" "" \
  "| work | grundy, 1 thread | grundy, 2 threads | 2 threads / 1 | baseline | baseline time | ratio, 1 thread | ratio, 2 threads | goal |" \
  "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |" "${rows[@]}")
echo "$table"

if $write; then
  python3 - "$table" <<'PY'
import re, sys
table = sys.argv[1]
path = "BENCHMARKS.md"
text = open(path).read()
start = text.index("<!-- sparse:begin -->") + len("<!-- sparse:begin -->")
end = text.index("<!-- sparse:end -->")
open(path, "w").write(text[:start] + "\n" + table + "\n" + text[end:])
PY
fi
