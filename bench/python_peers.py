#!/usr/bin/env python3
"""Times the Python peers, onnxruntime, PyTorch and Apache TVM, on the benchmark cases.

The C++ binary (build/bench/onnxpool_bench) times onnxpool, oneDNN, XNNPACK and
the bandwidth floor; onnxruntime, PyTorch and TVM have no C++ SDK on Debian, so
they are timed here, on the same cases, with the same method, and written as
Google Benchmark JSON under the same names, for tools/bench_report.py to merge:

    BM_<op>/<case>/<impl>/threads:<n>/real_time

    impl  onnxruntime_nchw       InferenceSession on a one-node model, CPU EP
          onnxruntime_indices_nchw  MaxPool with its Indices output as well
          torch_nchw, torch_nhwc the torch.nn.functional call, on a contiguous
                                 or a channels_last tensor
          torch_<form>_<layout>  another formulation of the same operator
                                 (LpPool: powavg; global ops: amax, mean, norm;
                                 MaxPool: indices, max_pool2d(return_indices=True))
          tvm_default_nchw       TVM's Relax ONNX frontend on the same one-node
                                 model as onnxruntime, default schedules
          tvm_metaschedule_nchw  ... tuned by MetaSchedule for --tvm-budget-s
                                 per case (bench/tvm_peer.py)

The cases, count_include_pad and p are read from bench/shapes.h, the one
place they are defined. Every implementation's output is compared once with
a numpy float64 reference of onnxpool's semantics before it is timed (the
Indices too: ONNX's, the first maximum in scan order, counted over the whole
tensor); a wrong result becomes an error row, never a number.

Method (as the C++ binary's defaults): a warm-up of --warmup seconds, then
--repetitions repetitions of N calls each, N chosen from the warm-up so a
repetition lasts about --min-time seconds; each repetition gives the mean time
per call, and the rows are the median, mean, stddev and cv of those. The
Python garbage collector is off while timing.

Per-call overhead: BM_CallOverhead/T0/<impl> times the framework on a trivial
op of a 1x1x1x1 tensor (onnxruntime and TVM: an Identity model; torch: x.clone()), the
floor of any call's time; compare it with small cases (S5, S7).

    .venv/bin/python bench/python_peers.py -o out/bench/python_peers.json
        [--filter REGEX] [--min-time 0.2] [--repetitions 5] [--warmup 0.1]
        [--peers onnxruntime,torch,tvm] [--tvm-budget-s 90] [--case STRING ...]
        [--cases-file FILE ...]

--case STRING (repeatable; grammar in bench/README.md) times those nodes instead
of the suite; --cases-file FILE (repeatable) adds the case strings of a file, one
per line, text from `#` on a comment (e.g. bench/models/torchvision.txt). Strings
and files are parsed by the C++ benchmark itself (build/bench/onnxpool_bench
--describe_cases, given the same flags in the same order), so both programs read
them the same way. A 2D float32 case the suite's peers can express (no dilations,
ceil_mode, auto_pad or count_include_pad; p = 2) runs every peer as the suite
does; any other runs onnxruntime only (any rank, type and attribute), checked
against the float64 reference of tools/onnxpool_cases.py.

A peer whose package is missing gets an error row per benchmark naming the
package (torch: tools/main.sh installs tools/requirements-bench.txt; tvm:
tools/requirements-tvm.txt).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import itertools
import json
import math
import os
import platform
import re
import socket
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
SHAPES_H = ROOT / "bench" / "shapes.h"
THREAD_COUNTS = (1, 2)
# Sums (average, Lp) depend on each implementation's order of additions; a max is exact.
REL_TOLERANCE = 1e-5
ABS_TOLERANCE = 1e-6


# --- cases, from bench/shapes.h -------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    n: int
    c: int
    h: int
    w: int
    kernel: tuple  # (kh, kw)
    stride: tuple  # (sh, sw)
    pads: tuple  # (top, left, bottom, right)

    @property
    def out_hw(self):
        t, l, b, r = self.pads
        return ((self.h + t + b - self.kernel[0]) // self.stride[0] + 1,
                (self.w + l + r - self.kernel[1]) // self.stride[1] + 1)

    @property
    def input_shape(self):
        return (self.n, self.c, self.h, self.w)

    @property
    def output_shape(self):
        return (self.n, self.c) + self.out_hw

    def bytes(self):
        """What the C++ rows count: float32 input read plus output written."""
        return 4 * (math.prod(self.input_shape) + math.prod(self.output_shape))


@dataclass(frozen=True)
class Settings:
    cases: dict  # op name -> [Case]
    count_include_pad: bool
    p: int
    overhead_op: str
    overhead_case: Case


def read_shapes(path: Path = SHAPES_H) -> Settings:
    """Parses the constexpr tables of shapes.h; fails loudly if they change form."""
    text = path.read_text(encoding="utf-8")
    number = r"\s*(-?\d+)\s*"
    named = {}
    for match in re.finditer(
        r"constexpr PoolCase (k\w+) = square_window\(\"(\w+)\"," + ",".join([number] * 7) + r"\)",
        text,
    ):
        var, cid, *v = match.groups()
        n, c, h, w, k, s, p = map(int, v)
        named[var] = Case(cid, n, c, h, w, (k, k), (s, s), (p, p, p, p))
    for match in re.finditer(
        r"constexpr PoolCase (k\w+) = global_window\(\"(\w+)\"," + ",".join([number] * 4) + r"\)",
        text,
    ):
        var, cid, *v = match.groups()
        n, c, h, w = map(int, v)
        named[var] = Case(cid, n, c, h, w, (h, w), (1, 1), (0, 0, 0, 0))
    cases = {}
    for match in re.finditer(r"constexpr PoolCase k(\w+)Cases\[\] = \{([^}]*)\}", text):
        op, members = match.groups()
        cases[op] = [named[m.strip()] for m in members.split(",") if m.strip()]
    include_pad = re.search(r"constexpr bool kCountIncludePad = (true|false);", text)
    lp_p = re.search(r"constexpr int kLpP = (\d+);", text)
    overhead_op = re.search(r"constexpr const char\* kCallOverheadOp = \"(\w+)\";", text)
    expected_ops = {"MaxPool", "AveragePool", "LpPool", "GlobalMaxPool", "GlobalAveragePool",
                    "GlobalLpPool"}
    if (set(cases) != expected_ops or not include_pad or not lp_p or not overhead_op
            or "kT0" not in named):
        raise SystemExit(f"python_peers: cannot read the cases from {path}; "
                         "update read_shapes() to its new form")
    return Settings(cases, include_pad.group(1) == "true", int(lp_p.group(1)),
                    overhead_op.group(1), named["kT0"])


# --- reference: onnxpool's semantics in numpy, float64 --------------------------------


def windows(x, case: Case, fill):
    """[N, C, OH, OW, KH, KW] view of x padded with `fill`."""
    t, l, b, r = case.pads
    padded = np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)), constant_values=fill)
    view = np.lib.stride_tricks.sliding_window_view(padded, case.kernel, axis=(2, 3))
    oh, ow = case.out_hw
    return view[:, :, : oh * case.stride[0] : case.stride[0], : ow * case.stride[1] : case.stride[1]]


def reference(op: str, case: Case, x: np.ndarray, settings: Settings) -> np.ndarray:
    x = x.astype(np.float64)
    if op in ("MaxPool", "GlobalMaxPool"):
        return windows(x, case, -np.inf).max(axis=(4, 5)).astype(np.float32)
    if op in ("AveragePool", "GlobalAveragePool"):
        sums = windows(x, case, 0.0).sum(axis=(4, 5))
        if settings.count_include_pad:
            count = case.kernel[0] * case.kernel[1]  # ceil_mode 0: every tap is in the padded input
        else:
            count = windows(np.ones_like(x), case, 0.0).sum(axis=(4, 5))
        return (sums / count).astype(np.float32)
    p = settings.p
    return (windows(np.abs(x) ** p, case, 0.0).sum(axis=(4, 5)) ** (1.0 / p)).astype(np.float32)


def reference_indices(case: Case, x: np.ndarray) -> np.ndarray:
    """MaxPool's ONNX Indices: each window's first maximum in scan order, as a row-major
    position in the whole NCHW tensor (padding never wins: it is -inf, x is finite)."""
    view = windows(x, case, -np.inf)
    n, c, oh, ow, kh, kw = view.shape
    tap = view.reshape(n, c, oh, ow, kh * kw).argmax(axis=4)  # argmax takes the first maximum
    t, l, _, _ = case.pads
    y = np.arange(oh)[:, None] * case.stride[0] - t + tap // kw
    x_at = np.arange(ow)[None, :] * case.stride[1] - l + tap % kw
    plane = np.arange(n * c).reshape(n, c, 1, 1)
    return (plane * case.h + y) * case.w + x_at


def first_mismatch(op: str, got: np.ndarray, want: np.ndarray) -> str | None:
    if got.shape != want.shape:
        return f"output shape {tuple(got.shape)}, expected {tuple(want.shape)}"
    if op in ("MaxPool", "GlobalMaxPool"):
        bad = got != want
    else:
        error = np.abs(got.astype(np.float64) - want)
        bad = ~(error <= ABS_TOLERANCE + REL_TOLERANCE * np.abs(want.astype(np.float64)))
    if not bad.any():
        return None
    i = int(np.flatnonzero(bad)[0])
    return (f"output differs from the reference at element {i}: got {got.flat[i]!r}, "
            f"expected {want.flat[i]!r}")


def make_input(case: Case) -> np.ndarray:
    """Seeded uniform [-1, 1) float32, NCHW: no NaN, no infinity."""
    rng = np.random.default_rng(20240601)
    return rng.uniform(-1.0, 1.0, size=case.input_shape).astype(np.float32)


# --- timing ---------------------------------------------------------------------------


@dataclass
class Timing:
    samples_us: list  # mean wall time per call, one per repetition
    cpu_us: list  # the calling thread's CPU time per call, one per repetition
    iterations: int


def time_calls(call: Callable[[], object], min_time: float, repetitions: int,
               warmup: float) -> Timing:
    """Google Benchmark's method: warm up, then repetitions of N calls each."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        calls = 0
        start = time.perf_counter()
        while True:
            call()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= warmup:
                break
        per_call = elapsed / calls
        iterations = max(1, int(math.ceil(min_time / per_call)))
        samples, cpu = [], []
        for _ in range(repetitions):
            cpu_start = time.thread_time_ns()
            wall_start = time.perf_counter_ns()
            for _ in itertools.repeat(None, iterations):
                call()
            wall = time.perf_counter_ns() - wall_start
            cpu_time = time.thread_time_ns() - cpu_start
            samples.append(wall / iterations / 1e3)
            cpu.append(cpu_time / iterations / 1e3)
        return Timing(samples, cpu, iterations)
    finally:
        if gc_was_enabled:
            gc.enable()


