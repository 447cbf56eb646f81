#!/bin/sh
# pagecache-lab-cli sweep and compare end to end: a 2 x 2 grid with 2
# repeats writes 8 rows, a summary of 4 cells and its chart (PNG, SVG,
# PDF); the same grid as job lines, run and collected, gives the same
# tables; a result that does not say how its run ended is missing; bad
# --vary values and bad cells are refused before anything runs, each
# named; compare prints both runs and the ratio B/A.
# Usage: sweep.sh CLI SCRATCH_DIR
set -u
. "$(dirname "$0")/expect.sh"
cli=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
short="--set workload.operations_per_cpu=300"

expect 0 'one after another' "$cli" sweep 2002-global-hash-lock $short \
  --vary workload.cpus=1,2 --vary workload.files=separate,shared --repeat 2 --out "$dir/grid"
[ "$(wc -l < "$dir/grid/runs.csv")" -eq 9 ] || fail "runs.csv: expected a header and 8 rows"
[ "$(wc -l < "$dir/grid/summary.csv")" -eq 5 ] || fail "summary.csv: expected a header and 4 cells"
head -n 1 "$dir/grid/runs.csv" | grep -q '^run,cell,repeat,workload.cpus,workload.files,ended_by,ops_per_s,' \
  || fail "runs.csv header"
grep -q '^3,1,1,1,shared,finished,' "$dir/grid/runs.csv" || fail "runs.csv: run 3 is cell 1 (1 CPU, shared), repeat 1"
[ "$(grep -c ',finished,' "$dir/grid/runs.csv")" -eq 8 ] || fail "runs.csv: every run finished"
for c in 0 1 2 3; do
  for r in 0 1; do
    grep -q '"figures"' "$dir/grid/cell-$c/repeat-$r/summary.json" || fail "cell-$c/repeat-$r/summary.json"
  done
