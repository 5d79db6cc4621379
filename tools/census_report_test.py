#!/usr/bin/env python3
"""tools/census_report.py on a census file and benchmark files written here: models' sums weighted
by their call counts, the fastest peer of each node, a peer without a time on a node and why (its
error message, or "not run"), the geometric mean and the counts over 1.2x and 2x."""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import census_report  # noqa: E402

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def rows(op, case, times_us):
    """Google Benchmark aggregate rows: {impl: (1-thread us, 2-thread us)}; a string instead of
    the times is the error both thread counts recorded."""
    out = []
    for impl, per_thread in times_us.items():
        for threads in (1, 2):
            name = f"BM_{op}/{case}/{impl}/threads:{threads}/real_time"
            if isinstance(per_thread, str):
                out.append({"name": name, "run_name": name, "run_type": "iteration",
                            "error_occurred": True, "error_message": per_thread})
                continue
            out.append({"name": f"{name}_median", "run_name": name, "run_type": "aggregate",
                        "aggregate_name": "median", "real_time": per_thread[threads - 1] * 1e3,
                        "time_unit": "ns"})
    return out


STEM = "maxpool:1x8x8x8:k2x2:s2x2"
HEAD = "globalaveragepool:1x8x4x4"
CEIL = "maxpool:1x8x8x8:k3x3:ceil"
# net_a runs the stem 3 times: a sum that ignores calls gives 14 us instead of 34 (1 thread).
CENSUS = f"""# a census for the test
{STEM}  # net_a:3,net_b:1
{HEAD}  # net_a:1
{CEIL}  # net_b:2
"""
cpp = {"context": {"executable": "onnxpool_bench", "cpu_model": "Test CPU 9000", "date": "2030-01-02T03:04:05"},
       "benchmarks":
       rows("MaxPool", STEM, {"onnxpool_operator": (10.0, 6.0), "onnxpool": (16.0, 12.0),
                              "onnxpool_indices": (1.0, 1.0),
                              "xnnpack_nhwc": (20.0, 12.0), "onednn_nchw": (15.0, 9.0),
                              "onednn_nhwc": (12.0, 8.0), "floor_read": (5.0, 3.0),
                              "floor_copy": (6.0, 2.0)})
       + rows("GlobalAveragePool", HEAD, {"onnxpool_operator": (4.0, 3.0), "onnxpool": (8.0, 6.0),
                                          "xnnpack_nhwc": (2.0, 2.0),
                                          "onednn_nchw": "onednn: no jit implementation",
                                          "floor_read": (1.0, 1.0)})
       + rows("MaxPool", CEIL, {"onnxpool_operator": (60.0, 30.0), "onnxpool": (60.0, 30.0),
                                "floor_read": (20.0, 10.0)})
       + rows("MaxPool", "S1", {"onnxpool_operator": (1.0, 1.0)})}  # outside the census: ignored
python = {"context": {"executable": "python_peers"}, "benchmarks":
          rows("MaxPool", STEM, {"onnxruntime_nchw": (30.0, 20.0), "torch_nhwc": (8.0, 5.0),
                                 "torch_nchw": (40.0, 30.0), "torch_indices_nhwc": (0.5, 0.5)})
          + rows("GlobalAveragePool", HEAD, {"onnxruntime_nchw": (5.0, 4.0)})
          + rows("MaxPool", CEIL, {"onnxruntime_nchw": (26.0, 20.0)})}

with tempfile.TemporaryDirectory() as work:
    census_path = os.path.join(work, "census.txt")
    with open(census_path, "w") as f:
        f.write(CENSUS)
    paths = []
    for name, document in (("cpp.json", cpp), ("python.json", python)):
        paths.append(os.path.join(work, name))
        with open(paths[-1], "w") as f:
            json.dump(document, f)
    report_path = os.path.join(work, "census.md")
    expect(census_report.main(["--models", census_path, *paths, "-o", report_path, "--no-plot"]) == 0,
           "census_report.main failed")
    with open(report_path) as f:
        report = f.read()


def table(heading):
    """The rows of the table under `heading`, as lists of cells, header and rule left out."""
    lines = report.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0].splitlines()
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines if line.startswith("|")]
    return cells[2:]


expect(report.startswith("# onnxpool on the pooling nodes of real networks, Test CPU 9000\n"),
       f"the title names the CPU: {report.splitlines()[0]}")

# model, nodes, calls, onnxpool, fastest per layer, / fastest, onednn, onnxruntime, torch, xnnpack
models = {cells[0]: cells for cells in table("Models, 1 thread")}
a, b = models.get("net_a"), models.get("net_b")
expect(a is not None and a[1:4] == ["2", "4", "34.0"],
       f"net_a, 1 thread: 3 x 10 + 1 x 4 us (a sum that ignores the calls gives 14): {a}")