# --- peers ----------------------------------------------------------------------------


class PeerError(Exception):
    """Setting up or checking an implementation failed: becomes an error row."""


@dataclass
class Prepared:
    """One implementation, set up for one case and thread count."""

    call: Callable[[], object]  # the timed call
    output: Callable[[], np.ndarray]  # the last call's output, NCHW float32 (not timed)
    label: str
    # MaxPool's Indices of the last call, as ONNX counts them (int64, not timed); None: no Indices
    indices: Callable[[], np.ndarray] | None = None


def with_indices(impl: str) -> bool:
    """Whether an implementation also computes MaxPool's Indices (it is compared with those that
    do, tools/bench_report.py)."""
    return "_indices_" in impl


def onnx_indices(torch_positions: np.ndarray, case: Case) -> np.ndarray:
    """ONNX's Indices from torch's return_indices, which counts a position within its plane."""
    n, c = torch_positions.shape[:2]
    return torch_positions + np.arange(n * c).reshape(n, c, 1, 1) * (case.h * case.w)


def row_bytes(impl: str, op: str, case: Case, settings: Settings) -> int:
    """The bytes a row counts, as the C++ rows do: input read and output written, the int64
    Indices too for an implementation that writes them; 8 for the call overhead."""
    if op == settings.overhead_op:
        return 8
    return case.bytes() + (8 * math.prod(case.output_shape) if with_indices(impl) else 0)


