#!/bin/sh
# pagecache-lab-cli explore TEST end to end: core's race tests listed from
# the build tree's test programs, one explored and replayed on a modelled
# machine; and, with a test program of its own that breaks on purpose,
# the schedule that broke, the test's message, the lines that replay it, a
# program killed by a signal, Ctrl+C, and the messages of bad command lines.
# Usage: explore_tests.sh CLI SCRATCH_DIR TEST_PROGRAMS_DIR
set -u
. "$(dirname "$0")/expect.sh"
cli=$1 dir=$2 programs=$3
rm -rf "$dir"
mkdir -p "$dir/fake"

# A real race test of core: listed, explored under both strategies, replayed.
race='CPUs faulting and truncating the same few pages leave no PTE to a page out of the cache'
expect 0 "^  $race    \(test_core\)$" "$cli" explore --list-tests --tests "$programs"
expect 0 '^test,program$' "$cli" explore --list-tests --tests "$programs" --format csv
expect 0 "^Explored the test \"$race\" on the modelled epyc-2026 under pct \(depth 3\), [0-9,]+ scheduling points a run: 20 schedules, (1[0-9]|20) distinct orders of the lock acquisitions \((1[0-9]|20) of the CPUs\)" \
  "$cli" explore "$race" --tests "$programs" --schedules 20
expect 0 '^The test passed under every schedule\.$' \
  "$cli" explore "$race" --tests "$programs" --schedules 10 --strategy random --machine altix-2005
expect 0 '^schedule 5 of pct: the test passed$' "$cli" explore "$race" --tests "$programs" --replay 5
expect 0 "^$race,epyc-2026,random,,[0-9]+,5,5,[0-9]+,[0-9]+,[0-9.]+,$" \
  "$cli" explore "$race" --tests "$programs" --schedules 5 --strategy random --format csv

# A test that runs its body on several machines, each over every seed.
expect 0 "^Explored the test \"skip list survives concurrent mixed operations\" .*: 10 schedules of each of the test's 6 machines, 60 runs, " \
  "$cli" explore 'skip list survives concurrent mixed operations' --tests "$programs" --schedules 10

# A test program that follows test_machine.h's report: schedule 4 breaks,
# schedule 6 dies of SIGSEGV when FAKE_SIGNAL is set, and pct's first run
# (depth 1) always holds.
fake="$dir/fake/test_fake"
cat > "$fake" <<'FAKE'
#!/bin/sh
if [ "$1" = "--list-test-names-only" ]; then
  echo "a race that schedule 4 loses"
  exit 0
fi
fd=$PCL_TEST_REPORT_FD
seed=$PCL_TEST_SEED
end=$((seed + PCL_TEST_SCHEDULES))
while [ "$seed" -lt "$end" ]; do
  eval "echo start $seed >&$fd"
  if [ "${PCL_TEST_PCT_DEPTH:-0}" != 1 ]; then
    if [ "$seed" = 4 ]; then
      echo "fake.cpp:12: FAILED: the race was lost in schedule $seed"
      exit 1
    fi
    if [ "$seed" = 6 ] && [ -n "${FAKE_SIGNAL:-}" ]; then
      kill -SEGV $$
    fi
    if [ "$seed" = 6 ] && [ -n "${FAKE_INT:-}" ]; then
      kill -INT $$
    fi
  fi
  eval "echo held $seed $PCL_TEST_SCHEDULE 50 $seed $((seed % 2)) >&$fd"
  [ -n "${FAKE_SLOW:-}" ] && sleep 1
  seed=$((seed + 1))
done
exit 0
FAKE
chmod +x "$fake"
lost='a race that schedule 4 loses'
expect 1 '^Schedule 4 breaks the test:$' "$cli" explore "$lost" --tests "$dir/fake" --schedules 10
expect 1 '^  fake\.cpp:12: FAILED: the race was lost in schedule 4$' "$cli" explore "$lost" --tests "$dir/fake" --schedules 10
expect 1 '50 scheduling points a run: 3 schedules, 2 distinct orders of the lock acquisitions \(3 of the CPUs\)' \
  "$cli" explore "$lost" --tests "$dir/fake" --schedules 10
