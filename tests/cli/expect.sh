# The checks the command-line tests share, sourced by each script:
# fail MESSAGE counts a failure; expect CODE PATTERN COMMAND... runs the
# command and checks that it exits with CODE and that its output (stdout
# and stderr) has a line matching the extended regular expression PATTERN.
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
expect() {
  code=$1
  pattern=$2
  shift 2
  out=$("$@" 2>&1)
  rc=$?
  [ "$rc" -eq "$code" ] || fail "'$*' exited $rc, expected $code: $out"
  printf '%s\n' "$out" | grep -Eq -- "$pattern" || fail "'$*' printed no line matching '$pattern': $out"
}