def one_node_model(op: str, case: Case, settings: Settings, opset: int,
                   indices: bool = False) -> bytes:
    """The serialized one-node ONNX model of `op` on `case`, as every model-reading peer
    (onnxruntime, TVM) gets it; with `indices`, MaxPool's second output as well."""
    from onnx import TensorProto, helper

    attributes = {}
    if not op.startswith("Global") and op != "Identity":
        t, l, b, r = case.pads
        attributes = dict(kernel_shape=list(case.kernel), strides=list(case.stride),
                          pads=[t, l, b, r])
    if op == "AveragePool":
        attributes["count_include_pad"] = int(settings.count_include_pad)
    if op in ("LpPool", "GlobalLpPool"):
        attributes["p"] = settings.p
    output_shape = case.input_shape if op == "Identity" else case.output_shape
    outputs = [helper.make_tensor_value_info("Y", TensorProto.FLOAT, list(output_shape))]
    if indices:
        outputs.append(helper.make_tensor_value_info("Indices", TensorProto.INT64, list(output_shape)))
    graph = helper.make_graph(
        [helper.make_node(op, ["X"], [o.name for o in outputs], **attributes)], "bench",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(case.input_shape))],
        outputs,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              ir_version=10)
    return model.SerializeToString()


class OnnxruntimePeer:
    """onnxruntime's CPU execution provider on a one-node model.

    intra_op_num_threads = n, inter_op_num_threads = 1, sequential execution,
    all graph optimizations. The input and a preallocated output are bound
    once through IOBinding, so a timed call is run_with_iobinding alone (no
    numpy conversion, no output allocation). ORT's default intra-op spinning
    is left on, as an application gets it.
    """

    name = "onnxruntime"

    def __init__(self):
        import onnx  # noqa: F401  (fails early with a clear message)
        import onnxruntime

        self.ort = onnxruntime
        self.version = onnxruntime.__version__

    def impls(self, op: str):
        return ["onnxruntime_nchw"] + (["onnxruntime_indices_nchw"] if op == "MaxPool" else [])

    def prepare(self, impl: str, op: str, case: Case, threads: int, x: np.ndarray,
                settings: Settings) -> Prepared:
        ort = self.ort
        options = self.options(threads)
        inference = None
        notes = []
        # ORT 1.32 has no opset-22 GlobalLpPool; opset 22 only added bfloat16 to
        # these operators, so the opset-21 node means the same for float32.
        indices = with_indices(impl)
        for opset in (22, 21):
            try:
                inference = ort.InferenceSession(one_node_model(op, case, settings, opset, indices),
                                                 options,
                                                 providers=["CPUExecutionProvider"])
                if opset != 22:
                    notes.append(f"opset {opset} (ORT has no opset-22 {op})")
                break
            except Exception as error:  # ORT raises its own exception types
                if "NOT_IMPLEMENTED" not in str(error) or opset == 21:
                    raise PeerError(f"onnxruntime: {error}") from error
        output_shape = x.shape if op == "Identity" else case.output_shape
        label = ", ".join([f"onnxruntime {self.version} CPU EP"] + notes
                          + (["MaxPool with Indices"] if indices else []))
        return self.bound(inference, x, output_shape, label, indices)

    def options(self, threads: int):
        """The SessionOptions every row uses: `threads` intra-op threads, one
        inter-op thread, sequential execution, all graph optimizations."""
        ort = self.ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        return options

    def bound(self, inference, x: np.ndarray, output_shape, label: str,
              indices: bool = False) -> Prepared:
        """`inference` with X and a preallocated Y (of X's type; and Indices,
        int64) bound once, so a timed call is run_with_iobinding alone. The
        InferenceSession, and with it ORT's thread pool, goes when the caller
        drops the Prepared."""
        ort = self.ort
        binding = inference.io_binding()
        x_value = ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(x))
        y_value = ort.OrtValue.ortvalue_from_shape_and_type(list(output_shape), x.dtype)
        binding.bind_ortvalue_input("X", x_value)
        binding.bind_ortvalue_output("Y", y_value)
        indices_value = None
        if indices:
            indices_value = ort.OrtValue.ortvalue_from_shape_and_type(list(output_shape), np.int64)
            binding.bind_ortvalue_output("Indices", indices_value)
        run = inference.run_with_iobinding

        def call():
            run(binding)

        return Prepared(call, lambda: y_value.numpy(), label,
                        indices_value.numpy if indices_value is not None else None)


