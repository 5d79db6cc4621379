#!/usr/bin/env python3
"""Differential check of onnxpool against onnxruntime (CPU execution provider).

    differential_onnxruntime.py --runner PATH [--work-dir DIR] [--cases N]
                                [--seed S] [--ops MaxPool,LpPool,...] [--verbose]

Makes N seeded random single-node pooling cases (all six operators, spatial
rank 1-3 and for the global operators also 4, every type opset 22 allows,
random kernel, strides, dilations, asymmetric pads, auto_pad, ceil_mode,
count_include_pad, storage_order, p, MaxPool's Indices output, windows with
no tap inside X, and inputs with ties, NaN, infinities, signed zeros and, for
max and Lp, extreme magnitudes), runs each through onnxruntime
to get its outputs, writes them as ONNX backend-test folders, runs
onnxpool_test_runner --output-dir over them, and compares onnxpool's outputs
with onnxruntime's by the runner's own rule (tools/onnxpool_cases.py).

Every compared case is also run through the float64 reference of
onnxpool_cases.py (written from the ONNX text and docs/semantics.md, not
from either implementation), which judges each disagreement: who matches it.
A disagreement is explained only when it matches an entry of
KNOWN_DIFFERENCES below AND the reference sides with the party that entry
says is right. The exit status is 1 when any disagreement is unexplained,
when onnxpool could not run a case onnxruntime ran, when the two agree but
the reference does not, or when the runner's own PASS/FAIL contradicts this
script's comparison; 2 for a usage or set-up error; 0 otherwise.

Where onnxruntime lacks a kernel it is reached another way, and the summary
says which way each case went:
- "ort-opset21": ORT has no opset-22 kernel for the op (GlobalLpPool). Opset 22
  changed these operators only by adding bfloat16, so the same node at opset
  21 means the same thing.
- "ort-float32": ORT has no kernel for the type at all (bfloat16 for every op,
  float64 for all but MaxPool). The input converted to float32 (exactly:
  such float64 inputs are drawn float32-representable) is run in float32 and
  the output rounded to the type (bfloat16: to nearest even).
Cases that onnxruntime rejects even so are not compared; the summary groups
them by ORT's reason.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import onnxpool_cases as oc  # noqa: E402


# --- known, explained differences ---------------------------------------------
#
# The one place that lists where onnxpool and onnxruntime are allowed to
# differ. Each entry: which disagreements it covers (`applies`, on the case's
# features), who the reference must side with (`right`), why (the ONNX text
# and how each side reads it), and which test pins onnxpool's side (GoogleTest
# names are in tests/*_corner_case_test.cpp; own_* cases come from
# tools/make_own_cases.py). README.md ("Where onnxpool and onnxruntime differ") is the prose version.


@dataclass
class KnownDifference:
    key: str
    title: str
    applies: object          # (CaseRecord) -> bool
    right: str               # who the reference must side with: "onnxpool"
    reason: str
    pinned_by: str


def _has(record, *features):
    return all(f in record.features for f in features)


KNOWN_DIFFERENCES = [
    KnownDifference(
        key="same-dilated",
        title="auto_pad SAME_UPPER/SAME_LOWER with dilations > 1",
        applies=lambda r: r.op not in oc.GLOBAL_OPS and _has(r, "same") and _has(r, "dilated"),
        right="onnxpool",
        reason=(
            "ONNX: SAME pads so that output = ceil(in / stride), i.e. a total pad of "
            "(ceil(in/s) - 1) * s + ((k - 1) * d + 1) - in from the DILATED kernel (ONNX shape "
            "inference also gives ceil(in / s)). onnxruntime computes the pad from the undilated "
            "kernel k (in 8, kernel 3, dilation 2, stride 2: pad 1 instead of 3), so its output is "
            "shorter than ceil(in / s) (3 instead of 4) and its windows shift; where the short pad "
            "makes its output size negative it rejects the model instead."
        ),
        pinned_by=("MaxPoolCorners.DilatedSamePadsForTheDilatedKernel; own cases "
                   "own_{maxpool,averagepool,lppool}_1d_same_{upper,lower}_dilations*"),
    ),
    KnownDifference(
        key="maxpool-nan",
        title="MaxPool / GlobalMaxPool window holding a NaN",
        applies=lambda r: r.op in oc.MAX_OPS and _has(r, "nan"),
        right="onnxpool",
        reason=(
            "ONNX does not say what max of a window with a NaN is. onnxpool documents IEEE "
            "754-2019 maximum (README, pooling.h): a NaN propagates and Indices point at the first "
            "NaN. onnxruntime keeps the running maximum with `>`, which is false for a NaN, so it "
            "skips NaNs (and returns a NaN only when it is the first tap)."
        ),
        pinned_by=("MaxPoolCorners.Nan*, MaxPoolCorners.IndexPointsAtTheFirst*Nan*, "
                   "GlobalMaxPoolCorners.NanAnywhereInThePlaneGivesNan; own cases own_globalmaxpool_policy_nan_*"),
    ),
    KnownDifference(
        key="maxpool-negative-infinity",
        title="MaxPool / GlobalMaxPool window whose values are all -inf",
        applies=lambda r: r.op in oc.MAX_OPS and _has(r, "negative_inf"),
        right="onnxpool",
        reason=(
            "The maximum of values that are all -inf is -inf (docs/semantics.md: 'a window of all "
            "-inf gives -inf'). onnxruntime starts its running maximum at the lowest FINITE value "
            "and replaces it only with a greater one, so such a window gives -3.4028235e38 for "
            "float32 (and -1.7976931e308 for float64)."
        ),
        pinned_by=("MaxPoolCorners.AllMinusInfinityWindowGivesMinusInfinity, "
                   "GlobalMaxPoolCorners.MaxOfNegativeValuesAndOfMinusInfinity; own cases "
                   "own_maxpool_*_all_negative_infinity_window_indices, own_globalmaxpool_*_all_negative_infinity"),
    ),
    KnownDifference(
        key="maxpool-signed-zero",
        title="MaxPool / GlobalMaxPool window holding both -0 and +0 as its maximum",
        applies=lambda r: r.op in oc.MAX_OPS and _has(r, "negative_zero"),
        right="onnxpool",
        reason=(
            "ONNX does not order -0 and +0. onnxpool's documented order is IEEE 754-2019 "
            "maximum's, where +0 > -0, so max(-0, +0) is +0 wherever they stand. onnxruntime's "
            "`>` treats them as equal and keeps whichever comes first. The runner compares max "
            "bit for bit, so -0 against +0 is a difference."
        ),
        pinned_by=("GlobalMaxPoolCorners.PlusZeroIsAboveMinusZero; own cases "
                   "own_maxpool_policy_signed_zeros_*_indices, own_globalmaxpool_policy_signed_zeros_*"),
    ),
    KnownDifference(
        key="same-negative-pad",
        title="auto_pad SAME_UPPER/SAME_LOWER where the stride is wider than the (dilated) kernel",
        applies=lambda r: r.op not in oc.GLOBAL_OPS and _has(r, "same_pad_clamped_to_0"),
        right="onnxpool",
        reason=(
            "ONNX's SAME total pad (ceil(in/s) - 1) * s + keff - in is negative when the stride is "
            "wider than the dilated kernel (e.g. in 3, kernel 1, stride 3: -2). ONNX pads 'can take "
            "any value greater than or equal to 0', and ceil(in / s) outputs are reached with no pad "
            "at all, so the pad is 0 and window o starts at o * s (docs/semantics.md: max(..., 0)). "
            "onnxruntime keeps the negative total and puts half of it (rounded toward 0) at the "
            "begin, -1 here, which moves every window right: for X = [1, 2, 3] AveragePool returns 2 "
            "where the only window is [1]."
        ),
        pinned_by="own cases own_{maxpool,averagepool,lppool}_same_{upper,lower}_stride_wider_than_kernel*",
    ),
    KnownDifference(
        key="lp-overflow",
        title="LpPool / GlobalLpPool of values so large that |x|^p overflows float32",
        applies=lambda r: r.op in ("LpPool", "GlobalLpPool") and _has(r, "extreme"),
        right="onnxpool",
        reason=(
            "ONNX defines Y = (sum |x|^p)^(1/p), which is finite whenever the inputs are and the "
            "result fits the type (it is at most n^(1/p) * max |x|). onnxruntime sums |x|^p in "
            "float32, which overflows to +inf once |x| passes about 1.8e19 for p = 2 (4e12 for "
            "p = 3), so it returns inf. onnxpool documents (pooling.h) that it never overflows or "
            "underflows in the intermediate sum. For float64 and bfloat16 the expectation comes "
            "from onnxruntime's float32 kernel (ort-float32), so it overflows the same way."
        ),
        pinned_by=("LpPoolCorners.ExtremeMagnitudes*; own cases "
                   "own_lppool_large_magnitudes_*, own_globallppool_large_magnitudes_*"),
    ),
    KnownDifference(
        key="empty-window",
        title="MaxPool / AveragePool (count_include_pad=0) window with no tap inside X",
        applies=lambda r: (r.op == "MaxPool" or (r.op == "AveragePool" and not r.attributes.get("count_include_pad")))
        and _has(r, "empty_window"),
        right="onnxpool",
        reason=(
            "Possible where dilations step over a short input (in 2, kernel 2, dilation 3, pads 1/1: "
            "taps -1 and 2). ONNX does not define the max or the mean of no values. onnxpool documents "
            "(pooling.h) max's identity, the type's lowest value (-inf for floats), with index -1, and "
            "the mean of nothing, 0/0 = NaN. onnxruntime gives the lowest FINITE value "
            "(-3.4028235e38 for float32), an average of 0, and as the index -1 in 1D but in 2D and 3D "
            "its per-axis -1 markers combined as if they were coordinates (e.g. -3 or -19), which "
            "points at no element and is not -1."
        ),
        pinned_by=("MaxPoolCorners.WindowOnlyInThePaddingGivesLowestAndMinusOne, "
                   "MaxPoolCorners.DilatedWindowWhoseTapsStraddleTheInput, "
                   "AveragePoolCorners.DilatedTapsThatStepOverTheInputGiveNan; own case "
                   "own_averagepool_policy_window_without_taps"),
    ),
]


# --- random cases ---------------------------------------------------------------

SPECIALS = (np.nan, np.inf, -np.inf, 0.0, -0.0)


@dataclass
class CaseRecord:
    name: str
    op: str
    x_type: str
    attributes: dict
    x: np.ndarray
    with_indices: bool
    features: set = field(default_factory=set)
    route: str = ""                  # how ORT produced the expectation
    ort_rejections: list = field(default_factory=list)  # (route tried, reason)
    ort_outputs: list = field(default_factory=list)     # [(name, type, storage)]
    onnxpool_outputs: list | None = None
    runner_line: str = ""
    what_differs: str = ""           # "" when both agree
    detail: str = ""
    verdict: str = ""                # who the reference sides with
    reference_detail: str = ""       # how onnxpool differs from the reference, if it does
    known: str = ""                  # KNOWN_DIFFERENCES key that explains it

    @property
    def rank(self) -> int:
        return self.x.ndim - 2


# Magnitudes of the "extreme" pattern, as powers of ten: far beyond where
# |x|^p over- or underflows in the type, but (for Lp) finite in the float64
# reference. Only operators that do no sums of raw values take it: a sum of
# huge values overflows in any float32 accumulator, the reference's float64
# would not, and that says nothing about either implementation.
EXTREME_EXPONENTS = {"float32": 30, "bfloat16": 30, "float64": 30, "float16": 4.5}
EXTREME_OPS = ("MaxPool", "GlobalMaxPool", "LpPool", "GlobalLpPool")


def random_values(rng, x_type: str, shape, float32_representable: bool, extreme_allowed: bool):
    """Input values as the type's storage, and the value pattern used."""
    if not oc.is_float_type(x_type):
        info = np.iinfo(oc.STORAGE_DTYPES[x_type])
        if rng.random() < 0.3:  # a few distinct values: ties
            low = int(rng.integers(info.min, info.max - 3))
            return oc.to_storage(rng.integers(low, low + 3, size=shape, endpoint=True), x_type), "ties"
        return oc.to_storage(rng.integers(info.min, info.max, size=shape, endpoint=True), x_type), "uniform"
    pattern = rng.choice(["uniform", "ties", "specials", "extreme"], p=[0.66, 0.16, 0.12, 0.06])
    if pattern == "extreme" and not extreme_allowed:
        pattern = "uniform"
    if pattern == "ties":
        values = rng.integers(-2, 2, size=shape, endpoint=True).astype(np.float64)
    elif pattern == "extreme":
        top = EXTREME_EXPONENTS[x_type]
        values = rng.choice([-1.0, 1.0], size=shape) * 10.0 ** rng.uniform(-top, top, size=shape)
        if float32_representable:
            values = values.astype(np.float32).astype(np.float64)
    else:
        values = rng.uniform(-4.0, 4.0, size=shape)
        if float32_representable:
            values = values.astype(np.float32).astype(np.float64)
        if pattern == "specials":
            where = rng.random(size=shape) < 0.15
            values[where] = rng.choice(SPECIALS, size=int(where.sum()))
    return oc.to_storage(values, x_type), str(pattern)


