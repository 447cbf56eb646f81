#!/bin/sh
# pagecache-lab-cli's scenarios end to end: presets listed and run by name
# (a preset that replays a bundled trace too), files checked with every
# problem named, and the exit codes of each (0 success, 2 bad input).
# Usage: scenarios.sh CLI SCRATCH_DIR
set -u
cli=$1
dir=$2
mkdir -p "$dir"
. "$(dirname "$0")/expect.sh"

expect 0 '^2002-global-hash-lock +2002 +radix-tree pagecache \(2002\) +2002: four CPUs' "$cli" presets
expect 0 '^2007-twelve-dd-writers,2007,' "$cli" presets --format csv
expect 0 '"name": "2005-pft-split-page-table-lock"' "$cli" presets --format json
expect 2 "--format: 'xml' is not one of: table, json, csv" "$cli" presets --format xml
"$cli" presets | grep -n ' $' && fail "presets: a line ends in spaces"
# help COMMAND is COMMAND --help; help alone is --help.
expect 0 '^usage: pagecache-lab-cli run SCENARIO.json\|PRESET' "$cli" help run
expect 0 '^usage: pagecache-lab-cli bench locks' "$cli" help bench locks
expect 0 '^usage: pagecache-lab-cli <command>' "$cli" help
expect 2 "unknown command 'nothing'" "$cli" help nothing

expect 0 'state +finished' "$cli" run 2002-radix-tree-per-file --set workload.operations_per_cpu=200
# --format: the headline figures as CSV, the whole result as JSON; stdout
# holds the result alone (what was written is said on stderr).
out=$("$cli" run 2002-radix-tree-per-file --set workload.operations_per_cpu=200 --format csv 2>/dev/null)
[ "$(printf '%s\n' "$out" | head -n 1)" = "figure,unit,value" ] || fail "run --format csv: header: $out"
printf '%s\n' "$out" | grep -q '^operations,,800$' || fail "run --format csv: 4 CPUs x 200 operations: $out"
out=$("$cli" run 2002-radix-tree-per-file --set workload.operations_per_cpu=200 --format json \
  --out "$dir/json-run" 2>/dev/null)
[ "$(printf '%s\n' "$out" | head -c 1)" = "{" ] || fail "run --format json: not a JSON object first: $out"
printf '%s\n' "$out" | grep -q '"ended_by": "finished"' || fail "run --format json: ended_by"
printf '%s\n' "$out" | grep -q 'written to' && fail "run --format json: a note on stdout"
expect 2 "--format: 'yaml' is not one of: table, json, csv" "$cli" run 2002-radix-tree-per-file --format yaml
# A bad --set: no value, a value of the wrong type, a field that does not exist; each named.
expect 2 "--set: expected PATH=VALUE, got 'workload.cpus'" "$cli" run 2002-global-hash-lock --set workload.cpus
expect 2 "2002-global-hash-lock: workload.cpus: expected an integer, got string" \
  "$cli" run 2002-global-hash-lock --set workload.cpus=lots
expect 2 "2002-global-hash-lock: workload.nosuch: unknown field; allowed: pattern, access" \
  "$cli" run 2002-global-hash-lock --set workload.nosuch=3
expect 0 'trace :/traces/python-random.strace replayed' "$cli" run 2026-trace-python-random.json \
  --set pacing.ops_per_second=0 --set device.time_scale=1
expect 2 "no-such-preset: no such file, and no preset of that name \('pagecache-lab-cli presets' lists them: 2002-global-hash-lock" \
  "$cli" run no-such-preset

# --out: the run's files, each with its header; an output that cannot be made is refused first.
rm -rf "$dir/out"
expect 0 'summary.json, timeseries.csv, locks.csv, trace.json written to' \
  "$cli" run 2002-global-hash-lock --set workload.operations_per_cpu=500 --out "$dir/out"
head -n 1 "$dir/out/timeseries.csv" | grep -q '^time_s,interval_s,operations,' || fail "timeseries.csv header"
[ "$(wc -l < "$dir/out/timeseries.csv")" -ge 2 ] || fail "timeseries.csv has no sample"
head -n 1 "$dir/out/locks.csv" | grep -q '^kind,name,class,instances,acquisitions,contentions,' || fail "locks.csv header"
grep -q '^lock,pagecache_lock,pagecache_lock,1,' "$dir/out/locks.csv" || fail "locks.csv has no pagecache_lock row"
grep -q '"version": 1' "$dir/out/summary.json" || fail "summary.json"
grep -q '"traceEvents": \[' "$dir/out/trace.json" || fail "trace.json has no traceEvents"
grep -q '"name": "thread_name".*"name": "CPU 3"' "$dir/out/trace.json" || fail "trace.json has no track for CPU 3"
# The report and its charts, where the build draws; where it does not, it says why.
if printf '%s\n' "$out" | grep -q 'no report.html, report.pdf nor charts: this build has no Qt'; then
  [ ! -e "$dir/out/report.html" ] || fail "a build without Qt wrote report.html"