@dataclass(frozen=True)
class GeneralCase:
    """A case string's node (onnxpool_bench --describe_cases): any rank and type."""

    id: str
    op: str
    shape: tuple
    type: str
    attributes: dict
    output_shape: tuple

    def bytes(self):
        width = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8}.get(self.type, 1)
        return width * (math.prod(self.shape) + math.prod(self.output_shape))


def general_input(case: GeneralCase) -> np.ndarray:
    """Seeded uniform [-1, 1) values (every byte value for int8 and uint8) in the
    case's storage type (tools/onnxpool_cases.py's convention)."""
    import onnxpool_cases as oc

    rng = np.random.default_rng(20240601)
    if case.type in ("int8", "uint8"):
        return rng.integers(0, 256, size=case.shape, dtype=np.uint8).view(np.dtype(case.type))
    return oc.to_storage(rng.uniform(-1.0, 1.0, size=case.shape), case.type)


def general_mismatch(case: GeneralCase, x: np.ndarray, got: np.ndarray) -> str | None:
    import onnxpool_cases as oc

    y, _, _ = oc.reference(case.op, case.attributes, case.type, x)
    exact = case.op in ("MaxPool", "GlobalMaxPool")
    return oc.compare(case.type, oc.to_storage(y, case.type), case.type, got, exact)


def prepare_onnxruntime_general(peer, case: GeneralCase, threads: int, x: np.ndarray) -> Prepared:
    """onnxruntime on a case string's node, as OnnxruntimePeer.prepare does the suite's."""
    import onnxpool_cases as oc

    outputs = [("Y", case.type, case.output_shape)]
    try:
        model = oc.make_model(case.op, case.attributes, case.type, case.shape, outputs, 22)
        inference = peer.ort.InferenceSession(model.SerializeToString(), peer.options(threads),
                                              providers=["CPUExecutionProvider"])
    except Exception as error:  # ORT raises its own exception types
        raise PeerError(f"onnxruntime: {error}") from error
    return peer.bound(inference, x, case.output_shape, f"onnxruntime {peer.version} CPU EP, {case.type}")


