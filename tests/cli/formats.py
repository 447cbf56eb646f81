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
import shutil
import subprocess
import sys

cli, scratch = sys.argv[1], sys.argv[2]
shutil.rmtree(scratch, ignore_errors=True)
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
check_both(["run", "2002-global-hash-lock"] + short + ["--no-report"], out="run")
grid = ["sweep", "2002-global-hash-lock"] + short + ["--vary", "workload.cpus=1,2"]
check_both(grid, out="grid")
check_both(["sweep", "--collect", f"{scratch}/grid-json"])
check_both(["compare", "2002-global-hash-lock", "2002-global-hash-lock"] + short
           + ["--set-b", "index.kind=radix", "--set-b", "index.scheme=spinlock"], out="cmp")

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