else
  printf '%s\n' "$out" | grep -Eq "^report.html, report.pdf written to $dir/out\$" || fail "run --out did not name its report: $out"
  printf '%s\n' "$out" | grep -Eq '^54 chart files written to .*/out/charts, 2002-global-hash-lock_CHART.png, .svg and .pdf for each of: operations, faults, lock-wait, ' \
    || fail "run --out did not name its charts: $out"
  grep -q '<svg' "$dir/out/report.html" || fail "report.html has no inline chart"
  grep -q '<td class="name">pagecache_lock</td>' "$dir/out/report.html" || fail "report.html has no pagecache_lock row"
  [ "$(head -c 5 "$dir/out/report.pdf")" = "%PDF-" ] || fail "report.pdf is not a PDF"
  for ext in png svg pdf; do
    [ "$(ls "$dir/out/charts/"*."$ext" | wc -l)" -eq 18 ] || fail "charts/ has not 18 .$ext files: $(ls "$dir/out/charts")"
    [ -s "$dir/out/charts/2002-global-hash-lock_lock-wait.$ext" ] || fail "charts/2002-global-hash-lock_lock-wait.$ext"
  done
  head -c 8 "$dir/out/charts/2002-global-hash-lock_operations.png" | od -An -c | grep -q 'P   N   G' \
    || fail "charts/2002-global-hash-lock_operations.png is not a PNG"
  grep -q '<svg' "$dir/out/charts/2002-global-hash-lock_faults.svg" || fail "charts/..._faults.svg is not an SVG"
  [ "$(head -c 5 "$dir/out/charts/2002-global-hash-lock_fault-latency.pdf")" = "%PDF-" ] \
    || fail "charts/..._fault-latency.pdf is not a PDF"
fi

# experiment --out: the verdicts, and the lesson's report where the build draws.
rm -rf "$dir/lesson"
expect 0 '^verdicts.json, verdicts.csv written to ' \
  "$cli" experiment 2002-one-global-hash-lock --quick --repeat 1 --quiet --out "$dir/lesson"
grep -q '"experiment": "2002-one-global-hash-lock"' "$dir/lesson/verdicts.json" || fail "experiment --out: verdicts.json"
head -n 1 "$dir/lesson/verdicts.csv" | grep -q '^claim,source,' || fail "experiment --out: verdicts.csv header"
if ! printf '%s\n' "$out" | grep -q 'this build has no Qt'; then
  printf '%s\n' "$out" | grep -Eq "^report.html, report.pdf written to $dir/lesson\$" || fail "experiment --out: $out"
  grep -q '<h2>The steps</h2>' "$dir/lesson/report.html" || fail "the lesson's report has no steps"
  grep -Eq '<td class="(held|did-not-hold|inconclusive)">' "$dir/lesson/report.html" \
    || fail "the lesson's report has no verdict"
  [ "$(head -c 5 "$dir/lesson/report.pdf")" = "%PDF-" ] || fail "the lesson's report.pdf is not a PDF"
fi
touch "$dir/not-a-directory"
expect 2 "--out: cannot create directory" "$cli" run 2002-global-hash-lock --out "$dir/not-a-directory/sub"

