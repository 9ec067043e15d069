#!/usr/bin/env bash
# The automatic engine against the better of the two forced ones, in the
# same run on the same machine: `grundy analyze GAME --to N --threads 1`
# with --engine auto, dense and sparse. Games: 0.07, 0.137 and 0.77 to
# 3*10^5; the 82 games of Czajka's TrivialGames.md to 2^15; the sparse
# games of BENCHMARKS.md (auto against sparse only: dense is quadratic
# there); and the adaptive analysis that proves 0.354's period (--max: it
# extends the table step by step, and each step chooses again). Prints a
# Markdown table and the worst ratio auto / best.
#
#   bash bench/engine_choice.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -p grundy-cli >/dev/null 2>&1
grundy=target/release/grundy
data=../shared/data/octal/tczajka/TrivialGames.md

seconds() { # seconds ARGS...: wall time of one run, best of two
  local best=""
  for _ in 1 2; do
    local start end t
    start=$(date +%s.%N)
    "$grundy" "$@" >/dev/null
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  printf '%.3f' "$best"
}

worst=0
row() { # row GAME N ENGINES... (N: a heap, or --max LIMIT)
  local game=$1 to=$2; shift 2
  local limit=(--to "$to")
  if [ "$to" = --max ]; then limit=(--max "$1"); to="$1 (--max)"; shift; fi
  local auto dense=- sparse=- best
  auto=$(seconds analyze "$game" "${limit[@]}" --threads 1 --engine auto)
  for engine in "$@"; do
    local t
    t=$(seconds analyze "$game" "${limit[@]}" --threads 1 --engine "$engine")
    [ "$engine" = dense ] && dense=$t
    [ "$engine" = sparse ] && sparse=$t
  done
  best=$(printf '%s\n' "$dense" "$sparse" | grep -v -- - | sort -g | head -1)
  local ratio
  ratio=$(echo "$auto / ($best + 0.001)" | bc -l)
  printf '| %s | %s | %s | %s | %s | %.2fx |\n' "$game" "$to" "$auto" "$dense" "$sparse" "$ratio"
  if [ "$(echo "$ratio > $worst" | bc -l)" = 1 ]; then worst=$ratio; fi
}

echo "| game | to | auto (s) | dense (s) | sparse (s) | auto / best |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for game in 0.07 0.137 0.77; do row "$game" 300000 dense sparse; done
for game in 0.376 4!.0 0.106; do row "$game" 1048576 sparse; done
row 0.354 --max 2^25 sparse
codes=$(awk -F'|' '/^[0-9.]+ *\|/ { gsub(/ /, "", $1); print $1 }' "$data")
for code in $codes; do
  case "$code" in .*) code="0$code" ;; esac
  case "$code" in *.*) ;; *) code="$code.0" ;; esac
  # Forced sparse refuses codes it does not apply to; dense always runs.
  if "$grundy" analyze "$code" --to 10 --engine sparse >/dev/null 2>&1; then
    row "$code" 32768 dense sparse
  else
    row "$code" 32768 dense
  fi
done
printf '\nworst auto / best: %.2fx\n' "$worst"