expect(b is not None and b[3] == "130.0", f"net_b, 1 thread: 10 + 2 x 60 us: {b}")
expect(a is not None and a[4:6] == ["26.0", "1.31"],
       f"net_a's fastest per layer: torch_nhwc on the stem (3 x 8), XNNPACK on the head (2): {a}")
expect(b is not None and b[4:6] == ["60.0", "2.17"], f"net_b's fastest per layer, 8 + 2 x 26: {b}")
expect(a is not None and a[9] == "62.0 (0.55)", f"net_a with XNNPACK alone: 3 x 20 + 2, 34 / 62: {a}")
expect(a is not None and a[7] == "95.0 (0.36)", f"net_a with onnxruntime alone: 3 x 30 + 5: {a}")
expect(a is not None and a[6] == "no time on 1 of 2 nodes (onednn: no jit implementation)",
       f"net_a with oneDNN: its error on the head, not a sum: {a}")
expect(a is not None and a[8] == "no time on 1 of 2 nodes (not run)",
       f"net_a with torch, which has no row on the head: {a}")
expect(b is not None and b[9] == "no time on 1 of 2 nodes (not run)", f"net_b with XNNPACK: {b}")
expect(b is not None and b[6] == "no time on 1 of 2 nodes (not run)",
       f"net_b with oneDNN: the stem's oneDNN rows are timed, the ceil node has none: {b}")
models2 = {cells[0]: cells for cells in table("Models, 2 threads")}
expect(models2.get("net_a", [None] * 4)[3] == "21.0", f"net_a, 2 threads: 3 x 6 + 3: {models2.get('net_a')}")

# node, models:calls, onnxpool 1t, 2t, then per thread: fastest peer, peer us, / peer, / floor; why
nodes = {cells[0].strip("`"): cells for cells in table("Nodes")}
stem, head, ceil = nodes.get(STEM), nodes.get(HEAD), nodes.get(CEIL)
expect(stem is not None and stem[1:8] == ["net_a:3, net_b:1", "10.0", "6.00", "torch_nhwc", "8.00", "1.25", "2.00"],
       f"the stem: against torch_nhwc (not torch_indices_nhwc, not onnxpool_indices), floor_read: {stem}")
expect(stem is not None and stem[8:12] == ["torch_nhwc", "5.00", "1.20", "3.00"],
       f"the stem at 2 threads: floor_copy is the faster floor there: {stem}")
expect(head is not None and head[4:6] == ["xnnpack_nhwc", "2.00"] and head[12] == "onednn: onednn: no jit implementation; torch: not run",
       f"the head: XNNPACK fastest; oneDNN's error and torch's missing row said: {head}")
expect(ceil is not None and ceil[4:7] == ["onnxruntime_nchw", "26.0", "2.31"]
       and ceil[12] == "onednn, torch, xnnpack: not run", f"the ceil node: {ceil}")

# threads, nodes compared, geomean / peer, over 1.2x, over 2x, geomean / floor, models, geomean models
summary = {cells[0]: cells for cells in table("Summary")}
one, two = summary.get("1"), summary.get("2")
expect(one is not None and one[1:5] == ["3 of 3", "1.79", "3", "1"],
       f"1 thread: geomean of 1.25, 2 and 60/26 is 1.79; all three over 1.2x, 60/26 over 2x: {one}")
expect(two is not None and two[1:5] == ["3 of 3", "1.39", "2", "0"],
       f"2 threads: 1.2, 1.5, 1.5 (1.2 itself is not over 1.2x): {two}")
expect(one is not None and one[6:8] == ["2 of 2", "1.68"], f"1 thread: models' geomean of 34/26 and 130/60: {one}")
expect(one is not None and one[8] == "2.64",
       f"1 thread, the one-shot calls: geomean of 16/8, 8/2 and 60/26 is 2.64: {one}")
expect("Ignored: 2 benchmarks" in report, "the rows (1 and 2 threads) of a node outside the census are counted as ignored")

# The model sums by the functions directly: a model whose only node runs 5 times.
results = {"n": {1: census_report.NodeResult(2.0, None, "p_x", 3.0, 1.0, {"p": (3.0, None)})}}
sums = census_report.model_results({"n": {"m": 5}}, results, [1], ["p"])["m"][1]
expect(sums[census_report.OURS].us == 10.0 and sums["fastest"].us == 15.0 and sums["p"].us == 15.0,
       f"5 calls of 2 us and 3 us: {sums}")

if failures:
    print("census_report_test: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
print("census_report_test: all checks passed")