done
chart="$dir/grid/charts/2002-global-hash-lock_ops_per_s-vs-workload.cpus"
[ "$(head -c 5 "$chart.pdf")" = "%PDF-" ] || fail "the chart's PDF"
grep -q '<svg' "$chart.svg" || fail "the chart's SVG"
[ "$(od -An -tx1 -N8 "$chart.png" | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "the chart's PNG"

# The same grid as job lines, run by the shell, then collected.
expect 0 '8 run commands \(4 cells x 2\) written to' "$cli" sweep 2002-global-hash-lock $short \
  --vary workload.cpus=1,2 --vary workload.files=separate,shared --repeat 2 --jobs "$dir/jobs.txt" --out "$dir/farm"
[ "$(wc -l < "$dir/jobs.txt")" -eq 8 ] || fail "jobs.txt: one line per run"
grep -q -- "--set workload.cpus=2 --set workload.files=shared --out $dir/farm/cell-3/repeat-1 " "$dir/jobs.txt" \
  || fail "jobs.txt: the last run's line"
expect 1 'run 0 \(cell 0: workload.cpus=1, workload.files=separate, repeat 0\) did not finish' \
  "$cli" sweep --collect "$dir/farm"
sh "$dir/jobs.txt" || fail "the job lines ran"
expect 0 'collected 8 of the 8 runs of 2002-global-hash-lock' "$cli" sweep --collect "$dir/farm"
[ "$(wc -l < "$dir/farm/runs.csv")" -eq 9 ] || fail "collected runs.csv: 8 rows"
[ "$(grep -c ',finished,' "$dir/farm/runs.csv")" -eq 8 ] || fail "collected runs.csv: every run finished"
# --figure chooses what --collect tabulates and charts.
expect 0 '^migrations by cell' "$cli" sweep --collect "$dir/farm" --figure migrations
[ -s "$dir/farm/charts/2002-global-hash-lock_migrations-vs-workload.cpus.svg" ] || fail "--collect --figure: its chart"
# A result whose ended_by is no way a run ends, or that has none, is
# missing from the tables, and the message says why.
sed -i 's/"ended_by": "finished"/"ended_by": "exploded"/' "$dir/farm/cell-0/repeat-0/summary.json"
sed -i '/"ended_by": "finished",/d' "$dir/farm/cell-0/repeat-1/summary.json"
expect 1 "run 0 \(cell 0: .*\) did not finish: .*cell-0/repeat-0/summary.json: ended_by: 'exploded' is not how a run ends" \
  "$cli" sweep --collect "$dir/farm"
expect 1 'run 1 \(cell 0: .*\) did not finish: missing$' "$cli" sweep --collect "$dir/farm"
grep -q '^0,0,0,1,separate,missing,' "$dir/farm/runs.csv" || fail "runs.csv: an unknown ended_by is missing"
# A new grid into the same directory drops the old grid's results: until its
# own runs have run, --collect finds nothing to take for them.
expect 0 '2 run commands' "$cli" sweep 2002-global-hash-lock $short --vary workload.cpus=2,1 \
  --jobs "$dir/jobs2.txt" --out "$dir/farm"
[ -e "$dir/farm/cell-0/repeat-0/summary.json" ] && fail "an earlier grid's cell-0/summary.json was left for --collect"
expect 1 '2 of 2 runs are missing' "$cli" sweep --collect "$dir/farm"

# Bad input, refused before anything runs.
expect 2 "--vary: expected FIELD=v1,v2,..., got 'workload.cpus'" "$cli" sweep 2002-global-hash-lock --vary workload.cpus
expect 2 "--vary workload.cpus: an empty value" "$cli" sweep 2002-global-hash-lock --vary workload.cpus=1,,2
expect 2 "--vary workload.cpus: the field is varied twice" "$cli" sweep 2002-global-hash-lock \
  --vary workload.cpus=1 --vary workload.cpus=2
expect 2 "cell 1 \(workload.cpus=0\): 2002-global-hash-lock: workload.cpus" "$cli" sweep 2002-global-hash-lock \
  --vary workload.cpus=1,0
expect 2 "--figure: 'speed' is not a figure" "$cli" sweep 2002-global-hash-lock --vary workload.cpus=1 --figure speed
expect 2 "--set workload.cpus: the field is also varied" "$cli" sweep 2002-global-hash-lock --set workload.cpus=2 \
  --vary workload.cpus=1,2
expect 2 "--jobs needs --out DIR" "$cli" sweep 2002-global-hash-lock --vary workload.cpus=1 --jobs "$dir/j.txt"
expect 2 "--collect: .*sweep.json" "$cli" sweep --collect "$dir/nothing-here"

# compare: both runs, each figure with B/A; a bad B is named.
expect 0 '^contentions_per_1000_ops ' "$cli" compare 2002-global-hash-lock 2002-global-hash-lock $short \
  --set-b index.kind=radix --set-b index.scheme=spinlock --out "$dir/cmp"
expect 0 '^B: 2002-global-hash-lock with index.kind=radix, index.scheme=spinlock \(radix index \(spinlock\)' \
  "$cli" compare 2002-global-hash-lock 2002-global-hash-lock $short --set-b index.kind=radix --set-b index.scheme=spinlock
provenance='program_version,program_commit,command_line,made_at,host_kernel,host_cpu_model,host_cpus,host_memory_bytes'
head -n 1 "$dir/cmp/compare.csv" | grep -q "^figure,unit,A,B,B/A,$provenance\$" || fail "compare.csv header"
# Each row says what made it: this program, this command, this computer.
sed -n 2p "$dir/cmp/compare.csv" | grep -Eq ",[0-9]+\.[0-9]+\.[0-9]+,[^,]*,\"?pagecache-lab-cli compare 2002-global-hash-lock [^\"]*\"?,[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z,Linux [^,]+,.*,$(getconf _NPROCESSORS_ONLN),[0-9]+\$" \
  || fail "compare.csv: no provenance: $(sed -n 2p "$dir/cmp/compare.csv")"
head -n 1 "$dir/grid/runs.csv" | grep -q ",$provenance\$" || fail "runs.csv: no provenance columns"

# --repeat: alternated pairs, each side's mean and interval, B/A's with
# whether it differs from 1; run --repeat: each figure's statistics.
out=$("$cli" compare 2002-global-hash-lock 2002-global-hash-lock $short --repeat 3 --format csv 2>/dev/null)
printf '%s\n' "$out" | head -n 1 | grep -q '^figure,unit,runs,A,A_ci95_low,A_ci95_high,B,B_ci95_low,B_ci95_high,B/A,B/A_ci95_low,B/A_ci95_high,differs,' \
  || fail "compare --repeat: header: $out"
printf '%s\n' "$out" | grep -q '^operations,,3,1200,1200,1200,1200,1200,1200,1,1,1,no: the interval holds 1,' \
  || fail "compare --repeat: the same count each time is no difference: $out"
out=$("$cli" run 2002-global-hash-lock $short --repeat 3 --format csv 2>/dev/null)
printf '%s\n' "$out" | grep -q '^operations,,3,1200,0,1200,1200,1200,1200,' || fail "run --repeat: $out"
expect 2 "--repeat gives the statistics of several runs; --out writes one run's" \
  "$cli" run 2002-global-hash-lock --repeat 2 --out "$dir/no"
grep -q '"command": "pagecache-lab-cli sweep 2002-global-hash-lock ' "$dir/grid/sweep.json" || fail "sweep.json: no provenance"
grep -q '"version": 1' "$dir/cmp/b/summary.json" || fail "compare's b/summary.json"
# Every series of both runs overlaid, each as PNG, SVG and PDF, A and B in its legend.
for ext in png svg pdf; do
  [ -s "$dir/cmp/charts/compare_operations-per-s.$ext" ] || fail "compare's overlaid operations chart as $ext"
done
grep -q 'B: 2002-global-hash-lock with index.kind=radix, index.scheme=spinlock' "$dir/cmp/charts/compare_operations-per-s.svg" \
  || fail "compare's chart names B in its legend"
expect 2 "B: 2002-global-hash-lock: index.scheme: 'global' is not a scheme of the radix index" \
  "$cli" compare 2002-global-hash-lock 2002-global-hash-lock --set-b index.kind=radix
expect 2 "compare what\?" "$cli" compare 2002-global-hash-lock

[ "$failures" -eq 0 ] || exit 1
echo "all sweep and compare checks passed"
