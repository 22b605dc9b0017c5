#!/usr/bin/env python3
"""Compares two runs of one scenario row by row: the ratio of the medians and the noise flags of each run.

Columns are found in `storebench columns --json` (the median by its group and unit, the noise flags by theirs),
not by name. Exit 1 when a row that neither run flagged differs by more than 5%."""
import argparse
import csv
import json
import os
import sys

AGREEMENT = 0.05


def summary_columns(path):
    with open(path, encoding="utf-8") as handle:
        summary = json.load(handle)["summary"]
    keys = [c["name"] for c in summary if c["aggregation"] == "key"]
    median = next(c["name"] for c in summary if c["group"] == "timing" and c["unit"] == "s")
    noise = next(c["name"] for c in summary if c["group"] == "noise" and c["unit"] == "text")
    status = next(c["name"] for c in summary if c["group"] == "outcome" and c["aggregation"] == "first")
    return keys, median, noise, status


def read(run_dir, keys, status):
    with open(os.path.join(run_dir, "summary.csv"), newline="", encoding="utf-8") as handle:
        return {tuple(row[k] for k in keys): row for row in csv.DictReader(handle) if row[status] == "ok"}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--columns", required=True)
    parser.add_argument("first")
    parser.add_argument("second")
    args = parser.parse_args()
    keys, median, noise, status = summary_columns(args.columns)
    first, second = read(args.first, keys, status), read(args.second, keys, status)
    print("| workload | backend | variant | size | first | second | ratio | noise (first / second) | verdict |")
    print("|---|---|---|---:|---:|---:|---:|---|---|")
    bad = flagged = agreeing = 0
    for key in sorted(set(first) & set(second)):
        a, b = float(first[key][median]), float(second[key][median])
        ratio = b / a if a > 0 else float("inf")
        flags = f"{first[key][noise] or '–'} / {second[key][noise] or '–'}"
        noisy = bool(first[key][noise] or second[key][noise])
        if abs(ratio - 1) <= AGREEMENT:
            verdict, agreeing = "agree", agreeing + 1
        elif noisy:
            verdict, flagged = "differ (flagged)", flagged + 1
        else:
            verdict, bad = "**DIFFER, unflagged**", bad + 1
        _, workload, backend, variant, size = key[:5]
        print(f"| {workload} | {backend} | {variant} | {size} | {a * 1000:.2f} ms | {b * 1000:.2f} ms | {ratio:.3f} "
              f"| {flags} | {verdict} |")
    print(f"\n{agreeing} rows agree within {AGREEMENT:.0%}, {flagged} differ but were flagged, {bad} differ unflagged")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
