#!/usr/bin/env python3
#===- scripts/search-curves.py - Search against grid, on one GPU measurement ===#
#
#   scripts/search-curves.py --grid-dir search-grid [--budget 128] [--seeds 5]
#                            [--start random|naive] [--tasks a,b]
#                            [-o docs/search-curves.json]
#   scripts/search-curves.py --table docs/search-curves.json   (the tables again)
#
# For every task with a measured grid archive (GRID_DIR/<task>.db, written by
# `kbench search --strategy grid` and evaluated on the GPU), replays
# `kbench search` (MAP-Elites) under several seeds with
# scripts/search-replay.py as its evaluator, so every candidate it proposes is
# answered by the report the GPU produced for the identical kernel (scored at
# the tune shape, --score tune, which is all a grid's screen reports time;
# no --confirm, which would need new measurements). Then
# compares, in measurements spent (candidates that reached the runner):
#   - the grid in its enumeration order, and each seed of the search;
#   - when each first reaches >= 95% of the speed of the task's default
#     schedule (schedules/default.mlir, read here only to score: the search
#     never sees it), and within 1% of the grid's best;
#   - the best point's speed against torch eager and torch.compile.
# Writes the curves and the summary as JSON (-o) and prints a Markdown table.
# Needs build/bin/kbench (the search) and sqlite3 from Python's stdlib.
#===----------------------------------------------------------------------===#
import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_knobs(task_dir):
    """The knob values of the task's default schedule (for scoring only)."""
    text = open(os.path.join(task_dir, "schedules", "default.mlir")).read()
    knobs = {}
    m = re.search(r"set_num_warps %\w+ (\d+)", text)
    if m:
        knobs["num_warps"] = int(m.group(1))
    m = re.search(r"vector_width %\w+ (\d+)", text)
    if m:
        knobs["vector_width"] = int(m.group(1))
    m = re.search(r"set_params %\w+ \{([^}]*)\}", text)
    if m:
        for name, value in re.findall(r"(\w+) = (\d+)", m.group(1)):
            knobs[name] = int(value)
    return knobs


def measured(db_path):
    """Measured candidates in the order the search evaluated them."""
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT round, idx, knobs, verdict, candidate_us, eager_us, torch_compile_us "
        "FROM candidates WHERE eval_status IS NOT NULL ORDER BY round, idx").fetchall()
    return [{"knobs": json.loads(k), "verdict": v, "us": us, "eager_us": e, "compile_us": c}
            for (_, _, k, v, us, e, c) in rows]


def curve(points):
    """Best-so-far median (us) after each measurement; failures do not count."""
    best, out = None, []
    for p in points:
        if p["verdict"] == "pass" and p["us"]:
            best = p["us"] if best is None else min(best, p["us"])
        out.append(best)
    return out


def first_within(curve_us, target_us):
    for i, us in enumerate(curve_us):
        if us is not None and us <= target_us:
            return i + 1
    return None


def grid_summary(task, grid_db):
    """What the charts need of a measured grid besides the curves: every
    passing point's median in grid order, the default point's baselines, and
    the tune shape (docs/results.md's per-task roofline)."""
    grid = measured(grid_db)
    default = default_knobs(os.path.join(ROOT, "tasks", task))
    default_point = next((p for p in grid if all(
        p["knobs"].get(k) == v for k, v in default.items())), None)
    tune = json.load(open(os.path.join(ROOT, "tasks", task, "task.json")))["shapes"]["tune"][0]
    return {"points_us": [p["us"] for p in grid if p["verdict"] == "pass" and p["us"]],
            "eager_us": default_point["eager_us"] if default_point else None,
            "torch_compile_us": default_point["compile_us"] if default_point else None,
            "tune_shape": tune}


def replay(kbench, task, grid_db, seed, budget, start, work):
    archive = os.path.join(work, f"{task}-{seed}.db")
    cmd = [kbench, "search",
           os.path.join(ROOT, "tasks", task), "--target", "sm_90a",
           "--budget", str(budget), "--round-size", "8", "--seed", str(seed),
           "--start", start, "--score", "tune", "--confirm", "0", "--jobs", "1",
           "--archive", archive, "--rounds-dir", os.path.join(work, f"{task}-{seed}"),
           "--evaluator-cmd",
           f"{os.path.join(ROOT, 'scripts', 'search-replay.py')} --archive {os.path.abspath(grid_db)}"]
    # Seeds revisit the same kernels: the bundle cache skips their backend.
    env = dict(os.environ)
    env.setdefault("KBENCH_CACHE_DIR", os.path.join(work, "cache"))
    result = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"search-curves: {' '.join(cmd)} exited {result.returncode}:\n{result.stderr}")
    return measured(archive)


