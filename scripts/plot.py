#!/usr/bin/env python3
"""Draw a storebench run's charts into RUN_DIR/charts/ (PNG and SVG).

Charts: an overview (workloads × strategies, times slower than the fastest); median time per workload (log scale,
one fixed colour per backend, hatched where a workload that writes may lose committed data on power loss — the
class `storebench report` wrote to classes.csv, measured where `storebench crash` measured it, else the declared
one — the in-memory floor as a reference line, the run's interval of the median as whiskers); syncs per operation
beside time per operation (insert); cold vs warm
timeline; latency percentiles; scaling (per-item cost vs size); on-disk size; aging (rounds.csv: size and launch
list per round of churn, and after compaction). A chart whose data the run
does not have is skipped with a message.
"""
import argparse
import csv
import json
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import EngFormatter  # noqa: E402

WIDTH_IN, DPI = 12, 100  # 1200 px wide


class Columns:
    """The samples.csv columns the charts use, found in `storebench columns --json` by group, unit and aggregation
    (no column name is spelled here)."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as handle:
            samples = json.load(handle)["samples"]

        def first(**wanted):
            for column in samples:
                if all(column[k] == v for k, v in wanted.items()):
                    return column["name"]
            sys.exit(f"error: {path} has no sample column with {wanted}")

        keys = [c["name"] for c in samples if c["aggregation"] == "key"]
        # scenario, workload, backend, variant, size (parameters follow)
        self.workload, self.backend, self.variant, self.size = keys[1:5]
        self.key = (self.workload, self.backend, self.variant, self.size)
        self.status = first(group="outcome", unit="text", aggregation="first")
        self.time = first(group="timing", unit="s")
        self.ops = first(group="timing", unit="count")
        self.store = first(group="store", unit="B")
        self.latency = [c["name"] for c in samples if c["group"] == "latency"]
        self.durability = first(group="durability")
        # A time a workload records beside its timed region (migrate's first full read, where a lazy strategy pays
        # what it deferred); None for column tables without it.
        self.deferred = next((c["name"] for c in samples if c["group"] == "workload" and c["unit"] == "s"), None)
        # The first counted cost per operation is syncs_per_op (CountedCost's order); None for runs before counting.
        self.syncs = next((c["name"] for c in samples if c["group"] == "counts" and c["unit"] == "1/op"), None)


C = None


def read_samples(run_dir):
    path = os.path.join(run_dir, "samples.csv")
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    if not rows or C.time not in rows[0]:
        sys.exit(f"error: {path} is not a storebench samples.csv")
    return [row for row in rows if row[C.status] == "ok"]


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


LOOK_ALPHA = 0.05


def median_ci(values, alpha=None):
    """The report's distribution-free interval of the median (order statistics x(l), x(n+1-l), the largest l
    with P(Binomial(n, 1/2) <= l-1) <= alpha/2), at the run's look level (95% for the procedure); None when n is
    too small for one."""
    alpha = LOOK_ALPHA if alpha is None else alpha
    n = len(values)
    ordered = sorted(values)
    rank, cumulative = None, 0.0
    for candidate in range(1, (n + 1) // 2 + 1):
        cumulative += math.comb(n, candidate - 1) / 2 ** n
        if cumulative > alpha / 2 + 1e-12:
            break
        rank = candidate
    return None if rank is None else (ordered[rank - 1], ordered[n - rank])


def group(rows, column, by=None):
    by = by or C.key
    groups = defaultdict(list)
    for row in rows:
        if row.get(column, "") != "":
            groups[tuple(row[key] for key in by)].append(float(row[column]))
    return groups


LABELS = {}


def label(backend, variant, size=None):
    """The report's name of the variant (classes.csv: its deciding settings, defaults included), and the records."""
    text = LABELS.get((backend, variant)) or (backend if variant == "default" else f"{backend} [{variant}]")
    return f"{text} ({int(size):,} records)" if size else text


def seconds_formatter(value, _position=None):
    """Durations in s, ms or µs (never 2×10⁻² or 1 kµs)."""
    if value <= 0:
        return "0"
    for scale, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")):
        if value >= scale:
            number = value / scale
            return f"{number:.0f} {unit}" if number >= 10 or number == int(number) else f"{number:.1f} {unit}"
    return f"{value:.1e} s"


