#!/usr/bin/env python3
#===- scripts/search-live-curves.py - Live search curves from archives -----===#
#
#   scripts/search-live-curves.py -o docs/search-live-NAME.json --label TEXT
#       --gpu TEXT --date YYYY-MM-DD [--space TEXT]
#       --task TASK ARCHIVE DEFAULT_US [--task ...]
#
# Reads the archives of live searches (scripts/search-live.sh: every
# candidate measured on a GPU, in rounds) and writes, per task, the screen
# median at the tune shape of every measured candidate in the order the
# search measured them, and the best so far after each: the search curve
# the results page charts (scripts/results.py, docs/charts/search-live.svg)
# against DEFAULT_US, the task's default schedule under the full protocol
# (docs/results.md says which run). Unlike scripts/search-curves.py nothing
# is replayed: these are the measurements the search itself was steered by.
# Exit status 1 on an archive that cannot be read or holds no timed
# candidate, 2 on bad usage.
#===----------------------------------------------------------------------===#
import argparse
import json
import sqlite3
import statistics
import sys


def fail(message, code=1):
    print("search-live-curves: " + message, file=sys.stderr)
    sys.exit(code)


def read_task(task, archive, default_us):
    try:
        db = sqlite3.connect("file:%s?mode=ro" % archive, uri=True)
        rows = db.execute(
            "SELECT round, idx, verdict, shapes FROM candidates "
            "WHERE verdict IS NOT NULL ORDER BY round, idx").fetchall()
        run = db.execute("SELECT start FROM run").fetchone()
    except sqlite3.Error as e:
        fail("%s: %s is not a search archive (%s)" % (task, archive, e))
    measured, compiled_us, failed = [], [], 0
    for rnd, idx, verdict, shapes in rows:
        if verdict != "pass":
            failed += 1
            measured.append(None)
            continue
        tune = [s for s in json.loads(shapes or "[]") if s.get("set") == "tune"]
        if not tune:
            fail("%s: candidate c%d-%d of %s has no tune-shape timing" % (task, rnd, idx, archive))
        measured.append(round(tune[0]["candidate_us"], 2))
        if tune[0].get("torch_compile_us"):
            compiled_us.append(tune[0]["torch_compile_us"])
    if not any(measured):
        fail("%s: %s holds no passing timed candidate" % (task, archive))
    curve, best = [], None
    for us in measured:
        if us is not None and (best is None or us < best):
            best = us
        curve.append(best)
    return {"default_us": default_us, "start": run[0] if run else None,
            "torch_compile_us": round(statistics.median(compiled_us), 2) if compiled_us else None,
            "failed": failed, "measured_us": measured, "curve_us": curve}


def main(argv):
    p = argparse.ArgumentParser(description="Live search curves from search archives.")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--label", required=True, help="the series name on the chart")
    p.add_argument("--gpu", required=True)
    p.add_argument("--date", required=True)
    p.add_argument("--space", default="", help="which space the searches walked, in words")
    p.add_argument("--task", nargs=3, action="append", required=True,
                   metavar=("TASK", "ARCHIVE", "DEFAULT_US"))
    args = p.parse_args(argv)
    tasks = {}
    for task, archive, default in args.task:
        try:
            default_us = float(default)
        except ValueError:
            fail("%s: DEFAULT_US '%s' is not a number" % (task, default), 2)
        tasks[task] = read_task(task, archive, default_us)
    doc = {"label": args.label, "gpu": args.gpu, "date": args.date, "space": args.space,
           "tasks": tasks}
    with open(args.output, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    for task, entry in tasks.items():
        print("search-live-curves: %s: %d measured, best %.1f us (default %.1f)" %
              (task, len(entry["measured_us"]), entry["curve_us"][-1], entry["default_us"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
