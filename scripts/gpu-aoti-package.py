#!/usr/bin/env python3
#===- scripts/gpu-aoti-package.py - torch.compile baselines as AOTInductor packages ---===#
#
# On the GPU machine (torch >= 2.6 with CUDA), compiles each task's reference
# (task.json "reference": ATen ops by name, bound as lib/Runner/Reference.cpp
# binds them) at every timed shape (tune and heldout sets) with torch.export
# (static shapes) and torch._inductor.aoti_compile_and_package, into
# CACHE_DIR/<package name>. kbench-run --compiled-baselines CACHE_DIR loads
# them with LibTorch's AOTIModelPackageLoader and times them beside the
# candidate (docs/runner.md, "Baselines").
#
# Package names are keys, computed exactly as lib/Runner/BaselinePlan.cpp
# computes them: "<task>-<FNV-1a 64 of the key text>-<dims>-<dtypes>-torch<X.Y.Z>.pt2",
# the key text being the reference, the outputs and every input's dtype and
# extents at the shape. A package already in CACHE_DIR is reused; when every
# one is, the script imports no torch and takes a fraction of a second. Every
# package is built in this one process, so only the first pays inductor's
# cold caches. CACHE_DIR/index.json records, per package, the task, shape,
# build seconds, bytes, torch version and inductor mode.
#
# Backward tasks ("kind": "backward"): the package is an explicit gradient
# function of all the task's inputs (the grad inputs among them) returning
# its outputs, the gradients, in task.json order. The reference's forward
# ops run with autograd recording and torch.autograd.grad is called with the
# grad inputs as grad_outputs, as lib/Runner/Reference.cpp does; make_fx
# traces that into one graph of ATen forward and backward ops, which
# torch.export and AOTInductor then compile as they do a forward reference.
# A package that cannot be built (export or inductor refuses it) is listed
# under "failed" in index.json with the error; scripts/results.py marks its
# shapes "unbuildable" and leaves the task out of fast_p against
# torch.compile rather than counting it slow.
#
# Inductor mode: the default (max_autotune off), which is what
# torch.compile(model) gives a user; max_autotune benchmarks Triton GEMM
# configurations for minutes per shape and would not fit one GPU session.
#
#   scripts/gpu-aoti-package.py -o CACHE_DIR [--tasks a,b] [--sets tune,heldout]
#   scripts/gpu-aoti-package.py --list --torch-version 2.11.0 [--json]   (no torch needed)
#
# Exit status: 0 every package is there; 1 a package failed to build (the
# others are still built; the runner reports that shape "missing"); 2 bad
# arguments, a bad task.json or no torch/CUDA.
#===----------------------------------------------------------------------===#

import argparse
import datetime
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kbench_tasks import ROOT, TaskError, eval_shape_expr, shape_label, timed_shapes  # noqa: E402
INDUCTOR_MODE = "default"
INDUCTOR_CONFIGS = {"max_autotune": False}


# --- keys (lib/Runner/BaselinePlan.cpp computes the same) --------------------

def fnv1a64(text):
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def outs_of(op):
    out = op["out"]
    return [out] if isinstance(out, str) else ["" if o is None else o for o in out]


def extents(spec, dims):
    return [eval_shape_expr(e, dims) for e in spec["shape"]]