def describe_cases(binary: Path, sources: list) -> list:
    """The cases parsed by onnxpool_bench --describe_cases; `sources` holds (flag, value) pairs,
    flag --case or --cases-file, in command-line order."""
    import subprocess

    if not binary.exists():
        raise SystemExit(f"python_peers: {binary} is missing (run tools/setup.sh): it parses --case")
    command = [str(binary), "--describe_cases"] + [part for flag, value in sources for part in (flag, value)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr.strip() or f"python_peers: {command[0]} failed")
    return json.loads(done.stdout)


def as_suite_case(described: dict, settings: Settings):
    """A described case as the suite's Case when every peer can run it (the
    rule of bench/user_cases.cpp), else None."""
    attributes, shape = described["attributes"], described["shape"]
    if len(shape) != 4 or described["type"] != "float32":
        return None
    if attributes.get("p", settings.p) != settings.p:
        return None
    if bool(attributes.get("count_include_pad", 0)) != settings.count_include_pad:
        return None
    n, c, h, w = shape
    if described["op"].startswith("Global"):
        return Case(described["text"], n, c, h, w, (h, w), (1, 1), (0, 0, 0, 0))
    if (attributes.get("ceil_mode") or "auto_pad" in attributes
            or any(d != 1 for d in attributes.get("dilations", []))):
        return None
    strides = attributes.get("strides", [1, 1])
    t, l, b, r = attributes.get("pads", [0, 0, 0, 0])
    return Case(described["text"], n, c, h, w, tuple(attributes["kernel_shape"]), tuple(strides),
                (t, l, b, r))


class TorchPeer:
    """PyTorch eager mode, CPU, under torch.inference_mode().

    torch.set_num_threads(n) (intra-op, OpenMP) and one inter-op thread. Each
    formulation runs on a contiguous (nchw) and a channels_last (nhwc) tensor,
    converted before timing; the output is whatever torch allocates, as a
    torch user gets it.
    """

    name = "torch"

    def __init__(self):
        import torch
        import torch.nn.functional as F

        self.torch = torch
        self.F = F
        self.version = torch.__version__.split("+")[0]
        torch.set_num_interop_threads(1)

    def formulations(self, op: str, case: Case, settings: Settings):
        """{formulation name ("" for the nn.functional call): (callable, note)}."""
        torch, F = self.torch, self.F
        k, s = case.kernel, case.stride
        t, l, b, r = case.pads
        p = settings.p
        if op == "MaxPool":
            if t != b or l != r:
                raise PeerError("torch max_pool2d takes symmetric pads only")
            return {"": (lambda x: F.max_pool2d(x, k, s, (t, l)), "F.max_pool2d"),
                    "indices": (lambda x: F.max_pool2d(x, k, s, (t, l), return_indices=True),
                                "F.max_pool2d(return_indices=True)")}
        if op == "AveragePool":
            if t != b or l != r:
                raise PeerError("torch avg_pool2d takes symmetric pads only")
            include = settings.count_include_pad
            return {"": (lambda x: F.avg_pool2d(x, k, s, (t, l), count_include_pad=include),
                         f"F.avg_pool2d(count_include_pad={include})")}
        if op == "LpPool":
            if any(case.pads):
                # lp_pool2d has no padding argument: zero pads (which add
                # nothing to an Lp sum) go on first, and are timed.
                forms = {"": (lambda x: F.lp_pool2d(F.pad(x, (l, r, t, b)), p, k, s),
                              "F.pad + F.lp_pool2d")}
            else:
                forms = {"": (lambda x: F.lp_pool2d(x, p, k, s), "F.lp_pool2d")}
            if t == b and l == r:
                # The window sums of |x|^p: avg_pool2d with divisor_override=1
                # (zero pads add nothing), no F.pad; then the p-th root.
                if p == 2:
                    forms["powavg"] = (
                        lambda x: F.avg_pool2d(x.square(), k, s, (t, l), divisor_override=1)
                        .sqrt_(),
                        "avg_pool2d(x.square(), divisor_override=1).sqrt_()",
                    )
                else:
                    forms["powavg"] = (
                        lambda x: F.avg_pool2d(x.abs().pow_(p), k, s, (t, l), divisor_override=1)
                        .pow_(1.0 / p),
                        "avg_pool2d(|x|^p, divisor_override=1)^(1/p)",
                    )
            return forms
        if op == "GlobalMaxPool":
            return {"": (lambda x: F.adaptive_max_pool2d(x, 1), "F.adaptive_max_pool2d"),
                    "amax": (lambda x: x.amax(dim=(2, 3), keepdim=True), "x.amax(dim=(2, 3))")}
        if op == "GlobalAveragePool":
            return {"": (lambda x: F.adaptive_avg_pool2d(x, 1), "F.adaptive_avg_pool2d"),
                    "mean": (lambda x: x.mean(dim=(2, 3), keepdim=True), "x.mean(dim=(2, 3))")}
        if op == "GlobalLpPool":
            return {
                "": (lambda x: F.lp_pool2d(x, p, (case.h, case.w)), "F.lp_pool2d, kernel = H x W"),
                "norm": (lambda x: torch.linalg.vector_norm(x, p, dim=(2, 3), keepdim=True),
                         "torch.linalg.vector_norm(dim=(2, 3))"),
            }
        if op == "Identity":
            return {"": (lambda x: x.clone(), "x.clone()")}
        raise PeerError(f"no torch formulation of {op}")

    def impls(self, op: str, case: Case, settings: Settings):
        names = []
        for form in self.formulations(op, case, settings):
            for layout in ("nchw", "nhwc"):
                if op == "Identity" and layout == "nhwc":
                    continue
                names.append("_".join(part for part in ("torch", form, layout) if part))
        return names

    def prepare(self, impl: str, op: str, case: Case, threads: int, x: np.ndarray,
                settings: Settings) -> Prepared:
        torch = self.torch
        parts = impl.split("_")
        layout = parts[-1]
        form = "_".join(parts[1:-1])
        function, text = self.formulations(op, case, settings)[form]
        torch.set_num_threads(threads)
        if torch.get_num_threads() != threads:
            raise PeerError(f"torch ignored set_num_threads({threads})")
        tensor = torch.from_numpy(np.ascontiguousarray(x))
        if layout == "nhwc":
            tensor = tensor.contiguous(memory_format=torch.channels_last)
        result = {}
        inference_mode = torch.inference_mode

        def call():
            with inference_mode():
                result["y"] = function(tensor)

        def values():
            y = result["y"]
            return (y[0] if isinstance(y, tuple) else y).contiguous().numpy()

        def indices():
            return onnx_indices(result["y"][1].contiguous().numpy(), case)

        memory = "channels_last" if layout == "nhwc" else "contiguous"
        return Prepared(call, values, f"torch {self.version}, {text}, {memory}",
                        indices if with_indices(impl) else None)


