#!/bin/sh
# Every result file the commands write validates against the documented
# schema (docs/result.schema.json): run --out's summary.json, each cell's of
# a sweep, and compare's a/ and b/.
# usage: result_schema.sh CLI CHECKER SCHEMA WORKDIR
cli=$1
check=$2
schema=$3
work=$4
. "$(dirname "$0")/expect.sh"
rm -rf "$work"
mkdir -p "$work"

expect 0 "summary.json" "$cli" run 2002-radix-tree-per-file --set workload.operations_per_cpu=2000 --out "$work/run"
expect 0 "" "$cli" sweep 2002-global-hash-lock --set workload.operations_per_cpu=500 \
  --vary workload.cpus=1,2 --out "$work/sweep"
expect 0 "" "$cli" compare 2002-global-hash-lock 2002-radix-tree-per-file --set workload.operations_per_cpu=500 \
  --out "$work/compare"

files=""
for f in "$work/run/summary.json" "$work/sweep/cell-0/repeat-0/summary.json" "$work/sweep/cell-1/repeat-0/summary.json" \
  "$work/compare/a/summary.json" "$work/compare/b/summary.json"; do
  [ -s "$f" ] || fail "$f was not written"
  files="$files $f"
done
# shellcheck disable=SC2086
out=$("$check" "$schema" $files 2>&1) || fail "results that do not validate against $schema: $out"

# The checker itself finds a broken result: a count written as a string.
sed 's/"operations": \([0-9][0-9]*\),/"operations": "\1",/' "$work/run/summary.json" > "$work/broken.json"
out=$("$check" "$schema" "$work/broken.json" 2>&1) && fail "a result with a string count passed the schema check"
printf '%s\n' "$out" | grep -q "integer expected, got string" || fail "the schema check did not name the broken member: $out"

[ "$failures" -eq 0 ] || { echo "$failures checks failed"; exit 1; }
echo "every result file validates against the schema"