def key_text(task, dims):
    ops = [{"op": op["op"], "args": op.get("args", []), "kwargs": dict(op.get("kwargs", {})),
            "out": outs_of(op)} for op in task["reference"]]
    inputs = [[i["name"], i["dtype"], extents(i, dims)] for i in task["inputs"]]
    key = {"reference": ops, "inputs": inputs, "outputs": [o["name"] for o in task["outputs"]]}
    # A tf32 task's package is built with TF32 on: another package (other
    # tasks keep their key).
    if task.get("allow_tf32"):
        key["allow_tf32"] = True
    return json.dumps(key, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def package_name(task, dims, torch_version):
    shape = "_".join("%s%d" % (k, dims[k]) for k in sorted(dims))
    dtypes = ".".join(i["dtype"] for i in task["inputs"])
    return "%s-%016x-%s-%s-torch%s.pt2" % (task["name"], fnv1a64(key_text(task, dims)), shape,
                                           dtypes, torch_version)


def torch_version_of(version):
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", version)
    if not m:
        raise SystemExit("gpu-aoti-package: cannot read a version X.Y.Z from '%s'" % version)
    return "%s.%s.%s" % m.groups()


# --- the reference as a torch module (lib/Runner/Reference.cpp's binding) ----

def build_module(torch, task):
    dtypes = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
              "f64": torch.float64, "i8": torch.int8, "i32": torch.int32, "i64": torch.int64,
              "i1": torch.bool}
    C = torch._C

    def resolve(op):
        ns, _, rest = op["op"].partition("::")
        name, _, overload = rest.partition(".")
        try:
            return getattr(getattr(getattr(torch.ops, ns), name), overload or "default")
        except (AttributeError, RuntimeError):
            raise TaskError("no op '%s' in torch %s" % (op["op"], torch.__version__))

    def bind(arg, value, env, dims, where):
        t = arg.type
        if isinstance(t, C.OptionalType):
            t = t.getElementType()
        real = str(getattr(arg, "real_type", t))
        if value is None:
            return None
        if isinstance(t, C.TensorType):
            return env[value]
        if isinstance(t, C.ListType):
            elem = t.getElementType()
            if isinstance(elem, C.OptionalType):
                elem = elem.getElementType()
            items = value if isinstance(value, list) else [value]
            if isinstance(elem, C.TensorType):
                return [env[n] for n in items]
            if isinstance(elem, (C.IntType, C.SymIntType)):
                return [eval_shape_expr(n, dims) for n in items]
            return list(items)
        # torch 1.13's schema arguments have no real_type: a ScalarType
        # argument shows as int there, so a dtype name (never a dim name)
        # identifies it too.
        if "ScalarType" in real or (isinstance(t, C.IntType) and value in dtypes):
            if value not in dtypes:
                raise TaskError("%s: '%s' is not a dtype name" % (where, value))
            return dtypes[value]
        if isinstance(t, (C.IntType, C.SymIntType)):
            return eval_shape_expr(value, dims)
        if isinstance(t, (C.FloatType, C.NumberType)) and isinstance(value, str):
            v = eval_shape_expr(value, dims)
            return float(v) if isinstance(t, C.FloatType) else v
        return value

    ops = [(resolve(op), op) for op in task["reference"]]
    input_names = [i["name"] for i in task["inputs"]]
    output_names = [o["name"] for o in task["outputs"]]
    backward = task.get("kind") == "backward"

    class Reference(torch.nn.Module):
        def __init__(self, dims):
            super().__init__()
            self.dims = dims

        def forward(self, *inputs):
            env = dict(zip(input_names, inputs))
            if not backward:
                self.evaluate(env)
                return tuple(env[n] for n in output_names)
            # The gradients of the outputs' grad_of inputs, seeded by the
            # grad inputs (role "grad", "of" a reference result); unused
            # gradients are zeros, as the runner makes them.
            leaves = {}
            for o in task["outputs"]:
                if o["grad_of"] not in leaves:
                    leaves[o["grad_of"]] = env[o["grad_of"]].detach().requires_grad_(True)
                env[o["grad_of"]] = leaves[o["grad_of"]]
            with torch.enable_grad():
                self.evaluate(env)
            grad_inputs = [i for i in task["inputs"] if i.get("role") == "grad"]
            targets = [leaves[o["grad_of"]] for o in task["outputs"]]
            grads = torch.autograd.grad([env[i["of"]] for i in grad_inputs], targets,
                                        [env[i["name"]] for i in grad_inputs], allow_unused=True)
            return tuple(torch.zeros_like(t) if g is None else g
                         for g, t in zip(grads, targets))

        def evaluate(self, env):
            for i, (overload, op) in enumerate(ops):
                schema = overload._schema.arguments
                kwargs = {}
                for j, value in enumerate(op.get("args", [])):
                    kwargs[schema[j].name] = bind(schema[j], value, env, self.dims,
                                                  "reference[%d].args[%d]" % (i, j))
                by_name = {a.name: a for a in schema}
                for name, value in op.get("kwargs", {}).items():
                    kwargs[name] = bind(by_name[name], value, env, self.dims,
                                        "reference[%d].kwargs.%s" % (i, name))
                # Leading arguments go by position (their schema names, such
                # as "self", are awkward keywords); the rest by name.
                positional = []
                for a in schema:
                    if a.kwarg_only or a.name not in kwargs:
                        break
                    positional.append(kwargs.pop(a.name))
                result = overload(*positional, **kwargs)
                results = result if isinstance(result, (tuple, list)) else [result]
                for name, value in zip(outs_of(op), results):
                    if name:
                        env[name] = value

    def example_inputs(dims):
        args = []
        for spec in task["inputs"]:
            shape, dtype = extents(spec, dims), dtypes[spec["dtype"]]
            if dtype.is_floating_point:
                args.append(torch.randn(shape, device="cuda").to(dtype))
            else:
                args.append(torch.randint(0, 2, shape, device="cuda").to(dtype))
        return tuple(args)

    return Reference, example_inputs


