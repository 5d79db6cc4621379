#!/usr/bin/env python3
"""Times PyTorch on CUDA on the benchmark cases, next to onnxpool_gpu_bench.

bench/gpu's onnxpool_gpu_bench times onnxpool's CUDA kernels on device
tensors; this script times PyTorch on the same GPU, on the same cases
(bench/shapes.h, read by python_peers.read_shapes) with the same formulations
as python_peers.py's CPU rows (TorchPeer.formulations: F.max_pool2d, and
with return_indices=True against onnxpool_cuda_indices; F.avg_pool2d with shapes.h's count_include_pad, ONNX's default 0; LpPool as
F.pad + F.lp_pool2d and as avg_pool2d(x^2, divisor_override=1).sqrt_();
the global operators as adaptive pools and as amax / mean /
torch.linalg.vector_norm), each on a contiguous (nchw) and a channels_last
(nhwc) tensor, and writes Google Benchmark JSON under the same names for
tools/bench_report.py:

    BM_<op>/<case>/torch[_<form>]_<layout>/threads:1/manual_time
    BM_<op>/<case>/floor_torch_copy/threads:1/manual_time
        dst.copy_(src) moving as many bytes as the operator (input read plus
        output written: a copy of half that many), the bandwidth floor
    BM_CallOverhead/T0/torch_nchw/threads:1/manual_time   x.clone() of 1x1x1x1

Method. Every row's output is first compared with the numpy float64
reference of onnxpool's semantics (python_peers.reference, and
python_peers.reference_indices for the Indices; a wrong result becomes an
error row, never a number). Then a warm-up (--warmup seconds, at
least 10 calls), then --runs runs (at least 50), each one call between two
CUDA events on the current stream with the GPU idle before it: the host's
dispatch and launch plus the kernels, the way onnxpool_gpu_bench's
onnxpool_cuda rows time one onnxpool call. A row gives the median, mean,
stddev and cv of the runs (cpu_time: the host time of the call itself). The
label adds the time per call when --queued calls are issued back to back
between one event pair, where launches hide behind the previous kernels (what
a model running op after op sees; onnxpool's calls synchronize, so it has no
such figure).

    python3 bench/torch_gpu_peers.py -o torch_gpu_peers.json [--filter REGEX]
        [--runs 200] [--warmup 0.1] [--queued 100] [--device 0]

Exits 1 (after writing the JSON, with error rows) if torch or CUDA is missing
or any row failed.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import python_peers as peers  # noqa: E402  (the cases, reference, formulations and JSON rows)

MIN_RUNS = 50
MIN_WARMUP_CALLS = 10
QUEUED_REPETITIONS = 5

NOTES = [
    "GPU rows: medians of single calls, each between two CUDA events with the GPU idle before it "
    "(host dispatch and launch included); onnxpool_cuda_wall is an onnxpool call's host wall time, "
    "its synchronization included. 'queued' in a torch label: time per call when many calls are "
    "issued back to back.",
    "floor_*: a device-to-device copy moving as many bytes as the operator (input read plus "
    "output written).",
] + peers.SEMANTIC_NOTES[:2]


def time_with_events(torch, call, runs: int, warmup: float, queued: int):
    """(python_peers.Timing of single calls in us, us per call when queued)."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        calls, began = 0, time.perf_counter()
        while calls < MIN_WARMUP_CALLS or time.perf_counter() - began < warmup:
            call()
            calls += 1
        torch.cuda.synchronize()
        samples, host = [], []
        for _ in range(runs):
            start.record()
            host_start = time.perf_counter_ns()
            call()
            host.append((time.perf_counter_ns() - host_start) / 1e3)
            end.record()
            end.synchronize()
            samples.append(start.elapsed_time(end) * 1e3)
        per_call_queued = []
        for _ in range(QUEUED_REPETITIONS):
            start.record()
            for _ in range(queued):
                call()
            end.record()
            end.synchronize()
            per_call_queued.append(start.elapsed_time(end) * 1e3 / queued)
        return peers.Timing(samples, host, 1), statistics.median(per_call_queued)
    finally:
        if gc_was_enabled:
            gc.enable()


def work_list(settings):
    """(ONNX op or CallOverhead, op torch runs, case), in shapes.h's order."""
    work = [(op, op, case) for op, cases in settings.cases.items() for case in cases]
    work.append((settings.overhead_op, "Identity", settings.overhead_case))
    return work


def planned_rows(settings, torch_peer):
    """(run_name, op, framework_op, case, impl) of every row, floors included."""
    rows = []
    for op, framework_op, case in work_list(settings):
        impls = (torch_peer.impls(framework_op, case, settings) if torch_peer
                 else ["torch_nchw"])
        if op != settings.overhead_op:
            impls = impls + ["floor_torch_copy"]
        for impl in impls:
            rows.append((f"BM_{op}/{case.id}/{impl}/threads:1/manual_time", op, framework_op, case,
                         impl))
    return rows