def time_axis(axis):
    """A log time axis labelled in s/ms/µs, major and minor ticks alike (minor labels only where they fit)."""
    from matplotlib.ticker import FuncFormatter, LogLocator
    axis.set_major_formatter(FuncFormatter(seconds_formatter))
    axis.set_minor_locator(LogLocator(subs=(2, 5)))
    axis.set_minor_formatter(FuncFormatter(seconds_formatter))


def save(fig, out_dir, name, written):
    for extension in ("png", "svg"):
        path = os.path.join(out_dir, f"{name}.{extension}")
        fig.savefig(path, dpi=DPI, bbox_inches="tight")
        written.append(path)
    plt.close(fig)


def per_operation(rows, deferred=False):
    """Seconds per app operation (wall_s / ops): rows of one workload may have different sizes (limits). With
    `deferred`, a time the workload records after its timed region (migrate's first read) is added."""
    groups = defaultdict(list)
    for row in rows:
        if row.get(C.time) and row.get(C.ops) and float(row[C.ops]) > 0:
            key = tuple(row[name] for name in C.key)
            extra = float(row[C.deferred]) if deferred and C.deferred and row.get(C.deferred) else 0.0
            groups[key].append((float(row[C.time]) + extra) / float(row[C.ops]))
    return groups


DURABLE, FLOOR = "survives power loss", "in memory only"
CLASSES = {}      # (backend, variant) -> (class, "measured"/"declared"), from classes.csv
READ_ONLY = set()  # workloads that write nothing (storebench list --json)


def durability(rows):
    """The durability class of each (workload, backend, variant, size): classes.csv's (declared, lowered by measured
    losses) when `storebench report` wrote it, else the run's declared class."""
    return {tuple(row[k] for k in C.key): CLASSES.get((row[C.backend], row[C.variant]), (row.get(C.durability, ""),))[0]
            for row in rows}


def may_lose(key, classes):
    """Hatched: a workload that writes, on a store that may lose committed data on power loss."""
    return key[0] not in READ_ONLY and classes.get(key) not in (DURABLE, FLOOR)


# One colour per backend, the same in every run (tab10); an unknown backend gets a grey.
BACKEND_COLOURS = {name: plt.get_cmap("tab10").colors[index] for index, name in enumerate(
    ["sqlite", "grdb", "plist", "defaults", "lmdb", "gdbm", "files", "memory", "sqlite-c", "other"])}


def backend_colours(rows):
    return {row[C.backend]: BACKEND_COLOURS.get(row[C.backend], (0.6, 0.6, 0.6)) for row in rows}


def durability_legend(ax, colours, shown, hatched=True):
    from matplotlib.patches import Patch
    handles = [Patch(facecolor=colours[name], label=name) for name in sorted(shown)]
    if hatched:
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="//",
                             label="may lose committed data on power loss\n(measured or declared: classes.csv)"))
    ax.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)


def workload_charts(rows, out_dir, written):
    times = per_operation(rows)
    classes, colours = durability(rows), backend_colours(rows)
    for workload in sorted({key[0] for key in times}):
        everything = sorted((median(v), median_ci(v), key) for key, v in times.items() if key[0] == workload)
        entries = [e for e in everything if classes.get(e[2]) != FLOOR]
        floors = [e for e in everything if classes.get(e[2]) == FLOOR]
        if not entries:
            continue
        fig, ax = plt.subplots(figsize=(WIDTH_IN, 0.35 * len(entries) + 1.8))
        medians = [e[0] for e in entries]
        errors = [[m - (ci or (m, m))[0] for m, ci, _ in entries], [(ci or (m, m))[1] - m for m, ci, _ in entries]]
        bars = ax.barh(range(len(entries)), medians, xerr=errors, capsize=3,
                       color=[colours[k[1]] for _, _, k in entries], edgecolor="black", linewidth=0.4)
        for bar, (_, _, key) in zip(bars, entries):
            if may_lose(key, classes):
                bar.set_hatch("//")
        for value, _, key in floors:
            ax.axvline(value, color="grey", linestyle="--", linewidth=1)
            ax.text(value, -0.6, f" {key[1]} floor", color="grey", fontsize=8, va="bottom")
        ax.set_yticks(range(len(entries)), [label(k[1], k[2], k[3]) for _, _, k in entries], fontsize=9)
        ax.set_xscale("log")
        ax.invert_yaxis()
        time_axis(ax.xaxis)
        ax.set_xlabel("median time per operation (log scale; wall time / operations, so rows of different"
                      " sizes compare); whiskers: 95% interval of the median, none with too few repetitions")
        ax.set_title(f"{workload}: time per operation, by backend and variant (lower is better)"
                     + (" — reads only: durability costs nothing here" if workload in READ_ONLY else ""))
        ax.grid(axis="x", which="both", alpha=0.3)
        durability_legend(ax, colours, {k[1] for _, _, k in entries}, hatched=workload not in READ_ONLY)
        save(fig, out_dir, f"workload-{workload}", written)


