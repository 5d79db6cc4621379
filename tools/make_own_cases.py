#!/usr/bin/env python3
"""Writes onnxpool's own ONNX backend-test cases: what the 51 official pooling
cases leave out.

    make_own_cases.py OUT_DIR
    make_own_cases.py --check-official ONNX_CASES_DIR

The first form writes OUT_DIR/own_<op>_<what>/ (model.onnx with one node at
opset 22, test_data_set_0/input_0.pb, output_0.pb and, for MaxPool with
Indices, output_1.pb), the layout onnxpool_test_runner reads. Expected outputs
come from the float64 reference in onnxpool_cases.py (loops over output
positions and taps, from the ONNX text and docs/semantics.md), rounded once
to the output type. The cases cover:

- GlobalLpPool, which has no official case, at ranks 3, 4 and 5, p = 1, 2, 3
  and the default;
- every operator in every type it takes (float32, float16, bfloat16, float64;
  MaxPool also int8 and uint8), MaxPool with Indices;
- ceil_mode for AveragePool (count_include_pad 0 and 1), LpPool and MaxPool,
  with windows that run past the end pad, a dropped last window, and VALID;
- batch and channel > 1 in all but the hand-written special-value cases,
  asymmetric pads, dilations, 1D and 3D, auto_pad SAME_UPPER / SAME_LOWER
  (also dilated, and with a stride wider than the kernel) / VALID,
  storage_order 1, ties (first in scan order), integer padding;
- NaN and infinities in sums, all -inf max windows, LpPool magnitudes where
  |x|^p overflows the type, and windows with no tap inside X where ONNX
  defines the result (LpPool: 0; AveragePool with count_include_pad 1).

Cases named own_<op>_policy_* pin what onnxpool documents where ONNX says
nothing (pooling.h, README): NaN and signed zeros in GlobalMaxPool and
MaxPool (IEEE 754-2019 maximum), and the NaN average of a window with no tap
inside X (count_include_pad 0). The reference implements the same documented
policy; README.md ("Where onnxpool and onnxruntime differ") says where onnxruntime chose otherwise.

The second form checks the reference itself: it must reproduce every official
case within the runner's tolerance, except exactly the cases listed in
tools/runner/tolerance_overrides.cpp, which it must reproduce within that
file's looser tolerance (and must fail at the usual one, or the override is
not needed).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import onnxpool_cases as oc  # noqa: E402

PREFIX = "own_"
OVERRIDES_FILE = Path(__file__).resolve().parent / "runner" / "tolerance_overrides.cpp"


def random_input(name: str, x_type: str, shape, value_range=None, ties: bool = False) -> np.ndarray:
    """Reproducible input for case `name`, as the type's storage array.

    Floats are uniform in [-4, 4] (or value_range) rounded to the type, or with
    `ties` the integers -2..2 (so most windows hold their maximum twice);
    integers cover the type's whole range unless value_range narrows it."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    if ties:
        return oc.to_storage(rng.integers(-2, 2, size=shape, endpoint=True), x_type)
    if oc.is_float_type(x_type):
        low, high = value_range or (-4.0, 4.0)
        return oc.to_storage(rng.uniform(low, high, size=shape), x_type)
    info = np.iinfo(oc.STORAGE_DTYPES[x_type])
    low, high = value_range or (int(info.min), int(info.max))
    return oc.to_storage(rng.integers(low, high, size=shape, endpoint=True), x_type)


def make_case(what: str, op: str, attributes: dict, shape, x_type: str = "float32",
              indices: bool = False, value_range=None, values=None, ties: bool = False) -> oc.Case:
    """A case named own_<op>_<what>; X is `values` (float64, reshaped to
    `shape`) when given, else random_input()."""
    name = f"{PREFIX}{op.lower()}_{what}"
    if values is not None:
        x = oc.to_storage(np.asarray(values, dtype=np.float64).reshape(shape), x_type)
    else:
        x = random_input(name, x_type, shape, value_range, ties)
    stats = oc.window_stats(op, attributes, x.shape)
    if stats.empty_windows and "policy" not in what and op != "LpPool" and attributes.get("count_include_pad") != 1:
        raise AssertionError(f"{name}: has windows with no tap inside X, which ONNX leaves undefined")
    outputs = oc.reference_outputs(op, attributes, x_type, x, with_indices=indices)
    return oc.Case(name, op, attributes, x_type, x, outputs)


