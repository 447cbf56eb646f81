#!/bin/sh
# pagecache-lab-cli calibrate end to end: it measures this machine, writes
# the profile 'host' into the configuration directory (created if missing),
# which `machines` then lists and prints with every figure's basis and
# source; --out writes elsewhere and leaves that one alone; --format json
# and csv print the data alone on stdout; the messages and exit codes of a
# bad command line. Structure only: the figures are this machine's.
# Usage: calibrate.sh CLI SCRATCH_DIR
set -u
cli=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"
. "$(dirname "$0")/expect.sh"
XDG_CONFIG_HOME=$dir/config
export XDG_CONFIG_HOME
host=$dir/config/pagecache-lab/machines/host.json

expect 0 '^work\.minor_fault +[0-9]+ +ns +calibration +-$' "$cli" calibrate --quick
[ -f "$host" ] || fail "calibrate wrote no $host"
expect 0 '^wrote .*/config/pagecache-lab/machines/host\.json; ' "$cli" calibrate --quick
expect 0 '^engine\.index_height +3 +levels ' "$cli" calibrate --quick
expect 0 '^work\.operation +[0-9]+ +ns +calibration +[0-9.]+-[0-9.]+$' "$cli" calibrate --quick
expect 0 '^model\.pft_fault +[0-9.]+ +ns +modelled +-$' "$cli" calibrate --quick
expect 0 '^work\.syscall +[0-9]+ +ns +calibration +-?[0-9.]+--?[0-9.]+$' "$cli" calibrate --quick
expect 0 '^model\.read +[0-9.]+ +ns +modelled +-$' "$cli" calibrate --quick

# machines lists and prints it: every figure measured but the calibration.
expect 0 '^host +[0-9]+ +The machine the programs run on, measured by pagecache-lab-cli calibrate on ' "$cli" machines
expect 0 '^host: This machine \(' "$cli" machines host
for figure in index_level page_copy page_zero pte_install io_submit lock_acquire spin_step; do
  expect 0 "^work\\.$figure +[0-9]+ +ns +measured +\\[[0-9]+\\]\$" "$cli" machines host
done
expect 0 '^work\.operation +[0-9]+ +ns +calibration +\[[0-9]+\]$' "$cli" machines host
expect 0 '^  \[[0-9]+\] Calibration, not a result\. Measured by calibrate on [0-9-]+: a one-CPU pft of the engine ' \
  "$cli" machines host
expect 0 '^work\.syscall +[0-9]+ +ns +calibration +\[[0-9]+\]$' "$cli" machines host
expect 0 '^  \[[0-9]+\] Calibration, not a result\. Measured by calibrate on [0-9-]+: [0-9]+ one-CPU random reads of a cached ' \
  "$cli" machines host
expect 0 '^topology\.sockets +[0-9]+ +sockets +measured ' "$cli" machines host
expect 0 '^  \[[0-9]+\] Calibration, not a result\. Measured by calibrate on [0-9]{4}-[0-9]{2}-[0-9]{2} on host CPU ' \
  "$cli" machines host
expect 0 '^  \[[0-9]+\] Measured by calibrate on [0-9-]+ from Linux sysfs ' "$cli" machines host

# A latency for exactly each distance the topology has.
csv=$("$cli" machines host --format csv)
value() { printf '%s\n' "$csv" | grep "^$1," | cut -d, -f3; }
has() { printf '%s\n' "$csv" | grep -q "^latency\\.$1,"; }
for pair in cpus_per_core:smt cores_per_domain:domain domains_per_socket:socket sockets:remote; do
  count=$(value "topology.${pair%%:*}")
  latency=${pair#*:}
  if [ "$count" -gt 1 ]; then
    has "$latency" || fail "topology.${pair%%:*} is $count but there is no latency.$latency"
  else
    has "$latency" && fail "topology.${pair%%:*} is 1 but there is a latency.$latency"
  fi
done
rows=$(printf '%s\n' "$csv" | wc -l)
latencies=$(printf '%s\n' "$csv" | grep -c '^latency\.')
# header, name, title, description, max_cpus, 6 topology rows (no router_radix
# off a fat tree), the latencies, 10 work costs
[ "$rows" -eq $((21 + latencies)) ] || fail "machines host --format csv: $rows lines with $latencies latencies"

# A measured transfer latency far from the profile it replaces is reported
# on stderr (a virtual machine's vCPUs may have been placed elsewhere
# between the two); a profile written to a new file is compared with
# nothing. Only where the first latency is measured (not an estimate for a
# distance no pair of this process's CPUs has).
if sed -n '/"latency"/,/"basis"/p' "$host" | grep -q '"basis": "measured"'; then
  sed -i '/"latency"/,/"ns"/ s/"ns": [0-9]*/"ns": 999999/' "$host"
  expect 0 '^pagecache-lab-cli calibrate: latency\.[a-z]+ measured now, [0-9]+ ns, is 0\.[0-9]+ times the last calibration.s, 999999 ns: ' \
    "$cli" calibrate --quick
  sed -i '/"latency"/,/"ns"/ s/"ns": [0-9]*/"ns": 999999/' "$host"
  out=$("$cli" calibrate --quick --out "$dir/fresh.json" 2>&1) || fail "calibrate --out a new file failed: $out"
  printf '%s\n' "$out" | grep -q 'last calibration' && fail "calibrate compared a new file with another: $out"
  "$cli" calibrate --quick > /dev/null 2>&1 || fail "calibrate failed"
fi

# --out writes there, and not the configuration directory's.
before=$(cksum < "$host")
mkdir -p "$dir/elsewhere"
expect 0 "^wrote $dir/elsewhere/host\\.json; " "$cli" calibrate --quick --out "$dir/elsewhere/host.json"
[ "$(cksum < "$host")" = "$before" ] || fail "calibrate --out rewrote $host"
mkdir -p "$dir/other/pagecache-lab/machines"
cp "$dir/elsewhere/host.json" "$dir/other/pagecache-lab/machines/host.json"
XDG_CONFIG_HOME=$dir/other expect 0 '^host: This machine \(' "$cli" machines host

# json and csv: the data alone on stdout, the note on stderr.
"$cli" calibrate --quick --format json --out "$dir/elsewhere/j.json" > "$dir/out.json" 2> "$dir/err.txt" \
  || fail "calibrate --format json failed: $(cat "$dir/err.txt")"
head -c 1 "$dir/out.json" | grep -q '\[' || fail "calibrate --format json: stdout is not an array: $(head -c 200 "$dir/out.json")"
grep -q '"parameter": "work.minor_fault"' "$dir/out.json" || fail "calibrate --format json: no work.minor_fault row"
grep -q '^wrote ' "$dir/err.txt" || fail "calibrate --format json: no note on stderr"
expect 0 '^parameter,value,unit,basis,rounds_ns$' "$cli" calibrate --quick --format csv --out "$dir/elsewhere/c.json"

# Bad command lines.
expect 2 "--format: 'xml' is not one of: table, json, csv" "$cli" calibrate --format xml
expect 2 '--out: the profile goes to a file' "$cli" calibrate --out -
expect 0 '^usage: pagecache-lab-cli calibrate \[--out FILE\]' "$cli" help calibrate
expect 2 'neither XDG_CONFIG_HOME nor HOME is set: give --out FILE' env -u XDG_CONFIG_HOME -u HOME "$cli" calibrate --quick

[ "$failures" -eq 0 ] || exit 1
echo "calibrate: all checks passed"