def overview_chart(rows, out_dir, written):
    """Workloads × strategies: each cell is the strategy's median time per operation over the fastest one's."""
    times = per_operation(rows, deferred=True)
    classes = durability(rows)
    deferred = {row[C.workload] for row in rows if C.deferred and row.get(C.deferred)}
    cells = {}
    for key, values in times.items():
        if classes.get(key) != FLOOR:
            cells[(key[0], key[1], key[2])] = median(values)
    # A workload with one strategy (process-spawn) compares nothing.
    workloads = sorted(w for w in {k[0] for k in cells} if sum(1 for k in cells if k[0] == w) > 1)
    cells = {k: v for k, v in cells.items() if k[0] in workloads}
    strategies = sorted({(k[1], k[2]) for k in cells})
    if not workloads or not strategies:
        print("skipped overview chart: no rows")
        return
    best = {w: min(v for k, v in cells.items() if k[0] == w) for w in workloads}
    grid = [[cells[(w, b, v)] / best[w] if (w, b, v) in cells else float("nan") for b, v in strategies] for w in workloads]
    fig, ax = plt.subplots(figsize=(max(WIDTH_IN, 0.75 * len(strategies) + 3), 0.6 * len(workloads) + 5))
    image = ax.imshow(grid, cmap="viridis_r", norm=matplotlib.colors.LogNorm(vmin=1, vmax=max(2, max(
        x for row in grid for x in row if x == x))), aspect="auto")
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if value == value:
                ax.text(j, i, "1" if value < 1.005 else (f"{value:.1f}" if value < 10 else f"{value:.0f}"),
                        ha="center", va="center", fontsize=10, color="white" if value > 3 else "black")
    ax.set_yticks(range(len(workloads)), [w + (" (+ first read)" if w in deferred else "") for w in workloads], fontsize=9)
    names = [label(b, v) + ("" if classes.get(next(k for k in classes if k[1] == b and k[2] == v)) == DURABLE else " *")
             for b, v in strategies]
    ax.set_xticks(range(len(strategies)), names, rotation=70, ha="right", fontsize=9)
    bar = fig.colorbar(image, ax=ax, pad=0.02)
    bar.set_label("median time per operation ÷ the fastest's (log scale; 1 = fastest)", fontsize=9)
    fig.suptitle("Overview: how many times slower than the fastest, per workload (lower is better)", fontsize=13, y=1.0)
    ax.set_title("* may lose committed data on power loss (measured or declared); the in-memory floor left out; "
                 "blank: not run; medians only: see report.md for ties"
                 + ("; + first read: the timed upgrade plus the first full read after it" if deferred else ""), fontsize=9, pad=10)
    save(fig, out_dir, "overview", written)


