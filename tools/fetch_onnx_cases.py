#!/usr/bin/env python3
"""Writes the official ONNX backend node tests for the pooling operators.

ONNX no longer ships the test data, but the pip `onnx` package still carries
the generators (onnx.backend.test.case.node); this runs them and writes the
pooling cases in the standard layout that onnxpool_test_runner reads:

    OUT_DIR/<case>/model.onnx
    OUT_DIR/<case>/test_data_set_<N>/input_<K>.pb, output_<K>.pb

Usage: fetch_onnx_cases.py OUT_DIR [--compare REFERENCE_DIR]

A stamp file records the onnx version and the case list, so a second run with
the same onnx only checks that the cases are there. With --compare, each case
is compared with a reference copy (parsed, tensors numerically); the exit
status is non-zero when the case names or the number of files differ.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

# The pooling cases are the node tests whose names start with these.
POOLING_PREFIXES = (
    "test_maxpool",
    "test_averagepool",
    "test_lppool",
    "test_globalmaxpool",
    "test_globalaveragepool",
)
STAMP_NAME = ".onnx_cases_stamp.json"
MODEL_FILE = "model.onnx"


def is_pooling_case(name: str) -> bool:
    return name.startswith(POOLING_PREFIXES)


def import_onnx():
    try:
        import numpy  # noqa: F401  (the generators need it)
        import onnx
    except ImportError as error:
        sys.exit(
            f"fetch_onnx_cases.py: needs the pip packages onnx and numpy ({error}); "
            "install them with: python3 -m pip install onnx numpy"
        )
    return onnx


# --- generation --------------------------------------------------------------


def collect_pooling_cases():
    # The node generators run at import time and collect every operator's
    # cases; that takes a few seconds, and the names are the stable interface.
    import numpy as np
    from onnx.backend.test.case import node as node_cases

    # Other operators' generators warn about overflow and division by zero on
    # purpose; that noise says nothing about the pooling cases.
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        all_cases = node_cases.collect_testcases()
    cases = [case for case in all_cases if is_pooling_case(case.name)]
    return sorted(cases, key=lambda case: case.name)


def tensor_file_bytes(value, name: str) -> bytes:
    from onnx import TensorProto, numpy_helper

    if isinstance(value, TensorProto):  # some generators build the proto themselves
        return value.SerializeToString()
    return numpy_helper.from_array(value, name).SerializeToString()


def write_case(case, case_dir: Path) -> None:
    graph = case.model.graph
    case_dir.mkdir(parents=True)
    (case_dir / MODEL_FILE).write_bytes(case.model.SerializeToString())
    for index, (inputs, outputs) in enumerate(case.data_sets):
        data_dir = case_dir / f"test_data_set_{index}"
        data_dir.mkdir()
        for k, value in enumerate(inputs):
            (data_dir / f"input_{k}.pb").write_bytes(tensor_file_bytes(value, graph.input[k].name))
        for k, value in enumerate(outputs):
            (data_dir / f"output_{k}.pb").write_bytes(tensor_file_bytes(value, graph.output[k].name))


def read_stamp(out_dir: Path) -> dict | None:
    try:
        return json.loads((out_dir / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return None


def is_complete(out_dir: Path, onnx_version: str) -> bool:
    stamp = read_stamp(out_dir)
    if not stamp or stamp.get("onnx_version") != onnx_version:
        return False
    names = stamp.get("cases", [])
    return bool(names) and all((out_dir / name / MODEL_FILE).is_file() for name in names)


def generate(out_dir: Path, onnx_version: str) -> list[str]:
    cases = collect_pooling_cases()
    if not cases:
        sys.exit(f"fetch_onnx_cases.py: onnx {onnx_version} generated no pooling cases")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / STAMP_NAME).unlink(missing_ok=True)  # incomplete until rewritten below
    names = [case.name for case in cases]
    # Cases from another onnx version that this one no longer generates would
    # otherwise linger and be run.
    for stale in out_dir.iterdir():
        if stale.is_dir() and is_pooling_case(stale.name) and stale.name not in names:
            shutil.rmtree(stale)
    # Each case is written to a scratch folder and moved into place, so an
    # interrupted run never leaves a half-written case behind a valid name.
    with tempfile.TemporaryDirectory(dir=out_dir, prefix=".partial-") as scratch:
        for case in cases:
            staged = Path(scratch) / case.name
            write_case(case, staged)
            final = out_dir / case.name
            if final.exists():
                shutil.rmtree(final)
            staged.rename(final)
    stamp = {"onnx_version": onnx_version, "cases": names}
    (out_dir / STAMP_NAME).write_text(json.dumps(stamp, indent=1) + "\n")
    return names


# --- comparison --------------------------------------------------------------


def case_names_in(folder: Path) -> list[str]:
    return sorted(
        entry.name
        for entry in folder.iterdir()
        if entry.is_dir() and (entry / MODEL_FILE).is_file() and is_pooling_case(entry.name)
    )


def relative_files(case_dir: Path) -> list[str]:
    return sorted(str(p.relative_to(case_dir)) for p in case_dir.rglob("*.pb"))


def describe_model_difference(ours, theirs) -> list[str]:
    """What differs between two ModelProtos, in the parts that decide the test."""
    differences = []
    if ours.ir_version != theirs.ir_version:
        differences.append(f"ir_version {ours.ir_version} vs {theirs.ir_version}")
    ours_opsets = sorted((o.domain, o.version) for o in ours.opset_import)
    their_opsets = sorted((o.domain, o.version) for o in theirs.opset_import)
    if ours_opsets != their_opsets:
        differences.append(f"opset_import {ours_opsets} vs {their_opsets}")
    if list(ours.graph.node) != list(theirs.graph.node):
        differences.append(
            f"nodes differ:\n      ours:   {list(ours.graph.node)}\n      theirs: {list(theirs.graph.node)}"
        )
    for part in ("input", "output", "initializer"):
        if list(getattr(ours.graph, part)) != list(getattr(theirs.graph, part)):
            differences.append(f"graph {part} differs")
    if not differences and ours != theirs:
        # Metadata only (producer, graph name, doc strings): does not change the test.
        differences.append("metadata only")
    return differences


def describe_tensor_difference(ours_bytes: bytes, their_bytes: bytes) -> str | None:
    """None when the tensors hold the same name, type, shape and values."""
    import numpy as np
    from onnx import TensorProto, numpy_helper

    ours, theirs = TensorProto(), TensorProto()
    ours.ParseFromString(ours_bytes)
    theirs.ParseFromString(their_bytes)
    problems = []
    if ours.name != theirs.name:
        problems.append(f"name {ours.name!r} vs {theirs.name!r}")
    if ours.data_type != theirs.data_type:
        return "; ".join(problems + [f"data_type {ours.data_type} vs {theirs.data_type}"])
    a, b = numpy_helper.to_array(ours), numpy_helper.to_array(theirs)
    if a.shape != b.shape:
        return "; ".join(problems + [f"shape {a.shape} vs {b.shape}"])
    same = a == b
    if a.dtype.kind == "f":
        same |= np.isnan(a) & np.isnan(b)
    if not same.all():
        where = np.argwhere(~same)
        first = tuple(int(i) for i in where[0])
        message = (
            f"{len(where)} of {a.size} values differ; first at {list(first)}: "
            f"regenerated {a[first].item()!r}, reference {b[first].item()!r}"
        )
        if a.dtype.kind == "f":
            diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
            message += f"; max abs diff {np.nanmax(diff):.3g}"
        problems.append(message)
    return "; ".join(problems) or None


def compare(out_dir: Path, reference_dir: Path) -> int:
    from onnx import ModelProto

    ours = case_names_in(out_dir)
    theirs = case_names_in(reference_dir)
    structural_mismatch = False
    for name in sorted(set(theirs) - set(ours)):
        print(f"MISSING {name}: in the reference copy, not regenerated")
        structural_mismatch = True
    for name in sorted(set(ours) - set(theirs)):
        print(f"EXTRA   {name}: regenerated, not in the reference copy")
        structural_mismatch = True

    differing = 0
    different_files = 0
    for name in sorted(set(ours) & set(theirs)):
        our_case, their_case = out_dir / name, reference_dir / name
        our_files, their_files = relative_files(our_case), relative_files(their_case)
        if our_files != their_files:
            print(f"FILES   {name}: regenerated {our_files}, reference {their_files}")
            structural_mismatch = True
            different_files += 1
            continue
        problems = []
        our_model, their_model = ModelProto(), ModelProto()
        our_model.ParseFromString((our_case / MODEL_FILE).read_bytes())
        their_model.ParseFromString((their_case / MODEL_FILE).read_bytes())
        for difference in describe_model_difference(our_model, their_model):
            problems.append(f"model: {difference}")
        for file in our_files:
            difference = describe_tensor_difference(
                (our_case / file).read_bytes(), (their_case / file).read_bytes()
            )
            if difference:
                problems.append(f"{file}: {difference}")
        if problems:
            differing += 1
            print(f"DIFFERS {name}:")
            for problem in problems:
                print(f"    {problem}")
        else:
            print(f"SAME    {name}")

    common = len(set(ours) & set(theirs))
    print(
        f"{common - differing - different_files} same, {differing} differ in content, "
        f"{different_files} differ in files, {len(set(theirs) - set(ours))} missing, "
        f"{len(set(ours) - set(theirs))} extra"
    )
    return 1 if structural_mismatch else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path, help="folder to write the cases into")
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="REFERENCE_DIR",
        help="compare the cases with this copy (e.g. the published onnx-node-tests)",
    )
    args = parser.parse_args()

    onnx = import_onnx()
    if is_complete(args.out_dir, onnx.__version__):
        count = len(read_stamp(args.out_dir)["cases"])
        print(f"{count} pooling cases from onnx {onnx.__version__} already in {args.out_dir}")
    else:
        names = generate(args.out_dir, onnx.__version__)
        print(f"wrote {len(names)} pooling cases from onnx {onnx.__version__} to {args.out_dir}")

    if args.compare:
        if not args.compare.is_dir():
            print(f"fetch_onnx_cases.py: {args.compare} is not a folder", file=sys.stderr)
            return 2
        return compare(args.out_dir, args.compare)
    return 0


if __name__ == "__main__":
    sys.exit(main())