expect 1 "^  pagecache-lab-cli explore 'a race that schedule 4 loses' --machine epyc-2026 --strategy pct --depth 3 --seed 1 --replay 4 --tests " \
  "$cli" explore "$lost" --tests "$dir/fake" --schedules 10
expect 1 '^  PCL_TEST_MACHINE=epyc-2026 PCL_TEST_SCHEDULE=pct PCL_TEST_SEED=4 PCL_TEST_SCHEDULES=1 PCL_TEST_PCT_DEPTH=3 PCL_TEST_PCT_STEPS=50 ' \
  "$cli" explore "$lost" --tests "$dir/fake" --schedules 10
out=$("$cli" explore "$lost" --tests "$dir/fake" --schedules 10 --format csv 2>/dev/null)
[ "$out" = "$(printf 'test,machine,strategy,depth,points_per_run,schedules,runs,lock_orders,cpu_orders,runs_per_second,broken_seed\n%s' "$lost")$(printf '%s' "$out" | sed -n '2s/^[^,]*//p')" ] \
  || fail "explore --format csv: the data alone on stdout: $out"
printf '%s\n' "$out" | tail -1 | grep -Eq ',epyc-2026,pct,3,50,3,3,2,3,[0-9.]+,4$' || fail "explore --format csv: $out"
expect 0 '^Every|^The test passed under every schedule\.$' "$cli" explore "$lost" --tests "$dir/fake" --seed 5 --schedules 3
expect 1 '^schedule 4 of random: broken$' "$cli" explore "$lost" --tests "$dir/fake" --strategy random --replay 4
expect 0 '^schedule 5 of random: the test passed$' "$cli" explore "$lost" --tests "$dir/fake" --strategy random --replay 5
FAKE_SIGNAL=1 expect 1 '^  the test program was killed by signal 11 \(Segmentation fault\)$' \
  "$cli" explore "$lost" --tests "$dir/fake" --seed 5 --schedules 3
export FAKE_SIGNAL=1
expect 1 '^Schedule 6 breaks the test:$' "$cli" explore "$lost" --tests "$dir/fake" --seed 5 --schedules 3
unset FAKE_SIGNAL

# Ctrl+C: the test program stopped, what finished counted, exit 130;
# also when the program dies of the signal before the command has seen its
# own, as at a terminal, which signals the whole process group (timeout
# signals its group too): stopped, not broken.
export FAKE_SLOW=1
expect 130 '^stopped by Ctrl\+C after [0-9]+ of 100 schedules$' \
  timeout --preserve-status -s INT 4 "$cli" explore "$lost" --tests "$dir/fake" --seed 5 --schedules 100
unset FAKE_SLOW
export FAKE_INT=1
expect 130 '^stopped by Ctrl\+C after 1 of 10 schedules$' "$cli" explore "$lost" --tests "$dir/fake" --seed 5 --schedules 10
unset FAKE_INT

# Bad command lines.
expect 2 'a test has no scenario to --set; --machine names its machine' \
  "$cli" explore "$lost" --tests "$dir/fake" --set workload.cpus=2
expect 2 "--machine: no machine profile 'cray-1'" "$cli" explore "$lost" --tests "$dir/fake" --machine cray-1
expect 2 "no-such-race: no such file, and no preset of that name .*; nor is it a race test of core \('explore --list-tests' lists them\)" \
  "$cli" explore no-such-race --tests "$dir/fake"
expect 2 "cannot read the test programs' directory $dir/none" "$cli" explore --list-tests --tests "$dir/none"
expect 2 '--list-tests takes no scenario or test' "$cli" explore --list-tests "$lost"

[ "$failures" -eq 0 ] || exit 1
echo "explore-tests: all checks passed"
