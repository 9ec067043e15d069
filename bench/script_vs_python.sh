#!/usr/bin/env bash
# The same rule as a Rhai script and as a Python callable, swept over the
# same states in the same run (issue 20: a Rhai rule should run within 3x
# of the Python callable). The rule is examples/digits.rhai: lower one
# nonzero digit by one or delete a digit. The script runs twice: on one
# thread (--threads 1) and on every core (the default; the sweep's batches
# of states run in parallel). The Python callable holds the GIL, so it runs
# on one thread; both ratios are printed.
#
#   bash bench/script_vs_python.sh [STATES]      # default 2^18
#   BASE=/path/to/old/grundy bash bench/script_vs_python.sh   # and an older build
# Needs the Python package installed for $PYTHON (default python3). With
# BASE, the older build runs the same sweep in the same run, first, and the
# script prints the new build's gain over it.
#
# Then a wide rule (issue 52): options(n) lists every n - k for k coprime
# to n, about 0.6n options a heap, to heap WIDE_TO (default 3000), on one
# thread each: as a script with its own gcd loop against the same loop in
# Python, and as examples/coprime.rhai (the built-in gcd) against Python's
# math.gcd; `grundy values --threads 1` against `Game.from_options(f)
# .values`, then the same rules swept (`grundy outcomes --threads 1`
# against `grundy.outcomes`). Each prints its seconds, the nanoseconds an
# option listed (over every option of every heap) and the ratio
# script / Python (goal: at most 3x).
#
# Then the other half of issue 20's item: a Python `Rules.value` call
# should cost the same however many positions are cached. VALUE_CACHE
# (default 10^6) positions are explored by value calls 10^4 heaps apart,
# and blocks of 2000 calls are timed with 4000, about VALUE_CACHE / 10 and
# about VALUE_CACHE positions cached: calls that each explore one new
# position, calls on the 2000 positions those calls explored (in a
# scattered order), and calls scattered over the whole cache.
set -euo pipefail
states=${1:-262144}
value_cache=${VALUE_CACHE:-1000000}
wide_to=${WIDE_TO:-3000}
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
cargo build --release --locked -p grundy-cli >&2
python=${PYTHON:-python3}
now() { date +%s.%N; }
cores=$(nproc)
# Seconds and P-positions of one binary's sweep (further arguments are
# passed to it).
sweep() {
    local start losses binary=$1
    shift
    start=$(now)
    losses=$("$binary" outcomes examples/digits.rhai --states "$states" --format json "$@" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["p_positions"]["count"])')
    echo "$losses $(python3 -c "print(f'{$(now) - $start:.2f}')")"
}
if [ -n "${BASE:-}" ]; then
    # On one thread, like the first figure below (BASE must take
    # --threads: any build since 2c3de0f).
    read -r base_losses base <<<"$(sweep "$BASE" --threads 1)"
fi
read -r rhai_losses rhai <<<"$(sweep "$target/release/grundy" --threads 1)"
read -r every_losses every <<<"$(sweep "$target/release/grundy")"
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
[ "$every_losses" = "$rhai_losses" ] || { echo "the thread counts differ: $every_losses / $rhai_losses"; exit 1; }
echo "$states states, $rhai_losses P-positions in all"
echo "Rhai script (grundy outcomes): $rhai s on 1 thread (--threads 1), $every s on every core ($cores)"
echo "Python callable (grundy.outcomes, 1 thread: it holds the GIL): $py s"
python3 -c "print(f'Rhai, 1 thread / Python: {$rhai / $py:.2f}x (goal: at most 3x)')"
python3 -c "print(f'Rhai, every core ($cores) / Python: {$every / $py:.2f}x (goal: at most 3x)')"
if [ -n "${BASE:-}" ]; then
    [ "$base_losses" = "$rhai_losses" ] || { echo "the builds differ: $base_losses / $rhai_losses"; exit 1; }
    echo "older build ($BASE, 1 thread): $base s; Rhai / Python there: $(python3 -c "print(f'{$base / $py:.2f}')")x"
    python3 -c "print(f'new build over the older: {$base / $rhai:.2f}x faster on 1 thread, {$base / $every:.2f}x on every core ($cores)')"
