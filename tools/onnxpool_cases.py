"""Shared code for onnxpool's own test cases (tools/make_own_cases.py) and the
differential check against onnxruntime (tools/differential_onnxruntime.py):

- element types: ONNX codes, storage dtypes, correct rounding to each type
  (bfloat16 by hand: numpy has none);
- writing and reading ONNX backend-test case folders (model.onnx with one
  pooling node at opset 22, test_data_set_0/input_0.pb, output_K.pb);
- a plain float64 reference of the six pooling operators, written from the
  ONNX opset-22 operator text and docs/semantics.md: a loop over output
  positions and window taps, vectorised only over batch and channel;
- the comparison rule of onnxpool_test_runner (tools/runner/tensor_compare.cpp).

Not onnx.reference: it is wrong on corner cases (SAME_LOWER, dilated SAME,
ceil windows, rescaled LpPool windows), which is what these tools look at.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

OPSET = 22
# Opset 22 arrived with IR version 10; onnxruntime reads it, and so does the runner.
IR_VERSION = 10

OPS = ("MaxPool", "AveragePool", "LpPool", "GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool")
GLOBAL_OPS = ("GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool")
MAX_OPS = ("MaxPool", "GlobalMaxPool")

FLOAT_TYPES = ("float32", "float16", "bfloat16", "float64")
# The types opset 22 allows for each operator (and onnxpool implements).
OP_TYPES = {op: FLOAT_TYPES for op in OPS}
OP_TYPES["MaxPool"] = FLOAT_TYPES + ("int8", "uint8")

# Windowed operators' attributes and their opset-22 defaults.
DEFAULT_ATTRIBUTES = {
    "auto_pad": "NOTSET",
    "ceil_mode": 0,
    "count_include_pad": 0,
    "storage_order": 0,
    "p": 2,
}


# --- element types ------------------------------------------------------------


def onnx_type(type_name: str) -> int:
    from onnx import TensorProto

    return {
        "float32": TensorProto.FLOAT,
        "float16": TensorProto.FLOAT16,
        "bfloat16": TensorProto.BFLOAT16,
        "float64": TensorProto.DOUBLE,
        "int8": TensorProto.INT8,
        "uint8": TensorProto.UINT8,
        "int64": TensorProto.INT64,
    }[type_name]


def type_name_of(onnx_code: int) -> str:
    for name in ("float32", "float16", "bfloat16", "float64", "int8", "uint8", "int64"):
        if onnx_type(name) == onnx_code:
            return name
    raise ValueError(f"element type {onnx_code} is not one the pooling operators use")


# How each type's elements are held in numpy; bfloat16 as its uint16 bit pattern.
STORAGE_DTYPES = {
    "float32": np.float32,
    "float16": np.float16,
    "bfloat16": np.uint16,
    "float64": np.float64,
    "int8": np.int8,
    "uint8": np.uint8,
    "int64": np.int64,
}


def is_float_type(type_name: str) -> bool:
    return type_name in FLOAT_TYPES


def bfloat16_bits_from_float32(values) -> np.ndarray:
    """float32 -> bfloat16 bit patterns, rounding to nearest, ties to even.

    bfloat16 is the top 16 bits of a float32. Adding 0x7fff plus the lowest
    kept bit and truncating rounds to nearest-even (a carry into the exponent
    is the correct round-up, to infinity past the largest finite value).
    NaNs become a quiet NaN with the same sign instead, since the addition
    could carry a NaN's payload into an infinity.
    """
    f32 = np.ascontiguousarray(values, dtype=np.float32)
    bits = f32.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    quiet_nan = ((bits >> 16) & 0x8000).astype(np.uint16) | np.uint16(0x7FC0)
    return np.where(np.isnan(f32), quiet_nan, rounded).astype(np.uint16)


def float32_from_bfloat16_bits(bits) -> np.ndarray:
    """bfloat16 bit patterns -> float32, exactly."""
    wide = np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16
    return wide.view(np.float32)


def to_storage(values, type_name: str) -> np.ndarray:
    """float64 (or integer) values -> the type's storage array, correctly rounded.

    float32/float16: numpy's casts round to nearest-even from float64.
    bfloat16: to float32 first, then nearest-even to bfloat16 (the rounding a
    kernel that computes in float32 does). Integers must already be exact.
    """
    values = np.asarray(values)
    if type_name == "bfloat16":
        return bfloat16_bits_from_float32(values.astype(np.float32))
    if type_name in ("int8", "uint8", "int64"):
        info = np.iinfo(STORAGE_DTYPES[type_name])
        as_int = values.astype(np.int64)
        if not np.array_equal(as_int, values) or as_int.min(initial=0) < info.min or as_int.max(initial=0) > info.max:
            raise ValueError(f"values are not exact {type_name} values")
        return as_int.astype(STORAGE_DTYPES[type_name])
    return values.astype(STORAGE_DTYPES[type_name])


def from_storage(stored, type_name: str) -> np.ndarray:
    """Storage array -> float64 values (int64 for integer types), exactly."""
    stored = np.asarray(stored)
    if type_name == "bfloat16":
        return float32_from_bfloat16_bits(stored).astype(np.float64)
    if is_float_type(type_name):
        return stored.astype(np.float64)
    return stored.astype(np.int64)


def lowest_value(type_name: str) -> float:
    """The reduction identity of max: -inf for floats, the minimum for integers."""
    if is_float_type(type_name):
        return -math.inf
    return int(np.iinfo(STORAGE_DTYPES[type_name]).min)


# --- tensors and case folders -------------------------------------------------


def tensor_proto(name: str, stored: np.ndarray, type_name: str):
    """A TensorProto holding `stored` (the type's storage array) as raw_data.

    raw_data is the elements' little-endian bytes, for every fixed-width type;
    for bfloat16 that is each value's 16-bit pattern (what onnx.numpy_helper
    also writes), for float16 its IEEE binary16 bits.
    """
    from onnx import TensorProto

    stored = np.ascontiguousarray(stored, dtype=STORAGE_DTYPES[type_name])
    proto = TensorProto()
    proto.name = name
    proto.data_type = onnx_type(type_name)
    proto.dims.extend(int(d) for d in stored.shape)
    proto.raw_data = stored.astype(stored.dtype.newbyteorder("<"), copy=False).tobytes()
    return proto


def read_tensor(path: Path) -> tuple[str, np.ndarray]:
    """(type name, storage array) of a .pb tensor file."""
    from onnx import TensorProto, numpy_helper

    proto = TensorProto()
    proto.ParseFromString(Path(path).read_bytes())
    type_name = type_name_of(proto.data_type)
    array = numpy_helper.to_array(proto)
    if type_name == "bfloat16":  # onnx hands out ml_dtypes.bfloat16; keep the bits
        array = np.ascontiguousarray(array).view(np.uint16)
    return type_name, np.asarray(array, dtype=STORAGE_DTYPES[type_name])


def make_model(op: str, attributes: dict, x_type: str, x_shape, outputs: list[tuple[str, str, tuple]],
               opset: int = OPSET):
    """A ModelProto with one `op` node reading X and writing `outputs`
    ([(name, type name, shape)], in node output order)."""
    from onnx import helper

    node = helper.make_node(op, ["X"], [name for name, _, _ in outputs], **attributes)
    graph = helper.make_graph(
        [node],
        f"{op.lower()}_case",
        [helper.make_tensor_value_info("X", onnx_type(x_type), list(x_shape))],
        [helper.make_tensor_value_info(name, onnx_type(t), list(shape)) for name, t, shape in outputs],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="onnxpool-tools")
    model.ir_version = IR_VERSION
    return model


@dataclass
class Case:
    """One single-node pooling case: the node, its input and expected outputs."""

    name: str
    op: str
    attributes: dict                 # ONNX attributes as passed to onnx.helper.make_node
    x_type: str
    x: np.ndarray                    # storage array of X
    outputs: list = field(default_factory=list)  # [(name, type name, storage array)]

    def model(self, opset: int = OPSET):
        return make_model(self.op, self.attributes, self.x_type, self.x.shape,
                          [(name, t, a.shape) for name, t, a in self.outputs], opset)


def write_case(case: Case, out_dir: Path) -> Path:
    """Writes `case` as out_dir/<name>/{model.onnx, test_data_set_0/...}."""
    case_dir = Path(out_dir) / case.name
    data_dir = case_dir / "test_data_set_0"
    data_dir.mkdir(parents=True, exist_ok=True)
    (case_dir / "model.onnx").write_bytes(case.model().SerializeToString())
    (data_dir / "input_0.pb").write_bytes(tensor_proto("X", case.x, case.x_type).SerializeToString())
    for k, (name, type_name, stored) in enumerate(case.outputs):
        (data_dir / f"output_{k}.pb").write_bytes(tensor_proto(name, stored, type_name).SerializeToString())
    # Files are overwritten in place (deleting is slow on some file systems);
    # an output left from an earlier case of this name must not linger.
    (data_dir / f"output_{len(case.outputs)}.pb").unlink(missing_ok=True)
    return case_dir


def read_case(case_dir: Path) -> tuple[str, dict, str, np.ndarray, list]:
    """(op, attributes, X type, X storage, [(type, storage) of each expected output])."""
    import onnx
    from onnx import helper

    model = onnx.load(str(Path(case_dir) / "model.onnx"))
    node = model.graph.node[0]
    attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    attributes = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in attributes.items()}
    attributes = {k: (list(v) if not isinstance(v, (int, float, str)) else v) for k, v in attributes.items()}
    data_dir = Path(case_dir) / "test_data_set_0"
    x_type, x = read_tensor(data_dir / "input_0.pb")
    outputs = []
    for k in itertools.count():
        path = data_dir / f"output_{k}.pb"
        if not path.is_file():
            break
        outputs.append(read_tensor(path))
    return node.op_type, attributes, x_type, x, outputs


# --- geometry (docs/semantics.md) -----------------------------------------


@dataclass
class Geometry:
    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pads_begin: list[int]
    pads_end: list[int]
    out: list[int]

    def taps(self, axis: int, o: int) -> list[int]:
        """Input coordinates of output position `o`'s window taps along `axis`."""
        start = o * self.strides[axis] - self.pads_begin[axis]
        return [start + j * self.dilations[axis] for j in range(self.kernel[axis])]


