#!/usr/bin/env python3
"""Differential test of onnxpool's shape inference against ONNX's own.

    shape_differential.py --infer PATH --runner PATH [--work-dir DIR] [--nodes N] [--seed S]
                          [--run-sample K] [--verbose]

Draws N seeded random nodes per operator (all six, spatial ranks 1-3, and 4 for the global ones),
with every attribute ONNX defines, degenerate ones weighted up: windows wider than the padded
input, ceil_mode with strides wider than the kernel, dilations stepping over the input, every
auto_pad, pads as large as the kernel or larger, p of every sign, and malformed ones (zero or
negative values, lengths that do not match the rank). For each node:

- ONNX: onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True) on a one-node
  model whose output shape is left for inference (the pinned onnx package, opset 22).
- onnxpool: PoolAttributes::parse, infer_output_shape and resolve_pads (onnxpool_infer_shapes).

Wherever ONNX infers a shape, onnxpool must give the same shape; wherever ONNX fails, onnxpool must
return invalid_argument. Each remaining difference must match an entry of DECISIONS below, each a
documented choice with the ONNX text behind it (docs/semantics.md). Of the nodes both accept, a
sample of K (small inputs) is also run through the library, by the conformance runner, against the
float64 reference of tools/onnxpool_cases.py: accepted nodes must run and be right.

Exit status: 1 on any unexplained difference or failed run, 2 on a usage or set-up error, else 0.
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import onnxpool_cases as oc  # noqa: E402

WINDOWED = ("MaxPool", "AveragePool", "LpPool")
GLOBAL = ("GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool")
AUTO_PADS = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")


@dataclass
class Node:
    op: str
    shape: list
    attributes: dict  # as onnx.helper.make_node takes them

    def line(self):
        """The node as onnxpool_infer_shapes reads it."""
        fields = [self.op, ",".join(map(str, self.shape))]
        for name, value in self.attributes.items():
            if isinstance(value, str):
                fields.append(f"{name}=str:{value}")
            elif isinstance(value, (list, tuple)):
                fields.append(f"{name}=ints:{','.join(map(str, value))}")
            else:
                fields.append(f"{name}=int:{value}")
        return " ".join(fields)

    def text(self):
        return f"{self.op} X{self.shape} {self.attributes}"


@dataclass
class Verdict:
    node: Node
    onnx: object  # the inferred output shape (list) or the error text (str)
    ours: str  # onnxpool_infer_shapes' line

    @property
    def onnx_ok(self):
        return isinstance(self.onnx, list)

    @property
    def ours_ok(self):
        return self.ours.startswith("ok ")

    @property
    def refused(self):
        """onnxpool refused the node as invalid ONNX (kInvalidArgument)."""
        return self.ours.startswith("kInvalidArgument ")

    def our_shape(self):
        return [int(v) for v in self.ours.split()[1].split(",")] if self.ours_ok else None


# --- documented decisions ------------------------------------------------------
#
# Where onnxpool and ONNX's shape inference may differ, and why. Each entry: a name, a predicate on a
# Verdict, and the reason (the ONNX text that supports onnxpool). docs/semantics.md lists them too.

def _refused_naming(v, attribute):
    return v.refused and f"'{attribute}'" in v.ours


def _negative_onnx_dim(v):
    return v.onnx_ok and any(isinstance(d, int) and d < 0 for d in v.onnx) and v.refused


def _truncated_quotient(v):
    ours = v.our_shape()
    return (v.onnx_ok and ours is not None and len(ours) == len(v.onnx)
            and all(o == t or (o == 0 and t == 1) for o, t in zip(ours, v.onnx)) and ours != v.onnx)


def _truncated_to_zero(v):
    match = re.search(r"larger than the padded input \(\d+\) on spatial axis (\d+) of X", v.ours)
    return (v.onnx_ok and v.refused and match is not None
            and v.onnx[2 + int(match.group(1))] == 0)


def _pads_with_auto_pad(v):
    return "pads" in v.node.attributes and v.node.attributes.get("auto_pad", "NOTSET") != "NOTSET"


DECISIONS = [
    ("onnx-negative-dimension", _negative_onnx_dim,
     "ONNX's shape inference computes the output size without checking it and returns negative "
     "dimensions (e.g. -11 for a 20-wide window over 8 inputs); no tensor has one, and onnx.reference "
     "refuses such a node ('output shape cannot be null or negative'). onnxpool refuses it too."),
    ("onnx-truncated-quotient", _truncated_quotient,
     "A window wider than the padded input by up to a stride, in floor mode: ONNX's formula "
     "floor((in + pads - dilated_kernel) / stride) + 1 is 0 (onnx.reference gives an empty output), "
     "but ONNX's shape inference divides with C++ truncation towards zero and says 1. onnxpool follows "
     "the formula: Y is empty along that axis."),
    ("onnx-truncated-to-zero", _truncated_to_zero,
     "The same truncation one stride further: where the formula's size is negative (-1), ONNX's shape "
     "inference says 0. onnx.reference refuses the node ('output shape cannot be null or negative'); "
     "so does onnxpool, naming kernel_shape."),
    ("lp-p-below-one", lambda v: v.node.op in ("LpPool", "GlobalLpPool")
     and v.node.attributes.get("p", 2) < 1 and _refused_naming(v, "p"),
     "ONNX: 'p value of the Lp norm used to pool over the input data'. An Lp norm needs p >= 1 "
     "(p = 0 divides by zero in the 1/p power, onnx.reference fails with 'float division by zero'; "
     "p < 0 is no norm). ONNX's shape inference does not look at p."),
    ("storage-order-not-0-or-1", lambda v: v.node.attributes.get("storage_order", 0) not in (0, 1)
     and _refused_naming(v, "storage_order"),
     "ONNX: 'The storage order of the tensor. 0 is row major, and 1 is column major.' No other value "
     "has a meaning; ONNX's shape inference does not look at it."),
    ("pads-with-auto-pad", _pads_with_auto_pad,
     "ONNX: pads 'cannot be used simultaneously with auto_pad attribute'. ONNX's shape inference then "
     "uses the pads and ignores auto_pad; onnxpool refuses non-zero pads with auto_pad, and takes "
     "all-zero pads (what some exporters write) as absent, so auto_pad decides."),
]

def explained(v):
    for name, predicate, _ in DECISIONS:
        if predicate(v):
            return name
    return None


# --- random nodes --------------------------------------------------------------

def random_node(rng: random.Random, op: str) -> Node:
    if op in GLOBAL:
        rank = rng.choice((1, 2, 3, 4))
        shape = [rng.randint(1, 3), rng.randint(1, 4)] + [rng.randint(1, 9) for _ in range(rank)]
        attributes = {}
        if op == "GlobalLpPool" and rng.random() < 0.5:
            attributes["p"] = rng.choice((-1, 0, 1, 2, 3, 7))
        return Node(op, shape, attributes)
    rank = rng.choice((1, 2, 3))
    shape = [rng.randint(1, 2), rng.randint(1, 3)] + [rng.choice((1, 2, 3, 5, 8, 13)) for _ in range(rank)]
    attributes = {}

    def maybe_bad_length(values, low):
        """Mostly the rank's length; sometimes one more or one less (invalid)."""
        if rng.random() < 0.04:
            return values + [low] if rng.random() < 0.5 or len(values) <= 1 else values[:-1]
        return values

    kernel = [rng.choice((1, 1, 2, 3, 3, 4, 5, 7, 9, 16)) for _ in range(rank)]
    if rng.random() < 0.03:
        kernel[rng.randrange(rank)] = rng.choice((0, -1))
    attributes["kernel_shape"] = maybe_bad_length(kernel, 2)
    if rng.random() < 0.7:
        strides = [rng.choice((1, 1, 2, 3, 4, 6)) for _ in range(rank)]
        if rng.random() < 0.03:
            strides[rng.randrange(rank)] = rng.choice((0, -2))
        attributes["strides"] = maybe_bad_length(strides, 1)
    if rng.random() < 0.4:
        dilations = [rng.choice((1, 1, 2, 3, 5)) for _ in range(rank)]
        if rng.random() < 0.03:
            dilations[rng.randrange(rank)] = rng.choice((0, -1))
        attributes["dilations"] = maybe_bad_length(dilations, 1)
    auto_pad = rng.choice(AUTO_PADS + ("NOTSET", "NOTSET"))
    if auto_pad != "NOTSET" or rng.random() < 0.2:
        attributes["auto_pad"] = auto_pad
    if auto_pad == "NOTSET" and rng.random() < 0.6 or rng.random() < 0.05:
        pads = [rng.choice((0, 0, 1, 2, 3, 4, 9)) for _ in range(2 * rank)]
        if rng.random() < 0.03:
            pads[rng.randrange(2 * rank)] = -1
        attributes["pads"] = pads if rng.random() > 0.04 else pads[:-1]
    if rng.random() < 0.4:
        attributes["ceil_mode"] = rng.choice((0, 1))
    if op == "AveragePool" and rng.random() < 0.5:
        attributes["count_include_pad"] = rng.choice((0, 1))
    if op == "MaxPool" and rng.random() < 0.3:
        attributes["storage_order"] = rng.choice((0, 1, 1, 2))
    if op == "LpPool" and rng.random() < 0.5:
        attributes["p"] = rng.choice((-1, 0, 1, 2, 3, 7))
    return Node(op, shape, attributes)