def syncs_chart(rows, out_dir, written):
    """Syncs per operation beside time per operation, for insert (else the first workload that writes and syncs): why
    a strategy is slow (a sync or more per record) or fast and unsafe (none)."""
    if not C.syncs or not any(row.get(C.syncs) for row in rows):
        print("skipped syncs chart: the run counted no syncs (see counters in environment.json)")
        return
    syncs = group([r for r in rows if r.get(C.syncs)], C.syncs, by=C.key)
    times = per_operation(rows)
    classes, colours = durability(rows), backend_colours(rows)
    writing = [w for w in sorted({k[0] for k in syncs}) if w not in READ_ONLY
               and any(median(v) > 0 for k, v in syncs.items() if k[0] == w)]
    if not writing:
        print("skipped syncs chart: no workload that writes synced")
        return
    # One workload, where the transaction policy shows most: insert when the run has it.
    workloads = ["insert"] if "insert" in writing else writing[:1]
    fig, axes = plt.subplots(len(workloads), 1, squeeze=False,
                             figsize=(WIDTH_IN, sum(0.3 * sum(1 for k in syncs if k[0] == w) + 1.2 for w in workloads)),
                             gridspec_kw={"height_ratios": [sum(1 for k in syncs if k[0] == w) + 3 for w in workloads]})
    for ax, workload in zip(axes[:, 0], workloads):
        entries = sorted((median(times[k]) if k in times else float("inf"), median(v), k)
                         for k, v in syncs.items() if k[0] == workload and classes.get(k) != FLOOR)
        bars = ax.barh(range(len(entries)), [e[1] for e in entries], color=[colours[k[1]] for _, _, k in entries],
                       edgecolor="black", linewidth=0.4)
        for bar, (time, count, key) in zip(bars, entries):
            if may_lose(key, classes):
                bar.set_hatch("//")
            ax.annotate(f"{count:.3g} · {seconds_formatter(time)}/op" + ("  (no sync)" if count == 0 else ""),
                        (count, bar.get_y() + bar.get_height() / 2), xytext=(4, 0), textcoords="offset points",
                        va="center", fontsize=8)
        ax.set_yticks(range(len(entries)), [label(k[1], k[2], k[3]) for _, _, k in entries], fontsize=8)
        ax.invert_yaxis()
        ax.set_xscale("symlog", linthresh=0.01)
        ax.set_xlim(0, max(e[1] for e in entries) * 4 + 0.1)
        ax.set_title(f"{workload}: syncs per operation (fastest first; each bar: syncs · median time per operation)",
                     fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        durability_legend(ax, colours, {k[1] for _, _, k in entries})
    axes[-1, 0].set_xlabel("durability barriers (fsync, fdatasync, O_DSYNC writes, msync) per app operation, counted by "
                           "the kernel (symlog scale: 0 is no sync at all)")
    fig.suptitle("What each strategy pays for durability: syncs per operation (lower is cheaper; 0 cannot survive power loss)",
                 fontsize=12, y=1.0)
    fig.tight_layout()
    save(fig, out_dir, "syncs-per-operation", written)


def cold_warm_chart(rows, out_dir, written):
    times = group(rows, C.time, by=C.key[:3])
    # Warm: the same fresh-process launch without eviction when the run has it, else the in-process timeline.
    warm_name = "timeline-warm" if any(k[0] == "timeline-warm" for k in times) else "timeline"
    warm = {k[1:]: median(v) for k, v in times.items() if k[0] == warm_name}
    cold = {k[1:]: median(v) for k, v in times.items() if k[0] == "timeline-cold"}
    both = sorted(set(warm) & set(cold))
    if not both:
        print("skipped cold-vs-warm chart: the run has no timeline-cold rows matching timeline rows")
        return
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 0.45 * len(both) + 1.5))
    positions = range(len(both))
    ax.barh([p - 0.2 for p in positions], [warm[k] for k in both], height=0.4, label=f"warm ({warm_name}: pages cached)")
    ax.barh([p + 0.2 for p in positions], [cold[k] for k in both], height=0.4, label="cold (pages evicted)")
    ax.set_yticks(list(positions), [label(*k) for k in both], fontsize=9)
    ax.set_xscale("log")
    ax.invert_yaxis()
    time_axis(ax.xaxis)
    ax.set_xlabel("median time from spawn to the first screen in memory (log scale)")
    ax.set_title("Timeline: cold launch vs warm (lower is better)")
    ax.legend()
    save(fig, out_dir, "timeline-cold-vs-warm", written)


def latency_charts(rows, out_dir, written):
    first = C.latency[0]
    if not rows or first not in rows[0]:
        print(f"skipped latency chart: the run has no per-operation percentiles ({', '.join(C.latency)})")
        return
    height = 0.8 / len(C.latency)
    for workload in sorted({row[C.workload] for row in rows if row.get(first)}):
        columns = {c: group([r for r in rows if r[C.workload] == workload], c) for c in C.latency}
        keys = sorted(columns[first])
        fig, ax = plt.subplots(figsize=(WIDTH_IN, 0.6 * len(keys) + 1.5))
        for index, column in enumerate(columns):
            offset = (index - (len(columns) - 1) / 2) * height
            ax.barh([i + offset for i in range(len(keys))], [median(columns[column].get(k, [0])) / 1e6 for k in keys],
                    height=height, label=column.replace("_us", ""))
        ax.set_yticks(range(len(keys)), [label(k[1], k[2], k[3]) for k in keys], fontsize=9)
        ax.set_xscale("log")
        ax.invert_yaxis()
        time_axis(ax.xaxis)
        ax.set_xlabel("per-operation latency (log scale)")
        ax.set_title(f"{workload}: latency percentiles (lower is better)")
        ax.legend()
        save(fig, out_dir, f"latency-{workload}", written)


