#!/bin/sh
# run --out's trace.json end to end: a trace the size limit cuts says so on
# stderr (how many events, up to what run time, of how many, and the option
# that keeps more) as well as in its metadata; --trace-limit none keeps
# every event; --trace-window keeps the events and counters of that span of
# run time; --no-trace writes none, and a last run's trace.json does not
# stay; sweep's job lines write none. Slices carry no args, so a profile
# viewer makes a handful of frames of a CPU's thousands of slices (pft);
# an anonymous fault's page has no file member. Bad values are refused,
# naming the option (exit 2).
# Usage: trace.sh CLI SCRATCH_DIR
set -u
. "$(dirname "$0")/expect.sh"
cli=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
# trace.json is written one event a line: these read it with awk.
#   member FILE NAME: the value of otherData's member NAME
member() {
  sed -n '/^"otherData": /{s/.*"'"$2"'": \("[^"]*"\|[^,}]*\).*/\1/p;q}' "$1"
}
#   cpu0 FILE: the tids of CPU 0's threads (its own and its overflow), one a line
cpu0() {
  grep '"name": "thread_name"' "$1" | grep -E '"args": \{"name": "CPU 0(,[^"]*)?"\}' \
    | sed 's/.*"tid": \([0-9]*\).*/\1/'
}
hash="2002-global-hash-lock --no-report"

# The size limit cuts the trace: stderr says where, the metadata too.
expect 0 "trace.json was cut at its size limit: it holds the first 1,000 of [0-9,]+ events, up to [0-9.]+ s of the run's [0-9.]+ s; --trace-limit none keeps every event \(a larger file\), --trace-limit N the first N, --trace-window FROM:TO the events of a span of the run" \
  "$cli" run $hash --set workload.operations_per_cpu=20000 --trace-limit 1000 --out "$dir/cut"
[ "$(member "$dir/cut/trace.json" size_limit)" = 1000 ] || fail "cut: size_limit"
[ "$(member "$dir/cut/trace.json" events_kept)" = 1000 ] || fail "cut: events_kept"
[ "$(member "$dir/cut/trace.json" events_left_out_at_size_limit)" -gt 0 ] || fail "cut: nothing left out"
member "$dir/cut/trace.json" cut | grep -q '^"this trace holds the first 1,000 of .*; the rest were left out at the size limit"$' \
  || fail "cut: the metadata's note: $(member "$dir/cut/trace.json" cut)"

# none: every event drained is kept, and nothing is said.
out=$("$cli" run $hash --set workload.operations_per_cpu=20000 --trace-limit none --out "$dir/all" 2>&1) \
  || fail "--trace-limit none: $out"
printf '%s\n' "$out" | grep -q 'was cut' && fail "--trace-limit none: a cut reported: $out"
t="$dir/all/trace.json"
[ "$(member "$t" size_limit)" = '"none"' ] || fail "none: size_limit $(member "$t" size_limit)"
[ "$(member "$t" events_left_out_at_size_limit)" = 0 ] || fail "none: events left out"
[ "$(member "$t" events_kept)" -eq $(($(member "$t" events_pushed) - $(member "$t" events_dropped_by_rings))) ] \
  || fail "none: kept $(member "$t" events_kept) of $(member "$t" events_pushed) pushed, $(member "$t" events_dropped_by_rings) dropped"

# A window of a paced run (4 CPUs x 3000 faults at 20,000 a second each:
# 0.15 s): every slice's end, every instant and every counter within it
# (but the instants of what a slice's record says, at its start).
pft="2005-pft-single-page-table-lock --no-report --set workload.operations_per_cpu=3000 --set workload.file_pages=65536 --set memory_pages=131072 --set pacing.ops_per_second=20000"
expect 0 'trace.json written to' "$cli" run $pft --trace-window 0.05:0.1 --out "$dir/window"
t="$dir/window/trace.json"
[ "$(member "$t" window_s)" = '{"from": 0.05' ] || fail "window: window_s $(member "$t" window_s)"
[ "$(member "$t" events_outside_window)" -gt 0 ] || fail "window: nothing outside it"
outside=$(awk '/"ph": "(X|i|C)"/ && !/"name": "(faulted page|page slept on|request)"/ {
    ts = $0; sub(/.*"ts": /, "", ts); sub(/,.*/, "", ts)
    end = ts + 0
    if ($0 ~ /"dur": /) { d = $0; sub(/.*"dur": /, "", d); sub(/[,}].*/, "", d); end = ts + d }
    if (end < 50000 - 0.001 || end > 100000 + 0.001) n++
    if ($0 ~ /"ph": "X"/) x++
  } END { print n + 0, x + 0 }' "$t")
