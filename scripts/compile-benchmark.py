#!/usr/bin/env python3
"""The compile-time benchmark of docs/compile.md.

    scripts/compile-benchmark.py [--runs 5] [--targets sm_90a,host] [TASK ...]

Runs `kbench compile tasks/<task> --target T -o TMP --no-cache --json` RUNS
times per task and target and prints a Markdown table of the medians: the
stage times from the JSON's `times_ms`, "to PTX" (parse through lower) and
the whole command measured around the process. It also prints the load
average, since the machine is often shared with a build.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ["parse", "schedule", "verify", "lower", "assemble"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tasks", nargs="*")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--targets", default="sm_90a,host")
    parser.add_argument("--kbench", default=os.path.join(
        os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), "bin", "kbench"))
    args = parser.parse_args()
    tasks = args.tasks or sorted(
        t for t in os.listdir(os.path.join(ROOT, "tasks"))
        if os.path.isfile(os.path.join(ROOT, "tasks", t, "kernel.mlir")))

    print(f"load average before: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print("| task | target | " + " | ".join(STAGES) + " | to PTX (parse..lower) | whole command |")
    print("|---|---|" + "---|" * (len(STAGES) + 2))
    with tempfile.TemporaryDirectory() as tmp:
        for task in tasks:
            for target in args.targets.split(","):
                stages = {s: [] for s in STAGES}
                walls = []
                for run in range(args.runs):
                    out = os.path.join(tmp, f"{task}-{target}-{run}")
                    t0 = time.monotonic()
                    result = subprocess.run(
                        [args.kbench, "compile", os.path.join(ROOT, "tasks", task),
                         "--target", target, "-o", out, "--no-cache", "--json"],
                        capture_output=True, text=True)
                    walls.append((time.monotonic() - t0) * 1e3)
                    if result.returncode != 0:
                        sys.exit(f"compile-benchmark: {task} ({target}) failed:\n"
                                 f"{result.stdout}{result.stderr}")
                    times = json.loads(result.stdout)["times_ms"]
                    for s in STAGES:
                        stages[s].append(times.get(s, 0.0))
                med = {s: statistics.median(v) for s, v in stages.items()}
                to_ptx = med["parse"] + med["schedule"] + med["verify"] + med["lower"]
                print(f"| {task} | {target} | "
                      + " | ".join(f"{med[s]:.1f}" for s in STAGES)
                      + f" | {to_ptx:.0f} ms | {statistics.median(walls):.0f} ms |")
    print(f"load average after: {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
