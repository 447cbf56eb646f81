#!/bin/sh
# Stopping and failing as a script needs them to: run --out replaces its
# directory's files as one set (a full disk, a file-size limit or a second
# Ctrl+C leaves the last run's set as it was, with nothing half written
# beside it); the first Ctrl+C says at once that the command is stopping
# and keeps what finished; `timeout -s INT`, which signals the command twice
# (it and then its process group), is one interrupt; an interrupted probe
# removes its scratch file; a directory holding what a run does not write
# is refused before the run.
# Usage: interrupt.sh CLI SCRATCH_DIR
set -u
. "$(dirname "$0")/expect.sh"
cli=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"

small='--set workload.operations_per_cpu=2000'
# Nothing of a set's writing may be left beside its directory.
no_leftovers() {
  left=$(find "$dir" -name '.*.staging.*' -o -name '*.tmp.*')
  [ -z "$left" ] || fail "$1: left behind: $left"
}

# A set, then a second one in its place: the second's files, and no more.
expect 0 'summary.json, timeseries.csv, locks.csv, trace.json written to' \
  "$cli" run 2002-global-hash-lock $small --out "$dir/set"
[ -s "$dir/set/report.pdf" ] && [ -n "$(ls "$dir/set/charts")" ] || fail "the first set has no report or charts"
cp -r "$dir/set" "$dir/first"
expect 0 'written to' "$cli" run 2002-global-hash-lock $small --no-report --out "$dir/set"
[ "$(ls "$dir/set" | tr '\n' ' ')" = "locks.csv summary.json timeseries.csv trace.json " ] \
  || fail "a run's set without its report kept the last one's: $(ls "$dir/set")"
no_leftovers "a second set"

# What a run does not write is the user's: refused, before the run.
touch "$dir/set/notes.txt"
expect 2 "--out: $dir/set holds what a run does not write \(notes.txt\)" \
  "$cli" run 2002-global-hash-lock $small --out "$dir/set"
rm "$dir/set/notes.txt"