class TvmPeer:
    """Apache TVM on the same one-node model as onnxruntime: default schedules and MetaSchedule-tuned
    (bench/tvm_peer.py)."""

    name = "tvm"

    def __init__(self, budget_s: float):
        sys.path.insert(0, str(ROOT / "bench"))
        import tvm_peer

        self.module = tvm_peer
        self.compiler = tvm_peer.TvmCompiler(budget_s=budget_s, max_threads=max(THREAD_COUNTS))
        self.version = self.compiler.version

    def impls(self, op: str):
        return ["tvm_default_nchw", "tvm_metaschedule_nchw"]

    def prepare(self, impl: str, op: str, case: Case, threads: int, x: np.ndarray,
                settings: Settings) -> Prepared:
        try:
            call, output, label = self.compiler.prepare(
                impl, one_node_model(op, case, settings, 22), f"{op}-{case.id}", threads, x)
        except self.module.TvmError as error:
            raise PeerError(str(error)) from error
        return Prepared(call, output, label)


PEER_CLASSES = {"onnxruntime": OnnxruntimePeer, "torch": TorchPeer, "tvm": TvmPeer}
PEER_PACKAGES = {
    "onnxruntime": "onnxruntime and onnx (tools/requirements.txt)",
    "torch": "torch (tools/main.sh installs tools/requirements-bench.txt)",
    "tvm": "apache-tvm (tools/main.sh installs tools/requirements-tvm.txt)",
}


# --- Google Benchmark JSON ------------------------------------------------------------


def aggregate_rows(run_name: str, timing: Timing, threads: int, bytes_per_run: int,
                   label: str) -> list:
    def row(aggregate, real, cpu, unit="time"):
        entry = {
            "name": f"{run_name}_{aggregate}",
            "run_name": run_name,
            "run_type": "aggregate",
            "repetitions": len(timing.samples_us),
            "threads": 1,
            "aggregate_name": aggregate,
            "aggregate_unit": unit,
            "iterations": len(timing.samples_us),
            "real_time": real,
            "cpu_time": cpu,
            "time_unit": "us",
            "bytes": bytes_per_run,
            "threads_used": threads,
        }
        if unit == "time" and real > 0:
            entry["bytes_per_second"] = bytes_per_run / (real * 1e-6)
        if label:
            entry["label"] = label
        return entry

    wall, cpu = timing.samples_us, timing.cpu_us
    mean_wall, mean_cpu = statistics.mean(wall), statistics.mean(cpu)
    sd_wall = statistics.stdev(wall) if len(wall) > 1 else 0.0
    sd_cpu = statistics.stdev(cpu) if len(cpu) > 1 else 0.0
    return [
        row("mean", mean_wall, mean_cpu),
        row("median", statistics.median(wall), statistics.median(cpu)),
        row("stddev", sd_wall, sd_cpu),
        row("cv", sd_wall / mean_wall if mean_wall else 0.0,
            sd_cpu / mean_cpu if mean_cpu else 0.0, unit="percentage"),
    ]


