"""CUDA-event timing shared by the GPU machine's baseline scripts.

scripts/gpu-cublas-bf16.py and scripts/gpu-sdpa-bf16.py time torch calls
the way kbench-run times a bundle (docs/runner.md): each run alone, between
CUDA events, after the L2 is flushed by writing 256 MiB (the runner's
"write" flush), warm-up runs first; the median in microseconds.
"""
import statistics

import torch


def l2_flush_buffer():
    """256 MiB on the GPU; filling it evicts the H200's 60 MiB L2."""
    return torch.empty(64 * 1024 * 1024, dtype=torch.float32, device="cuda")


def time_us(fn, flush, reps, warmup):
    """Median of `reps` timed calls of `fn`, each after `flush.fill_`."""
    for _ in range(warmup):
        fn()
    times = []
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    for _ in range(reps):
        flush.fill_(1.0)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(times)