def random_windowed_attributes(rng, op: str, spatial):
    rank = len(spatial)
    kernel = [int(rng.integers(1, min(4, n + 2) + 1)) for n in spatial]
    strides = [int(rng.integers(1, 4)) for _ in spatial]
    dilations = [1] * rank
    if rng.random() < 0.35:
        dilations = [int(rng.integers(1, 4)) for _ in spatial]
    auto_pad = str(rng.choice(["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"], p=[0.55, 0.15, 0.15, 0.15]))
    attributes = {"kernel_shape": kernel}
    if strides != [1] * rank or rng.random() < 0.5:
        attributes["strides"] = strides
    if dilations != [1] * rank or rng.random() < 0.3:
        attributes["dilations"] = dilations
    if auto_pad == "NOTSET":
        wide = rng.random() < 0.15  # pads up to the dilated kernel (ORT wants pads < kernel)
        pads = []
        for _ in range(2):
            for k, d in zip(kernel, dilations):
                limit = (k - 1) * d + 1 if wide else k - 1
                pads.append(int(rng.integers(0, limit + 1)))
        if any(pads) or rng.random() < 0.5:
            attributes["pads"] = pads
        if rng.random() < 0.2:
            attributes["auto_pad"] = "NOTSET"
    else:
        attributes["auto_pad"] = auto_pad
    if rng.random() < 0.35:
        attributes["ceil_mode"] = 1
    elif rng.random() < 0.2:
        attributes["ceil_mode"] = 0
    if op == "AveragePool":
        choice = rng.random()
        if choice < 0.5:
            attributes["count_include_pad"] = 1
        elif choice < 0.75:
            attributes["count_include_pad"] = 0
    if op == "MaxPool":
        choice = rng.random()
        if choice < 0.3:
            attributes["storage_order"] = 1
        elif choice < 0.5:
            attributes["storage_order"] = 0
    if op == "LpPool" and rng.random() < 0.8:
        attributes["p"] = int(rng.integers(1, 5))
    return attributes