def geometry(op: str, attributes: dict, spatial) -> Geometry:
    """Window geometry of `op` over an input with spatial extents `spatial`.

    Raises ValueError for attributes that ONNX or docs/semantics.md's rules reject.
    """
    spatial = [int(s) for s in spatial]
    rank = len(spatial)
    if op in GLOBAL_OPS:
        return Geometry(spatial, [1] * rank, [1] * rank, [0] * rank, [0] * rank, [1] * rank)
    if "kernel_shape" not in attributes:
        raise ValueError("kernel_shape is required")
    kernel = list(attributes["kernel_shape"])
    strides = list(attributes.get("strides", [1] * rank))
    dilations = list(attributes.get("dilations", [1] * rank))
    pads = list(attributes.get("pads", [0] * 2 * rank))
    auto_pad = attributes.get("auto_pad", "NOTSET")
    ceil_mode = bool(attributes.get("ceil_mode", 0))
    if len(kernel) != rank or len(strides) != rank or len(dilations) != rank or len(pads) != 2 * rank:
        raise ValueError("attribute lengths do not match the input's spatial rank")
    if min(kernel + strides + dilations) < 1 or min(pads) < 0:
        raise ValueError("kernel, strides and dilations must be >= 1 and pads >= 0")
    if auto_pad != "NOTSET" and "pads" in attributes and any(pads):
        raise ValueError("auto_pad together with explicit pads")
    pads_begin, pads_end, out = [], [], []
    for axis in range(rank):
        n, k, s, d = spatial[axis], kernel[axis], strides[axis], dilations[axis]
        keff = (k - 1) * d + 1
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            # Pad from the DILATED kernel so that out = ceil(n / s).
            total = max((-(-n // s) - 1) * s + keff - n, 0)
            small, large = total // 2, total - total // 2
            pb, pe = (small, large) if auto_pad == "SAME_UPPER" else (large, small)
        elif auto_pad == "VALID":
            pb = pe = 0
        elif auto_pad == "NOTSET":
            pb, pe = pads[axis], pads[axis + rank]
        else:
            raise ValueError(f"auto_pad {auto_pad!r}")
        # Negative when the window is wider than the padded input: the formula (floor and ceil of
        # the real quotient) still gives 0 or 1 outputs for an overhang within a stride or two.
        span = n + pb + pe - keff
        size = (-(-span // s) if ceil_mode else span // s) + 1
        # A ceil_mode window that would start in the end padding is dropped.
        if ceil_mode and size > 0 and (size - 1) * s >= n + pb:
            size -= 1
        if size < 0:
            raise ValueError("the dilated kernel is wider than the padded input by more than a stride")
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            assert size == -(-n // s), (n, s, keff, size)
        pads_begin.append(pb)
        pads_end.append(pe)
        out.append(size)
    return Geometry(kernel, strides, dilations, pads_begin, pads_end, out)


def window_wider_than_padded_input(op: str, attributes: dict, spatial) -> bool:
    """Whether some axis's dilated kernel is wider than its padded input (a valid node while the
    overhang is within a stride: geometry gives 0 or 1 outputs there)."""
    g = geometry(op, attributes, spatial)
    return any((k - 1) * d + 1 > n + pb + pe
               for k, d, n, pb, pe in zip(g.kernel, g.dilations, spatial, g.pads_begin, g.pads_end))


def output_shape(op: str, attributes: dict, x_shape) -> tuple[int, ...]:
    g = geometry(op, attributes, x_shape[2:])
    return tuple(int(d) for d in x_shape[:2]) + tuple(g.out)


# --- the reference ------------------------------------------------------------


def _max_wins(v: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Where `v` replaces the running maximum `best` (a later tap must be
    strictly greater, so ties keep the first in scan order). The order is IEEE
    754-2019 `maximum`'s, onnxpool's documented policy where ONNX says nothing:
    NaN beats every number (the first NaN is kept) and +0 beats -0."""
    if v.dtype.kind != "f":
        return v > best
    v_nan, best_nan = np.isnan(v), np.isnan(best)
    zero_over_negative_zero = (v == 0) & (best == 0) & np.signbit(best) & ~np.signbit(v)
    return (v_nan & ~best_nan) | (~best_nan & ~v_nan & ((v > best) | zero_over_negative_zero))


@dataclass
class WindowStats:
    """What the windows of a case look like (for classifying differences)."""

    empty_windows: int = 0          # windows with no tap inside X
    past_end_pad_windows: int = 0   # ceil_mode windows with taps beyond the end pad


def window_stats(op: str, attributes: dict, x_shape) -> WindowStats:
    """Counts the windows with no tap inside X and those reaching past the end
    pad. Axis by axis: a window is empty when its taps along some axis all
    miss X, and reaches past the end pad when they do so along some axis."""
    spatial = [int(s) for s in x_shape[2:]]
    g = geometry(op, attributes, spatial)
    total = math.prod(g.out)
    nonempty, within = 1, 1
    for axis, n in enumerate(spatial):
        taps = [g.taps(axis, o) for o in range(g.out[axis])]
        nonempty *= sum(any(0 <= t < n for t in ts) for ts in taps)
        within *= sum(all(t < n + g.pads_end[axis] for t in ts) for ts in taps)
    return WindowStats(total - nonempty, total - within)


def reference(op: str, attributes: dict, x_type: str, x_stored: np.ndarray):
    """Expected outputs of `op` as float64 (int64 for integer types), plus the
    Indices (int64) for MaxPool, and WindowStats.

    Returns (y, indices or None, stats). Values are not yet rounded to the
    output type: to_storage(y, x_type) does that. NaN and infinities follow
    IEEE arithmetic (inf - inf is NaN), without warnings.
    """
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return _reference(op, attributes, x_type, x_stored)


def _reference(op: str, attributes: dict, x_type: str, x_stored: np.ndarray):
    x = from_storage(x_stored, x_type)
    if x.ndim < 3:
        raise ValueError("X must be [N, C, D1, ...]")
    batch, channels, spatial = x.shape[0], x.shape[1], x.shape[2:]
    g = geometry(op, attributes, spatial)
    rank = len(spatial)
    plane = int(np.prod(spatial))
    storage_order = int(attributes.get("storage_order", 0))
    count_include_pad = bool(attributes.get("count_include_pad", 0))
    p = int(attributes.get("p", 2))
    is_max = op in MAX_OPS
    is_lp = op in ("LpPool", "GlobalLpPool")
    # Flat offset of each (n, c) plane in the whole input, for Indices.
    plane_offsets = (np.arange(batch)[:, None] * channels + np.arange(channels)[None, :]) * plane

    y = np.zeros((batch, channels, *g.out), dtype=np.float64 if is_float_type(x_type) else np.int64)
    indices = np.zeros(y.shape, dtype=np.int64) if op == "MaxPool" else None
    for o in itertools.product(*(range(extent) for extent in g.out)):
        taps_per_axis = [g.taps(axis, o[axis]) for axis in range(rank)]
        best = None
        best_index = np.full((batch, channels), -1, dtype=np.int64)
        total = np.zeros((batch, channels), dtype=np.float64)
        real_taps = 0    # taps inside X
        padded_taps = 0  # taps inside [-pad_begin, in + pad_end) on every axis
        for tap in itertools.product(*taps_per_axis):  # row-major: scan order
            inside_padded = all(-g.pads_begin[a] <= tap[a] < spatial[a] + g.pads_end[a] for a in range(rank))
            padded_taps += inside_padded
            if not all(0 <= tap[a] < spatial[a] for a in range(rank)):
                continue  # padding: no value, adds nothing
            real_taps += 1
            v = x[(slice(None), slice(None)) + tap]
            if is_max:
                order = "F" if storage_order == 1 else "C"
                lin = int(np.ravel_multi_index(tap, spatial, order=order))
                if best is None:
                    best, best_index[:] = v.copy(), lin
                else:
                    wins = _max_wins(v, best)
                    best = np.where(wins, v, best)
                    best_index = np.where(wins, lin, best_index)
            elif is_lp:
                total = total + np.abs(v) ** p
            else:
                total = total + v
        at = (slice(None), slice(None)) + o
        if is_max:
            if best is None:  # no tap inside X: the type's lowest value, index -1
                y[at] = lowest_value(x_type)
                if indices is not None:
                    indices[at] = -1
            else:
                y[at] = best
                indices_at = np.where(best_index >= 0, plane_offsets + best_index, -1)
                if indices is not None:
                    indices[at] = indices_at
        elif is_lp:
            # Padding adds nothing; partial windows are not rescaled.
            y[at] = total ** (1.0 / p)
        else:
            divisor = padded_taps if (count_include_pad and op == "AveragePool") else real_taps
            y[at] = total / divisor if divisor else np.nan  # the mean of nothing
    return y, indices, window_stats(op, attributes, x.shape)


def reference_outputs(op: str, attributes: dict, x_type: str, x_stored: np.ndarray, with_indices: bool):
    """[(name, type, storage array)] for the node's outputs, rounded to their types."""
    y, indices, _ = reference(op, attributes, x_type, x_stored)
    outputs = [("Y", x_type, to_storage(y, x_type))]
    if with_indices:
        outputs.append(("Indices", "int64", indices))
    return outputs


# --- comparison (the runner's rule, tools/runner/tensor_compare.cpp) ----------


def tolerance_for(type_name: str) -> tuple[float, float]:
    """(relative, absolute), as the runner's tolerance_for()."""
    return (1e-2, 1e-6) if type_name in ("float16", "bfloat16") else (1e-5, 1e-6)


def compare(expected_type: str, expected: np.ndarray, actual_type: str, actual: np.ndarray,
            exact: bool, tolerance: tuple[float, float] | None = None) -> str | None:
    """None when `actual` matches `expected` by the runner's rule, else why not.

    Exact: bit for bit (any NaN matches any NaN; -0 and +0 differ).
    Tolerant floats: |a - e| <= absolute + relative * |e|, infinities equal.
    """
    if expected_type != actual_type:
        return f"type {actual_type}, expected {expected_type}"
    if tuple(expected.shape) != tuple(actual.shape):
        return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    if not is_float_type(expected_type):
        bad = expected != actual
    else:
        e, a = from_storage(expected, expected_type), from_storage(actual, actual_type)
        both_nan = np.isnan(e) & np.isnan(a)
        if exact:
            bad = (expected.view(np.uint8).reshape(expected.shape + (-1,)) !=
                   actual.view(np.uint8).reshape(actual.shape + (-1,))).any(axis=-1)
        else:
            relative, absolute = tolerance or tolerance_for(expected_type)
            with np.errstate(invalid="ignore"):
                finite_close = np.abs(a - e) <= absolute + relative * np.abs(e)
            infinite = np.isinf(e) | np.isinf(a)
            bad = np.where(infinite, e != a, ~finite_close)
        bad = bad & ~both_nan
        bad = bad | (np.isnan(e) != np.isnan(a))
    count = int(np.count_nonzero(bad))
    if count == 0:
        return None
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    show = (lambda arr, t: from_storage(arr, t)[first]) if expected.size else None
    return (f"{count} of {expected.size} differ; first at {list(first)}: "
            f"expected {show(expected, expected_type).item()!r}, got {show(actual, actual_type).item()!r}")
