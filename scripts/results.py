#!/usr/bin/env python3
#===- scripts/results.py - GPU results as data: results.json -> results.md + charts ---===#
#
# docs/results.json holds every GPU run worth keeping: per run the date, GPU,
# driver, torch, protocol version, inductor mode, L2 flush and ceilings; per
# task and timed shape the verdict, median and IQR of the candidate, eager
# TF32 off, eager TF32 on and torch.compile, % of floor and speedups.
# docs/results.md and docs/charts/*.vl.json are generated from it (plus the
# hand-written docs/results-notes.md, included verbatim); the SVGs are
# rendered from the specs with vega-lite's vl2svg (package.json).
#
#   scripts/results.py fragment OUT_DIR... [--id ID] [--title T]   gpu-eval.sh's reports -> OUT_DIR/results-fragment.json
#                                             (several folders: one run, e.g. a suite evaluated in groups)
#   scripts/results.py merge FRAGMENT...      add runs (same id: replaced), then generate
#   scripts/results.py generate               rewrite results.md and the chart specs
#   scripts/results.py check                  exit 1 when results.md or a spec is stale
#   scripts/results.py render [--out DIR]     specs -> SVG (needs node_modules: npm ci)
#
# Standard library only. Exit status 0, 1 (stale), 2 (bad input, named).
#===----------------------------------------------------------------------===#

import argparse
import glob
import json
import math
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kbench_tasks import ROOT, TaskError, eval_shape_expr, load_task  # noqa: E402

DOCS = os.path.join(ROOT, "docs")


def set_docs(folder):
    """Where results.json, results.md, results-notes.md and charts/ live
    (--docs; tests point it at a copy)."""
    global DOCS, RESULTS_JSON, RESULTS_MD, NOTES_MD, CHARTS
    DOCS = folder
    RESULTS_JSON = os.path.join(DOCS, "results.json")
    RESULTS_MD = os.path.join(DOCS, "results.md")
    NOTES_MD = os.path.join(DOCS, "results-notes.md")
    CHARTS = os.path.join(DOCS, "charts")


set_docs(DOCS)
CONTESTANTS = ["candidate", "eager_tf32_off", "eager_tf32_on", "torch_compile"]
FAST_P = [1.0, 1.1]


def fail(message):
    print("results: " + message, file=sys.stderr)
    sys.exit(2)


def read_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("%s %s: %s" % (what, path, e))


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")


# --- fragment: one gpu-eval.sh run as a results.json run ---------------------

def record_of(bundle, report, wall, checks_only, unbuildable=None):
    """One record per timed shape of one report.json. `unbuildable` maps
    (task, shape label) to the error of a torch.compile package that
    gpu-aoti-package.py could not build (its index.json "failed")."""
    summary = report.get("summary", {})
    compiled = {s["shape"]: s for s in
                report.get("baselines", {}).get("torch_compile", {}).get("shapes", [])}
    records = []
    for t in report.get("timing", []):
        shape = t["shape_id"]["shape"]
        rec = {"task": report["task"]["name"], "bundle": bundle, "shape": shape,
               "set": t["shape_id"]["set"], "verdict": report.get("verdict"),
               "checks": {k: summary.get(k) for k in ("passed", "cases", "skipped")}}
        # A shape whose checks failed is not timed: "contestants" is null.
        contestants = t.get("contestants") or {}
        for name in CONTESTANTS:
            c = contestants.get(name)
            rec[name] = {"median_us": c["median_us"], "iqr_us": c["iqr_us"]} if c else None
        status = compiled.get(shape, {"status": "missing", "detail": "not in the report"})
        failure = (unbuildable or {}).get((rec["task"], shape))
        if rec["torch_compile"] is None and failure:
            rec["torch_compile"] = {"status": "unbuildable", "detail": failure.get("error")}
        elif rec["torch_compile"] is None:
            rec["torch_compile"] = {"status": status["status"], "detail": status.get("detail")}
        else:
            rec["torch_compile"]["status"] = "measured"
        if "skipped" in t:
            rec["timing_skipped"] = t["skipped"]
        rec["percent_of_floor"] = (t.get("floor") or {}).get("percent_of_floor", {})
        rec["speedup"] = t.get("speedup") or {}
        rec["reps"] = t.get("reps")
        rec["checks_only_device_s"] = (checks_only.get("phases") or {}).get("correctness")
        rec["full_run_wall_s"] = wall.get("full_run_wall_s")
        records.append(rec)
    return records