def make_window_without_taps(rng, attributes: dict, spatial: list) -> None:
    """Reshapes one axis so that its first window has no tap inside X while
    every pad stays below the kernel (which onnxruntime insists on): input 1
    or 2, kernel 2, dilation input + 1, pads 1/1, so the taps are -1 and in."""
    rank = len(spatial)
    axis = int(rng.integers(rank))
    spatial[axis] = int(rng.integers(1, 3))
    attributes["kernel_shape"][axis] = 2
    dilations = list(attributes.get("dilations", [1] * rank))
    dilations[axis] = spatial[axis] + 1
    attributes["dilations"] = dilations
    pads = [min(p, k - 1) for p, k in zip(attributes.get("pads", [0] * 2 * rank), attributes["kernel_shape"] * 2)]
    pads[axis] = pads[axis + rank] = 1
    attributes["pads"] = pads
    attributes.pop("auto_pad", None)


def random_case(rng, index: int, ops) -> CaseRecord:
    op = str(ops[int(rng.integers(len(ops)))])
    x_type = str(rng.choice(oc.OP_TYPES[op]))
    batch, channels = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    while True:
        if op in oc.GLOBAL_OPS:
            rank = int(rng.choice([1, 2, 3, 4], p=[0.3, 0.3, 0.3, 0.1]))
            spatial = [int(rng.integers(1, {1: 13, 2: 7, 3: 5, 4: 4}[rank])) for _ in range(rank)]
            attributes = {}
            if op == "GlobalLpPool" and rng.random() < 0.8:
                attributes["p"] = int(rng.integers(1, 5))
        else:
            rank = int(rng.integers(1, 4))
            spatial = [int(rng.integers(1, {1: 13, 2: 9, 3: 6}[rank])) for _ in range(rank)]
            attributes = random_windowed_attributes(rng, op, spatial)
            if rng.random() < 0.05:
                make_window_without_taps(rng, attributes, spatial)
        try:
            # Windows wider than the padded input onnxruntime refuses; the shape differential
            # (tools/shape_inference/) runs them against the reference.
            if not oc.window_wider_than_padded_input(op, attributes, spatial):
                break
        except ValueError:
            continue  # invalid ONNX (kernel far wider than the padded input): draw again
    shape = (batch, channels, *spatial)
    # float64 inputs of the ops ORT lacks a float64 kernel for are run by ORT
    # in float32, so they are drawn float32-representable; MaxPool float64 is
    # native in ORT, and full float64 values catch a kernel that narrows.
    float32_representable = x_type == "float64" and op != "MaxPool"
    x, pattern = random_values(rng, x_type, shape, float32_representable, op in EXTREME_OPS)
    with_indices = op == "MaxPool" and rng.random() < 0.5
    record = CaseRecord(f"diff_{index:04d}_{op.lower()}_{x_type}", op, x_type, attributes, x, with_indices)
    record.features = case_features(record, pattern)
    return record