def prepare(torch, torch_peer, settings, framework_op, case, impl, x_host, device):
    """(call, output as NCHW numpy or None, label, ONNX Indices as numpy or None) for one row."""
    if impl == "floor_torch_copy":
        elements = case.bytes() // 2 // 4
        source = torch.rand(elements, device=device)
        destination = torch.empty_like(source)
        return (lambda: destination.copy_(source), None,
                f"dst.copy_(src) of {elements * 4} bytes", None)
    parts = impl.split("_")
    layout, form = parts[-1], "_".join(parts[1:-1])
    function, text = torch_peer.formulations(framework_op, case, settings)[form]
    x = torch.from_numpy(x_host).to(device)
    if layout == "nhwc":
        x = x.contiguous(memory_format=torch.channels_last)
    result = {}

    def call():
        result["y"] = function(x)

    def output():
        y = result["y"]
        return (y[0] if isinstance(y, tuple) else y).contiguous().cpu().numpy()

    def indices():
        return peers.onnx_indices(result["y"][1].contiguous().cpu().numpy(), case)

    memory = "channels_last" if layout == "nhwc" else "contiguous"
    return (call, output, f"torch {torch_peer.version} CUDA, {text}, {memory}",
            indices if peers.with_indices(impl) else None)


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", required=True, help="JSON file to write")
    parser.add_argument("--filter", default="", help="regex on the benchmark name (a leading '-' "
                        "excludes what matches)")
    parser.add_argument("--runs", type=int, default=200, help=f"timed calls per row (>= {MIN_RUNS})")
    parser.add_argument("--warmup", type=float, default=0.1, help="seconds of warm-up per row")
    parser.add_argument("--queued", type=int, default=100,
                        help="calls issued back to back for the label's queued figure")
    parser.add_argument("--device", type=int, default=0, help="CUDA device index")
    args = parser.parse_args(argv)
    if args.runs < MIN_RUNS:
        parser.error(f"--runs must be at least {MIN_RUNS}")

    settings = peers.read_shapes()
    negate = args.filter.startswith("-")
    pattern = re.compile(args.filter[1:] if negate else args.filter)

    torch = torch_peer = None
    failure = None
    try:
        import torch
        torch_peer = peers.TorchPeer()
        if not torch.cuda.is_available():
            failure = (f"torch {torch.__version__} sees no CUDA device "
                       f"(torch.cuda.is_available() is False; built for CUDA {torch.version.cuda})")
    except ImportError as error:
        failure = f"torch is not installed ({error})"

    rows = []
    failed = 0
    context_extra = {"executable": "bench/torch_gpu_peers.py"}
    if failure is None:
        device = torch.device("cuda", args.device)
        torch.cuda.set_device(device)
        context_extra.update(cuda_device=torch.cuda.get_device_name(device),
                             torch_cuda=torch.version.cuda)
        try:
            context_extra["cudnn"] = torch.backends.cudnn.version()
        except Exception as error:  # only context: the rows do not need cuDNN
            context_extra["cudnn"] = repr(error)
    inputs, references = {}, {}  # of the case being run
    for run_name, op, framework_op, case, impl in planned_rows(settings, torch_peer):
        if bool(pattern.search(run_name)) == negate:
            continue
        if failure is not None:
            rows.append(peers.error_row(run_name, failure))
            failed += 1
            continue
        try:
            if case.id not in inputs:
                inputs, references = {case.id: peers.make_input(case)}, {}
            x_host = inputs[case.id]
            if op not in references:
                references[op] = x_host if framework_op == "Identity" else peers.reference(
                    op, case, x_host, settings)
            call, output, label, indices = prepare(torch, torch_peer, settings, framework_op, case,
                                                   impl, x_host, device)
            with torch.inference_mode():
                call()
                torch.cuda.synchronize()
                if output is not None:
                    mismatch = peers.first_mismatch(op, output(), references[op])
                    if not mismatch and indices is not None:
                        mismatch = peers.indices_mismatch(indices(), peers.reference_indices(case, x_host))
                    if mismatch:
                        raise peers.PeerError(mismatch)
                timing, queued_us = time_with_events(torch, call, args.runs, args.warmup,
                                                     args.queued)
        except Exception as error:  # any failure is that row's error, not the run's
            message = str(error) if isinstance(error, peers.PeerError) else repr(error)
            rows.append(peers.error_row(run_name, message))
            failed += 1
            print(f"{run_name:75s} ERROR {message}", file=sys.stderr)
            continue
        finally:
            call = output = indices = None  # frees the row's tensors before the next one
        rows += peers.aggregate_rows(run_name, timing, 1, peers.row_bytes(impl, op, case, settings),
                                     f"{label}; queued {queued_us:.2f} us/call")
        print(f"{run_name:75s} {statistics.median(timing.samples_us):10.2f} us "
              f"(queued {queued_us:.2f})", file=sys.stderr)

    context = peers.context({"torch": torch_peer} if torch_peer else {}, NOTES)
    context.update(context_extra)
    document = {"context": context, "benchmarks": rows}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
