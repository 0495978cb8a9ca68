#!/usr/bin/env python3
# Usage: reference-module.py SCRIPTS_DIR TASKS_DIR
# Builds the torch module gpu-aoti-package.py would export for every shipped
# task and runs it eagerly on the CPU at a small shape, against the same
# computation written with torch.nn.functional by hand: the binding of
# task.json arguments (tensor names, dim lists such as ["N"], kwargs, float
# literals) must mean what lib/Runner/Reference.cpp makes it mean. For a
# backward task the module returns gradients; the hand-written side takes
# them with torch.autograd from the functional forward, and the module
# traced by make_fx (what the package exports) must give them too.
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


def rms(x, w):
    return x * torch.rsqrt((x * x).mean(1, keepdim=True) + 1e-6) * w


def causal(x):
    mask = torch.ones_like(x).triu(1).bool()
    return torch.softmax((x * 0.125).masked_fill(mask, float("-inf")), 1)


def soft_ce(x, t):
    return -(torch.softmax(t, 1) * torch.log_softmax(x, 1)).sum(1)


def group_norm(x, w, b):
    B, G, D = x.shape
    return F.group_norm(x.reshape(B, G * D), G, w.reshape(-1), b.reshape(-1), 1e-5).reshape(x.shape)


forward = {
    "gelu_bias": lambda x, s, b: F.gelu(x * s + b, approximate="tanh"),
    "layernorm": lambda x, w, b: F.layer_norm(x, [x.shape[1]], w, b, 1e-5),
    "linear_bias_relu": lambda x, w, b: torch.relu(F.linear(x, w, b)),
    "row_softmax": lambda x: torch.softmax(x, 1),
    "row_sum": lambda x: x.sum(1),
    "add_layernorm": lambda x, r, w, b: (x + r, F.layer_norm(x + r, [x.shape[1]], w, b, 1e-5)),
    "batchnorm_train": lambda x, w, b: F.batch_norm(x, None, None, w, b, True, 0.1, 1e-5),
    "bce_logits": lambda x, t: F.binary_cross_entropy_with_logits(x, t, reduction="none").mean(1),
    "causal_softmax": causal,
    "col_sum": lambda x: x.sum(0),
    "col_var_mean": lambda x: (x.mean(0), x.var(0)),
    "group_norm": group_norm,
    "hardswish": F.hardswish,
    "l2_normalize": lambda x: F.normalize(x, dim=1),
    "log_softmax": lambda x: torch.log_softmax(x, 1),
    "logit_softcap": lambda x: 30 * torch.tanh(x / 30),
    "logsumexp": lambda x: torch.logsumexp(x, 1),
    "matmul_residual": lambda x, w, r: x @ w + r,
    "matmul_tn": lambda a, b: a.t() @ b,
    "mish": F.mish,
    "residual_layerscale": lambda x, r, b, g: r + g * (x + b),
    "rmsnorm": rms,
    "soft_cross_entropy": soft_ce,
    "swiglu": lambda a, b: F.silu(a) * b,
    "swiglu_mlp": lambda x, wg, wu: F.silu(x @ wg.t()) * (x @ wu.t()),
    "matmul_bf16": lambda x, w: F.linear(x.float(), w.float()),
    "linear_bias_gelu_bf16": lambda x, w, b: F.gelu(
        F.linear(x.float(), w.float(), b.float()), approximate="tanh").to(torch.bfloat16),
}
# Backward tasks: (the forward of the task's non-grad inputs, the indices of
# the inputs whose gradients are the outputs).
backward = {
    "batchnorm_backward": (lambda x, w: F.batch_norm(x, None, None, w, None, True, 0.1, 1e-5), [0]),
    "gelu_backward": (lambda x: F.gelu(x, approximate="tanh"), [0]),
    "layernorm_backward": (lambda x, w: F.layer_norm(x, [x.shape[1]], w, None, 1e-5), [0]),
    "linear_backward": (lambda x, w, b: F.linear(x, w, b), [0, 1, 2]),
    "log_softmax_backward": (lambda x: torch.log_softmax(x, 1), [0]),
    "rmsnorm_backward": (rms, [0]),
    "soft_cross_entropy_backward": (soft_ce, [0]),
    "softmax_backward": (lambda x: torch.softmax(x, 1), [0]),
    "swiglu_backward": (lambda a, b: F.silu(a) * b, [0, 1]),
}


def by_hand(name, inputs):
    if name in forward:
        want = forward[name](*inputs)
        return want if isinstance(want, tuple) else (want,)
    fn, wrt = backward[name]
    leaves = [t.clone().requires_grad_(True) for t in inputs[:-1]]
    y = fn(*leaves)
    return torch.autograd.grad([y], [leaves[i] for i in wrt], [inputs[-1]])


def same(got, want):
    return len(got) == len(want) and all(
        g.shape == w.shape and g.dtype == w.dtype and
        torch.allclose(g.double(), w.double(), atol=1e-5, rtol=1e-5) for g, w in zip(got, want))


torch.manual_seed(0)
status = 0
for name in sorted(list(forward) + list(backward)):
    task = json.load(open(os.path.join(tasks_dir, name, "task.json")))
    dims = {"M": 5, "N": 7, "K": 3, "B": 2, "G": 3, "D": 4}
    module_class, _ = pkg.build_module(torch, task)
    dtypes = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    inputs = [torch.randn(pkg.extents(i, dims)).to(dtypes[i["dtype"]]) for i in task["inputs"]]
    module = module_class(dims)
    with torch.no_grad():
        got = module(*inputs)
    want = by_hand(name, inputs)
    ok = same(got, want)
    print("%s %s %s" % ("same" if ok else "DIFFERENT", name, list(got[0].shape)))
    status |= 0 if ok else 1
    if name in backward:
        traced = pkg.trace_gradients(torch, module, inputs)
        ok = same(traced(*inputs), want)
        print("%s traced %s" % ("same" if ok else "DIFFERENT", name))
        status |= 0 if ok else 1
sys.exit(status)