def make_fragment(args):
    # A run may span several gpu-eval.sh folders (a suite evaluated in groups,
    # one command each, on one machine): the first folder's machine and
    # ceilings describe the run, the reports of all are its records.
    out = args.out_dirs[0]
    cal = read_json(os.path.join(out, "calibration.json"), "calibration")
    machine = read_json(os.path.join(out, "machine.json"), "machine description")
    index = {}
    for folder in args.out_dirs:
        index_path = os.path.join(folder, "aoti-index.json")
        if os.path.exists(index_path):
            part = read_json(index_path, "AOTInductor index")
            for key in ("packages", "failed"):
                index.setdefault(key, {}).update(part.get(key, {}))
            index.setdefault("inductor_mode", part.get("inductor_mode"))
    unbuildable = {(f.get("task"), f.get("shape")): f for f in index.get("failed", {}).values()}
    records, protocol, bundles = [], set(), set()
    for folder in args.out_dirs:
        for path in sorted(glob.glob(os.path.join(folder, "*", "report.json"))):
            bundle = os.path.basename(os.path.dirname(path))
            if bundle in bundles:
                fail("bundle %s is in two of the folders; a run holds each bundle once" % bundle)
            bundles.add(bundle)
            report = read_json(path, "report")
            protocol.add(report.get("protocol_version", 1))
            wall_path = os.path.join(folder, bundle, "wall.json")
            quick_path = os.path.join(folder, bundle, "checks-only", "report.json")
            wall = read_json(wall_path, "wall times") if os.path.exists(wall_path) else {}
            quick = read_json(quick_path, "report") if os.path.exists(quick_path) else {}
            records += record_of(bundle, report, wall, quick, unbuildable)
    if not records:
        fail("no timed shapes in %s" % " or ".join(
            os.path.join(folder, "*", "report.json") for folder in args.out_dirs))
    if len(protocol) != 1:
        # Figures of different timing protocols are not comparable (version 3
        # re-poisons outputs before every timed run): re-time, not compare.
        fail("reports of several protocol versions %s in one run: their figures are not "
             "comparable in one table; re-time every bundle with one kbench-run" % sorted(protocol))
    builds = list(index.get("packages", {}).values())
    run = {
        "id": args.id or machine["date"][:10] + "-gpu-eval",
        "title": args.title or "scripts/gpu-eval.sh",
        "date": machine["date"][:10], "gpu": machine.get("gpu"), "driver": machine.get("driver"),
        "torch": machine.get("torch"), "protocol_version": protocol.pop(),
        "inductor_mode": index.get("inductor_mode"), "l2_flush": machine.get("l2_flush", "read"),
        "command": machine.get("command"),
        "calibration": {"copy_bytes_per_s": cal["copy"]["bandwidth_bytes_per_s"],
                        "gemm_flops_per_s": {k: v["flops_per_s"]
                                             for k, v in cal.get("gemm", {}).items()}},
        "aoti_packages": {"count": len(builds),
                          "build_s": [b["build_s"] for b in builds],
                          "bytes": [b["bytes"] for b in builds]} if builds else None,
        "notes": "",
        "records": records,
    }
    path = os.path.join(out, "results-fragment.json")
    write_json(path, {"format": "kbench-results-fragment/1", "runs": [run]})
    print("results: %d records -> %s" % (len(records), path))


def merge(args):
    doc = read_json(RESULTS_JSON, "results")
    for path in args.fragments:
        frag = read_json(path, "fragment")
        for run in frag.get("runs", []):
            if args.id:
                run["id"] = args.id
            if any(r["id"] == run["id"] for r in doc["runs"]) and not args.replace:
                # Two runs of one day share the default id; never drop data
                # silently.
                sys.exit("results: docs/results.json already has a run %s; pass --replace to "
                         "overwrite it, or --id NAME to merge this one beside it" % run["id"])
            doc["runs"] = [r for r in doc["runs"] if r["id"] != run["id"]] + [run]
            print("results: run %s (%d records) from %s" % (run["id"], len(run["records"]), path))
    doc["runs"].sort(key=lambda r: r["date"])  # stable: same-day runs stay in merge order
    write_json(RESULTS_JSON, doc)
    generate_all(doc)


# --- derived numbers ---------------------------------------------------------

