#!/usr/bin/env bash
# Issue 18: the windowed sparse engine (`analyze --window`) against the
# full-table sparse engine (`analyze --engine sparse`) on the same game and
# range, interleaved in the same run, one thread each; prints each round,
# the median ratio of heaps per second, and peak memory (/usr/bin/time -v).
#   bash bench/window.sh [GAME] [N] [ROUNDS]     (default '4!.0' 2^18 3)
# Build first: cargo build --release -p grundy-cli
set -euo pipefail
cd "$(dirname "$0")/.."
G=${GRUNDY:-${CARGO_TARGET_DIR:-target}/release/grundy}
game=${1:-4!.0}
to=${2:-2^18}
rounds=${3:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Seconds and peak kilobytes of one command.
measure() {
  /usr/bin/time -f "%e %M" -o "$dir/time" nice -n 10 "$@" >"$dir/out"
  cat "$dir/time"
}
ratios=()
for round in $(seq "$rounds"); do
  read -r ft fm < <(measure "$G" analyze "$game" --to "$to" --engine sparse --threads 1 --format json)
  read -r wt wm < <(measure "$G" analyze "$game" --to "$to" --window --values-out "$dir/values" --format json)
  ratio=$(python3 -c "print(f'{$ft / $wt:.3f}')")
  ratios+=("$ratio")
  echo "round $round: full table ${ft}s ${fm}KB, windowed ${wt}s ${wm}KB, windowed/full heaps/s = $ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "$game to $to: median windowed/full heaps per second = $median (1.0 = as fast)"