def scaling_charts(rows, out_dir, written):
    times = group(rows, C.time)
    series = defaultdict(list)
    for (workload, backend, variant, size), values in times.items():
        series[(workload, backend, variant)].append((int(size), median(values) / max(int(size), 1)))
    sweeps = {k: sorted(v) for k, v in series.items() if len(v) >= 2}
    if not sweeps:
        print("skipped scaling chart: no row has more than one size")
        return
    for workload in sorted({k[0] for k in sweeps}):
        fig, ax = plt.subplots(figsize=(WIDTH_IN, 7))
        for key, points in sorted(sweeps.items()):
            if key[0] == workload:
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label(key[1], key[2]))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("size (items, log scale)")
        time_axis(ax.yaxis)
        ax.set_ylabel("median time per item (log scale)")
        ax.set_title(f"{workload}: cost per item as the store grows (lower is better)")
        ax.legend(fontsize=8)
        ax.grid(which="both", alpha=0.3)
        save(fig, out_dir, f"scaling-{workload}", written)


def ui_chart(rows, out_dir, written):
    """sync-while-reading from the user's side: the UI thread's screen loads (p99) while the sync runs."""
    p99 = [c for c in C.latency if "99" in c and "999" not in c]
    if not p99:
        return
    values = group([r for r in rows if r[C.workload] == "sync-while-reading"], p99[0])
    classes, colours = durability(rows), backend_colours(rows)
    entries = sorted((median(v), k) for k, v in values.items() if classes.get(k) != FLOOR)
    if not entries:
        print("skipped sync-while-reading UI chart: no sync-while-reading rows with latencies")
        return
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 0.35 * len(entries) + 1.8))
    bars = ax.barh(range(len(entries)), [m / 1e6 for m, _ in entries], color=[colours[k[1]] for _, k in entries],
                   edgecolor="black", linewidth=0.4)
    for bar, (_, key) in zip(bars, entries):
        if may_lose(key, classes):
            bar.set_hatch("//")
    ax.set_yticks(range(len(entries)), [label(k[1], k[2], k[3]) for _, k in entries], fontsize=9)
    ax.set_xscale("log")
    ax.invert_yaxis()
    time_axis(ax.xaxis)
    ax.axvline(1 / 60, color="red", linestyle=":", linewidth=1)
    ax.text(1 / 60, -0.6, " one 60 Hz frame", color="red", fontsize=8, va="bottom")
    ax.set_xlabel("99th percentile of the UI thread's screen loads while the sync runs (log scale)")
    ax.set_title("sync-while-reading: what the user sees — UI delay during a sync (lower is better)")
    ax.grid(axis="x", which="both", alpha=0.3)
    durability_legend(ax, colours, {k[1] for _, k in entries})
    save(fig, out_dir, "sync-while-reading-ui", written)


def size_chart(rows, out_dir, written):
    """The store's size on disk after inserting the same articles into every backend (insert, or the workload
    with the most rows when the run has no insert)."""
    sizes = group(rows, C.store)
    workloads = sorted({k[0] for k in sizes})
    if not workloads:
        print("skipped store-size chart: no store_bytes values")
        return
    workload = "insert" if "insert" in workloads else max(workloads, key=lambda w: sum(1 for k in sizes if k[0] == w))
    classes, colours = durability(rows), backend_colours(rows)
    entries = sorted((median(v), k) for k, v in sizes.items() if k[0] == workload and classes.get(k) != FLOOR)
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 0.35 * len(entries) + 1.8))
    ax.barh(range(len(entries)), [max(m, 1) for m, _ in entries], color=[colours[k[1]] for _, k in entries],
            edgecolor="black", linewidth=0.4)
    ax.set_yticks(range(len(entries)), [label(k[1], k[2], k[3]) for _, k in entries], fontsize=9)
    ax.set_xscale("log")
    ax.set_xlim(left=max(1024, min(m for m, _ in entries) / 2))
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(EngFormatter(unit="B"))
    ax.set_xlabel(f"apparent size of all the store's files after {workload} (log scale)")
    ax.set_title(f"Store size on disk after {workload} (lower is better); every workload's sizes are in report.md")
    ax.grid(axis="x", which="both", alpha=0.3)
    save(fig, out_dir, "store-size", written)