# A file-size limit (ulimit -f, in 512-byte blocks in sh): the trace does
# not fit, no file of the set is replaced, and the failure is said.
rm -rf "$dir/set"
cp -r "$dir/first" "$dir/set"
out=$(ulimit -f 1000; "$cli" run 2002-global-hash-lock --set workload.operations_per_cpu=20000 --out "$dir/set" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "run past ulimit -f exited $rc, expected 1: $out"
printf '%s\n' "$out" | grep -q "File too large; nothing was written to $dir/set, which holds what it held before" \
  || fail "run past ulimit -f: $out"
diff -r "$dir/first" "$dir/set" > /dev/null || fail "run past ulimit -f changed the last run's set"
no_leftovers "ulimit -f"

# A full file system, where this test may mount one (as root in CI).
mkdir -p "$dir/tmpfs"
if mount -t tmpfs -o size=6m tmpfs "$dir/tmpfs" 2> /dev/null; then
  "$cli" run 2002-global-hash-lock $small --no-report --out "$dir/tmpfs/set" > /dev/null 2>&1 \
    || fail "a small run on 6 MiB of tmpfs"
  cp -r "$dir/tmpfs/set" "$dir/before-full"
  out=$("$cli" run 2002-global-hash-lock --set workload.operations_per_cpu=200000 --out "$dir/tmpfs/set" 2>&1)
  rc=$?
  [ "$rc" -eq 1 ] || fail "run on a full tmpfs exited $rc, expected 1: $out"
  printf '%s\n' "$out" | grep -q 'No space left on device; nothing was written to' || fail "full tmpfs: $out"
  diff -r "$dir/before-full" "$dir/tmpfs/set" > /dev/null || fail "a full tmpfs changed the last run's set"
  [ "$(ls -A "$dir/tmpfs" | tr '\n' ' ')" = "set " ] || fail "full tmpfs: left behind: $(ls -A "$dir/tmpfs")"
  umount "$dir/tmpfs"
else
  echo "not checked: a full file system (this test cannot mount a tmpfs here)"
fi

# Ctrl+C, then Ctrl+C again while the set is written: the directory holds
# one set (the last one, or this one if it was done first), whole, and
# nothing of the one abandoned.
big='--set workload.operations_per_cpu=5000000'
for second in 0.3 1; do
  rm -rf "$dir/set"
  cp -r "$dir/first" "$dir/set"
  "$cli" run 2002-global-hash-lock $big --out "$dir/set" > "$dir/out.txt" 2> "$dir/err.txt" &
  pid=$!
  sleep 1
  kill -INT "$pid"
  sleep "$second"
  kill -INT "$pid" 2> /dev/null
  wait "$pid"
  rc=$?
  [ "$rc" -eq 130 ] || fail "Ctrl+C twice ($second s apart) exited $rc, expected 130: $(cat "$dir/err.txt")"
  grep -q '^stopping: writing what finished (Ctrl+C again to abort)$' "$dir/err.txt" \
    || fail "the first Ctrl+C said nothing: $(cat "$dir/err.txt")"
  if ! diff -r "$dir/first" "$dir/set" > /dev/null; then
    # Done before the second: the new set, whole.
    for f in summary.json timeseries.csv locks.csv trace.json report.html report.pdf; do
      [ -s "$dir/set/$f" ] || fail "Ctrl+C twice ($second s apart): neither the old set nor a whole new one: no $f"
    done
    grep -q '"ended_by": "cancelled"' "$dir/set/summary.json" || fail "Ctrl+C twice: the new set is not the cancelled run's"
  fi
  no_leftovers "Ctrl+C twice ($second s apart)"
done

# One Ctrl+C: the run stops, and its files are written.
rm -rf "$dir/set"
"$cli" run 2002-global-hash-lock $big --no-report --out "$dir/set" > "$dir/out.txt" 2> "$dir/err.txt" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "one Ctrl+C exited $rc, expected 130"
grep -q '"ended_by": "cancelled"' "$dir/set/summary.json" || fail "one Ctrl+C: no cancelled run's summary"

# timeout -s INT signals twice at once: one interrupt, and the sweep's
# tables are written.
timeout -s INT 1 "$cli" sweep 2002-global-hash-lock --set workload.operations_per_cpu=20000 \
  --vary workload.cpus=1,2,3,4 --repeat 3 --out "$dir/sweep" > /dev/null 2> "$dir/err.txt"
rc=$?
[ "$rc" -eq 124 ] || fail "sweep under timeout exited $rc, expected 124 (timeout's)"
for f in runs.csv summary.csv; do
  [ -s "$dir/sweep/$f" ] || fail "sweep under timeout -s INT: no $f: $(cat "$dir/err.txt")"
done
no_leftovers "sweep under timeout -s INT"
# --resume runs the rest, and only the rest: a finished cell keeps its file.
cp "$dir/sweep/cell-0/repeat-0/summary.json" "$dir/cell-0-before.json"
expect 0 "^pagecache-lab-cli sweep: [0-9]+ runs of 12 \([0-9]+ finished before, in $dir/sweep\)" \
  "$cli" sweep --resume "$dir/sweep"
[ "$(wc -l < "$dir/sweep/runs.csv")" -eq 13 ] || fail "sweep --resume: runs.csv: $(cat "$dir/sweep/runs.csv")"
for c in 0 1 2 3; do
  for r in 0 1 2; do
    grep -Eq '"ended_by": "finished"' "$dir/sweep/cell-$c/repeat-$r/summary.json" \
      || fail "sweep --resume: cell-$c/repeat-$r did not finish"
  done
done
cmp -s "$dir/cell-0-before.json" "$dir/sweep/cell-0/repeat-0/summary.json" || fail "sweep --resume ran a finished run again"
expect 2 "--resume DIR takes no scenario" "$cli" sweep --resume "$dir/sweep" --vary workload.cpus=1

# An experiment stopped part way: the verdicts of what it measured, marked
# incomplete, printed and written, and 130.
"$cli" experiment 2002-one-global-hash-lock --repeat 100 --quiet --json "$dir/verdicts.json" \
  > "$dir/out.txt" 2> "$dir/err.txt" &
pid=$!
sleep 3
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "an interrupted experiment exited $rc, expected 130: $(cat "$dir/err.txt")"
grep -q '^incomplete: stopped before every run was made' "$dir/out.txt" || fail "experiment: $(cat "$dir/out.txt")"
grep -q '"incomplete": true' "$dir/verdicts.json" || fail "experiment: verdicts.json not marked incomplete"
grep -Eq '"why": "stopped before it was measured in full: [0-9]+ of its 100 repeats w(as|ere) made"' \
  "$dir/verdicts.json" || fail "experiment: no claim says how far it got: $(cat "$dir/verdicts.json")"

# An interrupted probe removes its scratch file.
mkdir -p "$dir/probe-tmp"
TMPDIR="$dir/probe-tmp" "$cli" probe readahead --size 1G --reads 100000 > /dev/null 2> "$dir/err.txt" &
pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
  [ -n "$(ls -A "$dir/probe-tmp")" ] && break
  sleep 0.2
done
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "an interrupted probe exited $rc, expected 130: $(cat "$dir/err.txt")"
[ -z "$(ls -A "$dir/probe-tmp")" ] || fail "an interrupted probe left $(ls -A "$dir/probe-tmp")"

exit $((failures > 0))