def main():
    parser = argparse.ArgumentParser(description="MAP-Elites against the grid on measured reports")
    parser.add_argument("--grid-dir")
    parser.add_argument("--budget", type=int, default=128)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--start", choices=["random", "naive"], default="random")
    parser.add_argument("--kbench", default=os.path.join(ROOT, "build", "bin", "kbench"),
                        help="the kbench binary (default build/bin/kbench)")
    parser.add_argument("--tasks", default="")
    parser.add_argument("-o", "--output")
    parser.add_argument("--table", metavar="JSON",
                        help="print the tables of a summary written before (-o) and exit")
    args = parser.parse_args()
    if args.table:
        print_tables(json.load(open(args.table)))
        return
    if not args.grid_dir:
        parser.error("--grid-dir is required (or --table JSON)")

    tasks = [t for t in args.tasks.split(",") if t] or sorted(
        f[:-3] for f in os.listdir(args.grid_dir) if f.endswith(".db"))
    work = tempfile.mkdtemp(prefix="kbench-search-curves-")
    summary = {"budget": args.budget, "seeds": args.seeds, "start": args.start, "tasks": {}}
    try:
        for task in tasks:
            grid_db = os.path.join(args.grid_dir, f"{task}.db")
            grid = measured(grid_db)
            default = default_knobs(os.path.join(ROOT, "tasks", task))
            default_point = next((p for p in grid if all(
                p["knobs"].get(k) == v for k, v in default.items())), None)
            best = min((p for p in grid if p["verdict"] == "pass"), key=lambda p: p["us"])
            target95 = default_point["us"] / 0.95 if default_point else None
            grid_curve = curve(grid)
            entry = {
                "grid_points": len(grid),
                "default_knobs": default,
                "default_us": default_point["us"] if default_point else None,
                "grid_best": {"knobs": best["knobs"], "us": best["us"],
                              "eager_us": best["eager_us"], "compile_us": best["compile_us"]},
                "grid": {"curve_us": grid_curve,
                         "to_95_of_default": first_within(grid_curve, target95) if target95 else None,
                         "to_grid_best_1pct": first_within(grid_curve, best["us"] * 1.01)},
                "search": [],
            }
            entry.update(grid_summary(task, grid_db))
            for seed in range(args.seeds):
                points = replay(args.kbench, task, grid_db, seed, args.budget, args.start, work)
                c = curve(points)
                passed = [p for p in points if p["verdict"] == "pass" and p["us"]]
                found = min(passed, key=lambda p: p["us"]) if passed else None
                entry["search"].append({
                    "seed": seed, "measured": len(points), "curve_us": c,
                    "best_us": c[-1] if c else None,
                    "best_knobs": found["knobs"] if found else None,
                    "best_vs_torch_compile": (found["compile_us"] / found["us"]
                                              if found and found["compile_us"] else None),
                    "first_us": points[0]["us"] if points else None,
                    "to_95_of_default": first_within(c, target95) if target95 else None,
                    "to_grid_best_1pct": first_within(c, best["us"] * 1.01)})
            summary["tasks"][task] = entry
    finally:
        shutil.rmtree(work, ignore_errors=True)

    if args.output:
        with open(args.output, "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True)
            f.write("\n")

    print_tables(summary)


def print_tables(summary):
    """The Markdown tables of docs/search.md from a summary."""
    def fmt(xs):
        known = [x for x in xs if x is not None]
        if not known:
            return "never"
        med = statistics.median(known)
        return f"{med:g} (of {len(known)}/{len(xs)} seeds; {min(known)}-{max(known)})"

    print("| task | grid points | default us | grid best us (vs default) | vs torch.compile | "
          "measurements to 95% of default: grid / search median | to grid best (1%): grid / search median |")
    print("|---|---|---|---|---|---|---|")
    for task, e in summary["tasks"].items():
        b = e["grid_best"]
        vs_default = f"{e['default_us'] / b['us']:.2f}x" if e["default_us"] else "-"
        vs_compile = f"{b['compile_us'] / b['us']:.2f}x" if b["compile_us"] else "-"
        print(f"| {task} | {e['grid_points']} | {e['default_us']:.2f} | {b['us']:.2f} ({vs_default}) | "
              f"{vs_compile} | {e['grid']['to_95_of_default']} / "
              f"{fmt([s['to_95_of_default'] for s in e['search']])} | "
              f"{e['grid']['to_grid_best_1pct']} / {fmt([s['to_grid_best_1pct'] for s in e['search']])} |")

    # Where the search started and where it ended (per seed: the best after
    # the budget), against the default schedule and torch.compile.
    print()
    print(f"| task ({summary.get('start', 'random')} start) | first point us (vs default) | "
          "best after the budget, median seed: us (vs default) | vs torch.compile: median seed (range) |")
    print("|---|---|---|---|")
    ratios = []
    for task, e in summary["tasks"].items():
        runs = e["search"]
        firsts = [r.get("first_us") for r in runs if r.get("first_us")]
        bests = sorted(r["best_us"] for r in runs if r.get("best_us"))
        vs = sorted(r["best_vs_torch_compile"] for r in runs if r.get("best_vs_torch_compile"))
        first = f"{statistics.median(firsts):.2f} ({e['default_us'] / statistics.median(firsts):.2f}x)" \
            if firsts else "-"
        best = f"{statistics.median(bests):.2f} ({e['default_us'] / statistics.median(bests):.3f}x)" \
            if bests else "-"
        if vs:
            ratios.append(statistics.median(vs))
        comp = f"{statistics.median(vs):.3f}x ({vs[0]:.3f}-{vs[-1]:.3f})" if vs else "-"
        print(f"| {task} | {first} | {best} | {comp} |")
    if ratios:
        geo = 1.0
        for r in ratios:
            geo *= r
        print(f"\ngeomean over tasks of the median seed's ratio over torch.compile: "
              f"{geo ** (1 / len(ratios)):.3f}x")

if __name__ == "__main__":
    main()
