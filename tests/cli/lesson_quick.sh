#!/bin/sh
# One bundled lesson's quick form, its verdicts printed (the test's pattern
# reads them) and written as JSON, then checked: every figure a verdict
# shows divides as shown (check_verdict_figures).
# usage: lesson_quick.sh CLI CHECKER LESSON JSON [experiment options...]
cli=$1
check=$2
lesson=$3
json=$4
shift 4
rm -f "$json"
"$cli" experiment "$lesson" --quick --quiet --json "$json" "$@" || exit 1
"$check" "$json"
