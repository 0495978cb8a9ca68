#!/usr/bin/env python3
"""A stand-in for the GPU side of the round trip, for tests only.

Usage: fake-gpu-eval.py ROUND_DIR. Writes, per bundle of ROUND_DIR/batch.json,
a kbench-report/1 shaped report.json with a timing entry whose medians are made
up from the bundle's params (candidate 100 / num_warps us, eager 100 us,
torch.compile 50 us, floor 25 us), then out/batch.jsonl. These are not
measurements; they let the tests check how the search reads timed reports.
"""
import json
import os
import sys

round_dir = sys.argv[1]
batch = json.load(open(os.path.join(round_dir, "batch.json")))
out = os.path.join(round_dir, "out")
os.makedirs(out, exist_ok=True)
lines = []
for bundle in batch["bundles"]:
    manifest = json.load(open(os.path.join(bundle["dir"], "manifest.json")))
    warps = manifest["kernels"][0]["block"][0] // 32
    candidate = 100.0 / warps
    report = {
        "format": "kbench-report/1",
        "verdict": "pass",
        "exit_code": 0,
        "timing": [{
            "shape_id": {"set": "tune", "index": 0},
            "contestants": {
                "candidate": {"median_us": candidate},
                "eager_tf32_off": {"median_us": 100.0},
                "torch_compile": {"median_us": 50.0},
            },
            "floor": {"floor_us": 25.0,
                      "percent_of_floor": {"candidate": 100.0 * 25.0 / candidate}},
        }],
    }
    os.makedirs(os.path.join(out, bundle["id"]), exist_ok=True)
    json.dump(report, open(os.path.join(out, bundle["id"], "report.json"), "w"))
    lines.append(json.dumps({"id": bundle["id"], "status": "ok", "exit": 0}))
open(os.path.join(out, "batch.jsonl"), "w").write("\n".join(lines) + "\n")
