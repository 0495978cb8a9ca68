#!/usr/bin/env python3
#===- scripts/search-replay.py - Evaluate a search round from measured reports ===#
#
#   kbench search TASK --target sm_90a --rounds-dir DIR \
#       --evaluator-cmd 'scripts/search-replay.py --archive GRID.db'
#
# An evaluator for kbench search (docs/search.md, "Evaluators") that measures
# nothing: every bundle of the round is answered with the report that a GPU
# run already produced for a bundle with the same IR hash, looked up in the
# archive of a grid search (`--strategy grid`) whose rounds were evaluated on
# the GPU. The scheduled IR hash covers the kernel after its schedule, the
# target and the compiler version, so an identical hash means the identical
# kernel. A bundle the archive has no report for is answered "missing".
#
# It exists to compare search strategies on the same measurements: the
# search curves of docs/search.md replay one grid measurement per task under
# several seeds, which a GPU budget could not measure afresh. It says so in
# every line it writes ("replayed_from").
#===----------------------------------------------------------------------===#
import argparse
import json
import os
import shutil
import sqlite3
import sys


def main():
    parser = argparse.ArgumentParser(
        description="Answer a kbench search round with reports measured earlier (same IR hash).")
    parser.add_argument("--archive", required=True,
                        help="a grid search's archive whose reports were measured")
    parser.add_argument("round_dir", help="the round folder kbench search wrote")
    args = parser.parse_args()

    if not os.path.isfile(args.archive):
        sys.exit(f"search-replay: no archive {args.archive}")
    db = sqlite3.connect(f"file:{args.archive}?mode=ro", uri=True)
    reports = {}
    bases, base = [], os.path.dirname(os.path.abspath(args.archive))
    while base not in bases:
        bases.append(base)
        base = os.path.dirname(base)
    for ir_hash, report in db.execute(
            "SELECT ir_hash, report FROM candidates WHERE report IS NOT NULL "
            "AND eval_status = 'ok'"):
        # Report paths are as the grid search wrote them: absolute, or
        # relative to the folder it ran in (also tried: the archive's folder
        # and each folder above it).
        for path in [report] + [os.path.join(base, report) for base in bases]:
            if os.path.isfile(path):
                reports.setdefault(ir_hash, os.path.abspath(path))
                break

    batch_file = os.path.join(args.round_dir, "batch.json")
    try:
        batch = json.load(open(batch_file))
    except (OSError, ValueError) as e:
        sys.exit(f"search-replay: {batch_file}: {e}")
    out = os.path.join(args.round_dir, "out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    lines = []
    for bundle in batch["bundles"]:
        bundle_id = bundle["id"]
        manifest = os.path.join(args.round_dir, "bundles", bundle_id, "manifest.json")
        ir_hash = json.load(open(manifest)).get("ir_hash", "")
        source = reports.get(ir_hash)
        line = {"id": bundle_id, "replayed_from": args.archive}
        if source:
            os.makedirs(os.path.join(out, bundle_id))
            shutil.copy(source, os.path.join(out, bundle_id, "report.json"))
            verdict = json.load(open(source)).get("verdict", "")
            line.update({"status": "ok" if verdict == "pass" else "fail",
                         "exit": 0 if verdict == "pass" else 1, "verdict": verdict})
        else:
            line.update({"status": "missing", "exit": 2,
                         "detail": f"no measured report for ir_hash {ir_hash}"})
        lines.append(line)
    with open(os.path.join(out, "batch.jsonl"), "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"search-replay: {len(lines)} bundles, "
          f"{sum(1 for l in lines if l['status'] == 'missing')} missing")


if __name__ == "__main__":
    main()
