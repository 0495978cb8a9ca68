#!/usr/bin/env python3
"""Times torch's scaled_dot_product_attention on the GPU machine.

    scripts/gpu-sdpa-bf16.py OUT.json [BHxSxD ...]

The reference point of the attention targets (docs/results.md): the
attention tasks' own references compute in f32 from bf16 inputs with two
bmm and a softmax (LibTorch 1.13 has neither a bf16 GEMM on the CPU nor
scaled_dot_product_attention), so their eager and torch.compile columns are
not what a model runs. This script times
torch.nn.functional.scaled_dot_product_attention on bf16 q, k, v of shape
[BH, S, D] (as [1, BH, S, D]), non-causal and causal, once per backend
that is enabled and accepts the inputs (flash, efficient, cudnn, math),
and names the fastest: median of 100 runs, each timed alone with CUDA
events after the L2 is flushed by writing 256 MiB (the runner's "write"
flush), 10 warm-up runs first. Default shape: the tune shape of
tasks/attention_bf16 (B = 8 x H = 16 heads, S = 4096, D = 128). Writes a
JSON list (shape, causal, per-backend median_us and TFLOP/s, fastest,
torch version, GPU name).
"""
import json
import sys

import torch

from gpu_timing import l2_flush_buffer, time_us


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    shapes = []
    for text in sys.argv[2:] or ["128x4096x128"]:
        parts = text.split("x")
        if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
            print(f"gpu-sdpa-bf16: shape '{text}' is not BHxSxD (three positive integers)",
                  file=sys.stderr)
            return 2
        shapes.append(tuple(int(p) for p in parts))
    if not torch.cuda.is_available():
        print("gpu-sdpa-bf16: no CUDA device (run it on the GPU machine)", file=sys.stderr)
        return 2
    try:  # torch >= 2.3; the GPU machine has it, the CPU machine's 1.13 does not
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        print(f"gpu-sdpa-bf16: torch {torch.__version__} has no torch.nn.attention "
              "(run it on the GPU machine)", file=sys.stderr)
        return 2
    backends = {
        "flash": SDPBackend.FLASH_ATTENTION,
        "efficient": SDPBackend.EFFICIENT_ATTENTION,
        "cudnn": SDPBackend.CUDNN_ATTENTION,
        "math": SDPBackend.MATH,
    }
    flush = l2_flush_buffer()
    rows = []
    for bh, s, d in shapes:
        q, k, v = (torch.randn(1, bh, s, d, device="cuda", dtype=torch.bfloat16)
                   for _ in range(3))
        for causal in (False, True):
            flops = 4.0 * bh * s * s * d / (2.0 if causal else 1.0)
            timings = {}
            for name, backend in backends.items():
                if name == "math" and s * s * bh > 2**31:
                    timings[name] = {"skipped": "the math backend materializes S x S scores"}
                    continue
                try:
                    with sdpa_kernel(backend):
                        fn = lambda: torch.nn.functional.scaled_dot_product_attention(
                            q, k, v, is_causal=causal)
                        us = time_us(fn, flush, reps=100, warmup=10)
                    timings[name] = {"median_us": us, "tflops": flops / us / 1e6}
                except RuntimeError as error:  # backend not enabled or not applicable
                    timings[name] = {"skipped": str(error).splitlines()[0][:200]}
            timed = {n: t for n, t in timings.items() if "median_us" in t}
            fastest = min(timed, key=lambda n: timed[n]["median_us"]) if timed else None
            rows.append({
                "shape": {"BH": bh, "S": s, "D": d},
                "causal": causal,
                "backends": timings,
                "fastest": fastest,
                "torch": torch.__version__,
                "gpu": torch.cuda.get_device_name(),
            })
            summary = ", ".join(f"{n} {t['median_us']:.1f} us ({t['tflops']:.0f} TFLOP/s)"
                                for n, t in timed.items())
            print(f"{bh}x{s}x{d} {'causal' if causal else 'non-causal'}: {summary}; "
                  f"fastest {fastest}")
    with open(sys.argv[1], "w") as f:
        json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