def trace_gradients(torch, module, inputs):
    """A backward reference module as one graph of ATen ops (forward and
    backward), which torch.export takes like any forward module: make_fx
    runs the module's autograd call on real inputs and records every op."""
    from torch.fx.experimental.proxy_tensor import make_fx
    return make_fx(module)(*inputs)


def build_one(task, dims, output, name):
    """Builds one package into OUTPUT/NAME (through a temporary name, so a
    half-written package is never taken for a built one). Runs in the main
    process or in a --jobs worker; returns {"seconds"} or {"error"}."""
    import torch
    import torch._inductor
    # As the runner times the eager baseline: fp32 matmuls without TF32,
    # unless the task opts into tf32 ("allow_tf32": true); then with it, as
    # the runner also runs this package.
    tf32 = bool(task.get("allow_tf32", False))
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    t0 = time.time()
    try:
        module_class, example_inputs = build_module(torch, task)
        module, inputs = module_class(dims).cuda(), example_inputs(dims)
        if task.get("kind") == "backward":
            module = trace_gradients(torch, module, inputs)
        with torch.no_grad():
            program = torch.export.export(module, inputs)
            tmp = os.path.join(output, ".tmp-" + name)
            torch._inductor.aoti_compile_and_package(
                program, package_path=tmp, inductor_configs=INDUCTOR_CONFIGS)
        os.replace(tmp, os.path.join(output, name))
    except Exception as e:  # any failure of tracing, export or inductor: report, go on
        return {"error": "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")}
    return {"seconds": time.time() - t0}


def packages_to_build(args, tasks, torch_version):
    """(work, reused): the packages missing from CACHE_DIR, and how many are there."""
    work, reused = [], 0
    for task in tasks:
        for set_name, index_in_set, dims in timed_shapes(task, args.sets):
            name = package_name(task, dims, torch_version)
            label = shape_label(set_name, index_in_set, dims)
            if os.path.exists(os.path.join(args.output, name)):
                reused += 1
                print("gpu-aoti-package: %s %s: reusing %s" % (task["name"], label, name))
                continue
            work.append((task, dims, name, label))
    return work, reused


