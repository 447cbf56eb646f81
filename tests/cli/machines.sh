#!/bin/sh
# pagecache-lab-cli machines end to end: the bundled profiles listed, one
# printed with every parameter's value, unit, basis and source, the user's
# own profiles read from the configuration directory, and the messages and
# exit codes of a missing host profile, an unknown name and a bad file; and
# explore, which runs a scenario under many schedules of a modelled machine.
# Usage: machines.sh CLI SCRATCH_DIR
set -u
cli=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir/config/pagecache-lab/machines"
. "$(dirname "$0")/expect.sh"
XDG_CONFIG_HOME=$dir/config
export XDG_CONFIG_HOME

expect 0 '^altix-2005 +64 +The SGI ia64 machine' "$cli" machines
expect 0 '^epyc-2026 +192 ' "$cli" machines
expect 0 '^pentium3-xeon-8way-2002 +8 ' "$cli" machines
[ "$("$cli" machines | wc -l)" -eq 4 ] || fail "machines: a header and three profiles: $("$cli" machines)"
"$cli" machines | grep -n ' $' && fail "machines: a line ends in spaces"
expect 0 '^epyc-2026,192,' "$cli" machines --format csv
expect 0 '"name": "altix-2005"' "$cli" machines --format json
expect 2 "--format: 'xml' is not one of: table, json, csv" "$cli" machines --format xml
expect 0 '^usage: pagecache-lab-cli machines \[NAME\]' "$cli" help machines

# One profile: every parameter, its unit, basis and numbered source.
expect 0 '^latency\.remote +197 +ns +published +\[[0-9]+\]$' "$cli" machines epyc-2026
expect 0 '^latency\.hop +50 +ns +published +\[[0-9]+\]$' "$cli" machines altix-2005
expect 0 '^work\.minor_fault +10217 +ns +calibration +\[[0-9]+\]$' "$cli" machines altix-2005
expect 0 '^  \[[0-9]+\] Calibration, not a result\. Lameter' "$cli" machines altix-2005
expect 0 '^topology\.shared_bus +true ' "$cli" machines pentium3-xeon-8way-2002
expect 0 '^latency\.domain,Other core of the domain,23,ns,published,' "$cli" machines epyc-2026 --format csv
rows=$("$cli" machines altix-2005 --format csv | wc -l)
# header, name, title, description, max_cpus, 7 topology rows, 3 latencies, 10 work costs
[ "$rows" -eq 25 ] || fail "machines altix-2005 --format csv: $rows lines"

# No host profile yet: run calibrate. An unknown name lists the bundled ones.
expect 2 'no profile of this machine yet: run `pagecache-lab-cli calibrate`' "$cli" machines host
expect 2 "no machine profile 'cray-1': the bundled ones are altix-2005, epyc-2026, pentium3-xeon-8way-2002" \
  "$cli" machines cray-1
expect 2 'one profile at a time, got 2' "$cli" machines altix-2005 epyc-2026

# A profile in the configuration directory is listed and read; a bad one
# is named with its field, and the others are still listed.
"$cli" machines epyc-2026 --format json > /dev/null || fail "machines epyc-2026 --format json"
sed 's/"name": "pentium3-xeon-8way-2002"/"name": "host"/' \
  "$(dirname "$0")/../../resources/machines/pentium3-xeon-8way-2002.json" > "$dir/config/pagecache-lab/machines/host.json"