def aging_chart(run_dir, rows, out_dir, written):
    """rounds.csv (the aging workload): allocated size and launch-list time after each round of churn, a line per
    strategy (median over repetitions), the compacted store as the last point."""
    path = os.path.join(run_dir, "rounds.csv")
    if not os.path.exists(path):
        print("skipped aging chart: no rounds.csv (the run has no aging rows)")
        return
    with open(path, newline="", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    series = defaultdict(lambda: defaultdict(lambda: ([], [])))
    phases = {}
    for row in table:
        key = (row["backend"], row["variant"], row["parameters"])
        sizes, times = series[key][int(row["round"])]
        sizes.append(float(row["store_alloc_bytes"]))
        times.append(float(row["list_s"]))
        phases[int(row["round"])] = row["phase"]
    colours = backend_colours(rows)
    styles = ["-", "--", ":", "-."]
    fig, (size_ax, time_ax) = plt.subplots(1, 2, figsize=(WIDTH_IN, 5.5))
    seen = defaultdict(int)
    for key in sorted(series):
        backend, variant, _ = key
        rounds = sorted(series[key])
        churned = [r for r in rounds if phases[r] != "compacted"]
        compacted = [r for r in rounds if phases[r] == "compacted"]
        style = styles[seen[backend] % len(styles)]
        seen[backend] += 1
        colour = colours.get(backend, "grey")
        for ax, index in ((size_ax, 0), (time_ax, 1)):
            ys = [median(series[key][r][index]) for r in churned]
            ax.plot(churned, ys, style, color=colour, marker="o", markersize=3, label=label(backend, variant))
            if compacted:
                r = compacted[0]
                ax.plot([churned[-1], r], [ys[-1], median(series[key][r][index])], ":", color=colour)
                ax.plot([r], [median(series[key][r][index])], marker="v", markersize=8, color=colour)
    size_ax.yaxis.set_major_formatter(EngFormatter(unit="B"))
    size_ax.set_ylim(bottom=0)
    size_ax.set_xlabel("round of churn (0 = freshly loaded, ▼ = after compaction)")
    size_ax.set_ylabel("allocated bytes of the store's files")
    size_ax.set_title("Store size as it ages (lower is better)")
    time_ax.set_yscale("log")
    time_axis(time_ax.yaxis)
    time_ax.set_xlabel("round of churn (0 = freshly loaded, ▼ = after compaction)")
    time_ax.set_ylabel("one launch-list read on the open store")
    time_ax.set_title("Launch list as it ages (lower is better)")
    from matplotlib.ticker import MaxNLocator
    for ax in (size_ax, time_ax):
        ax.grid(alpha=0.3)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    handles, labels = size_ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=2, fontsize=8, bbox_to_anchor=(0.5, 0.0))
    save(fig, out_dir, "aging", written)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", help="a storebench run directory (with samples.csv)")
    parser.add_argument("--columns", required=True, help="the output of `storebench columns --json`")
    parser.add_argument("--list", help="the output of `storebench list --json` (which workloads write nothing)")
    args = parser.parse_args()
    global C, LOOK_ALPHA
    C = Columns(args.columns)
    if args.list:
        with open(args.list, encoding="utf-8") as handle:
            listing = json.load(handle)
        READ_ONLY.update(w["name"] for w in listing.get("workloads", []) if w.get("reads_only") or not w.get("needs"))
    classes_path = os.path.join(args.run_dir, "classes.csv")
    if os.path.exists(classes_path):
        with open(classes_path, newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                CLASSES[(row["backend"], row["variant"])] = (row["durability"], row["measured"])
                LABELS[(row["backend"], row["variant"])] = row["label"]
    environment_path = os.path.join(args.run_dir, "environment.json")
    if os.path.exists(environment_path):
        with open(environment_path, encoding="utf-8") as handle:
            values = json.load(handle).get("repetition_policy_values") or {}
        LOOK_ALPHA = values.get("look_alpha", LOOK_ALPHA)
    rows = read_samples(args.run_dir)
    out_dir = os.path.join(args.run_dir, "charts")
    os.makedirs(out_dir, exist_ok=True)
    written = []
    overview_chart(rows, out_dir, written)
    workload_charts(rows, out_dir, written)
    syncs_chart(rows, out_dir, written)
    cold_warm_chart(rows, out_dir, written)
    latency_charts(rows, out_dir, written)
    scaling_charts(rows, out_dir, written)
    ui_chart(rows, out_dir, written)
    size_chart(rows, out_dir, written)
    aging_chart(args.run_dir, rows, out_dir, written)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