def build_packages(args, tasks, torch_version):
    # Every package already built: done without importing torch, which costs
    # seconds on each call of a loop that measures a search round at a time.
    work, reused = packages_to_build(args, tasks, torch_version)
    if not work:
        print("gpu-aoti-package: 0 built, %d reused, in %s (nothing to build; torch not imported)" %
              (reused, args.output))
        return 0
    try:
        import torch
    except ImportError as e:
        print("gpu-aoti-package: cannot import torch (%s); run this on the GPU machine" % e,
              file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("gpu-aoti-package: torch %s sees no CUDA device" % torch.__version__, file=sys.stderr)
        return 2
    try:
        import torch._inductor
    except ImportError:
        pass
    if not hasattr(getattr(torch, "_inductor", None), "aoti_compile_and_package"):
        print("gpu-aoti-package: torch %s has no torch._inductor.aoti_compile_and_package "
              "(torch >= 2.6 needed)" % torch.__version__, file=sys.stderr)
        return 2
    # As the runner times the eager baseline: fp32 matmuls without TF32.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    os.makedirs(args.output, exist_ok=True)
    index_path = os.path.join(args.output, "index.json")
    index = {"format": "kbench-aoti-index/1", "packages": {}}
    if os.path.exists(index_path):
        with open(index_path) as f:
            index = json.load(f)
    index.update({"torch": torch.__version__, "inductor_mode": INDUCTOR_MODE,
                  "inductor_configs": INDUCTOR_CONFIGS})
    status = 0
    built = 0
    failed = index.setdefault("failed", {})

    def record(task, dims, name, label, outcome):
        nonlocal built, status
        path = os.path.join(args.output, name)
        if "error" in outcome:
            print("gpu-aoti-package: %s %s: FAILED: %s" % (task["name"], label, outcome["error"]),
                  file=sys.stderr)
            failed[name] = {"task": task["name"], "shape": label, "error": outcome["error"],
                            "torch": torch.__version__}
            status = 1
        else:
            failed.pop(name, None)
            built += 1
            index["packages"][name] = {
                "task": task["name"], "shape": label, "dims": dims,
                "build_s": round(outcome["seconds"], 2),
                "bytes": os.path.getsize(path), "torch": torch.__version__,
                "inductor_mode": INDUCTOR_MODE,
                "built": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
            print("gpu-aoti-package: %s %s: built %s in %.1f s, %d bytes" %
                  (task["name"], label, name, outcome["seconds"], os.path.getsize(path)))
        sys.stdout.flush()
        with open(index_path, "w") as f:
            json.dump(index, f, indent=2, sort_keys=True)

    if args.jobs <= 1 or len(work) <= 1:
        for task, dims, name, label in work:
            record(task, dims, name, label, build_one(task, dims, args.output, name))
    else:
        # Each worker process pays inductor's cold start once (about a
        # minute) and then builds packages one after another; the parent
        # alone writes index.json.
        import concurrent.futures
        import multiprocessing
        with concurrent.futures.ProcessPoolExecutor(
                max_workers=min(args.jobs, len(work)),
                mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = {pool.submit(build_one, task, dims, args.output, name): (task, dims, name, label)
                       for task, dims, name, label in work}
            for future in concurrent.futures.as_completed(futures):
                task, dims, name, label = futures[future]
                try:
                    outcome = future.result()
                except Exception as e:  # the worker process itself died
                    outcome = {"error": "%s: %s" % (type(e).__name__, e)}
                record(task, dims, name, label, outcome)
    with open(index_path, "w") as f:
        json.dump(index, f, indent=2, sort_keys=True)
    print("gpu-aoti-package: %d built, %d reused, in %s (index.json; inductor mode %s)" %
          (built, reused, args.output, INDUCTOR_MODE))
    return status


def main(argv):
    p = argparse.ArgumentParser(
        description="Build (or --list) the AOTInductor packages of the tasks' references, "
                    "the torch.compile baseline of kbench-run --compiled-baselines.")
    p.add_argument("-o", "--output", metavar="CACHE_DIR", help="where packages and index.json go")
    p.add_argument("--tasks-dir", default=os.path.join(ROOT, "tasks"),
                   help="folder of task folders (default: tasks/)")
    p.add_argument("--tasks", help="comma-separated task names (default: every task)")
    p.add_argument("--sets", default="tune,heldout",
                   help="shape sets to package (default: tune,heldout, the timed ones)")
    p.add_argument("--list", action="store_true",
                   help="print the package names and exit (no torch needed with --torch-version)")
    p.add_argument("--torch-version", help="for --list: the torch version X.Y.Z of the names "
                   "(default: the installed torch's)")
    p.add_argument("--json", action="store_true", help="--list as JSON")
    p.add_argument("--jobs", type=int, default=1,
                   help="packages built at once, each worker process paying inductor's cold "
                        "start once (default 1)")
    args = p.parse_args(argv)
    args.sets = [s for s in args.sets.split(",") if s]
    for s in args.sets:
        if s not in ("check", "tune", "heldout"):
            p.error("--sets: unknown shape set '%s' (check, tune, heldout)" % s)
    if args.jobs < 1:
        p.error("--jobs: %d is not a number of processes (1 or more)" % args.jobs)
    if not args.list and not args.output:
        p.error("-o CACHE_DIR is required (or --list)")

    if not os.path.isdir(args.tasks_dir):
        p.error("--tasks-dir: no folder %s" % args.tasks_dir)
    names = args.tasks.split(",") if args.tasks else sorted(
        d for d in os.listdir(args.tasks_dir)
        if os.path.isfile(os.path.join(args.tasks_dir, d, "task.json")))
    tasks = []
    for name in names:
        path = os.path.join(args.tasks_dir, name, "task.json")
        if not os.path.isfile(path):
            p.error("--tasks: no task '%s' (%s does not exist)" % (name, path))
        try:
            with open(path) as f:
                tasks.append(json.load(f))
        except ValueError as e:
            print("gpu-aoti-package: %s: not JSON: %s" % (path, e), file=sys.stderr)
            return 2

    if args.torch_version:
        version = torch_version_of(args.torch_version)
    else:
        # The installed distribution's version, read without importing torch.
        try:
            import importlib.metadata
            version = torch_version_of(importlib.metadata.version("torch"))
        except importlib.metadata.PackageNotFoundError:
            p.error("no torch here: pass --torch-version X.Y.Z")

    if args.list:
        rows = []
        try:
            for task in tasks:
                for set_name, i, dims in timed_shapes(task, args.sets):
                    rows.append({"task": task["name"], "shape": shape_label(set_name, i, dims),
                                 "package": package_name(task, dims, version)})
        except (TaskError, KeyError) as e:
            print("gpu-aoti-package: %s: %s" % (task.get("name", "?"), e), file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(rows, indent=2))
        else:
            for r in rows:
                print("%s %s %s" % (r["task"], r["shape"], r["package"]))
        return 0
    try:
        return build_packages(args, tasks, version)
    except TaskError as e:
        print("gpu-aoti-package: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
