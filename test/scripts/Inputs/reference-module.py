#!/usr/bin/env python3
# Usage: reference-module.py SCRIPTS_DIR TASKS_DIR
# Builds the torch module gpu-aoti-package.py would export for every shipped
# task and runs it eagerly on the CPU at a small shape, against the same
# computation written with torch.nn.functional by hand: the binding of
# task.json arguments (tensor names, dim lists such as ["N"], kwargs, float
# literals) must mean what lib/Runner/Reference.cpp makes it mean.
import importlib.util
import json
import os
import sys

import torch
import torch.nn.functional as F

scripts, tasks_dir = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("pkg", os.path.join(scripts, "gpu-aoti-package.py"))
pkg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pkg)

expected = {
    "gelu_bias": lambda x, s, b: F.gelu(x * s + b, approximate="tanh"),
    "layernorm": lambda x, w, b: F.layer_norm(x, [x.shape[1]], w, b, 1e-5),
    "linear_bias_relu": lambda x, w, b: torch.relu(F.linear(x, w, b)),
    "row_softmax": lambda x: torch.softmax(x, 1),
    "row_sum": lambda x: x.sum(1),
}
torch.manual_seed(0)
status = 0
for name in sorted(expected):
    task = json.load(open(os.path.join(tasks_dir, name, "task.json")))
    dims = {"M": 5, "N": 7, "K": 3}
    module_class, _ = pkg.build_module(torch, task)
    inputs = [torch.randn(pkg.extents(i, dims)) for i in task["inputs"]]
    with torch.no_grad():
        (got,) = module_class(dims)(*inputs)
        want = expected[name](*inputs)
    ok = got.shape == want.shape and torch.allclose(got, want, atol=1e-6, rtol=1e-6)
    print("%s %s %s" % ("same" if ok else "DIFFERENT", name, list(got.shape)))
    status |= 0 if ok else 1
sys.exit(status)
