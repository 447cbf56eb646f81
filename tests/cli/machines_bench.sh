#!/bin/sh
# pagecache-lab-cli bench machines end to end, small: the host loop refused
# until this machine is calibrated, then run (every scenario, both columns
# and the error); pft on altix-2005 at 1 to 60 threads under the three
# page-table lock schemes beside Lameter's tables; the Pentium III reads;
# CSV; bad command lines. Structure and the modelled figures only: this
# machine's own figures are its own.
# Usage: machines_bench.sh CLI SCRATCH_DIR
set -u
. "$(dirname "$0")/expect.sh"
cli=$1
dir=$2
rm -rf "$dir" && mkdir -p "$dir" || exit 1
export XDG_CONFIG_HOME="$dir/config"

expect 1 "bench machines: .*calibrate" "$cli" bench machines --part host-loop --repeats 1 --ops 2000
"$cli" calibrate --quick > /dev/null 2>&1 || fail "calibrate --quick failed"
out=$("$cli" bench machines --part host-loop --repeats 1 --ops 2000 2>&1) || fail "host loop failed: $out"
for scenario in "own files, one global hash lock" "own files, a radix tree per file" \
  "one shared file, its tree's lock" "pft, one page_table_lock" "pft, split PTE locks"; do
  printf '%s\n' "$out" | grep -q "^$scenario  *throughput 2 CPUs / 1 CPU  *[0-9.]*  *[0-9.]*  *-\{0,1\}[0-9]* %$" \
    || fail "host loop: no 2/1 row for $scenario: $out"
done
printf '%s\n' "$out" | grep -q "^readahead thrashing .* bounces per 1000 ops, 2 CPUs " \
  || fail "host loop: no readahead thrashing row: $out"
# The transfer the model was calibrated on, measured again before and after
# the runs, and a warning when it has moved since calibrate.
host=$XDG_CONFIG_HOME/pagecache-lab/machines/host.json
if sed -n '/"latency"/,/"basis"/p' "$host" | grep -q '"basis": "measured"'; then
  for when in before after; do
    printf '%s\n' "$out" | grep -Eq "^This computer $when the runs: a line passed between CPUs [0-9]+ and [0-9]+ in [0-9.]+ ns \(latency\.[a-z]+ of the profile: [0-9]+ ns\)$" \
      || fail "host loop: no transfer measured $when the runs: $out"
  done
  sed -i '/"latency"/,/"ns"/ s/"ns": [0-9]*/"ns": 999999/' "$host"
  expect 0 '^latency\.[a-z]+ measured now, [0-9]+ ns, is 0\.[0-9]+ times the last calibration.s, 999999 ns: ' \
    "$cli" bench machines --part host-loop --repeats 1 --ops 2000 --csv "$dir/loop.csv"
  grep -q '^host-loop,"this computer.s transfer, after the runs","latency\.[a-z]*, ns",[0-9.]*,999999$' "$dir/loop.csv" \
    || fail "host loop csv: no transfer row: $(grep transfer "$dir/loop.csv")"
fi

# pft: modelled, so these figures are the same on every machine.
expect 0 '^      1  *[0-9]+  *[0-9]+  *[0-9]+  *77176  *76894$' "$cli" bench machines --part pft --pft-faults 200
expect 0 '^     60  *[0-9]+  *[0-9]+  *[0-9]+  *235491  *244372$' "$cli" bench machines --part pft --pft-faults 200
expect 0 'transfer latencies x0\.5' "$cli" bench machines --part pft --pft-faults 100 --scales 0.5,2
expect 0 '^   8  *[0-9]+  *[0-9]+  *[0-9]+  *[0-9]+  *[0-9]+$' "$cli" bench machines --part p3 --pft-faults 200
"$cli" bench machines --part p3 --pft-faults 200 --csv "$dir/p3.csv" > /dev/null || fail "--csv failed"
head -n 1 "$dir/p3.csv" | grep -q '^part,case,measure,measured,modelled$' || fail "csv header: $(head -n 1 "$dir/p3.csv")"
[ "$(grep -c '^p3,' "$dir/p3.csv")" -eq 20 ] || fail "csv: not 20 p3 rows"

expect 2 "--part: 'gpu' is not one of host-loop, pft, p3, all" "$cli" bench machines --part gpu
expect 2 "--scales: '0' is not a latency scale" "$cli" bench machines --scales 1,0
expect 2 "--scales: 'x' is not a latency scale" "$cli" bench machines --scales x

[ "$failures" -eq 0 ] || exit 1
echo "bench machines: all checks passed"
