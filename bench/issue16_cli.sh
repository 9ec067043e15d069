#!/usr/bin/env bash
# The command-line cases of issue 16 (7-12, and the CLI halves of 2, 3, 5)
# and of issue 50 (marked 50), each as the issue writes it, under `timeout 60` and `ulimit -v 4000000`:
# the exit code, the seconds taken and the first line of stderr (or of
# stdout when it succeeds). Fixtures go to a temporary directory.
#
#   bash bench/issue16_cli.sh [path/to/grundy]
set -u
G=$(realpath "${1:-target/release/grundy}")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
cd "$D"

run() {
  local case=$1; shift
  local start end rc
  start=$(date +%s.%N)
  ( ulimit -v 4000000; timeout 60 "$G" "$@" ) >out.txt 2>err.txt
  rc=$?
  end=$(date +%s.%N)
  local shown
  if [ -s err.txt ]; then shown=$(head -c 400 err.txt | head -n 1); else shown=$(head -c 300 out.txt | tr '\n' ' '); fi
  printf '| %s | `grundy %s` | %s | %.2f | %s |\n' "$case" "$*" "$rc" "$(echo "$end - $start" | bc)" "${shown//|/\\|}"
}

# Scripts of the cases.
echo 'fn options(n) { if n == 3 { split(300, 20) } else { [] } }' > split.rhai
echo 'fn options(n) { if n == 3 { split(9223372036854775807, 2) } else { [] } }' > split63.rhai
echo 'fn options(n) { print("hello"); debug(n); if n > 0 { [n - 1] } else { [] } }' > print.rhai
echo 'fn options(n) { if n < 5 { [n + 1] } else { [] } }' > past.rhai
echo 'fn options(n) { let o = []; if n >= 1 { o.push(n - 1); } if n >= 2 { o.push(n - 2); } o }' > chain.rhai
echo 'fn options(n) { if n < 0 { throw "negative" } if n > 0 { [n - 1] } else { [] } }' > wrap.rhai
cat > curry.rhai <<'R'
fn g() { 0 }
fn options(n) { let f = Fn("g"); for i in 0..40 { f = f.curry(f); } [] }
R

