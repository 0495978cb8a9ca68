#!/usr/bin/env python3
#===- scripts/mutation-analysis.py - Measure the oracles by mutation -----===#
#
# Runs every mutant of every task kernel (tasks/*/kernel*.mlir) through the
# oracles and writes the family x oracle kill matrix of docs/verification.md:
#
#   V  the static verifier (kbench-opt --tile-verify), always;
#   N  the numerical runner on the host target, when --runner CMD is given
#      (scripts/mutation-runner.sh is one): CMD TASK_DIR MUTANT.mlir must exit
#      0 when the mutant passes the runner's shape sweep, 1 when it fails it,
#      anything else on an error. Mutants of a kernel that fails N itself are
#      not judged by N.
#
# Mutants come from kbench-opt --tile-mutate=list-sites and
# --tile-mutate="mutation=FAMILY:SITE:SEED" (one mutant per site and variant).
# A mutant that does not parse or verify after mutation is stillborn and is
# not counted. Per mutant the results go to OUT/results.tsv; the summary is
# printed and, with --update-docs, replaces the block between
# "<!-- mutation-results:begin -->" and "<!-- mutation-results:end -->".
#
# Usage: scripts/mutation-analysis.py [--build DIR] [--out DIR]
#          [--runner CMD] [--families F1,F2,...] [--update-docs FILE]
#        scripts/mutation-analysis.py --summarize OUT/results.json
#          [--update-docs FILE]
#
#===----------------------------------------------------------------------===#

import argparse
import datetime
import glob
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = ["F1", "F2", "F4", "F5", "F6", "F7"]
FAMILY_NAMES = {
    "F1": "indexing", "F2": "boundary", "F4": "reduction",
    "F5": "arithmetic", "F6": "precision", "F7": "benign (controls)",
}
SITE_RE = re.compile(r"^(F\d+):(\d+) variants=(\d+) (.*) \[(.*)\]$")


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def verify(opt, path, json_path):
    """Runs V; returns (status, report, wall seconds)."""
    start = time.monotonic()
    proc = run([opt, f"--tile-verify=diagnostics-json={json_path}", path,
                "-o", os.devnull])
    wall = time.monotonic() - start
    if not os.path.exists(json_path):
        return "error", {"stderr": proc.stderr}, wall
    with open(json_path) as f:
        report = json.load(f)
    return report["status"], report, wall


def points_at_mutant(report):
    """Whether a violation's op or related ops carry the mutant location."""
    for kernel in report.get("kernels", []):
        for diag in kernel["diagnostics"]:
            if diag["status"] != "violated":
                continue
            locs = [diag.get("op", "")] + list(diag.get("related", []))
            if any("kbench.mutant" in loc for loc in locs):
                return True
    return False


def kernel_ms(report):
    return [k["time_ms"] for k in report.get("kernels", [])]


