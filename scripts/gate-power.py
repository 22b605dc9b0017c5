#!/usr/bin/env python3
"""How small a regression each CI gate catches, measured: the engine of scripts/gate-power.

For each of JOBS jobs, on scenarios/power.yaml (a read-only row, sqlite lookups, and a writing row, sqlite inserts
in autocommit), with the release binary:

- the count gates (instructions, allocations, syncs per operation; `storebench compare` with the count gate's
  options): two plain runs (`run --count all`; the second is the A/A partner), then per planted size one run with
  the size planted through a test seam — instructions with STOREBENCH_TEST_EXTRA_WORK's loop (calibrated on the
  first plain run's count and the loop's measured cost an iteration), allocations with its fractional
  allocations, syncs with STOREBENCH_TEST_EXTRA_SYNC's rate — each judged against the first plain run;
- the time gate (`storebench ab`, paired rounds, with its confirm pass): one A/A job (the same binary on both sides)
  and one job per planted size (STOREBENCH_TEST_SLOWDOWN on both rows of the current side).

A row is *detected* when its verdict is `regression`; an A/A row that is called a regression or an improvement is
a *false alarm*. Writes OUT/jobs.csv (every judged row of every job, with the change the seam actually made where
it can be measured), OUT/power.csv (per gate, row and size: jobs, detected, false alarms, minutes per job) and
OUT/power.json (the settings, the machine, the commit). docs/COMPARING.md's power table is rendered from them.
"""

import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import time

SIZES = [0.01, 0.02, 0.05, 0.10, 0.20]
ROWS = {"lookup": "read-only", "insert": "writing"}
GATES = ["instructions", "allocations", "syncs", "time"]
METRIC = {"instructions": "instructions_per_op", "allocations": "allocations_per_op", "syncs": "syncs_per_op",
          "time": "wall_s"}
DEADLINE = 3600  # seconds any one command may take


def run(command, env=None, log=None):
    """Runs a command to its end within the deadline; returns (exit status, seconds)."""
    started = time.monotonic()
    environment = dict(os.environ, **(env or {}))
    with open(log or os.devnull, "a") as sink:
        status = subprocess.run(command, env=environment, stdout=sink, stderr=subprocess.STDOUT,
                                timeout=DEADLINE).returncode
    return status, time.monotonic() - started