echo "| case | command | exit | s | first line |"
echo "|---|---|---|---|---|"
run 2 values split.rhai --to 5
run 2 values split63.rhai --to 5
run 3 values print.rhai --to 3 --format json
run 3 values print.rhai --to 3 --format csv
run 5 values past.rhai --to 3
run 5 sum past.rhai 3
run 7 values nim --to 10^9
run 7 analyze nim --to 1e8 --memory-limit 400M
run 7 values chain.rhai --to 1e9
run 7 values chain.rhai --to 1e8 --time-limit 5
run 7 values curry.rhai --to 3
run 7 misere kayles 10000 10000 --budget 1e3
run 7 misere '0.{2+}' 200
# 8: a checkpoint with one flipped value byte, a crafted width-4 header, /dev/zero.
"$G" values 0.354 --to 100000 --checkpoint ok.ckpt >/dev/null
cp ok.ckpt flipped.ckpt
size=$(stat -c %s flipped.ckpt)
printf '\x07' | dd of=flipped.ckpt bs=1 seek=$((size / 2)) conv=notrunc status=none
run 8 values 0.354 --to 200000 --resume flipped.ckpt
python3 - <<'P'
data = bytearray(open("ok.ckpt", "rb").read())
# A header claiming width 4 and 2^33 values: the count is past the file.
head = data.find(b"\n")
text = data[:head].decode(errors="replace")
open("crafted.ckpt", "wb").write(bytes(data[:64]) + (8 * 2**30).to_bytes(8, "little") * 4)
P
run 8 values 0.354 --to 200000 --resume crafted.ckpt
run 8 values 0.354 --to 200000 --resume /dev/zero
# 9: a 65,536-character position name, acyclic and cyclic.
long=$(head -c 65536 /dev/zero | tr '\0' a)
printf '%s b\nb c\n' "$long" > long.txt
printf '%s b\nb %s\n' "$long" "$long" > longcycle.txt
run 9 graph long.txt --format json
run 9 graph longcycle.txt --format json
run 10 values wythoff --to 18446744073709551615 --format json
run 10 values wrap.rhai --position 9223372036854775808
run 11 values '0.&9223372036854775807;' --to 100
run 11 values '0.{62}' --to 200
run 11 values '{2,3,4,5,6,7}.0' --to 300
run 11 values "{$(seq -s, 2 200)}.0" --to 300
run 11 compare 8.0 kayles
python3 -c "print('(' * 20000 + ')' * 20000)" > stalk20k.txt
python3 -c "print('(' * 60000 + ')' * 60000)" > stalk60k.txt
run 11 hackenbush "$(cat stalk20k.txt)"
run 11 hackenbush "$(cat stalk60k.txt)"
python3 -c "print('.' * 100000)" > row.txt
python3 -c "print(('.' * 3000 + '\n') * 3000, end='')" > open.txt
run 11 maze row.txt --format json
run 11 maze open.txt --format json
"$G" analyze kayles --certificate cert.json >/dev/null
python3 - <<'P'
import json
c = json.load(open("cert.json"))
c["preperiod"] = 100000
needed = 2 * 100000 + 2 * 12 + 1
c["last_heap_needed"] = needed
c["values"] = [0] * (needed + 1)
json.dump(c, open("forged.json", "w"))
P
run 11 check forged.json
run 11 check forged.json --max 1e6
run 11 outcomes /work/wt-robust/examples/digits.rhai --states 1e10
printf 'let x = 0;\nloop { x += 1; }\nfn options(n) { [] }\n' > toplevel.rhai
run 11 values toplevel.rhai --to 10 --time-limit 2
run 12 count kayles --to 100 --heaps 41 --distinct
run 12 misere kayles --quotient 6 1e18
printf '\xef\xbb\xbf{"edges": [["a", "b"], ["b", "c"]]}\n' > bom.json
run 12 graph bom.json
run 12
echo '{"game": "kayles"' > malformed.json
run 12 check malformed.json
python3 - <<'P'
import json
c = json.load(open("cert.json"))
c["values"][3] ^= 1
json.dump(c, open("tampered.json", "w"))
P
run 12 check tampered.json
# Issue 50: commands whose cost grew with the input without a budget.
python3 -c "print('A' + '.' * 4999999)" > row5m.txt
run 50 maze row5m.txt
python3 -c "print('A\n' + '.\n' * 1999999, end='')" > column2m.txt
run 50 maze column2m.txt
python3 -c "
n = 20000
print('g v0'); print('\n'.join(f'v{i} v{i + 1}' for i in range(n - 1))); print(f'v{n - 1} g')" > ring20k.txt
run 50 hackenbush --graph ring20k.txt
python3 -c "
n = 300
print('\n'.join(f'v{i} v{j}' for i in range(n) for j in range(i + 1, n))); print('g v0')" > k300.txt
run 50 hackenbush --graph k300.txt
python3 -c "
n = 100000
print('\n'.join(f'fn f{i}(x) {{ x + {i} }}' for i in range(n)))
print('fn options(n) { if n == 0 { [] } else { [n - 1] } }')" > fns100k.rhai
run 50 values fns100k.rhai --to 3
run 50 coins 'turn(7)' --to 1e6
run 50 coins 'grunt*grunt' 1000000,1000000
run 50 fibonacci-nim 1e6 --ratio 1000000
run 50 count '0.{2+}' --moves 100 --max-options 1e12
run 50 analyze grundy --to 1e6 --threads 30000
run 50 census '0.?' --max 1024 --output fam.jsonl
run 50 census '4.?' --max 1024 --output fam.jsonl
run 50 sum '0.{2+}' 100000
run 50 coins grunt --to 1e9
printf 'a b\nb c\n' > x.txt
run 50 sum graph:x.txt a
run 50 sum kayles:3 graph:x.txt