def main():
    parser = argparse.ArgumentParser(
        description="Mutation analysis of the verifier (V) and the runner (N)")
    parser.add_argument("--build", default=os.environ.get(
        "BUILD_DIR", os.path.join(ROOT, "build")))
    parser.add_argument("--out", default=None,
                        help="work directory (default BUILD/mutation)")
    parser.add_argument("--runner", default=None,
                        help="N oracle: CMD TASK_DIR MUTANT exits 0 (pass) "
                             "or 1 (fail)")
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--update-docs", default=None)
    parser.add_argument("--summarize", default=None, metavar="RESULTS_JSON",
                        help="only summarize the results.json of an earlier "
                             "run")
    args = parser.parse_args()

    if args.summarize:
        with open(args.summarize) as f:
            saved = json.load(f)
        summary = summarize(saved["rows"], saved["tasks"], saved["runner"])
        print(summary)
        if args.update_docs:
            update_docs(args.update_docs, summary)
        return

    opt = os.path.join(args.build, "bin", "kbench-opt")
    out = args.out or os.path.join(args.build, "mutation")
    os.makedirs(os.path.join(out, "mutants"), exist_ok=True)
    families = args.families.split(",")
    kernels = sorted(glob.glob(os.path.join(ROOT, "tasks", "*", "kernel*.mlir")))
    if not kernels:
        sys.exit("no tasks/*/kernel*.mlir found")

    rows, task_rows = [], []
    for kernel in kernels:
        task_dir = os.path.dirname(kernel)
        name = os.path.relpath(kernel, os.path.join(ROOT, "tasks"))
        tag = name.replace("/", "__").replace(".mlir", "")
        status, report, wall = verify(
            opt, kernel, os.path.join(out, f"{tag}.json"))
        task_rows.append({"kernel": name, "status": status,
                          "ms": kernel_ms(report), "wall": wall, "N": "-"})
        # N judges mutants only of kernels that pass it themselves (a
        # variant whose requires facts exclude task shapes fails the runner).
        if args.runner:
            base = run(shlex.split(args.runner) + [task_dir, kernel])
            task_rows[-1]["N"] = {0: "pass", 1: "fail"}.get(base.returncode,
                                                            "error")
        n_usable = task_rows[-1]["N"] == "pass"
        print(f"{name}: V {status}, N {task_rows[-1]['N']}", file=sys.stderr)
        sites = run([opt, "--tile-mutate=list-sites", kernel, "-o", os.devnull])
        for line in sites.stdout.splitlines():
            m = SITE_RE.match(line)
            if not m or m.group(1) not in families:
                continue
            family, site, count = m.group(1), int(m.group(2)), int(m.group(3))
            variants = m.group(5).split("|")
            for seed in range(count):
                mutation = f"{family}:{site}:{seed}"
                mutant = os.path.join(
                    out, "mutants", f"{tag}__{family}_{site}_{seed}.mlir")
                row = {"kernel": name, "mutation": mutation, "family": family,
                       "variant": variants[seed], "site": m.group(4),
                       "equivalent": "no", "V": "-", "checks": "",
                       "witness": "-", "v_ms": "", "N": "-"}
                # Keep locations: diagnostics on ops the mutation touched
                # then carry "kbench.mutant" (witness accuracy).
                made = run([opt, f"--tile-mutate=mutation={mutation}",
                            "--mlir-print-debuginfo", kernel, "-o", mutant])
                if made.returncode != 0:
                    row["V"] = "stillborn"
                    rows.append(row)
                    continue
                # tile-mutate proves index mutations equivalent when the
                # access relation does not change.
                if "equivalent mutant" in made.stderr:
                    row["equivalent"] = "yes"
                status, report, wall = verify(opt, mutant, mutant + ".json")
                row["V"] = {"violated": "killed", "proved": "survived",
                            "unsupported": "unsupported"}.get(status, status)
                row["v_ms"] = ",".join(f"{t:.1f}" for t in kernel_ms(report))
                row["wall"] = wall
                checks = set()
                for k in report.get("kernels", []):
                    for d in k["diagnostics"]:
                        if d["status"] == "violated":
                            checks.add(f"{d['check']}:{d['kind']}")
                row["checks"] = " ".join(sorted(checks))
                if status == "violated":
                    row["witness"] = "yes" if points_at_mutant(report) else "no"
                if args.runner and n_usable:
                    n = run(shlex.split(args.runner) + [task_dir, mutant])
                    row["N"] = {0: "survived", 1: "killed"}.get(
                        n.returncode, "error")
                elif args.runner:
                    row["N"] = "n/a"
                rows.append(row)

    columns = ["kernel", "mutation", "family", "variant", "site",
               "equivalent", "V", "checks", "witness", "v_ms", "N"]
    with open(os.path.join(out, "results.tsv"), "w") as f:
        f.write("\t".join(columns) + "\n")
        for row in rows:
            f.write("\t".join(str(row.get(c, "")) for c in columns) + "\n")

    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"rows": rows, "tasks": task_rows,
                   "runner": bool(args.runner)}, f)
    summary = summarize(rows, task_rows, bool(args.runner))
    print(summary)
    if args.update_docs:
        update_docs(args.update_docs, summary)