def own_cases() -> list[oc.Case]:
    cases = []
    add = cases.append

    # GlobalLpPool: no official case at all. Ranks 3, 4, 5; p = 1, 2, 3; and p left to its default.
    for rank_name, shape in (("rank3", (2, 3, 7)), ("rank4", (2, 3, 4, 5)), ("rank5", (2, 3, 3, 4, 2))):
        for p in (1, 2, 3):
            add(make_case(f"{rank_name}_p{p}", "GlobalLpPool", {"p": p}, shape))
    add(make_case("rank4_default_p", "GlobalLpPool", {}, (2, 3, 4, 5)))
    for op in ("GlobalMaxPool", "GlobalAveragePool"):
        add(make_case("rank3", op, {}, (2, 3, 9)))
        add(make_case("rank5", op, {}, (2, 3, 3, 4, 2)))

    # Every operator in every type it takes.
    windowed = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}
    for x_type in oc.OP_TYPES["MaxPool"]:
        add(make_case(f"{x_type}_indices", "MaxPool", windowed, (2, 3, 6, 7), x_type, indices=True))
    for x_type in oc.FLOAT_TYPES:
        add(make_case(x_type, "AveragePool", windowed, (2, 3, 6, 7), x_type))
        add(make_case(f"{x_type}_count_include_pad", "AveragePool",
                      {**windowed, "count_include_pad": 1}, (2, 3, 6, 7), x_type))
        add(make_case(f"{x_type}_p3", "LpPool", {**windowed, "p": 3}, (2, 3, 6, 7), x_type))
        for op in ("GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool"):
            add(make_case(x_type, op, {}, (2, 3, 5, 4), x_type))

    # ceil_mode: a window running past the end pad. Input 6, kernel 3, stride 2,
    # pads 1/1: out = ceil(5/2) + 1 = 4, the last window covers 5, 6, 7 and
    # 7 >= in + pad_end = 7. count_include_pad=1 must count 5 and 6 only.
    ceil = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1}
    add(make_case("ceil_past_end_pad", "AveragePool", ceil, (2, 3, 6, 6)))
    add(make_case("ceil_past_end_pad_count_include_pad", "AveragePool",
                  {**ceil, "count_include_pad": 1}, (2, 3, 6, 6)))
    add(make_case("ceil_past_end_pad", "LpPool", ceil, (2, 3, 6, 6)))
    add(make_case("ceil_past_end_pad_p1", "LpPool", {**ceil, "p": 1}, (2, 3, 6, 6)))
    add(make_case("ceil_past_end_pad_indices", "MaxPool", ceil, (2, 3, 6, 6), indices=True))
    # 1D, asymmetric pads and stride 3: input 8, pads 2/1, kernel 4: out =
    # ceil(7/3) + 1 = 4, the last window starts at 7 < 8 + 2 and reaches 10.
    ceil_1d = {"kernel_shape": [4], "strides": [3], "pads": [2, 1], "ceil_mode": 1}
    add(make_case("1d_ceil_asymmetric_pads", "AveragePool", ceil_1d, (2, 3, 8)))
    add(make_case("1d_ceil_asymmetric_pads_count_include_pad", "AveragePool",
                  {**ceil_1d, "count_include_pad": 1}, (2, 3, 8)))
    add(make_case("1d_ceil_asymmetric_pads", "LpPool", ceil_1d, (2, 3, 8)))
    # The last window would start in the end pad and is dropped: input 5, kernel 2,
    # stride 3, pads 0/2: ceil(5/3) + 1 = 3, but (3-1)*3 = 6 >= 5, so 2.
    dropped = {"kernel_shape": [2], "strides": [3], "pads": [0, 2], "ceil_mode": 1}
    add(make_case("1d_ceil_last_window_in_pad_dropped_count_include_pad", "AveragePool",
                  {**dropped, "count_include_pad": 1}, (2, 3, 5)))
    add(make_case("1d_ceil_last_window_in_pad_dropped", "LpPool", dropped, (2, 3, 5)))
    # 3D ceil with dilations.
    ceil_3d = {"kernel_shape": [2, 2, 2], "strides": [2, 2, 2], "dilations": [1, 2, 1],
               "pads": [0, 1, 1, 1, 1, 0], "ceil_mode": 1}
    add(make_case("3d_ceil_dilations", "AveragePool", ceil_3d, (2, 2, 5, 6, 5)))
    add(make_case("3d_ceil_dilations_count_include_pad", "AveragePool",
                  {**ceil_3d, "count_include_pad": 1}, (2, 2, 5, 6, 5)))
    add(make_case("3d_ceil_dilations", "LpPool", ceil_3d, (2, 2, 5, 6, 5)))
    add(make_case("3d_ceil_dilations_indices", "MaxPool", ceil_3d, (2, 2, 5, 6, 5), indices=True))

    # Asymmetric pads.
    asymmetric = {"kernel_shape": [2, 3], "strides": [1, 2], "pads": [0, 2, 1, 0]}
    add(make_case("asymmetric_pads", "AveragePool", asymmetric, (2, 3, 5, 6)))
    add(make_case("asymmetric_pads_count_include_pad", "AveragePool",
                  {**asymmetric, "count_include_pad": 1}, (2, 3, 5, 6)))
    add(make_case("asymmetric_pads", "LpPool", asymmetric, (2, 3, 5, 6)))
    add(make_case("asymmetric_pads_indices", "MaxPool", asymmetric, (2, 3, 5, 6), indices=True))

    # Dilations, with pads.
    dilated = {"kernel_shape": [3, 2], "dilations": [2, 3], "pads": [2, 1, 1, 2], "strides": [1, 2]}
    add(make_case("dilations", "AveragePool", dilated, (2, 3, 7, 8)))
    add(make_case("dilations_count_include_pad", "AveragePool",
                  {**dilated, "count_include_pad": 1}, (2, 3, 7, 8)))
    add(make_case("dilations_p1", "LpPool", {**dilated, "p": 1}, (2, 3, 7, 8)))
    add(make_case("dilations_indices", "MaxPool", dilated, (2, 3, 7, 8), indices=True))
    dilated_1d = {"kernel_shape": [3], "dilations": [3], "strides": [2]}
    for op in ("AveragePool", "LpPool", "MaxPool"):
        add(make_case("1d_dilations", op, dilated_1d, (2, 3, 11)))

    # auto_pad. Input 7, kernel 4, stride 2: total pad (4-1)*2 + 4 - 7 = 3, odd,
    # so UPPER puts 2 at the end, LOWER 2 at the start.
    for auto_pad in ("SAME_UPPER", "SAME_LOWER", "VALID"):
        attrs = {"kernel_shape": [4, 3], "strides": [2, 2], "auto_pad": auto_pad}
        tag = auto_pad.lower()
        add(make_case(tag, "AveragePool", attrs, (2, 3, 7, 6)))
        add(make_case(f"{tag}_count_include_pad", "AveragePool", {**attrs, "count_include_pad": 1}, (2, 3, 7, 6)))
        add(make_case(tag, "LpPool", attrs, (2, 3, 7, 6)))
        add(make_case(f"{tag}_indices", "MaxPool", attrs, (2, 3, 7, 6), indices=True))
        # SAME from the DILATED kernel: kernel 3 dilated by 2 is 5 wide.
        if auto_pad != "VALID":
            dilated_same = {"kernel_shape": [3], "dilations": [2], "strides": [2], "auto_pad": auto_pad}
            add(make_case(f"1d_{tag}_dilations", "AveragePool", dilated_same, (2, 3, 8)))
            add(make_case(f"1d_{tag}_dilations_count_include_pad", "AveragePool",
                          {**dilated_same, "count_include_pad": 1}, (2, 3, 8)))
            add(make_case(f"1d_{tag}_dilations", "LpPool", dilated_same, (2, 3, 8)))
            add(make_case(f"1d_{tag}_dilations_indices", "MaxPool", dilated_same, (2, 3, 8), indices=True))
    # SAME where the stride is wider than the kernel: the SAME formula's total
    # pad is negative, (ceil(8/4) - 1) * 4 + 1 - 8 = -3 and (ceil(9/5) - 1) * 5
    # + 2 - 9 = -2, and ONNX pads nothing (pads are never negative): every
    # window starts at o * stride. (onnxruntime splits the negative total and
    # shifts its windows; README.md ("Where onnxpool and onnxruntime differ").)
    for auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        attrs = {"kernel_shape": [1, 2], "strides": [4, 5], "auto_pad": auto_pad}
        tag = f"{auto_pad.lower()}_stride_wider_than_kernel"
        add(make_case(f"{tag}_count_include_pad", "AveragePool", {**attrs, "count_include_pad": 1}, (2, 3, 8, 9)))
        add(make_case(tag, "LpPool", attrs, (2, 3, 8, 9)))
        add(make_case(f"{tag}_indices", "MaxPool", attrs, (2, 3, 8, 9), indices=True))
    # VALID honours ceil_mode: input 7, kernel 2, stride 2 gives 4 windows, the
    # last one half outside X.
    valid_ceil = {"kernel_shape": [2], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1}
    add(make_case("1d_valid_ceil", "AveragePool", valid_ceil, (2, 3, 7)))
    add(make_case("1d_valid_ceil_count_include_pad", "AveragePool", {**valid_ceil, "count_include_pad": 1}, (2, 3, 7)))
    add(make_case("1d_valid_ceil", "LpPool", valid_ceil, (2, 3, 7)))
    add(make_case("1d_valid_ceil_indices", "MaxPool", valid_ceil, (2, 3, 7), indices=True))

    # 3D, strides wider than the kernel.
    gaps = {"kernel_shape": [2, 1, 2], "strides": [3, 2, 3], "pads": [1, 0, 0, 0, 1, 1]}
    for op in ("AveragePool", "LpPool"):
        add(make_case("3d_strides_wider_than_kernel", op, gaps, (2, 2, 6, 5, 7)))
    add(make_case("3d_strides_wider_than_kernel_indices", "MaxPool", gaps, (2, 2, 6, 5, 7), indices=True))

    # MaxPool Indices: column-major (storage_order 1), ties (first in scan order),
    # and integers whose padding must never yield a 0.
    column_major = {"kernel_shape": [3, 2], "strides": [2, 1], "pads": [1, 0, 1, 1], "storage_order": 1}
    add(make_case("storage_order_1", "MaxPool", column_major, (2, 3, 6, 5), indices=True))
    add(make_case("3d_storage_order_1", "MaxPool", {"kernel_shape": [2, 2, 2], "storage_order": 1},
                  (2, 2, 3, 4, 5), indices=True))
    add(make_case("ties_first_in_scan_order", "MaxPool", windowed, (2, 3, 6, 7), indices=True, ties=True))
    add(make_case("3d_ties_storage_order_1", "MaxPool", {"kernel_shape": [2, 2, 2], "storage_order": 1},
                  (2, 2, 3, 4, 5), indices=True, ties=True))
    add(make_case("int8_ties_storage_order_1", "MaxPool", column_major, (2, 3, 6, 5), "int8",
                  indices=True, value_range=(-3, 1)))
    add(make_case("int8_negative_with_pads", "MaxPool", windowed, (2, 3, 6, 7), "int8",
                  indices=True, value_range=(-128, -1)))
    add(make_case("uint8_small_with_pads", "MaxPool", windowed, (2, 3, 6, 7), "uint8",
                  indices=True, value_range=(0, 2)))
    # float16 / bfloat16 ties, with dilations and Indices.
    for x_type in ("float16", "bfloat16"):
        add(make_case(f"{x_type}_ties_dilations", "MaxPool", dilated, (2, 3, 7, 8), x_type,
                      indices=True, ties=True))
    # Special values. The maximum of values that are all -inf is -inf (not the
    # lowest finite value).
    inf, nan = np.inf, np.nan
    for x_type in ("float32", "float64"):
        add(make_case(f"{x_type}_all_negative_infinity_window_indices", "MaxPool",
                      {"kernel_shape": [3], "strides": [3]}, (1, 2, 6), x_type, indices=True,
                      values=[-inf, -inf, -inf, -inf, 2, -inf, -inf, -5, -inf, -inf, -inf, -inf]))
        add(make_case(f"{x_type}_all_negative_infinity", "GlobalMaxPool", {}, (1, 2, 3), x_type,
                      values=[-inf, -inf, -inf, -inf, -5, -inf]))
    # NaN and infinities in sums: IEEE arithmetic on the ONNX formulas. Windows
    # of three: [1, inf, 2], [nan, 1, 2], [-inf, inf, 1] (inf - inf), [nan, inf, 1].
    specials = [1, inf, 2, nan, 1, 2, -inf, inf, 1, nan, inf, 1]
    for x_type in oc.FLOAT_TYPES:
        add(make_case(f"nan_and_infinities_{x_type}", "AveragePool", {"kernel_shape": [3], "strides": [3]},
                      (1, 1, 12), x_type, values=specials))
        add(make_case(f"nan_and_infinities_{x_type}", "GlobalAveragePool", {}, (1, 4, 3), x_type, values=specials))
        add(make_case(f"nan_and_infinities_{x_type}_p2", "LpPool", {"kernel_shape": [3], "strides": [3]},
                      (1, 1, 12), x_type, values=specials))
        add(make_case(f"nan_and_infinities_{x_type}_p3", "GlobalLpPool", {"p": 3}, (1, 4, 3), x_type,
                      values=specials))
    # onnxpool's documented policy where ONNX says nothing: +0 > -0 and a NaN
    # wins (the first NaN for Indices), as IEEE 754-2019 maximum orders them.
    for x_type in ("float32", "float16", "bfloat16"):
        add(make_case(f"policy_signed_zeros_{x_type}_indices", "MaxPool", {"kernel_shape": [2]}, (1, 1, 8),
                      x_type, indices=True, values=[-0.0, 0.0, 0.0, -0.0, -0.0, -0.0, 1.0, -0.0]))
        add(make_case(f"policy_signed_zeros_{x_type}", "GlobalMaxPool", {}, (1, 3, 3), x_type,
                      values=[-0.0, 0.0, -0.0, -0.0, -0.0, -0.0, 0.0, -0.0, -0.0]))
        add(make_case(f"policy_nan_{x_type}", "GlobalMaxPool", {}, (1, 3, 4), x_type,
                      values=[1, nan, 3, 2, nan, -inf, 0, 5, 1, 2, inf, 4]))
    # Magnitudes where |x|^p overflows float32 (and float16 / bfloat16 where
    # they are representable) although the result is finite.
    large = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}
    for x_type, exponents in (("float32", (20.0, 37.0)), ("bfloat16", (20.0, 37.0)), ("float16", (3.0, 4.3))):
        rng = np.random.default_rng(zlib.crc32(f"large {x_type}".encode()))
        values = rng.choice([-1.0, 1.0], size=2 * 3 * 5 * 6) * 10.0 ** rng.uniform(*exponents, size=2 * 3 * 5 * 6)
        for p in (2, 3):
            add(make_case(f"large_magnitudes_{x_type}_p{p}", "LpPool", {**large, "p": p}, (2, 3, 5, 6),
                          x_type, values=values))
            add(make_case(f"large_magnitudes_{x_type}_p{p}", "GlobalLpPool", {"p": p}, (2, 3, 5, 6),
                          x_type, values=values))
    # A window with no tap inside X (input 2, kernel 2, dilation 3, pads 1/1:
    # taps -1 and 2). Its average with count_include_pad=0 is the mean of
    # nothing, NaN (onnxpool's documented choice); with count_include_pad=1 both
    # taps lie in [-1, 3), so 0/2 = 0; its Lp norm is that of nothing, 0.
    no_taps = {"kernel_shape": [2, 1], "dilations": [3, 1], "pads": [1, 0, 1, 0]}
    add(make_case("policy_window_without_taps", "AveragePool", no_taps, (1, 2, 2, 3)))
    add(make_case("window_without_taps_count_include_pad", "AveragePool",
                  {**no_taps, "count_include_pad": 1}, (1, 2, 2, 3)))
    add(make_case("window_without_taps", "LpPool", no_taps, (1, 2, 2, 3)))
    return cases