def case_features(record: CaseRecord, pattern: str) -> set:
    """The attribute and data patterns of a case, for grouping and for KNOWN_DIFFERENCES."""
    a, features = record.attributes, set()
    auto_pad = a.get("auto_pad", "NOTSET")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        features.add("same")
    if auto_pad != "NOTSET":
        features.add(auto_pad.lower())
    if any(d > 1 for d in a.get("dilations", [])):
        features.add("dilated")
    pads = a.get("pads", [])
    rank = record.rank
    if any(pads):
        features.add("pads")
        if pads[:rank] != pads[rank:]:
            features.add("asymmetric_pads")
        if any(p >= k for p, k in zip(pads, list(a["kernel_shape"]) * 2)):
            features.add("pads>=kernel")
    if a.get("ceil_mode"):
        features.add("ceil_mode")
    if a.get("count_include_pad"):
        features.add("count_include_pad")
    if a.get("storage_order") and record.with_indices:
        features.add("storage_order=1")
    if record.with_indices:
        features.add("indices")
    if record.op in oc.GLOBAL_OPS and rank > 3:
        features.add("rank>5")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        # Where the SAME formula goes negative (stride wider than the dilated
        # kernel), ONNX pads nothing: pads are never negative.
        for n, k, s, d in zip(record.x.shape[2:], a["kernel_shape"], a.get("strides", [1] * rank),
                              a.get("dilations", [1] * rank)):
            if (-(-n // s) - 1) * s + (k - 1) * d + 1 - n < 0:
                features.add("same_pad_clamped_to_0")
    features.add(f"rank{rank}")
    if pattern in ("ties", "extreme"):
        features.add(pattern)
    if oc.is_float_type(record.x_type):
        values = oc.from_storage(record.x, record.x_type)
        if np.isnan(values).any():
            features.add("nan")
        if np.isinf(values).any():
            features.add("inf")
        if (values == -np.inf).any():
            features.add("negative_inf")
        if (np.signbit(values) & (values == 0)).any():
            features.add("negative_zero")
    stats = oc.window_stats(record.op, record.attributes, record.x.shape)
    if stats.empty_windows:
        features.add("empty_window")
    if stats.past_end_pad_windows:
        features.add("window_past_end_pad")
    return features


# --- onnxruntime ----------------------------------------------------------------


def ort_session(ort, model_bytes: bytes):
    options = ort.SessionOptions()
    options.log_severity_level = 4
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])


