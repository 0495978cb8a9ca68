#!/usr/bin/env python3
# Usage: compare-package-keys.py GPU_AOTI_PACKAGE_PY [--tasks-dir DIR] REPORT.json...
# The package names kbench-run looked for (report.json
# "baselines.torch_compile") against those scripts/gpu-aoti-package.py --list
# computes for the same tasks and torch version: the two must agree, or the
# runner would never find a package the script built. Prints one line per
# package and exits 1 on the first disagreement.
import json
import subprocess
import sys

script, reports = sys.argv[1], sys.argv[2:]
tasks_dir = []
if reports[:1] == ["--tasks-dir"]:
    tasks_dir, reports = ["--tasks-dir", reports[1]], reports[2:]
status = 0
for path in reports:
    report = json.load(open(path))
    plan = report["baselines"]["torch_compile"]
    task = report["task"]["name"]
    listed = json.loads(subprocess.check_output(
        [sys.executable, script, "--list", "--json", "--tasks", task,
         "--torch-version", plan["torch"]] + tasks_dir))
    runner = [(s["shape"], s["package"].split("/")[-1]) for s in plan["shapes"]]
    script_side = [(r["shape"], r["package"]) for r in listed]
    if runner != script_side:
        print("DISAGREE %s: runner %s, script %s" % (task, runner, script_side))
        status = 1
        continue
    for shape, package in runner:
        print("agree %s %s %s" % (task, shape, package))
sys.exit(status)