def write_all(out_dir: Path) -> int:
    cases = own_cases()
    names = [case.name for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        raise AssertionError(f"duplicate case names: {sorted(duplicates)}")
    import onnx

    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.iterdir():  # cases this version no longer makes
        if stale.is_dir() and stale.name.startswith(PREFIX) and stale.name not in names:
            shutil.rmtree(stale)
    for case in cases:
        onnx.checker.check_model(case.model(), full_check=True)
        oc.write_case(case, out_dir)
    return len(cases)


# --- checking the reference against the official cases ---------------------


def listed_overrides() -> dict[str, tuple[float, float]]:
    """Case name -> (relative, absolute) from tools/runner/tolerance_overrides.cpp."""
    text = OVERRIDES_FILE.read_text()
    entries = re.findall(r'\{"(test_[A-Za-z0-9_]+)",\s*\{([0-9.e+-]+),\s*([0-9.e+-]+)\}', text)
    return {name: (float(relative), float(absolute)) for name, relative, absolute in entries}


def check_official(cases_dir: Path) -> int:
    overrides = listed_overrides()
    if not overrides:
        print(f"could not read any override from {OVERRIDES_FILE}")
        return 1
    failures = 0
    checked = 0
    for case_dir in sorted(cases_dir.iterdir()):
        if not (case_dir / "model.onnx").is_file():
            continue
        checked += 1
        op, attributes, x_type, x, expected = oc.read_case(case_dir)
        ours = oc.reference_outputs(op, attributes, x_type, x, with_indices=len(expected) > 1)

        def differences(tolerance):
            found = []
            for k, ((e_type, e), (_, a_type, a)) in enumerate(zip(expected, ours)):
                why = oc.compare(e_type, e, a_type, a, exact=op in oc.MAX_OPS or k == 1, tolerance=tolerance)
                if why:
                    found.append(f"output {k}: {why}")
            return found

        usual = differences(None)
        if case_dir.name in overrides:
            wider = differences(overrides[case_dir.name])
            if wider:
                status, detail = "FAIL", "even with its override: " + "; ".join(wider)
            elif not usual:
                status, detail = "FAIL", "matches at the usual tolerance, so its override is not needed"
            else:
                status, detail = "PASS", "needs its override: " + "; ".join(usual)
        else:
            status, detail = ("FAIL", "; ".join(usual)) if usual else ("PASS", "")
        failures += status == "FAIL"
        print(f"{status} {case_dir.name}" + (f": {detail}" if detail else ""))
    missing = sorted(name for name in overrides if not (cases_dir / name).is_dir())
    for name in missing:
        print(f"FAIL {name}: listed in tolerance_overrides.cpp, not among the cases")
    failures += len(missing)
    print(f"{checked - failures + len(missing)} passed, {failures} failed")
    return 1 if failures or checked == 0 else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path, nargs="?", help="folder to write the own cases into")
    parser.add_argument("--check-official", type=Path, metavar="ONNX_CASES_DIR",
                        help="check the reference against the official cases instead")
    args = parser.parse_args()
    if args.check_official:
        return check_official(args.check_official)
    if args.out_dir is None:
        parser.error("give OUT_DIR or --check-official")
    count = write_all(args.out_dir)
    print(f"wrote {count} own pooling cases to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
