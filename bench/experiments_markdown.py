#!/usr/bin/env python3
"""Rewrites the verdict tables of docs/experiments.md from measured verdicts.

Each lesson's table is replaced by the rows of the verdicts JSON that

    pagecache-lab-cli experiment NAME --json DIR/NAME.json

wrote (one file per lesson, named after it); the text around the tables,
and the tables of lessons with no file in DIR, stay as they are.

    bench/experiments_markdown.py DIR [docs/experiments.md]
"""
import json
import os
import re
import sys

BEGIN = "<!-- the thread's tables beside ours, from experiment --json -->"
END = "<!-- end of the thread's tables -->"
HEADER = "| claim | in the thread | measured on | ours | verdict |\n|---|---|---|---|---|\n"


def cell(text):
    """A table cell: one line, its pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def verdict_cell(v):
    return f"**{cell(v['result'])}**: {cell(v['why'])}"


def sensitivity(modelled):
    """The modelled verdict's sensitivity, as `experiment` words it."""
    if len(modelled) != 3:
        return ""
    def one(v):
        # JSON's null is an unbounded ratio (over none) or none at all.
        figure = ("unbounded" if v["values"] and v["over_values"] and v["over_values"][0] == 0
                  and v["run_values"][0] else "no figure") if v["median"] is None else f"{v['median']:.3g}x"
        return f"{v['result']} ({figure})"
    return f"at half and at twice the transfer latencies: {one(modelled[1])} and {one(modelled[2])}"


def table(result):
    rows = []
    here = f"this computer ({result['machine_cpus']} CPUs)"
    for v in result["verdicts"]:
        claim = cell(v["claim"])
        if v.get("source"):
            claim += f" ({cell(v['source'])})"
        rows.append(f"| {claim} | {cell(v.get('thread_figure', ''))} | {here} | {cell(v['our_figure'])} "
                    f"| {verdict_cell(v)} |\n")
        modelled = v.get("modelled", [])
        if modelled:
            m = modelled[0]
            rows.append(f"| the same claim | | modelled {cell(m['machine_title'])}, {m['machine_cpus']} CPUs "
                        f"| {cell(m['our_figure'])} | {verdict_cell(m)}{'; ' + cell(sensitivity(modelled)) if len(modelled) == 3 else ''} |\n")
    return HEADER + "".join(rows)


def number(v):
    """A figure as `experiment` gives it: whole from 1000 up, thousands grouped; else three significant digits."""
    if v is None:
        return "not measured"
    if v >= 1000:
        return f"{round(v):,}"
    return f"{v:.3g}"


def thread_tables(result):
    """Each table of the thread set beside ours, as `experiment` prints it."""
    out = []
    for t in result.get("tables", []):
        head = ["CPUs"]
        for s in t["series"]:
            if s["thread"]:
                head.append(f"{cell(s['label'])}: thread")
            head.append(f"{cell(s['label'])}: ours")
            if s["thread"]:
                head.append("ours / thread")
        rows = []
        for i, cpus in enumerate(t["cpus"]):
            row = [str(cpus)]
            for s in t["series"]:
                ours = s["ours"][i]
                if s["thread"]:
                    row.append(number(s["thread"][i]))
                row.append(number(ours))
                if s["thread"]:
                    row.append(f"{ours / s['thread'][i]:.3g}x" if ours is not None and s["thread"][i] else "")
            rows.append("| " + " | ".join(row) + " |\n")
        out.append(f"{'' if not out else chr(10)}{cell(t['title'])} ({cell(t['unit'])}); the thread: {cell(t['by'])}, {cell(t['source'])}; "
                   f"ours: modelled {cell(t['machine_title'])}, one run a point.\n\n"
                   + "| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n" + "".join(rows)
                   + "".join(f"\n{cell(line[:1].upper() + line[1:])}.\n" for line in t.get("shape", [])))
    return f"\n{BEGIN}\n" + "".join(out) + f"\n{END}\n" if out else ""


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    measured, doc = argv[1], argv[2] if len(argv) == 3 else "docs/experiments.md"
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    replaced = []
    for name in sorted(os.listdir(measured)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(measured, name), encoding="utf-8") as f:
            result = json.load(f)
        lesson = result["experiment"]
        # The lesson's table: the first one after the line that names it.
        # Its verdict table, and the thread's tables after it if it has any
        # (between the two comments thread_tables writes).
        section = re.search(r"^`" + re.escape(lesson) + r"`.*?\n\n(\| claim .*?\n(?:\n" + re.escape(BEGIN)
                            + r".*?" + re.escape(END) + r"\n)?)(?:\n|\Z)", text, re.S | re.M)
        if not section:
            sys.stderr.write(f"{doc}: no table under `{lesson}` (from {name})\n")
            return 1
        text = text[:section.start(1)] + table(result) + thread_tables(result) + text[section.end(1):]
        replaced.append(lesson)
    tmp = doc + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, doc)
    print(f"{doc}: {len(replaced)} tables rewritten: {', '.join(replaced)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