def dims_of(label):
    inner = label[label.index("{") + 1:label.rindex("}")]
    return {k.strip(): int(v) for k, v in (p.split("=") for p in inner.split(","))}


def cost(task_name, label):
    """(flops, bytes, math) of the task's cost formulas at the shape."""
    try:
        task = load_task(task_name)
        c, dims = task.get("cost", {}), dims_of(label)
        return (eval_shape_expr(c["flops"], dims), eval_shape_expr(c["bytes"], dims),
                c.get("math", "f32"))
    except (OSError, KeyError, TaskError, ValueError):
        return None


def median(rec, name):
    c = rec.get(name)
    return c.get("median_us") if isinstance(c, dict) else None


def fast_p(run, against):
    """KernelBench's fast_p over the run's tasks: the share of tasks whose
    bundle passed every check and whose geometric-mean speedup over the
    task's tune shapes against `against` exceeds p (> p; a task without that
    baseline measured counts as not fast). A task whose torch.compile
    package could not be built (a shape "unbuildable") is left out of fast_p
    against torch.compile, not counted slow: there is nothing to race."""
    tasks, left_out = {}, set()
    for rec in run["records"]:
        c = rec.get(against)
        if isinstance(c, dict) and c.get("status") == "unbuildable":
            left_out.add(rec["task"])
    for rec in run["records"]:
        if rec["task"] not in left_out:
            tasks.setdefault(rec["task"], []).append(rec)
    if not any(r.get("speedup", {}).get(against) for r in run["records"]):
        return []  # that baseline was not measured in this run
    rows = []
    for p in FAST_P:
        fast = 0
        for recs in tasks.values():
            tune = [r for r in recs if r["set"] == "tune"] or recs
            speedups = [r.get("speedup", {}).get(against) for r in tune]
            if all(r["verdict"] == "pass" for r in recs) and speedups and all(speedups):
                if math.exp(sum(math.log(s) for s in speedups) / len(speedups)) > p:
                    fast += 1
        rows.append({"p": "%.1f" % p, "fast_p": fast / len(tasks) if tasks else 0.0,
                     "tasks": len(tasks), "left_out": sorted(left_out)})
    return rows


def task_kind(name):
    """"forward" or "backward" from tasks/<name>/task.json ("forward" when
    the task is not in tasks/, e.g. a test's)."""
    try:
        return load_task(name).get("kind", "forward")
    except (OSError, ValueError):
        return "forward"


def suite_geomeans(run, against):
    """The geometric mean over tasks of each task's geometric-mean speedup
    at its tune shapes against `against`, per task kind (forward,
    backward): the suite's headline figure. Only tasks that passed every
    check and have that baseline measured at every tune shape count; the
    rest are listed as left out. {} when the baseline was not measured."""
    if not any(r.get("speedup", {}).get(against) for r in run["records"]):
        return {}
    by_task = {}
    for rec in run["records"]:
        by_task.setdefault(rec["task"], []).append(rec)
    out = {}
    for task, recs in sorted(by_task.items()):
        kind = task_kind(task)
        entry = out.setdefault(kind, {"logs": [], "left_out": []})
        tune = [r for r in recs if r["set"] == "tune"] or recs
        speedups = [r.get("speedup", {}).get(against) for r in tune]
        if all(r["verdict"] == "pass" for r in recs) and speedups and all(speedups):
            entry["logs"].append(sum(math.log(x) for x in speedups) / len(speedups))
        else:
            entry["left_out"].append(task)
    return {kind: {"geomean": math.exp(sum(e["logs"]) / len(e["logs"])) if e["logs"] else None,
                   "tasks": len(e["logs"]), "left_out": e["left_out"]}
            for kind, e in out.items()}


# --- results.md --------------------------------------------------------------

def fmt(v, spec):
    return spec.format(v) if isinstance(v, (int, float)) else "-"


def cell(rec, name):
    c = rec.get(name)
    if not isinstance(c, dict) or c.get("median_us") is None:
        status = c.get("status") if isinstance(c, dict) else None
        return {"not_in_protocol": "n/a", None: "-"}.get(status, status)
    iqr = c.get("iqr_us")
    return fmt(c["median_us"], "{:.2f}") + (" [" + fmt(iqr, "{:.2f}") + "]" if iqr is not None else "")


