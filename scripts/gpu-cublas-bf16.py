#!/usr/bin/env python3
"""Times cuBLAS bf16 GEMMs (torch.nn.functional.linear) on the GPU machine.

    scripts/gpu-cublas-bf16.py OUT.json [MxNxK ...]

The reference point of the tensor-core targets (docs/results.md): the bf16
tasks' own references compute in f32 from bf16 inputs (LibTorch 1.13 has no
bf16 GEMM on the CPU), so their "eager" column is an f32 GEMM, not cuBLAS
bf16. This script times y = x @ w^T with bf16 x[M,K], w[N,K] and a bf16
result (what cuBLAS offers for bf16 inputs), and once more with the result
cast to f32, per shape: median of 200 runs, each timed alone with CUDA
events after the L2 is flushed by writing 256 MiB (the runner's "write"
flush), 20 warm-up runs first. Default shapes: the tune and heldout shapes of
tasks/matmul_bf16. Writes a JSON list (shape, median_us, tflops, torch
version, GPU name).
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
    for text in sys.argv[2:] or ["4096x4096x4096", "3000x1000x777", "16x4096x4096"]:
        parts = text.split("x")
        if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
            print(f"gpu-cublas-bf16: shape '{text}' is not MxNxK (three positive integers)",
                  file=sys.stderr)
            return 2
        shapes.append(tuple(int(p) for p in parts))
    if not torch.cuda.is_available():
        print("gpu-cublas-bf16: no CUDA device (run it on the GPU machine)", file=sys.stderr)
        return 2
    flush = l2_flush_buffer()
    rows = []
    for m, n, k in shapes:
        text = f"{m}x{n}x{k}"
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        bf16_us = time_us(lambda: torch.nn.functional.linear(x, w), flush, reps=200, warmup=20)
        f32_us = time_us(lambda: torch.nn.functional.linear(x, w).float(), flush, reps=200, warmup=20)
        flops = 2.0 * m * n * k
        rows.append({
            "shape": {"M": m, "N": n, "K": k},
            "bf16_out_median_us": bf16_us,
            "f32_out_median_us": f32_us,
            "bf16_out_tflops": flops / bf16_us / 1e6,
            "torch": torch.__version__,
            "gpu": torch.cuda.get_device_name(),
        })
        print(f"{text}: cuBLAS bf16 {bf16_us:.2f} us ({flops / bf16_us / 1e6:.1f} TFLOP/s), "
              f"with the f32 cast {f32_us:.2f} us")
    with open(sys.argv[1], "w") as f:
        json.dump(rows, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
