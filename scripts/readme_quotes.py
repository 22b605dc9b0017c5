#!/usr/bin/env python3
"""Rewrites the README's generated blocks from a run folder (scripts/regenerate-example calls it).

A block sits between `<!-- generated:NAME -->` and `<!-- end generated -->`:
- `facts`: the run's date, commit, row count and duration;
- `seed-table`: the seed questions' table from summary.csv and classes.csv (median, and how far its interval's
  two ends reach from it; the repetitions when there is no interval; "at N" where a limit changed the row's size);
- `recommendations`: report.md's Recommendations for the seed workloads, verbatim (Tests/StoreBenchTests/ReadmeQuoteTests.swift checks
  that every such line is still in report.md).
Usage: readme_quotes.py README.md RUN_DIR
"""
import csv
import json
import os
import re
import sys
from collections import Counter

SEED_ROWS = [
    "sqlite [txn=none journal=wal sync=normal]", "sqlite [txn=single journal=wal sync=normal]",
    "sqlite [txn=batch journal=wal sync=normal]", "sqlite [txn=single journal=delete sync=full]",
    "grdb [style=records writer=queue]", "grdb [style=batch writer=pool]", "plist [write=atomic flush=end]",
    "plist [format=xml codec=archiver write=atomic flush=end]", "defaults [sync=end]", "lmdb [txn=single sync=full]",
    "lmdb [txn=single sync=nosync]", "gdbm [sync=close]", "files [fsync=none]", "memory",
]
SEED_WORKLOADS = [("insert", "insert 10,000"), ("mark-read", "mark 10,000 of 20,000 read"),
                  ("timeline-cold", "cold launch, 100,000 messages")]


def duration(seconds):
    if seconds < 0.001:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def cell(row, main_parameters):
    if row is None:
        return "–"
    if row["status"] != "ok":
        return row["status"]
    median = float(row["median_s"])
    text = duration(median)
    if row["median_ci95_low_s"] and row["median_ci95_high_s"]:
        low, high = float(row["median_ci95_low_s"]), float(row["median_ci95_high_s"])
        text += f" (−{(median - low) / median * 100:.0f}%/+{(high - median) / median * 100:.0f}%)"
    else:
        text += f" (n={row['n']})"
    if row["parameters"] != main_parameters:
        text += f" at {int(row['size']):,}"
    return text


def seed_table(run_dir):
    with open(os.path.join(run_dir, "summary.csv"), newline="", encoding="utf-8") as handle:
        summary = list(csv.DictReader(handle))
    with open(os.path.join(run_dir, "classes.csv"), newline="", encoding="utf-8") as handle:
        classes = {(r["backend"], r["variant"]): r for r in csv.DictReader(handle)}
    label_of = {key: r["label"] for key, r in classes.items()}
    main = {w: Counter(r["parameters"] for r in summary if r["workload"] == w).most_common(1)[0][0]
            for w, _ in SEED_WORKLOADS if any(r["workload"] == w for r in summary)}
    lines = ["| strategy | durability | " + " | ".join(title for _, title in SEED_WORKLOADS) + " |",
             "|---|---|" + "---:|" * len(SEED_WORKLOADS)]
    for wanted in SEED_ROWS:
        rows = [r for r in summary if label_of.get((r["backend"], r["variant"])) == wanted]
        if not rows:
            continue
        klass = classes[(rows[0]["backend"], rows[0]["variant"])]
        durability = klass["durability"] + ("" if klass["durability"] == "in memory only"
                                            else (", measured" if klass["measured"] == "yes" else ", declared"))
        cells = []
        for workload, _ in SEED_WORKLOADS:
            found = [r for r in rows if r["workload"] == workload]
            cells.append(cell(found[0] if found else None, main.get(workload)))
        lines.append(f"| {wanted} | {durability} | " + " | ".join(cells) + " |")
    return lines


def recommendations(run_dir):
    with open(os.path.join(run_dir, "report.md"), encoding="utf-8") as handle:
        text = handle.read()
    section = text.split("### Recommendations", 1)[1]
    section = re.split(r"\n#+ ", section, maxsplit=1)[0]
    wanted = [f"- **{workload}**" for workload, _ in SEED_WORKLOADS]
    return [line for line in section.strip().splitlines() if any(line.startswith(w) for w in wanted)]


def facts(run_dir):
    with open(os.path.join(run_dir, "environment.json"), encoding="utf-8") as handle:
        environment = json.load(handle)
    with open(os.path.join(run_dir, "summary.csv"), newline="", encoding="utf-8") as handle:
        rows = sum(1 for _ in csv.DictReader(handle))
    took = ""
    path = os.path.join(run_dir, "duration.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            took = "; the " + handle.read().strip()
    commit = environment.get("git_commit", "?")[:7]
    return [f"Run {environment.get('started_at', '?')[:10]}, the {environment.get('build_configuration', '?')} binary of "
            f"commit {commit}, {rows} rows{took}, on {environment.get('cores', '?')} cores "
            f"({environment.get('cpu_model', '?')}, {environment.get('workdir_filesystem', '?')})."]


def main():
    readme_path, run_dir = sys.argv[1], sys.argv[2]
    blocks = {"facts": facts(run_dir), "seed-table": seed_table(run_dir), "recommendations": recommendations(run_dir)}
    with open(readme_path, encoding="utf-8") as handle:
        text = handle.read()
    for name, lines in blocks.items():
        pattern = re.compile(rf"(<!-- generated:{name} -->\n).*?(<!-- end generated -->)", re.S)
        if not pattern.search(text):
            sys.exit(f"error: {readme_path} has no <!-- generated:{name} --> block")
        text = pattern.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text)
    with open(readme_path, "w", encoding="utf-8") as handle:
        handle.write(text)


if __name__ == "__main__":
    main()