def short_reason(error: Exception) -> str:
    """ORT's error without paths, timestamps and node names, for grouping."""
    text = str(error).replace("\n", " ")
    if "Pad should be smaller than kernel" in text:
        return "pads >= kernel_shape (ORT requires every pad < kernel)"
    match = re.search(r"(?:Could not find an implementation for|Failed to find kernel for) (\w+)\((\d+)\)", text)
    if match:
        return f"no CPU kernel for {match.group(1)}({match.group(2)}) in this type"
    match = re.search(r"Type '(tensor\(\w+\))' of input parameter \(X\) of operator \((\w+)\)", text)
    if match:
        return f"{match.group(2)} does not take {match.group(1)} at this opset"
    if "Status Message:" in text:  # failed while running: keep ORT's own words
        text = text.split("Status Message:", 1)[1]
        text = text.split(" was false.", 1)[-1]
    text = re.sub(r"/\S+:\d+ ", "", text).strip()
    return re.sub(r"\d+", "N", text)[:160]


def run_onnxruntime(ort, record: CaseRecord) -> None:
    """Fills record.ort_outputs and record.route, or record.ort_rejections only."""
    output_specs = [("Y", record.x_type, None)] + ([("Indices", "int64", None)] if record.with_indices else [])
    shape = oc.output_shape(record.op, record.attributes, record.x.shape)
    outputs = [(name, t, shape) for name, t, _ in output_specs]

    def attempt(route: str, x_type: str, opset: int, x_feed):
        model = oc.make_model(record.op, record.attributes, x_type, record.x.shape,
                              [(name, x_type if name == "Y" else t, s) for name, t, s in outputs], opset)
        try:
            inference = ort_session(ort, model.SerializeToString())
            return inference.run(None, {"X": x_feed})
        except Exception as error:  # onnxruntime raises its own exception types
            record.ort_rejections.append((route, short_reason(error)))
            return None

    native_feed = record.x
    if record.x_type == "bfloat16":
        import ml_dtypes  # onnxruntime takes bfloat16 as ml_dtypes' type

        native_feed = record.x.view(ml_dtypes.bfloat16)
    for route, opset in (("ort-native", oc.OPSET), ("ort-opset21", 21)):
        result = attempt(route, record.x_type, opset, native_feed)
        if result is not None:
            record.route = route
            record.ort_outputs = [(name, t, np.asarray(v)) for (name, t, _), v in zip(outputs, result)]
            if record.x_type == "bfloat16":
                record.ort_outputs[0] = ("Y", "bfloat16", np.asarray(result[0]).view(np.uint16))
            return
    if record.x_type in ("bfloat16", "float64"):
        feed = oc.from_storage(record.x, record.x_type).astype(np.float32)
        if record.x_type == "float64" and not np.array_equal(feed.astype(np.float64), oc.from_storage(record.x, "float64"), equal_nan=True):
            return  # not float32-representable: emulation would change the input
        for route, opset in (("ort-float32", oc.OPSET), ("ort-float32-opset21", 21)):
            result = attempt(route, "float32", opset, feed)
            if result is not None:
                record.route = route
                y = oc.to_storage(np.asarray(result[0]).astype(np.float64), record.x_type)
                record.ort_outputs = [("Y", record.x_type, y)] + [
                    (name, t, np.asarray(v)) for (name, t, _), v in zip(outputs[1:], result[1:])]
                return