[ "${outside% *}" = 0 ] || fail "window: ${outside% *} events outside 0.05 s to 0.1 s"
[ "${outside#* }" -gt 100 ] || fail "window: ${outside#* } slices"
# A window after the run's end holds nothing, and says so.
expect 0 'trace.json holds no event: none was recorded from 50 s to 60 s of the run, which ran [0-9.]+ s' \
  "$cli" run $pft --trace-window 50:60 --out "$dir/late"

# pft: its anonymous faults name no file, and each CPU's slices are a
# handful of kinds (speedscope keys a frame by a slice's name and args).
expect 0 'trace.json written to' "$cli" run $pft --out "$dir/pft"
t="$dir/pft/trace.json"
grep -q '"file": 4294967295' "$t" && fail "pft: an anonymous page with file 4294967295"
grep -q '"file":' "$t" && fail "pft: a file in a run without files: $(grep -m 1 '"file":' "$t")"
grep -q '"name": "faulted page".*"args": {"vpn": [0-9]*}' "$t" || fail "pft: no faulted page with its vpn"
grep '"ph": "X"' "$t" | grep -q '"args"' && fail "pft: a slice with args: $(grep '"ph": "X"' "$t" | grep -m 1 '"args"')"
slices=0
names=$(cpu0 "$t" | {
  tids=$(tr '\n' ' ')
  awk -v tids="$tids" 'BEGIN { n = split(tids, t, " "); for (i = 1; i <= n; i++) cpu[t[i]] = 1 }
    /"ph": "X"/ { tid = $0; sub(/.*"tid": /, "", tid); sub(/[,}].*/, "", tid)
      if (tid in cpu) { name = $0; sub(/^\{"name": "/, "", name); sub(/".*/, "", name); seen[name]++; s++ } }
    END { for (k in seen) d++; print d + 0, s + 0 }' "$t"
})
[ "${names#* }" -gt 1000 ] || fail "pft: CPU 0 has ${names#* } slices"
[ "${names% *}" -ge 2 ] && [ "${names% *}" -le 8 ] || fail "pft: CPU 0's slices have ${names% *} names"

# --no-trace: no trace.json, and the last run's does not stay.
[ -f "$dir/pft/trace.json" ] || fail "pft: no trace.json"
expect 0 '^summary.json, timeseries.csv, locks.csv written to' "$cli" run $pft --no-trace --out "$dir/pft"
[ ! -e "$dir/pft/trace.json" ] || fail "--no-trace: the last run's trace.json stayed"
[ -f "$dir/pft/summary.json" ] || fail "--no-trace: no summary.json"

# sweep's job lines write no trace.
expect 0 '2 run commands' "$cli" sweep 2002-global-hash-lock --set workload.operations_per_cpu=300 \
  --vary workload.cpus=1,2 --jobs "$dir/jobs.txt" --out "$dir/farm"
[ "$(grep -c -- ' --no-report --no-trace > /dev/null$' "$dir/jobs.txt")" -eq 2 ] || fail "jobs.txt: $(cat "$dir/jobs.txt")"
sh "$dir/jobs.txt" || fail "the job lines ran"
[ "$(find "$dir/farm" -name summary.json | wc -l)" -eq 2 ] || fail "the job lines' results: $(find "$dir/farm")"
[ -z "$(find "$dir/farm" -name trace.json)" ] || fail "the job lines wrote traces: $(find "$dir/farm" -name trace.json)"

# Bad values, each named; an option with nothing to act on.
expect 2 "--trace-limit: expected N, a number of events \(500000, 1M\), or none, got 'lots'" \
  "$cli" run $hash --trace-limit lots --out "$dir/bad"
expect 2 "--trace-limit: 0 keeps no event" "$cli" run $hash --trace-limit 0 --out "$dir/bad"
expect 2 "--trace-window: expected FROM:TO, seconds of run time \(e.g. 0.5:1.2\), got '0.5'" \
  "$cli" run $hash --trace-window 0.5 --out "$dir/bad"
expect 2 "--trace-window: expected FROM:TO, seconds of run time \(e.g. 0.5:1.2\), got 'a:1'" \
  "$cli" run $hash --trace-window a:1 --out "$dir/bad"
expect 2 "--trace-window: FROM \(1.2\) must be less than TO \(0.5\)" \
  "$cli" run $hash --trace-window 1.2:0.5 --out "$dir/bad"
expect 2 "--trace-window: FROM and TO are seconds from the run's start, 0 or more: got '-1:2'" \
  "$cli" run $hash --trace-window -1:2 --out "$dir/bad"
expect 2 "--trace-window needs --out DIR" "$cli" run $hash --trace-window 0:1
expect 2 "--trace-limit chooses what trace.json keeps, and --no-trace writes none" \
  "$cli" run $hash --trace-limit 10 --no-trace --out "$dir/bad"
[ ! -e "$dir/bad" ] || fail "a refused command line made its --out"

if [ "$failures" -ne 0 ]; then
  echo "trace: $failures failed"
  exit 1
fi
echo "trace: all checks passed"
