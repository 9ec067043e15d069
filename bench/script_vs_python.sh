#!/usr/bin/env bash
# The same rule as a Rhai script and as a Python callable, swept over the
# same states in the same run (issue 20: a Rhai rule should run within 3x
# of the Python callable). The rule is examples/digits.rhai: lower one
# nonzero digit by one or delete a digit.
#
#   bash bench/script_vs_python.sh [STATES]      # default 2^18
#   BASE=/path/to/old/grundy bash bench/script_vs_python.sh   # and an older build
# Needs the Python package installed for $PYTHON (default python3). With
# BASE, the older build runs the same sweep in the same run, first, and the
# script prints the new build's gain over it.
set -euo pipefail
states=${1:-262144}
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
cargo build --release --locked -p grundy-cli >&2
python=${PYTHON:-python3}
now() { date +%s.%N; }
# Seconds and P-positions of one binary's sweep.
sweep() {
    local start losses
    start=$(now)
    losses=$("$1" outcomes examples/digits.rhai --states "$states" --format json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["p_positions"]["count"])')
    echo "$losses $(python3 -c "print(f'{$(now) - $start:.2f}')")"
}
if [ -n "${BASE:-}" ]; then
    read -r base_losses base <<<"$(sweep "$BASE")"
fi
read -r rhai_losses rhai <<<"$(sweep "$target/release/grundy")"
read -r python_losses py <<<"$("$python" - "$states" <<'PY'
import sys, time, grundy
def options(n):
    if n == 0:
        return []
    text = str(n); width = len(text); out = []
    for i in range(width):
        rest = text[:i] + text[i + 1:]
        out.append(int(rest) if rest else 0)
        if text[i] != "0":
            out.append(n - 10 ** (width - i - 1))
    return out
start = time.time()
found = grundy.outcomes(options, int(sys.argv[1]))
print(found.loss_count, f"{time.time() - start:.2f}")
PY
)"
[ "$rhai_losses" = "$python_losses" ] || { echo "the answers differ: $rhai_losses / $python_losses"; exit 1; }
echo "$states states, $rhai_losses P-positions in both"
echo "Rhai script (grundy outcomes): $rhai s; Python callable (grundy.outcomes): $py s"
python3 -c "print(f'Rhai / Python: {$rhai / $py:.2f}x (goal: at most 3x)')"
if [ -n "${BASE:-}" ]; then
    [ "$base_losses" = "$rhai_losses" ] || { echo "the builds differ: $base_losses / $rhai_losses"; exit 1; }
    echo "older build ($BASE): $base s; Rhai / Python there: $(python3 -c "print(f'{$base / $py:.2f}')")x"
    python3 -c "print(f'new build over the older: {$base / $rhai:.2f}x faster')"
fi