def error_row(run_name: str, message: str) -> dict:
    return {"name": run_name, "run_name": run_name, "run_type": "iteration",
            "repetitions": 0, "threads": 1, "iterations": 0, "real_time": 0, "cpu_time": 0,
            "time_unit": "us", "error_occurred": True, "error_message": message}


def context(peers: dict, notes: list) -> dict:
    try:
        load = list(os.getloadavg())
    except OSError:
        load = []
    mhz = 0
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("cpu MHz"):
                mhz = int(float(line.split(":")[1]))
                break
    except OSError:
        pass
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host_name": socket.gethostname(),
        "executable": "bench/python_peers.py",
        "num_cpus": os.cpu_count(),
        "mhz_per_cpu": mhz,
        "load_avg": load,
        "library_build_type": "release",
        "python": platform.python_version(),
        "peer_versions": {name: peer.version for name, peer in peers.items()
                          if not isinstance(peer, str)},
        "notes": notes,
    }


SEMANTIC_NOTES = [
    "torch lp_pool2d has no padding argument: LpPool S6's pads go on with F.pad (zeros add "
    "nothing to an Lp sum) and the F.pad is timed; torch_powavg_* (window sums of x^2 by "
    "avg_pool2d(divisor_override=1), then sqrt) pads inside the pooling instead.",
    "torch lp_pool2d is (sign(s) * relu(|s|) * kh*kw)^(1/p) with s = avg_pool2d(x^p): it raises "
    "x, not |x|, to p (differs from ONNX for odd p and negative x) and with ceil_mode rescales "
    "partial windows by kh*kw / taps; neither applies to p=2 without ceil_mode, and the outputs "
    "were checked against onnxpool's semantics on data in [-1, 1).",
    "onnxruntime has no opset-22 GlobalLpPool; its rows use the opset-21 node (opset 22 only "
    "added bfloat16).",
    "Python peers' times include each framework's per-call overhead (see the CallOverhead "
    "rows: onnxruntime and TVM Identity, torch x.clone(), all on a 1x1x1x1 tensor).",
]


# --- main -----------------------------------------------------------------------------


def indices_mismatch(got: np.ndarray, want: np.ndarray) -> str | None:
    if got.shape != want.shape:
        return f"Indices shape {tuple(got.shape)}, expected {tuple(want.shape)}"
    bad = np.flatnonzero(got != want)
    if bad.size == 0:
        return None
    i = int(bad[0])
    return f"Indices differ from the reference at element {i}: got {got.flat[i]}, expected {want.flat[i]}"


def measure_row(run_name: str, prepare: Callable[[], Prepared],
                check: Callable[[np.ndarray], str | None], threads: int, bytes_per_run: int,
                args, want_indices: Callable[[], np.ndarray] | None = None) -> list:
    """Sets one implementation up, checks its output once (and its Indices against
    `want_indices`), then times it: its aggregate rows, or one error row (a failure
    is that row's, not the run's)."""
    try:
        prepared = prepare()
        prepared.call()
        mismatch = check(prepared.output())
        if not mismatch and prepared.indices is not None:
            mismatch = indices_mismatch(prepared.indices(), want_indices())
        if mismatch:
            raise PeerError(mismatch)
        timing = time_calls(prepared.call, args.min_time, args.repetitions, args.warmup)
        label = prepared.label
    except Exception as error:  # any failure is that row's error, not the run's
        message = str(error) if isinstance(error, PeerError) else repr(error)
        print(f"{run_name:70s} ERROR {message}", file=sys.stderr)
        return [error_row(run_name, message)]
    finally:
        prepared = None  # frees the InferenceSession / tensors before the next row
    print(f"{run_name:70s} {statistics.median(timing.samples_us):10.2f} us "
          f"({timing.iterations} calls x {len(timing.samples_us)})", file=sys.stderr)
    return aggregate_rows(run_name, timing, threads, bytes_per_run, label)