# --- comparing and judging ------------------------------------------------------


def is_exact(record: CaseRecord, k: int) -> bool:
    return record.op in oc.MAX_OPS or k == 1


def compare_outputs(record: CaseRecord, expected: list, actual: list) -> tuple[str, str]:
    """(what differs, detail) of `actual` against `expected`; ("", "") when equal."""
    for k, ((name, e_type, e), (_, a_type, a)) in enumerate(zip(expected, actual)):
        why = oc.compare(e_type, e, a_type, a, exact=is_exact(record, k))
        if why:
            what = "shape" if why.startswith("shape") else f"{name} values"
            return what, f"{name}: {why}"
    return "", ""


def judge(record: CaseRecord) -> None:
    """Sets record.verdict: who the float64 reference sides with."""
    if record.onnxpool_outputs is None:
        try:
            oc.geometry(record.op, record.attributes, record.x.shape[2:])
        except ValueError as error:
            record.verdict = f"onnxpool (invalid ONNX: {error})"
            return
        record.verdict = "onnxruntime (valid ONNX that onnxpool did not run)"
        return
    with np.errstate(all="ignore"):
        ours = oc.reference_outputs(record.op, record.attributes, record.x_type, record.x, record.with_indices)
    onnxpool_wrong, record.reference_detail = compare_outputs(record, ours, record.onnxpool_outputs)
    onnxpool_right = not onnxpool_wrong
    ort_right = not compare_outputs(record, ours, record.ort_outputs)[0]
    record.verdict = {(True, False): "onnxpool", (False, True): "onnxruntime",
                      (True, True): "both", (False, False): "neither"}[(onnxpool_right, ort_right)]


def explain(record: CaseRecord) -> str:
    for known in KNOWN_DIFFERENCES:
        if known.applies(record) and record.verdict == known.right:
            return known.key
    return ""


# --- the runner -----------------------------------------------------------------


