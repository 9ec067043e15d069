#!/usr/bin/env bash
# The census benchmark of issue 19: a whole family, in the same run,
#   1. as a shell loop of `grundy analyze` over its codes, one process per
#      game, each cut by `timeout` at the same per-game budget;
#   2. `grundy census --jobs 1`;
#   3. `grundy census --jobs 2`;
# printing wall times and ratios, and checking that both censuses found the
# same periods, proofs and classes (budget-cut games aside).
#
#   bash bench/census.sh [FAMILY] [MAX] [SECONDS_PER_GAME]
#   bash bench/census.sh '0.???' 2^22 10      # the issue's benchmark (default)
#   bash bench/census.sh '0.?7' 2^12 2        # a smoke test
set -euo pipefail
family=${1:-0.???}
max=${2:-2^22}
budget=${3:-10}
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
cargo build --release --locked -p grundy-cli >&2
grundy="$target/release/grundy"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }

# The codes of the family, in census order (a census to heap 1 is instant).
"$grundy" census "$family" --max 1 --format json |
    python3 -c 'import json, sys; [print(json.loads(l)["game"]) for l in sys.stdin]' >"$work/codes"
games=$(wc -l <"$work/codes")
echo "family $family: $games games, --max $max, $budget s per game, $(nproc) cores"

start=$(now)
while read -r code; do
    timeout "$budget" "$grundy" analyze "$code" --max "$max" --threads 1 --format json \
        >/dev/null 2>&1 || true
done <"$work/codes"
loop=$(elapsed "$start" "$(now)")
echo "shell loop of grundy analyze: $loop s"

for jobs in 1 2; do
    start=$(now)
    "$grundy" census "$family" --max "$max" --time-per-game "$budget" --jobs "$jobs" \
        --format json >"$work/jobs$jobs.jsonl"
    eval "jobs$jobs=$(elapsed "$start" "$(now)")"
    echo "grundy census --jobs $jobs: $(eval echo \$jobs$jobs) s"
done

python3 - "$work/jobs1.jsonl" "$work/jobs2.jsonl" "$loop" "$jobs1" "$jobs2" <<'PY'
import json, sys
one, two = ([json.loads(l) for l in open(p)] for p in sys.argv[1:3])
loop, t1, t2 = map(float, sys.argv[3:6])
steady = ("game", "period", "preperiod", "saltus", "proven", "class", "class_offset", "class_proven")
cut = lambda rows: sum(r["stopped"] == "time" for r in rows)
same = sum(
    all(a[k] == b[k] for k in steady)
    for a, b in zip(one, two)
    if "time" not in (a["stopped"], b["stopped"])
)
both = sum("time" not in (a["stopped"], b["stopped"]) for a, b in zip(one, two))
print(f"proven: {sum(r['proven'] for r in two)} of {len(two)}; cut by the budget: "
      f"{cut(one)} (--jobs 1), {cut(two)} (--jobs 2)")
print(f"rows agreeing between --jobs 1 and --jobs 2: {same} of {both} not cut by the budget")
print(f"ratios: --jobs 2 is {t1 / t2:.2f}x --jobs 1, {loop / t2:.2f}x the shell loop; "
      f"--jobs 1 is {loop / t1:.2f}x the shell loop")
PY
