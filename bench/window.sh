#!/usr/bin/env bash
# Issue 18: the windowed sparse engine (`analyze --window`) against the
# full-table sparse engine (`analyze --engine sparse`) on the same game and
# range, interleaved in the same run, one thread each; prints each round,
# the median ratio of heaps per second of CPU time (user + system: the
# machine may be shared, and CPU seconds are what the load changes least;
# wall seconds are printed too), and peak memory (/usr/bin/time).
#   bash bench/window.sh [GAME] [N] [ROUNDS] [THREADS]     (default '4!.0' 2^18 3 1)
# Build first: cargo build --release -p grundy-cli
set -euo pipefail
cd "$(dirname "$0")/.."
G=${GRUNDY:-${CARGO_TARGET_DIR:-target}/release/grundy}
game=${1:-4!.0}
to=${2:-2^18}
rounds=${3:-3}
threads=${4:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Wall seconds, CPU seconds and peak kilobytes of one command.
measure() {
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time" nice -n 10 "$@" >"$dir/out"
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$dir/time"
}
ratios=()
for round in $(seq "$rounds"); do
  read -r fw ft fm < <(measure "$G" analyze "$game" --to "$to" --engine sparse --threads "$threads" --format json)
  read -r ww wt wm < <(measure "$G" analyze "$game" --to "$to" --window --values-out "$dir/values" --force --threads "$threads" --format json)
  ratio=$(python3 -c "print(f'{$ft / $wt:.3f}')")
  ratios+=("$ratio")
  echo "round $round: full table ${ft} CPU s (${fw} s wall) ${fm}KB, windowed ${wt} CPU s (${ww} s wall) ${wm}KB, windowed/full heaps per CPU second = $ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "$game to $to, $threads thread(s): median windowed/full heaps per second = $median (1.0 = as fast)"
