#!/usr/bin/env bash
# Two builds of grundy on the same heaps, one after the other, one thread:
#   bash bench/builds.sh BASELINE_BINARY [CONTENDER_BINARY]
# BASELINE_BINARY is an older build (e.g. `git worktree add /tmp/base REV`
# and `cargo build --release` there); the contender defaults to
# target/release/grundy. Prints user seconds of each (the best of RUNS
# runs, alternating the builds; default 1) and the ratio, and checks that
# both give the same largest value, where, and period. WORK replaces the
# list of games and heap limits, e.g. WORK="0.6 2^22;0.354 2^24".
set -euo pipefail
base=${1:?baseline binary}; new=${2:-target/release/grundy}
runs=${RUNS:-1}
IFS=';' read -ra works <<< "${WORK:-grundy 2^20;0.6 2^21;0.376 2^21;0.167 2^22}"
for work in "${works[@]}"; do
  set -- $work
  times=(999999 999999)
  answers=()
  for ((run = 0; run < runs; run++)); do
    answers=()
    for i in 0 1; do
      bin=$base; [ $i = 1 ] && bin=$new
      out=$(mktemp)
      /usr/bin/time -f "%U" -o "$out.t" "$bin" analyze "$1" --to "$2" --threads 1 --format json > "$out"
      times[i]=$(python3 -c "import sys; print(min(float(sys.argv[1]), float(sys.argv[2])))" "${times[i]}" "$(cat "$out.t")")
      answers+=("$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['max_value'], d['max_value_at'], d['period'])" "$out")")
      rm -f "$out" "$out.t"
    done
  done
  [ "${answers[0]}" = "${answers[1]}" ] || { echo "$1 to $2: answers differ: ${answers[*]}"; exit 1; }
  python3 -c "import sys; b,n=map(float,sys.argv[1:3]); print(f'| {sys.argv[3]} to {sys.argv[4]} | {b:.2f} s | {n:.2f} s | {b/n:.2f}x |')" "${times[0]}" "${times[1]}" "$1" "$2"
done
