#!/usr/bin/env python3
"""Every command that prints results, read as a script reads it: with
--format json its stdout is one JSON document for Python's json module, with
--format csv one table for its csv module (a header and rows of as many
cells), and what a command says about the files it wrote goes to stderr.

Usage: formats.py CLI SCRATCH_DIR
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys

cli, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
short = ["--set", "workload.operations_per_cpu=300"]
failures = []


def run(args):
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        failures.append(f"{' '.join(args)}: exited {p.returncode}: {p.stderr.strip()}")
    return p


def check_json(args):
    p = run(args + ["--format", "json"])
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        failures.append(f"{' '.join(args)} --format json: stdout is not JSON ({e}): {p.stdout[-300:]!r}")
        return None
    if not doc:
        failures.append(f"{' '.join(args)} --format json: an empty document")
    return doc


def check_csv(args):
    p = run(args + ["--format", "csv"])
    rows = list(csv.reader(io.StringIO(p.stdout), strict=True))
    if len(rows) < 2:
        failures.append(f"{' '.join(args)} --format csv: no rows: {p.stdout[-300:]!r}")
        return rows
    width = len(rows[0])
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != width:
            failures.append(f"{' '.join(args)} --format csv: line {n} has {len(row)} cells, the header {width}: {row}")
            break
    return rows


def check_both(args, out=None):
    """JSON with --out DIR (where the notes of what was written come in), CSV
    into a second directory: the same notes, the other format."""
    check_json(args + (["--out", f"{scratch}/{out}-json"] if out else []))
    check_csv(args + (["--out", f"{scratch}/{out}-csv"] if out else []))


check_both(["presets"])
check_both(["machines"])
check_both(["machines", "altix-2005"])
check_both(["calibrate", "--quick"], out="calibrate")
check_both(["run", "2002-global-hash-lock"] + short + ["--no-report"], out="run")
grid = ["sweep", "2002-global-hash-lock"] + short + ["--vary", "workload.cpus=1,2"]
check_both(grid, out="grid")
check_both(["sweep", "--collect", f"{scratch}/grid-json"])
check_both(["explore", "2002-global-hash-lock", "--schedules", "3"])
check_both(["explore", "2002-global-hash-lock", "--replay", "2"])
# A race test of core, from the test programs beside the command's build.
race = "CPUs faulting and truncating the same few pages leave no PTE to a page out of the cache"
check_both(["explore", "--list-tests"])
check_both(["explore", race, "--schedules", "3"])
check_both(["explore", race, "--replay", "2"])
check_both(["compare", "2002-global-hash-lock", "2002-global-hash-lock"] + short
           + ["--set-b", "index.kind=radix", "--set-b", "index.scheme=spinlock"], out="cmp")

# The lessons and the probes listed; a lesson measured in its quickest
# form: the verdicts alone, the progress and the file written on stderr.
check_both(["experiments"])
check_both(["experiments", "--probes"])
verdicts = check_json(["experiment", "2002-the-reader-that-changes-cpus", "--quick", "--repeat", "1", "--json",
                       f"{scratch}/verdicts.json"])
if verdicts is not None and not verdicts.get("verdicts"):
    failures.append("experiment --format json: no verdicts")
rows = check_csv(["experiment", "2002-the-reader-that-changes-cpus", "--quick", "--repeat", "1"])
if rows and rows[0][:2] != ["claim", "source"]:
    failures.append(f"experiment --format csv: not the verdict table: {rows[0]}")

# Every benchmark, small, with --csv FILE (whose note goes to stderr): its
# json an object with a member per table, each an array of rows; its csv
# the table its --help names.
benches = {
    "locks": (["--iters", "1000", "--repeats", "1", "--threads", "2", "--quiet"], ["locks"], "lock"),
    "indexes": (["--pages", "1000", "--repeats", "1", "--threads", "2", "--only", "flat_array,judy", "--quiet"],
                ["dense", "dense_vs_flat_array", "sparse", "sparse_vs_flat_array", "concurrent", "cells"], "index"),
    "concurrent-pagecache": (["--scale", "0.001"], ["phases", "locks", "levels_skipped"], "series"),
    "engine": (["--pages", "1000", "--max-threads", "2", "--repeats", "1"],
               ["minor_faults", "pft", "read_locks", "writeback"], "threads"),
    "machines": (["--part", "p3", "--pft-faults", "100"], ["p3", "figures"], "part"),
    "readahead": (["--files", "2", "--file-pages", "16", "--memory-pages", "64", "--stream-pages", "64",
                   "--replays", "1"], ["thrashing", "replay"], "N"),
}
listed = subprocess.run([cli, "bench", "--help"], capture_output=True, text=True, timeout=60).stdout
for name in [line.split()[1] for line in listed.splitlines() if line.startswith("  bench ")]:
    if name not in benches:
        failures.append(f"bench {name}: not checked here")
docs = {}
for name, (options, members, first_column) in benches.items():
    args = ["bench", name] + options + ["--csv", f"{scratch}/bench-{name}.csv"]
    doc = docs[name] = check_json(args)
    if doc is not None:
        if not isinstance(doc, dict) or any(m not in doc for m in members):
            failures.append(f"bench {name} --format json: expected the members {members}: {list(doc)[:10]}")
        elif not all(isinstance(t, list) and t and all(isinstance(r, dict) for r in t) for t in doc.values()):
            failures.append(f"bench {name} --format json: a member is not an array of rows")
    rows = check_csv(args)
    if rows and rows[0][0] != first_column:
        failures.append(f"bench {name} --format csv: not the table its --help names: {rows[0]}")

# What the table rounds, json keeps whole; a figure that does not exist is
# null (the dropped events of a run without the event stream); the
# readahead policies by their names.
if docs["engine"]:
    if docs["engine"]["minor_faults"][0]["dropped"] is not None:
        failures.append(f"bench engine: dropped without the stream is {docs['engine']['minor_faults'][0]}")
    ratios = [row["split/single"] for row in docs["engine"]["pft"]]
    if not all(isinstance(r, float) for r in ratios) or all(round(r, 2) == r for r in ratios):
        failures.append(f"bench engine --format json: split/single rounded or not numbers: {ratios}")
if docs["locks"] and not all(isinstance(row["instr/bare"], (int, float)) for row in docs["locks"]["locks"]):
    failures.append("bench locks --format json: instr/bare is not a number")
if docs["readahead"]:
    policies = {row["policy"] for row in docs["readahead"]["thrashing"]}
    if policies != {"linux-2.6.32", "morton-2002", "none"}:
        failures.append(f"bench readahead: the default policies are {sorted(policies)}")
p = subprocess.run([cli, "bench", "concurrent-pagecache", "--scale", "0.001", "--csv", "-"], capture_output=True,
                   text=True, timeout=60)
if not p.stdout.startswith("series,scheme,phase,thread,ms\n") or "Phase times" in p.stdout:
    failures.append(f"bench concurrent-pagecache --csv -: stdout is not the CSV alone: {p.stdout[:200]!r}")

# "-" as an output file is stdout, which it then has to itself.
p = subprocess.run([cli, "run", "2002-global-hash-lock"] + short + ["--json", "-"], capture_output=True, text=True,
                   timeout=300, cwd=scratch)
try:
    if "figures" not in json.loads(p.stdout):
        failures.append("run --json -: the result on stdout has no figures")
except json.JSONDecodeError as e:
    failures.append(f"run --json -: stdout is not the result alone ({e}): {p.stdout[:200]!r}")
if os.path.exists(f"{scratch}/-"):
    failures.append("run --json -: wrote a file named '-'")
p = subprocess.run([cli, "sweep", "2002-global-hash-lock"] + short + ["--vary", "workload.cpus=1,2", "--jobs", "-",
                    "--out", f"{scratch}/jobs"], capture_output=True, text=True, timeout=60)
lines = p.stdout.splitlines()
if len(lines) != 2 or not all(" run " in line and "/cell-" in line for line in lines):
    failures.append(f"sweep --jobs -: expected the two run commands alone on stdout: {p.stdout!r}")
p = subprocess.run([cli, "run", "2002-global-hash-lock", "--json", "-", "--readahead-log", "-"], capture_output=True,
                   text=True, timeout=60)
if p.returncode != 2 or "only one output can be '-'" not in p.stderr:
    failures.append(f"run with two outputs on stdout: exit {p.returncode}, {p.stderr!r}")

# A ratio that does not exist is null in JSON and empty in CSV.
doc = check_json(["compare", "2002-global-hash-lock", "2002-global-hash-lock"] + short)
if doc is not None:
    over_zero = [row for row in doc if row["A"] == 0]
    if not over_zero:
        failures.append("compare: expected a figure that is 0 in A (a ratio that does not exist)")
    for row in over_zero:
        if row["B/A"] is not None:
            failures.append(f"compare --format json: {row['figure']}: B/A over a zero A is {row['B/A']!r}, not null")

# compare.csv in --out holds every figure as exactly as the JSON does,
# whatever the terminal's table rounds.
with open(f"{scratch}/cmp-json/compare.csv", newline="") as f:
    table = list(csv.DictReader(f))
for row in table:
    a, b, ratio = row["A"], row["B"], row["B/A"]
    if ratio and float(a) != 0:
        if abs(float(ratio) - float(b) / float(a)) > 1e-12 * abs(float(b) / float(a)):
            failures.append(f"compare.csv: {row['figure']}: B/A {ratio} is not B / A = {float(b) / float(a)!r}")

for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