cat > "$dir/three-problems.json" <<'JSON'
{
  "version": 1,
  "title": "three mistakes",
  "workload": { "pattern": "sequentail", "cpus": 0, "file_pages": 64, "operations_per_cpu": 10 },
  "colour": "red"
}
JSON
out=$("$cli" validate "$dir/three-problems.json" 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "validate of three problems exited $rc, expected 2"
for line in "colour: unknown field" "workload.pattern: 'sequentail' is not one of" \
  "workload.cpus: must be in \[1, 1024\], got 0" "three-problems.json: 3 problems"; do
  printf '%s\n' "$out" | grep -Eq -- "$line" || fail "validate did not report '$line': $out"
done
expect 0 '^2002-global-hash-lock: valid scenario' "$cli" validate 2002-global-hash-lock
expect 0 '^2002-one-global-hash-lock: valid lesson' "$cli" validate 2002-one-global-hash-lock
expect 2 "nor is it a lesson \('pagecache-lab-cli experiments' lists them\)" "$cli" validate no-such-thing
cat > "$dir/two-problems-lesson.json" <<'JSON'
{"version": 1, "title": "T", "thread": "radix-tree pagecache (2002)", "citation": "C", "question": "Q?",
 "summary": "S.", "arguments": [{"who": "A", "said": "B"}],
 "runs": [{"name": "a", "scenario": "2002-global-hash-lock", "label": "run a"},
          {"name": "b", "scenario": "2002-radix-tree-per-file", "label": "run b"}],
 "steps": [{"title": "s", "text": "t", "run": "a", "view": "table"}],
 "claims": [{"statement": "x", "by": "y", "measure": {"metric": "ops_per_second", "run": "a", "over": "b"},
             "rule": {"at_least": 1}, "repeats": 0}]}
JSON
out=$("$cli" validate "$dir/two-problems-lesson.json" 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "validate of a lesson with two problems exited $rc, expected 2"
for line in "two-problems-lesson.json: steps\[0\].view: 'table' is not a view" \
  "two-problems-lesson.json: claims\[0\].repeats: must be in \[1, 100\], got 0" "2 problems"; do
  printf '%s\n' "$out" | grep -Eq -- "$line" || fail "validate did not report '$line': $out"
done
printf '{ "version": 1,\n' > "$dir/broken.json"
expect 2 'broken.json:2:1: ' "$cli" validate "$dir/broken.json"
expect 2 'which files\?' "$cli" validate

# A lesson's runs are checked too: a scenario that does not exist is a problem of its run.
sed 's/"scenario": "2002-global-hash-lock"/"scenario": "no-such-scenario"/' "$dir/two-problems-lesson.json" \
  > "$dir/missing-scenario-lesson.json"
expect 2 "missing-scenario-lesson.json: runs\\[0\\].scenario: no bundled scenario is called 'no-such-scenario'" \
  "$cli" validate "$dir/missing-scenario-lesson.json"

# Five mistakes in a bundled lesson are five problems, each once at its own
# member, and nothing that only follows from one of them (the lists of
# allowed values cut short here).
lesson="$(dirname "$0")/../../resources/lessons/2007-lockless-readers.json"
sed -e '/"question":/d' \
  -e 's/"name": "lock-1", "scenario": "2002-radix-tree-per-file"/"name": "lock-1", "scenario": "no-such-scenario"/' \
  -e '0,/"run": "rcu-2",/s//"run": "rcu-3",/' \
  -e 's/"metric": "ops_per_second", "run": "rcu-2", "over": "rcu-1"/"metric": "speed", "run": "rcu-2", "over": "rcu-1"/' \
  -e 's/"rule": { "at_most": 1 }/"rule": { "at_least": 1, "at_most": 1 }/' "$lesson" > "$dir/five-mistakes.json"
[ "$(diff "$lesson" "$dir/five-mistakes.json" | grep -c '^>')" -eq 4 ] \
  || fail "five-mistakes.json: the mistakes were not all made in $lesson"
out=$("$cli" validate "$dir/five-mistakes.json" 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "validate of five mistakes exited $rc, expected 2"
expected="$dir/five-mistakes.json: question: is required
$dir/five-mistakes.json: runs[0].scenario: no bundled scenario is called 'no-such-scenario'; there are: ...
$dir/five-mistakes.json: steps[1].run: 'rcu-3' is not one of the lesson's runs: lock-1, lock-2, rcu-1, rcu-2, lock-8, rcu-8
$dir/five-mistakes.json: claims[0].measure.metric: 'speed' is not a metric; allowed: ...
$dir/five-mistakes.json: claims[2].rule.at_least: a rule has one of at_least and at_most, and this one has at_most too
$dir/five-mistakes.json: 5 problems"
shown=$(printf '%s\n' "$out" | sed -e 's/; there are: .*/; there are: .../' -e 's/; allowed: .*/; allowed: .../')
[ "$shown" = "$expected" ] || fail "validate of five mistakes printed: $out"

# An override a run's scenario refuses names the run and its own element,
# and the runs listed are the lesson's own.
sed '/"name": "lock-2"/s/"workload.cpus=2" \]/"workload.cpus=2", "workload.cpus=0" ]/' "$lesson" > "$dir/bad-set.json"
refused="runs[1].set[2]: run 'lock-2' on '2002-radix-tree-per-file': workload.cpus: must be in [1, 1024], got 0"
out=$("$cli" validate "$dir/bad-set.json" 2>&1)
[ "$out" = "$dir/bad-set.json: $refused
$dir/bad-set.json: 1 problem" ] || fail "validate of a refused override printed: $out"
out=$("$cli" experiment "$dir/bad-set.json" --quick --quiet 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "experiment of a refused override exited $rc, expected 2"
[ "$out" = "pagecache-lab-cli experiment: $refused" ] || fail "experiment of a refused override printed: $out"

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "all passed"