def counted(folder):
    """The counted rows' per-operation counts and the ok rows' median syncs per op, by workload."""
    values = {}
    syncs = {}
    with open(os.path.join(folder, "samples.csv"), newline="") as handle:
        for row in csv.DictReader(handle):
            workload = row["workload"]
            if row["status"] == "counted":
                values[workload] = {key: float(row[key]) for key in ("instructions_per_op", "allocations_per_op")
                                    if row[key]}
            elif row["status"] == "ok" and row["syncs_per_op"]:
                syncs.setdefault(workload, []).append(float(row["syncs_per_op"]))
    for workload, list_ in syncs.items():
        values.setdefault(workload, {})["syncs_per_op"] = sorted(list_)[len(list_) // 2]
    return values


def verdicts(binary, baseline, current, metric, log, extra=()):
    """compare's verdict per workload on one metric (JSON), and the seconds it took."""
    out = current + f".{metric}.json"
    started = time.monotonic()
    with open(out, "w") as handle, open(log, "a") as sink:
        subprocess.run([binary, "compare", baseline, current, "--metric", metric, "--json", "--allow-underpowered",
                        *extra], stdout=handle, stderr=sink, timeout=DEADLINE)
    seconds = time.monotonic() - started
    with open(out) as handle:
        text = handle.read()
    if not text.strip():
        sys.exit(f"gate-power: compare {baseline} {current} --metric {metric} printed nothing (see {log})")
    document = json.loads(text)
    found = {f["workload"]: (f["verdict"], f["ratio"]) for f in document["findings"] if f["metric"] == metric}
    return found, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=20, help="ab rounds (and confirm rounds) of the time gate")
    parser.add_argument("--scenario", default="scenarios/power.yaml")
    parser.add_argument("--workdir", default="/var/tmp")
    parser.add_argument("--out", required=True)
    parser.add_argument("--gates", default=",".join(GATES))
    args = parser.parse_args()
    gates = args.gates.split(",")
    if not set(gates) <= set(GATES) or not 1 <= args.jobs <= 100 or not 2 <= args.rounds <= 1000:
        parser.error(f"--gates from {','.join(GATES)}; --jobs in 1...100; --rounds in 2...1000")
    out = os.path.abspath(args.out)
    if os.path.exists(out) and os.listdir(out):
        parser.error(f"{out} is not empty: choose a new folder")
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "work")
    log = os.path.join(work, "gate-power.log")
    os.makedirs(work)
    binary = os.path.abspath(args.binary)
    jobs = []  # job, gate, row, kind, planted, change, verdict, seconds
    count_gates = [gate for gate in gates if gate != "time"]
    per_iteration = None

    def record(job, gate, planted, found, change, seconds):
        for workload, kind in ROWS.items():
            verdict, ratio = found.get(workload, ("not judged", None))
            if gate == "syncs" and kind == "read-only":
                verdict = "no syncs"  # nothing to add a share of: the sync gate cannot see a read-only row
            jobs.append({"job": job, "gate": gate, "row": f"sqlite {workload}", "kind": kind,
                         "planted": planted, "change": "" if change.get(workload) is None
                         else f"{change[workload]:.4f}",
                         "ratio": "" if ratio is None else f"{ratio:.4f}", "verdict": verdict,
                         "seconds": f"{seconds:.1f}"})
            print(f"job {job} {gate} planted {planted:.2f} sqlite {workload}: {verdict}"
                  + (f" ({ratio:.4f}×)" if ratio else ""), file=sys.stderr, flush=True)

    for job in range(1, args.jobs + 1):
        folder = os.path.join(work, f"job{job}")
        os.makedirs(folder)
        if count_gates:
            plain = []
            for name in ("plain", "aa"):
                path = os.path.join(folder, name)
                status, seconds = run([binary, "run", "--scenario", args.scenario, "--workdir", args.workdir,
                                       "--count", "all", "--out", path], log=log)
                if status > 1:
                    sys.exit(f"gate-power: the plain run exited {status} (see {log})")
                plain.append((path, seconds))
            base = counted(plain[0][0])
            if "instructions" in count_gates and per_iteration is None:
                # What one iteration of the planted loop costs in this binary (about 6 instructions; the compiler
                # decides): measured once, on a probe run planting about 10%, so that each size is what it says.
                probe = os.path.join(folder, "instructions-probe")
                iterations = {w: math.ceil(0.1 * base[w]["instructions_per_op"] / 6) for w in ROWS}
                status, _ = run([binary, "run", "--scenario", args.scenario, "--workdir", args.workdir,
                                 "--count", "instructions", "--out", probe],
                                env={"STOREBENCH_TEST_EXTRA_WORK": ",".join(f"sqlite/{w}:{n}"
                                                                             for w, n in iterations.items())},
                                log=log)
                if status > 1:
                    sys.exit(f"gate-power: the probe run exited {status} (see {log})")
                now = counted(probe)
                per_iteration = sum((now[w]["instructions_per_op"] - base[w]["instructions_per_op"]) / iterations[w]
                                    for w in ROWS) / len(ROWS)
                print(f"the planted loop costs {per_iteration:.3f} instructions an iteration", file=sys.stderr)
            for gate in count_gates:
                metric = METRIC[gate]
                found, judged = verdicts(binary, plain[0][0], plain[1][0], metric, log, ("--require-counts",))
                record(job, gate, 0.0, found, {}, plain[1][1] + judged)
                for size in SIZES:
                    path = os.path.join(folder, f"{gate}-{size:.2f}")
                    env, count = {}, []
                    if gate == "instructions":
                        env["STOREBENCH_TEST_EXTRA_WORK"] = ",".join(
                            f"sqlite/{w}:{math.ceil(size * base[w]['instructions_per_op'] / per_iteration)}"
                            for w in ROWS)
                        count = ["--count", "instructions"]
                    elif gate == "allocations":
                        env["STOREBENCH_TEST_EXTRA_WORK"] = ",".join(
                            f"sqlite/{w}:0:{size * base[w]['allocations_per_op']:.6f}" for w in ROWS)
                        count = ["--count", "allocations"]
                    else:
                        # Only the writing row syncs: a read-only row has no sync to add a share of.
                        env["STOREBENCH_TEST_EXTRA_SYNC"] = f"sqlite/insert:{size * base['insert']['syncs_per_op']:.6f}"
                    status, seconds = run([binary, "run", "--scenario", args.scenario, "--workdir", args.workdir,
                                           *count, "--out", path], env=env, log=log)
                    if status > 1:
                        sys.exit(f"gate-power: the {gate} run at {size:.0%} exited {status} (see {log})")
                    now = counted(path)
                    change = {w: now[w][metric] / base[w][metric] - 1 for w in ROWS
                              if base[w].get(metric) and now.get(w, {}).get(metric) is not None}
                    found, judged = verdicts(binary, plain[0][0], path, metric, log, ("--require-counts",))
                    record(job, gate, size, found, change, seconds + judged)
        if "time" in gates:
            for size in [0.0] + SIZES:
                current = binary
                if size > 0:
                    current = os.path.join(folder, f"slowed-{size:.2f}.sh")
                    with open(current, "w") as handle:
                        handle.write("#!/bin/sh\nexport STOREBENCH_TEST_SLOWDOWN="
                                     f"sqlite/lookup:{size},sqlite/insert:{size}\nexec '{binary}' \"$@\"\n")
                    os.chmod(current, 0o755)
                path = os.path.join(folder, f"ab-{size:.2f}")
                started = time.monotonic()
                with open(path + ".json", "w") as handle, open(log, "a") as sink:
                    status = subprocess.run(
                        [binary, "ab", "--baseline-binary", binary, "--current-binary", current, "--scenario",
                         args.scenario, "--rounds", str(args.rounds), "--confirm-rounds", str(args.rounds),
                         "--workdir", args.workdir, "--out", path, "--metric", "wall_s", "--json",
                         "--allow-underpowered"], stdout=handle, stderr=sink, timeout=DEADLINE).returncode
                seconds = time.monotonic() - started
                if status not in (0, 2):
                    sys.exit(f"gate-power: ab at {size:.0%} exited {status} (see {log})")
                with open(path + ".json") as handle:
                    document = json.load(handle)
                found = {f["workload"]: (f["verdict"], f["ratio"]) for f in document["findings"]
                         if f["metric"] == "wall_s"}
                record(job, "time", size, found, {w: size for w in ROWS} if size else {}, seconds)

    with open(os.path.join(out, "jobs.csv"), "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(jobs[0].keys()), lineterminator="\n")
        writer.writeheader()
        writer.writerows(jobs)
    summary = []
    for gate in gates:
        for workload, kind in ROWS.items():
            for size in [0.0] + SIZES:
                cell = [j for j in jobs if j["gate"] == gate and j["row"] == f"sqlite {workload}"
                        and j["planted"] == size]
                judged = [j for j in cell if j["verdict"] not in ("not judged", "no syncs")]
                detected = sum(j["verdict"] == "regression" for j in judged) if size else ""
                false = sum(j["verdict"] in ("regression", "improvement") for j in judged) if not size else ""
                summary.append({"gate": gate, "row": f"sqlite {workload}", "kind": kind, "planted": f"{size:.2f}",
                                "jobs": len(judged), "detected": detected, "false_alarms": false,
                                "minutes_per_job": f"{sum(float(j['seconds']) for j in cell) / max(len(cell), 1) / 60:.2f}"})
    with open(os.path.join(out, "power.csv"), "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(summary[0].keys()), lineterminator="\n")
        writer.writeheader()
        writer.writerows(summary)
    environment = {}
    first = os.path.join(work, "job1", "plain", "environment.json")
    if os.path.exists(first):
        with open(first) as handle:
            environment = json.load(handle)
    with open(os.path.join(out, "power.json"), "w") as handle:
        json.dump({"jobs": args.jobs, "rounds": args.rounds, "instructions_per_iteration": per_iteration,
                   "scenario_file": args.scenario, "gates": gates,
                   "sizes": SIZES, "date": time.strftime("%Y-%m-%d", time.gmtime()),
                   "git_commit": environment.get("git_commit"), "host": environment.get("host"),
                   "cores": environment.get("cores"), "cpu_model": environment.get("cpu_model")},
                  handle, indent=2, sort_keys=True)
        handle.write("\n")
    shutil.rmtree(work, ignore_errors=True)
    print(f"gate-power: {out}/power.csv", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