expect 0 '^host +8 +The eight 700 MHz' "$cli" machines
expect 0 '^host: OSDL 8-way' "$cli" machines host
sed 's/"sockets": 1,/"sockets": 0,/' "$dir/config/pagecache-lab/machines/host.json" > "$dir/config/pagecache-lab/machines/bad.json"
sed -i 's/"name": "host"/"name": "bad"/' "$dir/config/pagecache-lab/machines/bad.json"
expect 2 "machines/bad\.json: topology\.sockets: must be 1 to 256, got 0" "$cli" machines bad
expect 0 "machines/bad\.json: topology\.sockets: must be 1 to 256, got 0" "$cli" machines
# A profile that is a FIFO or a link to a device is refused at once, not
# read for ever, and the listing goes on past it.
mkfifo "$dir/config/pagecache-lab/machines/fifo.json"
ln -s /dev/zero "$dir/config/pagecache-lab/machines/zero.json"
expect 2 "machines/fifo\.json: it is a FIFO, not a regular file" timeout 20 "$cli" machines fifo
expect 2 "machines/zero\.json: it is a character device, not a regular file" timeout 20 "$cli" machines zero
expect 0 '^altix-2005 +64 ' timeout 20 "$cli" machines
rm -f "$dir/config/pagecache-lab/machines/fifo.json" "$dir/config/pagecache-lab/machines/zero.json"
# bench engine --machine runs what it runs: the host's options are refused.
expect 2 "--pages does not apply with --machine" "$cli" bench engine --machine altix-2005 --pages 1000

# explore: a scenario under many schedules of a modelled machine (this
# computer's threads on the bundled epyc-2026), its page cache checked
# after each; the seed of a schedule whose run fails, and its replay.
unset XDG_CONFIG_HOME
expect 0 '^Explored 2002-global-hash-lock on the modelled epyc-2026 under pct \(depth 3\), [0-9,]+ scheduling points a run: 20 schedules, (1[1-9]|20) distinct orders of the lock acquisitions \((1[1-9]|20) of the CPUs\)' \
  "$cli" explore 2002-global-hash-lock --schedules 20
expect 0 'exploring on the modelled epyc-2026' "$cli" explore 2002-global-hash-lock --schedules 2
expect 0 '^Every invariant held after every schedule\.$' "$cli" explore 2007-radix-tree-optimistic --strategy random \
  --schedules 5 --ops 50
expect 0 'under pct \(depth 3\)' "$cli" explore 2005-pft-split-page-table-lock --set machine.profile=altix-2005 --schedules 3
expect 1 '^Schedule 7 breaks the page cache:$' "$cli" explore 2005-pft-split-page-table-lock --set memory_pages=100 \
  --seed 7 --schedules 3
expect 1 '^  the run failed: anonymous fault of page [0-9]+: out of memory \(memory_pages = 100\)' \
  "$cli" explore 2005-pft-split-page-table-lock --set memory_pages=100 --seed 7 --schedules 3
expect 1 ' run 2005-pft-split-page-table-lock --set memory_pages=100 --set machine\.profile=epyc-2026 --set machine\.schedule=pct .*--set machine\.schedule_seed=7 --out DIR' \
  "$cli" explore 2005-pft-split-page-table-lock --set memory_pages=100 --seed 7 --schedules 3
expect 1 '^schedule 7 of pct: broken$' "$cli" explore 2005-pft-split-page-table-lock --set memory_pages=100 --replay 7
expect 0 '^schedule 7 of random: every invariant holds$' "$cli" explore 2002-global-hash-lock --strategy random --replay 7
# The same seed, the same schedule: two explorations print the same table.
a=$("$cli" explore 2002-migrating-reader-tree-lock --schedules 5 --format csv 2>/dev/null | cut -d, -f1-7)
b=$("$cli" explore 2002-migrating-reader-tree-lock --schedules 5 --format csv 2>/dev/null | cut -d, -f1-7)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "explore twice: '$a' then '$b'"
expect 2 "--strategy: expected random or pct, got 'virtual_time'" "$cli" explore 2002-global-hash-lock --strategy virtual_time
expect 2 'explore what\? \(a scenario file, a preset or a race test\)' "$cli" explore
expect 2 "--depth: " "$cli" explore 2002-global-hash-lock --depth 0
expect 2 "no-such-scenario: no such file, and no preset of that name" "$cli" explore no-such-scenario

[ "$failures" -eq 0 ] || exit 1
echo "machines: all checks passed"
