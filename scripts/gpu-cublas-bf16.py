#!/usr/bin/env python3
"""Times cuBLAS bf16 GEMMs (torch.nn.functional.linear) on the GPU machine.

    scripts/gpu-cublas-bf16.py OUT.json [MxNxK | BxMxNxK ...]

The reference point of the tensor-core targets (docs/results.md): the bf16
tasks' own references compute in f32 from bf16 inputs (LibTorch 1.13 has no
bf16 GEMM on the CPU), so their "eager" column is an f32 GEMM, not cuBLAS
bf16. This script times y = x @ w^T with bf16 x[M,K], w[N,K] and a bf16
result (what cuBLAS offers for bf16 inputs), and once more with the result
cast to f32, per shape; a shape BxMxNxK times torch.bmm(a, w) with bf16
a[B,M,K], w[B,K,N] instead (tasks/bmm_bf16's layout). Median of 200 runs,
each timed alone with CUDA events after the L2 is flushed by writing 256 MiB
(the runner's "write" flush), 20 warm-up runs first. Default shapes: the
tune and heldout shapes of tasks/matmul_bf16. Writes a JSON list (shape,
median_us, tflops, torch version, GPU name).
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
        if len(parts) not in (3, 4) or not all(p.isdigit() and int(p) > 0 for p in parts):
            print(f"gpu-cublas-bf16: shape '{text}' is not MxNxK or BxMxNxK "
                  "(three or four positive integers)", file=sys.stderr)
            return 2
        shapes.append(tuple(int(p) for p in parts))
    if not torch.cuda.is_available():
        print("gpu-cublas-bf16: no CUDA device (run it on the GPU machine)", file=sys.stderr)
        return 2
    flush = l2_flush_buffer()
    rows = []
    for shape in shapes:
        text = "x".join(str(d) for d in shape)
        batch, (m, n, k) = (shape[0], shape[1:]) if len(shape) == 4 else (None, shape)
        if batch is None:
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
            product = lambda: torch.nn.functional.linear(x, w)
        else:
            x = torch.randn(batch, m, k, device="cuda", dtype=torch.bfloat16)
            w = torch.randn(batch, k, n, device="cuda", dtype=torch.bfloat16)
            product = lambda: torch.bmm(x, w)
        bf16_us = time_us(product, flush, reps=200, warmup=20)
        f32_us = time_us(lambda: product().float(), flush, reps=200, warmup=20)
        flops = 2.0 * (batch or 1) * m * n * k
        described = {"M": m, "N": n, "K": k} if batch is None else {"B": batch, "M": m, "N": n, "K": k}
        rows.append({
            "shape": described,
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