def run_runner(runner: Path, case_dirs: list[Path], out_dir: Path) -> dict[str, str]:
    """Case name -> the runner's PASS/FAIL line."""
    try:
        done = subprocess.run([str(runner), "--output-dir", str(out_dir), "--", *map(str, case_dirs)],
                              capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as error:
        sys.exit(f"differential_onnxruntime.py: could not run {runner}: {error}")
    if done.returncode not in (0, 1):
        print(f"runner exited with {done.returncode}; stderr: {done.stderr[-2000:]}", file=sys.stderr)
    lines = {}
    for line in done.stdout.splitlines():
        match = re.match(r"(PASS|FAIL) (\S+?)(:|$| )", line)
        if match:
            lines[match.group(2)] = line
    return lines


def load_onnxpool_outputs(record: CaseRecord, out_dir: Path, not_before: float):
    """What the runner wrote for `record`, or None. Files older than this run
    are an earlier run's (the folder is reused, not deleted: deleting
    thousands of files is slow on some file systems) and count as missing."""
    data_dir = out_dir / record.name / "test_data_set_0"
    outputs = []
    for k, (name, _, _) in enumerate(record.ort_outputs):
        path = data_dir / f"output_{k}.pb"
        if not path.is_file() or path.stat().st_mtime < not_before:
            return None
        outputs.append((name, *oc.read_tensor(path)))
    return outputs


# --- report ---------------------------------------------------------------------


def pattern_of(record: CaseRecord) -> str:
    interesting = sorted(f for f in record.features if not f.startswith("rank"))
    return ",".join(interesting) or "plain"


def print_summary(records, ort_version: str, seed: int, elapsed: float, verbose: bool) -> int:
    generated = len(records)
    rejected = [r for r in records if not r.route]
    ort_ran = [r for r in records if r.route]
    not_run = [r for r in ort_ran if r.onnxpool_outputs is None]
    compared = [r for r in ort_ran if r.onnxpool_outputs is not None]
    disagreeing = [r for r in compared if r.what_differs]
    agreeing = [r for r in compared if not r.what_differs]
    unexplained = [r for r in disagreeing if not r.known]
    # onnxpool and ORT agree, but not with the reference: a shared mistake, or
    # one in the reference; either way someone must look.
    disputed = [r for r in agreeing if r.verdict != "both"]
    runner_contradictions = [r for r in compared if r.runner_line.startswith("PASS") == bool(r.what_differs)]

    print(f"\n== onnxpool vs onnxruntime {ort_version} (CPU EP), seed {seed}, {elapsed:.0f} s")
    print(f"{'cases generated':<48}{generated:>6}")
    print(f"{'  onnxruntime rejected (not compared)':<48}{len(rejected):>6}")
    print(f"{'  onnxruntime ran':<48}{len(ort_ran):>6}")
    for route, count in sorted(collections.Counter(r.route for r in ort_ran).items()):
        print(f"{'    expectation from ' + route:<48}{count:>6}")
    print(f"{'  onnxpool did not run (FAILS the check)':<48}{len(not_run):>6}")
    print(f"{'  compared':<48}{len(compared):>6}")
    print(f"{'    agreements':<48}{len(agreeing):>6}")
    print(f"{'    disagreements':<48}{len(disagreeing):>6}")
    print(f"{'      explained (KNOWN_DIFFERENCES)':<48}{len(disagreeing) - len(unexplained):>6}")
    print(f"{'      UNEXPLAINED (FAILS the check)':<48}{len(unexplained):>6}")
    print(f"{'    agreements the reference disputes (FAILS)':<48}{len(disputed):>6}")

    print("\n-- by operator and type: agree / disagree / onnxpool did not run / ORT rejected")
    table = collections.defaultdict(lambda: [0, 0, 0, 0])
    for r in records:
        cell = table[(r.op, r.x_type)]
        if not r.route:
            cell[3] += 1
        elif r.onnxpool_outputs is None:
            cell[2] += 1
        else:
            cell[1 if r.what_differs else 0] += 1
    for (op, x_type), counts in sorted(table.items()):
        print(f"  {op:<18}{x_type:<10}" + " / ".join(f"{c:>4}" for c in counts))

    if disagreeing:
        print("\n-- disagreements by kind: count, [who the float64 reference sides with]")
        kinds = collections.defaultdict(list)
        for r in disagreeing:
            if r.known:
                kinds[("known", r.known, r.op, r.x_type, r.what_differs, "")].append(r)
            else:
                kinds[("UNEXPLAINED", r.op, r.x_type, r.what_differs, pattern_of(r), r.verdict)].append(r)
        for kind, members in sorted(kinds.items()):
            verdicts = collections.Counter(m.verdict for m in members)
            verdict_text = ", ".join(f"{v}: {c}" for v, c in verdicts.items())
            if kind[0] == "known":
                _, key, op, x_type, what, _ = kind
                print(f"  known {key}: {op} {x_type}, {what}: {len(members)} [{verdict_text}]")
            else:
                _, op, x_type, what, pattern, _ = kind
                print(f"  UNEXPLAINED {op} {x_type}, {what}, pattern {pattern}: {len(members)} [{verdict_text}]")
                example = members[0]
                print(f"      e.g. {example.name} {json.dumps(example.attributes)} x{list(example.x.shape)}: "
                      f"{example.detail or example.runner_line}")
                if example.reference_detail:
                    print(f"      against the reference, onnxpool's {example.reference_detail}")
        for known in KNOWN_DIFFERENCES:
            count = sum(1 for r in disagreeing if r.known == known.key)
            if count:
                print(f"\n  {known.key}: {known.title} ({count})\n    {known.reason}\n    pinned by: {known.pinned_by}")

    if not_run:
        print("\n-- onnxpool did not run (cases onnxruntime ran), by reason")
        reasons = collections.Counter(re.sub(r"^FAIL \S+: ", "", r.runner_line)[:150] or "no runner line"
                                      for r in not_run)
        for reason, count in reasons.most_common():
            print(f"  {count:>5}  {reason}")

    if rejected:
        print("\n-- onnxruntime rejected (last reason ORT gave), by op and type")
        reasons = collections.Counter((r.op, r.x_type, r.ort_rejections[-1][1] if r.ort_rejections else "?")
                                      for r in rejected)
        for (op, x_type, reason), count in sorted(reasons.items()):
            print(f"  {count:>5}  {op} {x_type}: {reason}")
    fallbacks = collections.Counter((r.op, r.x_type, r.route, r.ort_rejections[0][1])
                                    for r in compared if r.ort_rejections)
    if fallbacks:
        print("\n-- compared by another route because onnxruntime lacks the native kernel")
        for (op, x_type, route, reason), count in sorted(fallbacks.items()):
            print(f"  {count:>5}  {op} {x_type} via {route}: {reason}")

    print("\n-- patterns among the compared cases (how often each was exercised)")
    coverage = collections.Counter(f for r in compared for f in r.features)
    print("  " + ", ".join(f"{feature} {count}" for feature, count in sorted(coverage.items())))

    if disputed:
        print("\n-- onnxpool and onnxruntime agree, the float64 reference does not")
        for r in disputed[:20]:
            print(f"  {r.name} {json.dumps(r.attributes)} x{list(r.x.shape)} {pattern_of(r)}: "
                  f"against the reference, onnxpool's {r.reference_detail}")

    if runner_contradictions:
        print("\n-- INTERNAL: the runner's PASS/FAIL contradicts this script's comparison")
        for r in runner_contradictions[:10]:
            print(f"  {r.name}: runner '{r.runner_line[:150]}', script '{r.detail or 'agree'}'")

    if verbose:
        print("\n-- every disagreement")
        for r in disagreeing:
            print(f"  {r.name} [{r.known or 'UNEXPLAINED'}; reference: {r.verdict}] "
                  f"{json.dumps(r.attributes)} x{list(r.x.shape)} {pattern_of(r)}: {r.detail or r.runner_line}")

    failed = bool(unexplained or not_run or disputed or runner_contradictions)
    print(f"\ndifferential: {len(agreeing)} agreed, {len(disagreeing) - len(unexplained)} differed as "
          f"documented, {len(unexplained)} unexplained, {len(not_run)} not run by onnxpool, "
          f"{len(disputed)} agreements disputed by the reference"
          f"{', runner contradictions' if runner_contradictions else ''}: {'FAIL' if failed else 'OK'}")
    return 1 if failed else 0


# --- main -----------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runner", type=Path, required=True, help="onnxpool_test_runner")
    parser.add_argument("--work-dir", type=Path, default=Path("build/differential-onnxruntime"))
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ops", default=",".join(oc.OPS), help="comma-separated operators (default: all six)")
    parser.add_argument("--verbose", action="store_true", help="list every disagreement")
    args = parser.parse_args()
    ops = [op.strip() for op in args.ops.split(",") if op.strip()]
    if not ops or any(op not in oc.OPS for op in ops):
        parser.error(f"--ops takes some of {', '.join(oc.OPS)}")
    if not args.runner.is_file():
        print(f"differential_onnxruntime.py: no runner at {args.runner}", file=sys.stderr)
        return 2
    try:
        import onnxruntime as ort
    except ImportError as error:
        print(f"differential_onnxruntime.py: needs onnxruntime (tools/requirements.txt): {error}", file=sys.stderr)
        return 2
    ort.set_default_logger_severity(4)

    started = time.monotonic()
    rng = np.random.default_rng(args.seed)
    with np.errstate(all="ignore"):
        records = [random_case(rng, i, ops) for i in range(args.cases)]
    # Case folders are overwritten in place, and only this run's are run.
    cases_dir, out_dir = args.work_dir / "cases", args.work_dir / "onnxpool"
    cases_dir.mkdir(parents=True, exist_ok=True)
    case_dirs = []
    for record in records:
        run_onnxruntime(ort, record)
        if record.route:
            case_dirs.append(oc.write_case(oc.Case(record.name, record.op, record.attributes, record.x_type,
                                                   record.x, record.ort_outputs), cases_dir))

    runner_started = time.time() - 1.0  # file times may be a little coarse
    runner_lines = run_runner(args.runner, case_dirs, out_dir) if case_dirs else {}
    for record in records:
        if not record.route:
            continue
        record.runner_line = runner_lines.get(record.name, "")
        record.onnxpool_outputs = load_onnxpool_outputs(record, out_dir, runner_started)
        if record.onnxpool_outputs is None:
            record.what_differs = "onnxpool did not run"
            record.detail = record.runner_line or "no line from the runner"
        else:
            record.what_differs, record.detail = compare_outputs(record, record.ort_outputs, record.onnxpool_outputs)
        judge(record)  # every case, agreements too: the reference checks both sides
        if record.what_differs:
            record.known = explain(record)

    status = print_summary(records, ort.__version__, args.seed, time.monotonic() - started, args.verbose)
    summary = [{"name": r.name, "op": r.op, "type": r.x_type, "attributes": r.attributes,
                "shape": list(r.x.shape), "features": sorted(r.features), "route": r.route,
                "ort_rejections": r.ort_rejections, "differs": r.what_differs, "detail": r.detail,
                "verdict": r.verdict, "reference_detail": r.reference_detail, "known": r.known} for r in records]
    (args.work_dir / "results.json").write_text(json.dumps(summary, indent=1) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