def summarize(rows, task_rows, have_runner):
    lines = []
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    machine = f"{cpu}, {os.cpu_count()} cores"
    runner = "--runner scripts/mutation-runner.sh " if have_runner else ""
    lines.append(f"Measured {stamp} on {machine} with "
                 f"`scripts/mutation-analysis.py {runner}--update-docs "
                 "docs/verification.md` over "
                 f"{len(task_rows)} task kernels (tasks/*/kernel*.mlir).")
    lines.append("")
    lines.append("| family | mutants | stillborn | equivalent | V killed | "
                 "V unsupported | V survived | V kill rate (in fragment) | "
                 "witness at mutant | N killed | V or N killed |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for family in FAMILIES:
        fam = [r for r in rows if r["family"] == family]
        if not fam:
            continue
        born = [r for r in fam if r["V"] != "stillborn"]
        # F7 mutants are benign by construction: all of them count.
        equivalent = [r for r in born
                      if r["equivalent"] == "yes" and family != "F7"]
        born = [r for r in born if r not in equivalent]
        killed = [r for r in born if r["V"] == "killed"]
        unsup = [r for r in born if r["V"] == "unsupported"]
        survived = [r for r in born if r["V"] == "survived"]
        inside = len(killed) + len(survived)
        rate = f"{100.0 * len(killed) / inside:.1f}%" if inside else "-"
        wit = [r for r in killed if r["witness"] == "yes"]
        witness = f"{len(wit)}/{len(killed)}" if killed else "-"
        if have_runner:
            judged = [r for r in born if r["N"] in ("killed", "survived")]
            n_killed = sum(r["N"] == "killed" for r in judged)
            either = sum(r["N"] == "killed" or r["V"] == "killed"
                         for r in judged)
            vn_rate = (f" ({100.0 * either / len(judged):.1f}%)"
                       if judged else "")
            n_col = f"{n_killed}/{len(judged)}"
            vn_col = f"{either}/{len(judged)}{vn_rate}"
        else:
            n_col = vn_col = "needs runner"
        label = f"{family} {FAMILY_NAMES[family]}"
        stillborn = len(fam) - len(born) - len(equivalent)
        lines.append(f"| {label} | {len(fam)} | {stillborn} | "
                     f"{len(equivalent)} | {len(killed)} | {len(unsup)} | "
                     f"{len(survived)} | {rate} | {witness} | {n_col} | "
                     f"{vn_col} |")
    lines.append("")
    f7 = [r for r in rows if r["family"] == "F7" and r["V"] in
          ("killed", "unsupported")]
    bad_tasks = [t for t in task_rows if t["status"] != "proved"]
    lines.append(f"False alarms: {len(f7)} on F7 mutants, {len(bad_tasks)} "
                 f"on the {len(task_rows)} task kernels"
                 + (" (" + ", ".join(f"{t['kernel']}: {t['status']}"
                                     for t in bad_tasks) + ")"
                    if bad_tasks else "") + ".")
    if have_runner:
        faults = [r for r in rows if r["family"] != "F7"
                  and r["V"] != "stillborn" and r["equivalent"] != "yes"
                  and r["N"] in ("killed", "survived")]
        either = sum(r["N"] == "killed" or r["V"] == "killed" for r in faults)
        if faults:
            lines.append(f"V or N over all non-equivalent F1-F6 mutants N "
                         f"judged: {either}/{len(faults)} "
                         f"({100.0 * either / len(faults):.1f}%).")
        f7n = [r for r in rows if r["family"] == "F7" and r["N"] == "killed"]
        n_tasks = ", ".join(f"{t['kernel']}: {t['N']}" for t in task_rows)
        n_errors = sum(r["N"] == "error" for r in rows)
        n_na = sum(r["N"] == "n/a" for r in rows)
        lines.append(f"N (kbench eval on the host target, "
                     f"scripts/mutation-runner.sh) on the task kernels: "
                     f"{n_tasks}; N columns count only mutants of kernels "
                     f"that pass N ({n_na} mutants not judged), {n_errors} "
                     f"mutants without an N verdict; N flags {len(f7n)} F7 "
                     f"mutants.")
    times = [ms for t in task_rows for ms in t["ms"]]
    for r in rows:
        if r.get("v_ms"):
            times += [float(x) for x in r["v_ms"].split(",")]
    walls = [t["wall"] for t in task_rows] + [r["wall"] for r in rows
                                              if "wall" in r]
    if times:
        lines.append(
            f"Verifier time per kernel (all checks, in process) over "
            f"{len(times)} kernels (tasks and mutants): median "
            f"{statistics.median(times):.1f} ms, max {max(times):.1f} ms; "
            f"kbench-opt process wall time median "
            f"{1000 * statistics.median(walls):.0f} ms, max "
            f"{1000 * max(walls):.0f} ms.")
    survivors = [r for r in rows if r["V"] == "survived"
                 and r["family"] in ("F1", "F2", "F4")
                 and r["equivalent"] != "yes"]
    if survivors:
        lines.append("")
        lines.append("Non-equivalent F1/F2/F4 mutants V proves (missed):")
        lines.append("")
        for r in survivors:
            lines.append(f"- {r['kernel']} {r['mutation']} ({r['variant']}): "
                         f"{site_text(r['site'])}")
    unsupported = [r for r in rows if r["V"] == "unsupported"]
    if unsupported:
        lines.append("")
        lines.append("Mutants V reports unsupported (outside the fragment):")
        lines.append("")
        for r in unsupported:
            lines.append(f"- {r['kernel']} {r['mutation']} ({r['variant']}): "
                         f"{site_text(r['site'])}")
    return "\n".join(lines)


def site_text(site):
    """The site description with paths relative to the repository."""
    return site.replace(ROOT + "/", "")


def update_docs(path, summary):
    begin, end = "<!-- mutation-results:begin -->", "<!-- mutation-results:end -->"
    with open(path) as f:
        text = f.read()
    if begin not in text or end not in text:
        sys.exit(f"{path} has no {begin} ... {end} block")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + summary + "\n" + end + tail)


if __name__ == "__main__":
    main()