# --- the two sides -------------------------------------------------------------

def onnx_shape(node: Node):
    """ONNX's inferred output shape (a list), or its error (a string)."""
    import onnx
    from onnx import helper

    graph = helper.make_graph(
        [helper.make_node(node.op, ["X"], ["Y"], **node.attributes)], "shape_case",
        [helper.make_tensor_value_info("X", oc.onnx_type("float32"), node.shape)],
        [helper.make_tensor_value_info("Y", oc.onnx_type("float32"), None)])  # no shape: inferred
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", oc.OPSET)])
    model.ir_version = oc.IR_VERSION
    try:
        inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except Exception as error:  # onnx raises InferenceError, ValidationError, RuntimeError
        return re.sub(r"\s+", " ", str(error)).strip()[:300] or type(error).__name__
    y = inferred.graph.output[0].type.tensor_type
    if not y.HasField("shape"):
        return "no shape inferred"
    dims = []
    for d in y.shape.dim:
        if not d.HasField("dim_value"):
            return f"a symbolic dimension ({d.dim_param or '?'})"
        dims.append(d.dim_value)
    return dims


def our_answers(infer: Path, nodes: list) -> list:
    done = subprocess.run([str(infer)], input="".join(n.line() + "\n" for n in nodes), capture_output=True,
                          text=True)
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != len(nodes):
        sys.exit(f"shape_differential.py: {infer} answered {len(lines)} of {len(nodes)} lines "
                 f"(exit {done.returncode}): {done.stderr[-500:]}")
    bad = [line for line in lines if line.startswith("bad_line")]
    if bad:
        sys.exit(f"shape_differential.py: {infer} could not read a line: {bad[0]}")
    return lines


