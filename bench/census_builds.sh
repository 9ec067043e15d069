#!/usr/bin/env bash
# Two builds of grundy on the same census, one after the other, one job:
#   bash bench/census_builds.sh BASELINE_BINARY CONTENDER_BINARY [FAMILY] [MAX] [SECONDS] [SHARD]
#   bash bench/census_builds.sh /tmp/grundy-base target/release/grundy '0.???' 2^22 10 1/8
# For each build: wall and user time of the whole census, and the games by
# how long each took (row `seconds`) and how it ended (proven, --max, cut
# by the time budget); then the rows whose games neither build cut, which
# must agree on every field but timings and sparse statistics.
set -euo pipefail
base=${1:?baseline binary}; new=${2:?contender binary}
family=${3:-0.???}; max=${4:-2^22}; budget=${5:-10}; shard=${6:-1/8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in base new; do
  bin=${!name}
  /usr/bin/time -f "%e %U" -o "$work/$name.time" \
    "$bin" census "$family" --shard "$shard" --max "$max" --time-per-game "$budget" \
    --jobs 1 --format json > "$work/$name.jsonl"
done
python3 - "$work" "$family --shard $shard --max $max --time-per-game $budget --jobs 1" <<'PY'
import json, sys
work, what = sys.argv[1:3]
print(f"census {what}")
rows = {}
for name in ("base", "new"):
    wall, user = map(float, open(f"{work}/{name}.time").read().split())
    rs = rows[name] = [json.loads(l) for l in open(f"{work}/{name}.jsonl")]
    ended = lambda why: sum(r["stopped"] == why for r in rs)
    print(f"{name}: {len(rs)} games, wall {wall:.1f} s, user {user:.1f} s; proven "
          f"{sum(r['proven'] for r in rs)}, to --max {ended('max')}, cut by time {ended('time')}")
    edges = [0, 0.01, 0.1, 1, 5, float("inf")]
    for lo, hi in zip(edges, edges[1:]):
        sel = [r["seconds"] for r in rs if lo <= r["seconds"] < hi]
        print(f"    {lo:>5} - {hi:<5} s: {len(sel):4} games, {sum(sel):7.1f} s")
steady = ("game", "period", "preperiod", "saltus", "proven", "computed_to", "max_value", "digests")
pairs = [(a, b) for a, b in zip(rows["base"], rows["new"]) if "time" not in (a["stopped"], b["stopped"])]
same = sum(all(a[k] == b[k] for k in steady) for a, b in pairs)
print(f"rows agreeing (games neither build cut): {same} of {len(pairs)}")
PY