def run_general_case(case: GeneralCase, peer, selected, args) -> list:
    """onnxruntime's rows for a case string no other peer takes."""
    rows = []
    x = general_input(case)

    def check(got):
        mismatch = general_mismatch(case, x, got)
        return mismatch and f"output differs from the reference: {mismatch}"

    for threads in THREAD_COUNTS:
        run_name = f"BM_{case.op}/{case.id}/onnxruntime_nchw/threads:{threads}/real_time"
        if not selected(run_name):
            continue
        if isinstance(peer, str):
            rows.append(error_row(run_name, peer))
            continue
        rows += measure_row(run_name, lambda: prepare_onnxruntime_general(peer, case, threads, x), check,
                            threads, case.bytes(), args)
    return rows


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", required=True, help="JSON file to write")
    parser.add_argument("--filter", default="", help="regex on the benchmark name, as "
                        "--benchmark_filter (a leading '-' excludes what matches)")
    parser.add_argument("--min-time", type=float, default=0.2,
                        help="seconds per repetition (default 0.2, as the C++ binary)")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--warmup", type=float, default=0.1, help="seconds of warm-up")
    parser.add_argument("--peers", default="onnxruntime,torch", help="of onnxruntime, torch, tvm")
    parser.add_argument("--tvm-budget-s", type=float, default=90.0,
                        help="MetaSchedule's tuning time per case (default 90 s; records under "
                        "build/tvm-tuning/ are reused)")
    # Both flags append to one list, so the cases keep their command-line order.
    parser.add_argument("--case", dest="cases", action="append", default=[],
                        type=lambda text: ("--case", text), metavar="STRING",
                        help="a case string (bench/README.md); repeatable; replaces the suite")
    parser.add_argument("--cases-file", dest="cases", action="append",
                        type=lambda path: ("--cases-file", path), metavar="FILE",
                        help="a file of case strings, one per line, '#' starting a comment "
                        "(e.g. bench/models/torchvision.txt); repeatable; replaces the suite")
    parser.add_argument("--bench-binary", type=Path, default=ROOT / "build" / "bench" / "onnxpool_bench",
                        help="onnxpool_bench, which parses --case (default: build/bench/)")
    args = parser.parse_args(argv)

    settings = read_shapes()
    negate = args.filter.startswith("-")
    pattern = re.compile(args.filter[1:] if negate else args.filter)

    def selected(name):
        return bool(pattern.search(name)) != negate

    peers = {}
    for name in args.peers.split(","):
        name = name.strip()
        if name not in PEER_CLASSES:
            parser.error(f"unknown peer {name!r}; known: {', '.join(PEER_CLASSES)}")
        try:
            peers[name] = (TvmPeer(args.tvm_budget_s) if name == "tvm" else PEER_CLASSES[name]())
        except ImportError as error:
            peers[name] = f"{name} is not installed ({error}); install {PEER_PACKAGES[name]}"
            print(f"python_peers: {peers[name]}", file=sys.stderr)

    if args.cases:
        work = []
        for described in describe_cases(args.bench_binary, args.cases):
            suite_case = as_suite_case(described, settings)
            if suite_case is not None:
                work.append((described["op"], suite_case))
            else:
                work.append((described["op"], GeneralCase(
                    described["text"], described["op"], tuple(described["shape"]), described["type"],
                    described["attributes"], tuple(described["output_shape"]))))
    else:
        work = [(op, case) for op, cases in settings.cases.items() for case in cases]
        work.append((settings.overhead_op, settings.overhead_case))
    rows = []
    for op, case in work:
        if isinstance(case, GeneralCase):
            if "onnxruntime" in peers:
                print(f"python_peers: {case.id}: onnxruntime only (torch runs 2D float32 cases "
                      "without dilations, ceil_mode, auto_pad or count_include_pad)", file=sys.stderr)
                rows += run_general_case(case, peers["onnxruntime"], selected, args)
            continue
        framework_op = "Identity" if op == settings.overhead_op else op
        x = make_input(case)
        want = None if framework_op == "Identity" else reference(op, case, x, settings)
        indices_cache = {}

        def want_indices():
            if "indices" not in indices_cache:
                indices_cache["indices"] = reference_indices(case, x)
            return indices_cache["indices"]
        for peer_name, peer in peers.items():
            if isinstance(peer, str):
                impls = [f"{peer_name}_nchw"]
            elif peer_name == "torch":
                impls = peer.impls(framework_op, case, settings)
            elif peer_name == "tvm" and framework_op == "Identity":
                impls = ["tvm_default_nchw"]  # the call overhead; an Identity has nothing to tune
            else:
                impls = peer.impls(framework_op)
            for impl in impls:
                for threads in THREAD_COUNTS:
                    run_name = f"BM_{op}/{case.id}/{impl}/threads:{threads}/real_time"
                    if not selected(run_name):
                        continue
                    if isinstance(peer, str):
                        rows.append(error_row(run_name, peer))
                        continue
                    bytes_per_run = row_bytes(impl, op, case, settings)
                    # Checked once, before timing; Identity must return its input.
                    rows += measure_row(
                        run_name,
                        lambda: peer.prepare(impl, framework_op, case, threads, x, settings),
                        lambda got: first_mismatch(op, got, x if want is None else want),
                        threads, bytes_per_run, args, want_indices)
        gc.collect()

    document = {"context": context(peers, SEMANTIC_NOTES), "benchmarks": rows}
    if args.cases:
        document["context"]["notes"] = []  # the notes are about the suite's cases
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