# --- running the accepted nodes ------------------------------------------------

def run_sample(runner: Path, work_dir: Path, verdicts: list, count: int, rng: random.Random):
    """Runs `count` nodes both sides accept through the conformance runner against the reference;
    returns (the failures, how many ran, how many of them had a window wider than the padded
    input)."""
    accepted = [v for v in verdicts if v.onnx_ok and v.ours_ok and math.prod(v.node.shape) <= 20000]
    # Half of them with a window wider than the padded input, the rarest and newest path.
    wide = [v for v in accepted if oc.window_wider_than_padded_input(v.node.op, v.node.attributes, v.node.shape[2:])]
    sample = rng.sample(wide, min(count // 2, len(wide)))
    rest = [v for v in accepted if v not in sample]
    sample += rng.sample(rest, min(count - len(sample), len(rest)))
    case_dirs = []
    data = np.random.default_rng(7)
    for k, v in enumerate(sample):
        n = v.node
        x = oc.to_storage(data.uniform(-4.0, 4.0, size=n.shape), "float32")
        with_indices = n.op == "MaxPool" and k % 2 == 0
        case = oc.Case(f"shape_case_{k:04d}", n.op, n.attributes, "float32", x,
                       oc.reference_outputs(n.op, n.attributes, "float32", x, with_indices))
        case_dirs.append(oc.write_case(case, work_dir / "cases"))
    if not case_dirs:
        return [], 0, 0
    done = subprocess.run([str(runner), "--output-dir", str(work_dir / "outputs"), "--", *map(str, case_dirs)],
                          capture_output=True, text=True)
    results = {}
    for line in done.stdout.splitlines():
        match = re.match(r"(PASS|FAIL) (\S+?)(:|$| )", line)
        if match:
            results[match.group(2)] = line
    failures = []
    for k, v in enumerate(sample):
        line = results.get(f"shape_case_{k:04d}", "no runner line")
        if not line.startswith("PASS"):
            failures.append(f"{v.node.text()}: {line[:300]}")
    return failures, len(sample), min(count // 2, len(wide))


# --- main ------------------------------------------------------------------------

def main(argv) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--infer", type=Path, required=True, help="onnxpool_infer_shapes")
    p.add_argument("--runner", type=Path, required=True, help="onnxpool_test_runner")
    p.add_argument("--work-dir", type=Path, default=Path("shape-differential"))
    p.add_argument("--nodes", type=int, default=3000, help="random nodes per operator")
    p.add_argument("--seed", type=int, default=20261203)
    p.add_argument("--run-sample", type=int, default=300, help="accepted nodes run against the reference")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args(argv)
    for tool in (a.infer, a.runner):
        if not tool.exists():
            print(f"shape_differential.py: {tool} is missing (build it first)", file=sys.stderr)
            return 2
    rng = random.Random(a.seed)
    nodes = [random_node(rng, op) for op in WINDOWED + GLOBAL for _ in range(a.nodes)]
    ours = our_answers(a.infer, nodes)
    verdicts = [Verdict(n, onnx_shape(n), o) for n, o in zip(nodes, ours)]

    counts = collections.Counter()
    unexplained, decided = [], collections.Counter()
    for v in verdicts:
        if v.onnx_ok and v.ours_ok and v.our_shape() == v.onnx:
            counts["both infer the same shape"] += 1
        elif not v.onnx_ok and v.refused:
            counts["both refuse"] += 1
        elif explained(v):
            decided[explained(v)] += 1
        else:
            unexplained.append(v)
    print(f"{len(verdicts)} random nodes ({a.nodes} per operator, seed {a.seed}):")
    for what, n in counts.most_common():
        print(f"  {what:<44}{n:>6}")
    for name, n in decided.most_common():
        print(f"  differ by decision {name:<25}{n:>6}")
    for name, _, why in DECISIONS:
        if decided[name]:
            print(f"    {name}: {why}")
    print(f"  UNEXPLAINED{'':<33}{len(unexplained):>6}")
    kinds = collections.Counter()
    for v in unexplained:
        kind = ("onnxpool refuses valid ONNX" if v.onnx_ok and not v.ours_ok else
                "onnxpool accepts what ONNX refuses" if v.ours_ok and not v.onnx_ok else
                "different shapes" if v.onnx_ok else "onnxpool refuses, not as invalid_argument")
        kinds[kind] += 1
        if kinds[kind] <= (50 if a.verbose else 8):
            print(f"    {kind}: {v.node.text()}\n      onnx: {v.onnx}\n      onnxpool: {v.ours[:300]}")
    failures, ran, wide = run_sample(a.runner, a.work_dir, verdicts, a.run_sample, rng)
    print(f"accepted nodes run against the reference: {ran - len(failures)} of {ran} right "
          f"({wide} with a window wider than the padded input)")
    for f in failures[:20]:
        print(f"  FAILED {f}")
    return 1 if unexplained or failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