def run_header(run):
    cal = run.get("calibration", {})
    gemm = cal.get("gemm_flops_per_s", {})
    lines = ["## %s (%s)" % (run["title"], run["date"]), "",
             "%s, driver %s, torch %s; timing protocol version %s; L2 flush %s; torch.compile: %s." % (
                 run.get("gpu") or "?", run.get("driver") or "?", run.get("torch") or "?",
                 run.get("protocol_version"), run.get("l2_flush") or "?",
                 "AOTInductor, inductor mode " + run["inductor_mode"] if run.get("inductor_mode")
                 else "not measured in this protocol version"
                 if run.get("protocol_version", 1) < 2 else "no packages")]
    if cal:
        lines[-1] += " Ceilings: copy %s TB/s; GEMM %s TFLOP/s." % (
            fmt(cal.get("copy_bytes_per_s", 0) / 1e12, "{:.2f}"),
            ", ".join("%s %.0f" % (k, v / 1e12) for k, v in sorted(gemm.items())))
    if run.get("aoti_packages"):
        a = run["aoti_packages"]
        times = sorted(a["build_s"])
        lines[-1] += (" %d torch.compile packages, built in %s to %s s (median %s s; the longest "
                      "is a process's first, inductor's cold start), %s MB on average." % (
                          a["count"], fmt(times[0], "{:.1f}"), fmt(times[-1], "{:.1f}"),
                          fmt(times[len(times) // 2], "{:.1f}"),
                          fmt(sum(a["bytes"]) / len(a["bytes"]) / 1e6, "{:.1f}")))
    if run.get("command"):
        lines += ["", "`%s`" % run["command"]]
    if run.get("notes"):
        lines += ["", run["notes"]]
    # A run that compares several bundles of one task names each bundle (its
    # folder's name) where the task name alone would not tell them apart.
    lines += ["", "| task or bundle | timed shape | verdict | checks passed | median us [IQR]: ours | eager TF32 off "
              "| eager TF32 on | torch.compile | % of floor: ours / eager / compile "
              "| speedup vs eager off / on / compile |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    last = None
    for rec in run["records"]:
        name = rec.get("bundle") or rec["task"]
        first = name != last
        last = name
        pf, sp = rec.get("percent_of_floor", {}), rec.get("speedup", {})
        checks = rec.get("checks") or {}
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name if first else "", rec["shape"], rec["verdict"] if first else "",
            "%s/%s" % (checks.get("passed"), checks.get("cases")) if first and checks else "",
            cell(rec, "candidate"), cell(rec, "eager_tf32_off"), cell(rec, "eager_tf32_on"),
            cell(rec, "torch_compile"),
            " / ".join(fmt(pf.get(n), "{:.0f}%") for n in ("candidate", "eager_tf32_off", "torch_compile")),
            " / ".join(fmt(sp.get(n), "{:.2f}x") for n in ("eager_tf32_off", "eager_tf32_on", "torch_compile"))))
    return lines


def chart_run(doc):
    """The run the charts and fast_p show: the newest one that is not marked
    "charts": false (a run comparing variants of one task, several bundles a
    task, would make "the share of tasks" ambiguous)."""
    return next(r for r in reversed(doc["runs"]) if r.get("charts", True))


def results_md(doc):
    runs = list(reversed(doc["runs"]))  # newest first; results.json is in run order
    latest = chart_run(doc)
    lines = ["<!-- Generated by scripts/results.py from docs/results.json and docs/results-notes.md;",
             "     edit those and run `scripts/results.py generate` (test/docs/results.test checks). -->",
             "", "# Results on Hopper GPUs (H200, H100)", "",
             doc.get("intro", ""), "",
             "## Charts (%s, %s)" % (latest["title"], latest["date"]), ""]
    for name, what in CHART_TITLES:
        lines.append("![%s](charts/%s.svg)" % (what, name))
        lines.append("")
    parts = []
    for against, label in (("torch_compile", "torch.compile"), ("eager_tf32_off", "eager TF32 off")):
        rows = fast_p(latest, against)
        left_out = rows[0]["left_out"] if rows else []
        parts.append("against %s: %s%s" % (label, ", ".join(
            "p = %s %.0f%%" % (r["p"], 100 * r["fast_p"]) for r in rows) or "not measured",
            " (left out, no package could be built: %s)" % ", ".join(left_out) if left_out else ""))
    lines.append("fast_p (KernelBench: the share of tasks that pass every check and whose "
                 "geometric-mean speedup at the tune shapes exceeds p): " + "; ".join(parts) + ".")
    lines.append("")
    parts = []
    for against, label in (("torch_compile", "torch.compile"), ("eager_tf32_off", "eager TF32 off")):
        for kind, g in sorted(suite_geomeans(latest, against).items(), reverse=True):
            if g["geomean"] is None:
                continue
            parts.append("%s tasks against %s %.2fx (%d task%s%s)" % (
                kind, label, g["geomean"], g["tasks"], "" if g["tasks"] == 1 else "s",
                "; left out, not every check passed or no baseline: " + ", ".join(g["left_out"])
                if g["left_out"] else ""))
    if parts:
        lines.append("Geometric mean over tasks of the speedup at the tune shapes: "
                     + "; ".join(parts) + ".")
        lines.append("")
    for run in runs:
        lines += run_header(run) + [""]
    if os.path.exists(NOTES_MD):
        with open(NOTES_MD) as f:
            lines.append(f.read().rstrip("\n"))
    return "\n".join(lines).rstrip("\n") + "\n"


# --- charts (vega-lite) --------------------------------------------------------

CHART_TITLES = [("percent-of-floor", "% of floor per task and shape: ours, eager, torch.compile"),
                ("roofline", "roofline: achieved FLOP/s against arithmetic intensity"),
                ("fast-p", "fast_p against torch.compile and eager"),
                ("search-curves", "kbench search against the grid, in measurements spent"),
                ("search-roofline", "every schedule of the search space on the roofline, per task"),
                ("search-live", "live searches, in measurements spent")]
LABELS = {"candidate": "ours (kbench)", "eager_tf32_off": "torch eager (TF32 off)",
          "torch_compile": "torch.compile (AOTInductor)"}
SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"


def step_rows(task, series, speeds):
    """The chart rows of a best-so-far curve (`speeds[i]`: the speed after
    i + 1 measurements, None where nothing is known yet) as a step function:
    a point where the speed changes, and the last."""
    last, steps = None, []
    for i, speed in enumerate(speeds):
        if speed is None:
            continue
        point = {"task": task, "series": series, "measurements": i + 1,
                 "speed": round(speed, 4)}
        if last is None or point["speed"] != last["speed"]:
            steps.append(point)
        last = point
    if last is not None and steps[-1] is not last:
        steps.append(last)
    return steps


def search_curve_rows():
    """Best-so-far speed relative to the default schedule after each
    measurement, per task: the grid in its order and the median over seeds of
    each search start (docs/search-curves*.json, written by
    scripts/search-curves.py from the H200 grid's reports)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(DOCS, "search-curves*.json"))):
        curves = read_json(path, "search curves")
        start = curves.get("start", "random")
        for task, entry in sorted(curves["tasks"].items()):
            default = entry.get("default_us")
            if not default:
                continue
            series = [("grid (enumeration order)", [entry["grid"]["curve_us"]])]
            series.append(("search, %s start (median of %d seeds)" % (start, len(entry["search"])),
                           [s["curve_us"] for s in entry["search"]]))
            for name, runs in series:
                if name.startswith("grid") and any(r["series"] == name and r["task"] == task
                                                   for r in rows):
                    continue  # the same grid in every file
                medians = []
                for i in range(min(len(c) for c in runs)):
                    known = [default / c[i] for c in runs if c[i]]
                    medians.append(statistics.median(known) if known else None)
                rows += step_rows(task, name, medians)
    return rows


def search_live_rows():
    """Best-so-far speed relative to the default schedule after each
    measurement of a live search, per task and run (docs/search-live*.json,
    written by scripts/search-live-curves.py from the searches' archives)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(DOCS, "search-live*.json"))):
        live = read_json(path, "live search curves")
        for task, entry in sorted(live["tasks"].items()):
            rows += step_rows(task, live["label"],
                              [entry["default_us"] / us if us else None
                               for us in entry["curve_us"]])
    return rows


def search_roofline_rows():
    """Per task, at its tune shape: every passing point of the measured grid,
    the default schedule, the best a search found (median seed, per start),
    torch eager and torch.compile, as achieved GFLOP/s of the task's cost
    formulas (docs/search-curves*.json)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(DOCS, "search-curves*.json"))):
        curves = read_json(path, "search curves")
        start = curves.get("start", "random")
        for task, entry in sorted(curves["tasks"].items()):
            shape = entry.get("tune_shape")
            if not shape:
                continue
            c = cost(task, "tune {%s}" % ", ".join("%s=%d" % kv for kv in shape.items()))
            if not c:
                continue
            def point(what, us):
                return {"task": task, "what": what, "intensity": c[0] / c[1],
                        "gflops": round(c[0] / us / 1e3, 2)}
            if not any(r["task"] == task and r["what"] == "grid point" for r in rows):
                rows += [point("grid point", us) for us in entry.get("points_us", [])]
                for what, us in (("default schedule", entry.get("default_us")),
                                 ("torch eager (TF32 off)", entry.get("eager_us")),
                                 ("torch.compile (AOTInductor)", entry.get("torch_compile_us"))):
                    if us:
                        rows.append(point(what, us))
            bests = sorted(s["best_us"] for s in entry["search"] if s.get("best_us"))
            if bests:
                rows.append(point("search best, %s start (median seed)" % start,
                                  bests[len(bests) // 2]))
    return rows


def curve_spec(title, subtitle, rows, columns, width, x_scale, line):
    """A faceted chart of best-so-far curves (step_rows), one panel per task,
    a dashed rule at 95% of the default schedule's speed."""
    return {
        "$schema": SCHEMA,
        "title": {"text": title, "subtitle": subtitle},
        "data": {"values": rows},
        "facet": {"field": "task", "type": "nominal", "title": None},
        "columns": columns,
        "spec": {
            "width": width, "height": 160,
            "layer": [
                {"mark": dict({"type": "line", "interpolate": "step-after"}, **line),
                 "encoding": {"x": {"field": "measurements", "type": "quantitative",
                                    "scale": x_scale,
                                    "title": "measurements spent (bundles timed)"},
                              "y": {"field": "speed", "type": "quantitative",
                                    "scale": {"zero": False},
                                    "title": "speed / default schedule's"},
                              "color": {"field": "series", "type": "nominal", "title": None,
                                        "legend": {"labelLimit": 400, "orient": "bottom"}}}},
                {"mark": {"type": "rule", "strokeDash": [4, 4], "color": "gray"},
                 "encoding": {"y": {"datum": 0.95}}}]},
        "resolve": {"scale": {"y": "independent"}}}


def chart_specs(doc):
    run = chart_run(doc)
    subtitle = "%s, %s, torch %s, protocol v%s" % (run["date"], run.get("gpu"), run.get("torch"),
                                                   run.get("protocol_version"))
    floor_rows, roof_rows = [], []
    for rec in run["records"]:
        where = "%s %s" % (rec["task"], rec["shape"].split(" {")[0])
        c = cost(rec["task"], rec["shape"])
        for name in ("candidate", "eager_tf32_off", "torch_compile"):
            pf = rec.get("percent_of_floor", {}).get(name)
            if pf is not None:
                floor_rows.append({"task": where, "contestant": LABELS[name], "percent": round(pf, 1)})
            us = median(rec, name)
            if us is None and pf is not None and median(rec, "candidate"):
                # v1 records hold % of floor, not every median: floor = pf * median.
                floor_us = rec["percent_of_floor"]["candidate"] * median(rec, "candidate") / 100
                us = floor_us * 100 / pf
            if c and us:
                roof_rows.append({"task": where, "contestant": LABELS[name],
                                  "intensity": c[0] / c[1], "gflops": c[0] / us / 1e3})
    cal = run.get("calibration", {})
    bw, peak = cal.get("copy_bytes_per_s", 0), cal.get("gemm_flops_per_s", {}).get("f32", 0)
    ridge = peak / bw if bw else 1
    ceiling = [{"intensity": x, "gflops": min(bw * x, peak) / 1e9}
               for x in (0.01, 0.03, 0.1, 0.3, 1, 3, ridge, 30, 100, 300, 1000, 3000)]
    fp_rows = [dict({k: v for k, v in r.items() if k != "left_out"}, against=label)
               for name, label in (("torch_compile", "torch.compile"),
                                   ("eager_tf32_off", "eager TF32 off"))
               for r in fast_p(run, name)]
    color = {"field": "contestant", "type": "nominal", "title": None,
             "legend": {"labelLimit": 400, "orient": "bottom"},
             "scale": {"domain": [LABELS[n] for n in ("candidate", "eager_tf32_off", "torch_compile")]}}
    specs = {
        "percent-of-floor": {
            "$schema": SCHEMA, "title": {"text": "% of the measured floor (higher is better)",
                                         "subtitle": subtitle},
            "data": {"values": floor_rows}, "width": 420, "mark": "bar",
            "encoding": {"y": {"field": "task", "type": "nominal", "title": None,
                               "axis": {"labelLimit": 400}},
                         "yOffset": {"field": "contestant"},
                         "x": {"field": "percent", "type": "quantitative",
                               "title": "% of floor (max of bytes/copy bandwidth, flops/GEMM rate)"},
                         "color": color}},
        "roofline": {
            "$schema": SCHEMA, "title": {"text": "Roofline: cost formulas over measured time",
                                         "subtitle": subtitle + "; ceilings: copy bandwidth, fp32 GEMM"},
            "width": 480, "height": 320,
            "layer": [
                {"data": {"values": ceiling}, "mark": {"type": "line", "color": "gray"},
                 "encoding": {"x": {"field": "intensity", "type": "quantitative", "scale": {"type": "log"},
                                    "title": "arithmetic intensity (flop/byte)"},
                              "y": {"field": "gflops", "type": "quantitative", "scale": {"type": "log"},
                                    "title": "GFLOP/s"}}},
                {"data": {"values": roof_rows}, "mark": {"type": "point", "filled": True, "size": 60},
                 "encoding": {"x": {"field": "intensity", "type": "quantitative"},
                              "y": {"field": "gflops", "type": "quantitative"},
                              "color": color, "shape": {"field": "contestant", "type": "nominal"},
                              "tooltip": [{"field": "task"}, {"field": "contestant"}]}},
                {"data": {"values": [r for r in roof_rows if r["contestant"] == LABELS["candidate"]
                                     and "tune[" in r["task"]]},
                 "mark": {"type": "text", "align": "left", "dx": 6, "fontSize": 9},
                 "encoding": {"x": {"field": "intensity", "type": "quantitative"},
                              "y": {"field": "gflops", "type": "quantitative"},
                              "text": {"field": "task"}}}]},
        "fast-p": {
            "$schema": SCHEMA, "title": {"text": "fast_p: tasks correct and faster than the baseline by p",
                                         "subtitle": subtitle},
            "data": {"values": fp_rows}, "width": 300, "mark": "bar",
            "encoding": {"x": {"field": "p", "type": "ordinal", "title": "p",
                               "axis": {"labelAngle": 0}},
                         "xOffset": {"field": "against"},
                         "y": {"field": "fast_p", "type": "quantitative", "title": "share of tasks",
                               "scale": {"domain": [0, 1]}},
                         "color": {"field": "against", "type": "nominal", "title": "against",
                                   "scale": {"domain": ["torch.compile", "eager TF32 off"]}}}},
    }
    specs["search-curves"] = curve_spec(
        "kbench search against the grid of the same space",
        "best so far over the default schedule's speed (tune shape, H200 screen medians, "
        "replayed: docs/search.md); dashed: 95%",
        search_curve_rows(), columns=2, width=260,
        x_scale={"type": "log", "domain": [1, 256]}, line={})
    specs["search-live"] = curve_spec(
        "Live kbench searches from the naive point",
        "best so far over the default schedule's speed (tune shape, screen medians of the "
        "GPU the search ran on: docs/search.md); dashed: 95%",
        search_live_rows(), columns=3, width=220, x_scale={"domain": [0, 128]},
        line={"point": True})
    roof = search_roofline_rows()
    # The ceiling around each task's intensity, as rows of the faceted data.
    for task in sorted({r["task"] for r in roof}):
        x = next(r["intensity"] for r in roof if r["task"] == task)
        roof += [{"task": task, "what": "ceiling", "intensity": xi,
                  "gflops": round(min(bw * xi, peak) / 1e9, 2)} for xi in (x / 2, x * 2)]
    specs["search-roofline"] = {
        "$schema": SCHEMA,
        "title": {"text": "The search space on the roofline, per task (tune shape)",
                  "subtitle": subtitle + "; gray line: copy-bandwidth ceiling"},
        "data": {"values": roof},
        "facet": {"field": "task", "type": "nominal", "title": None},
        "columns": 2,
        "spec": {
            "width": 220, "height": 160,
            "layer": [
                {"transform": [{"filter": "datum.what == 'ceiling'"}],
                 "mark": {"type": "line", "color": "gray"},
                 "encoding": {"x": {"field": "intensity", "type": "quantitative",
                                    "scale": {"type": "log"},
                                    "title": "arithmetic intensity (flop/byte)"},
                              "y": {"field": "gflops", "type": "quantitative",
                                    "title": "GFLOP/s"}}},
                {"transform": [{"filter": "datum.what != 'ceiling'"}],
                 "mark": {"type": "point", "filled": True, "opacity": 0.7},
                 "encoding": {"x": {"field": "intensity", "type": "quantitative"},
                              "y": {"field": "gflops", "type": "quantitative"},
                              "color": {"field": "what", "type": "nominal", "title": None,
                                        "legend": {"labelLimit": 400, "orient": "bottom"}},
                              "size": {"condition": {"test": "datum.what == 'grid point'",
                                                     "value": 15}, "value": 90}}}]},
        "resolve": {"scale": {"x": "independent", "y": "independent"}}}
    return specs


def generated_files(doc):
    files = {RESULTS_MD: results_md(doc)}
    for name, spec in chart_specs(doc).items():
        files[os.path.join(CHARTS, name + ".vl.json")] = json.dumps(spec, indent=2, sort_keys=True) + "\n"
    return files


def generate_all(doc):
    os.makedirs(CHARTS, exist_ok=True)
    for path, text in generated_files(doc).items():
        with open(path, "w") as f:
            f.write(text)
        print("results: wrote %s" % path)


def check(_args):
    stale = []
    for path, text in generated_files(read_json(RESULTS_JSON, "results")).items():
        try:
            with open(path) as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            stale.append(path)
    for s in stale:
        print("results: %s is not what scripts/results.py generates from %s; "
              "run scripts/results.py generate" % (s, os.path.relpath(RESULTS_JSON, ROOT)))
    if not stale:
        print("results: results.md and %d chart specs are up to date" % len(CHART_TITLES))
    return 1 if stale else 0


def render(args):
    vl2svg = os.path.join(ROOT, "node_modules", ".bin", "vl2svg")
    if not os.path.exists(vl2svg):
        fail("no %s: run `npm ci` in %s (scripts/setup.sh does when node is installed)" % (vl2svg, ROOT))
    out = args.out or CHARTS
    os.makedirs(out, exist_ok=True)
    for name, _ in CHART_TITLES:
        spec = os.path.join(CHARTS, name + ".vl.json")
        svg = os.path.join(out, name + ".svg")
        r = subprocess.run([vl2svg, spec, svg], capture_output=True, text=True)
        if r.returncode != 0:
            fail("vl2svg %s failed: %s" % (spec, r.stderr.strip()))
        print("results: rendered %s" % svg)
    return 0


def main(argv):
    p = argparse.ArgumentParser(description="GPU results as data (docs/results.json)")
    p.add_argument("--docs", default=DOCS, help="the docs folder (default: the repository's docs/)")
    sub = p.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fragment", help="gpu-eval.sh OUT_DIR... -> OUT_DIR/results-fragment.json "
                       "(several folders of one machine: one run, in the first folder)")
    f.add_argument("out_dirs", nargs="+", metavar="out_dir")
    f.add_argument("--id")
    f.add_argument("--title")
    m = sub.add_parser("merge", help="add fragments to docs/results.json, then generate")
    m.add_argument("fragments", nargs="+")
    m.add_argument("--id", help="the id of the merged run (default: the fragment's)")
    m.add_argument("--replace", action="store_true",
                   help="overwrite a run of the same id (default: refuse)")
    sub.add_parser("generate", help="rewrite docs/results.md and docs/charts/*.vl.json")
    sub.add_parser("check", help="exit 1 when a generated file is stale")
    r = sub.add_parser("render", help="render docs/charts/*.vl.json to SVG")
    r.add_argument("--out", help="folder for the SVGs (default docs/charts)")
    args = p.parse_args(argv)
    if not os.path.isfile(os.path.join(args.docs, "results.json")) and args.command != "fragment":
        fail("--docs %s: no results.json there" % args.docs)
    set_docs(args.docs)
    if args.command == "fragment":
        return make_fragment(args) or 0
    if args.command == "merge":
        return merge(args) or 0
    if args.command == "generate":
        return generate_all(read_json(RESULTS_JSON, "results")) or 0
    if args.command == "check":
        return check(args)
    return render(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