fi
# The wide rule: the script's own gcd loop, written out here, and the
# built-in gcd of examples/coprime.rhai.
loop_script=$(mktemp --suffix .rhai)
trap 'rm -f "$loop_script"' EXIT
cat >"$loop_script" <<'RHAI'
fn gcd_of(a, b) {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn options(n) {
    let out = [];
    for k in 1..=n {
        if gcd_of(k, n) == 1 {
            out.push(n - k);
        }
    }
    out
}
RHAI
echo "wide rule: every n - k with gcd(k, n) = 1, heaps 0..=$wide_to, one thread each"
"$python" - "$wide_to" "$target/release/grundy" "$loop_script" <<'PY'
import json, math, subprocess, sys, time
import grundy
to, binary, loop_script = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def gcd_loop(a, b):
    while b != 0:
        a, b = b, a % b
    return a
def loop_options(n):
    return [n - k for k in range(1, n + 1) if gcd_loop(k, n) == 1]
def builtin_options(n):
    return [n - k for k in range(1, n + 1) if math.gcd(k, n) == 1]
# Every option of every heap: the sum of Euler's phi.
options = sum(1 for n in range(1, to + 1) for k in range(1, n + 1) if math.gcd(k, n) == 1)
def cli(*args):
    start = time.perf_counter()
    found = json.loads(subprocess.run([binary, *args, "--threads", "1", "--format", "json"],
                                      check=True, capture_output=True, text=True).stdout)
    return time.perf_counter() - start, found
for label, script, rule in [
    ("its own gcd loop", loop_script, loop_options),
    ("the built-in gcd / math.gcd", "examples/coprime.rhai", builtin_options),
]:
    seconds, found = cli("values", script, "--to", str(to))
    start = time.perf_counter()
    values = list(grundy.Game.from_options(rule).values(to))
    python = time.perf_counter() - start
    assert found["values"] == values, "the answers differ"
    swept, outcome = cli("outcomes", script, "--states", str(to + 1))
    start = time.perf_counter()
    losses = grundy.outcomes(rule, to + 1).loss_count
    python_swept = time.perf_counter() - start
    assert outcome["p_positions"]["count"] == losses, "the sweeps differ"
    for what, mine, theirs in [("values", seconds, python), ("outcomes", swept, python_swept)]:
        print(f"  {label}, {what}: script {mine:.2f} s ({mine / options * 1e9:.0f} ns an option), "
              f"Python {theirs:.2f} s ({theirs / options * 1e9:.0f} ns an option): "
              f"script / Python {mine / theirs:.2f}x (goal: at most 3x)")
PY
"$python" - "$value_cache" <<'PY'
import sys, time, grundy
total, block = int(sys.argv[1]), 2000
def options(n):
    return [m for m in (n - 1, n - 2, n // 2) if 0 <= m < n]
rules = grundy.Rules(options)
def per_call(positions):
    start = time.perf_counter()
    for p in positions:
        rules.value(p)
    return (time.perf_counter() - start) / len(positions) * 1e6
def scattered(first, count):
    return [first + (i * 7919) % count for i in range(block)]
rows = []
def measure():
    size = rules.explored
    new = per_call(range(size, size + block))
    recent = per_call(scattered(size, block))
    everywhere = per_call(scattered(0, size + block))
    return (rules.explored, new, recent, everywhere)
measure()  # warms up
rows.append(measure())
for goal in (total // 10, total):
    while rules.explored < goal:
        rules.value(min(rules.explored + 9999, goal - 1))
    rows.append(measure())
print("Rules.value, microseconds a call: a new position / 2000 cached ones / scattered over all")
for size, *costs in rows:
    shown = " / ".join(f"{c:.2f}" for c in costs)
    print(f"  {size:>9} positions cached: {shown}")
(_, *small), (_, *large) = rows[0], rows[-1]
print("  largest cache over smallest: " + " / ".join(f"{y / x:.2f}x" for x, y in zip(small, large)))
PY
