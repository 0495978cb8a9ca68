#!/usr/bin/env python3
"""A stand-in for the GPU side of the round trip, for tests only.

Usage: fake-gpu-eval.py ROUND_DIR. Writes, per bundle of ROUND_DIR/batch.json,
a kbench-report/1 shaped report.json with made-up medians from the bundle's
warps w, then out/batch.jsonl. At each tune shape: candidate 100 / w us,
eager 100 us, torch.compile 50 us, floor 25 us. When the list checks the
"heldout" set (the search's derived shapes), also at each of those shapes of
the round's task.json: candidate 5 + 5 w us, eager 10 us. Under the "full"
protocol every candidate median is 1.25 times larger. These are not
measurements; they let the tests check how the search reads timed reports.
"""
import json
import os
import sys

round_dir = sys.argv[1]
batch = json.load(open(os.path.join(round_dir, "batch.json")))
task = json.load(open(os.path.join(batch["task_dir"], "task.json")))
slower = 1.25 if batch.get("timing") == "full" else 1.0
out = os.path.join(round_dir, "out")
os.makedirs(out, exist_ok=True)


def shape_name(dims):
    return " ".join(f"{k}={v}" for k, v in dims.items())


lines = []
for bundle in batch["bundles"]:
    manifest = json.load(open(os.path.join(bundle["dir"], "manifest.json")))
    warps = manifest["kernels"][0]["block"][0] // 32
    timing = []
    for i, dims in enumerate(task["shapes"]["tune"]):
        candidate = 100.0 / warps * slower
        timing.append({
            "shape_id": {"set": "tune", "index": i, "dims": dims,
                         "shape": shape_name(dims)},
            "contestants": {
                "candidate": {"median_us": candidate},
                "eager_tf32_off": {"median_us": 100.0},
                "torch_compile": {"median_us": 50.0},
            },
            "floor": {"floor_us": 25.0,
                      "percent_of_floor": {"candidate": 100.0 * 25.0 / candidate}},
        })
    if "heldout" in batch.get("shapes", []):
        last_dim = list(task["shapes"]["tune"][0])[-1]
        long_rows = task["shapes"]["tune"][0][last_dim]
        for i, dims in enumerate(task["shapes"]["heldout"]):
            if dims[last_dim] == long_rows:
                candidate, eager = 25.0 / warps, 25.0
            else:
                candidate, eager = 5.0 + 5.0 * warps, 10.0
            timing.append({
                "shape_id": {"set": "heldout", "index": i, "dims": dims,
                             "shape": shape_name(dims)},
                "contestants": {
                    "candidate": {"median_us": candidate * slower},
                    "eager_tf32_off": {"median_us": eager},
                },
            })
    report = {"format": "kbench-report/1", "verdict": "pass", "exit_code": 0,
              "timing": timing}
    os.makedirs(os.path.join(out, bundle["id"]), exist_ok=True)
    json.dump(report, open(os.path.join(out, bundle["id"], "report.json"), "w"))
    lines.append(json.dumps({"id": bundle["id"], "status": "ok", "exit": 0}))
open(os.path.join(out, "batch.jsonl"), "w").write("\n".join(lines) + "\n")
