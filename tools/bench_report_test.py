#!/usr/bin/env python3
"""tools/bench_report.py on benchmark files written here: which peer each onnxpool row is compared
with (a row that writes MaxPool's Indices only with peers that do too), the ratios it prints, and a
case where no peer writes Indices."""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_report  # noqa: E402

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def rows(op, case, times_us):
    """Google Benchmark aggregate rows: {impl: (1-thread us, 2-thread us)}."""
    out = []
    for impl, per_thread in times_us.items():
        for threads, us in zip((1, 2), per_thread):
            name = f"BM_{op}/{case}/{impl}/threads:{threads}/real_time"
            out.append({"name": f"{name}_median", "run_name": name, "run_type": "aggregate",
                        "aggregate_name": "median", "real_time": us * 1e3, "time_unit": "ns"})
    return out


cpp = {"context": {"executable": "onnxpool_bench"}, "benchmarks":
       rows("MaxPool", "S1", {"onnxpool": (100.0, 50.0), "onnxpool_indices": (300.0, 150.0),
                              "xnnpack_nhwc": (120.0, 40.0), "floor_read": (50.0, 20.0)})
       + rows("MaxPool", "S9", {"onnxpool": (10.0, 6.0), "onnxpool_indices": (30.0, 18.0),
                                "xnnpack_nhwc": (20.0, 12.0)})}
python = {"context": {"executable": "python_peers"}, "benchmarks":
          rows("MaxPool", "S1", {"torch_nhwc": (400.0, 200.0), "torch_indices_nhwc": (600.0, 200.0),
                                 "onnxruntime_indices_nchw": (5000.0, 2500.0)})}

with tempfile.TemporaryDirectory() as work:
    paths = []
    for name, document in (("cpp.json", cpp), ("python.json", python)):
        paths.append(os.path.join(work, name))
        with open(paths[-1], "w") as f:
            json.dump(document, f)
    report_path = os.path.join(work, "report.md")
    expect(bench_report.main(paths + ["-o", report_path, "--no-plot"]) == 0, "bench_report.main failed")
    with open(report_path) as f:
        report = f.read()

summary = {}
for line in report.splitlines():
    cells = [c.strip() for c in line.strip("|").split("|")]
    if len(cells) == 13 and cells[0] == "MaxPool":
        summary[(cells[1], cells[2])] = cells
# op, case, impl, 1t us, peer 1t, peer us, / peer, / floor, 2t us, peer 2t, peer us, / peer, / floor
s1 = summary.get(("S1", "onnxpool"))
expect(s1 is not None and s1[4] == "xnnpack_nhwc" and s1[6] == "0.83" and s1[7] == "2.00",
       f"MaxPool S1 onnxpool: against XNNPACK, 100/120 and 100/50: {s1}")
expect(s1 is not None and s1[9] == "xnnpack_nhwc" and s1[11] == "1.25", f"MaxPool S1 onnxpool, 2 threads: {s1}")
indices = summary.get(("S1", "onnxpool_indices"))
expect(indices is not None and indices[4] == "torch_indices_nhwc" and indices[6] == "0.50",
       f"MaxPool S1 with Indices: against the fastest peer with Indices (300/600), not XNNPACK: {indices}")
expect(indices is not None and indices[9] == "torch_indices_nhwc" and indices[11] == "0.75",
       f"MaxPool S1 with Indices, 2 threads (150/200): {indices}")
alone = summary.get(("S9", "onnxpool_indices"))
expect(alone is not None and alone[4] == "-" and alone[6] == "-",
       f"MaxPool S9 with Indices and no peer that writes them: no ratio: {alone}")
expect("with Indices, fastest peer torch_indices_nhwc (600.0 us)" in report,
       "the detail section names the fastest peer with Indices")
detail = [line for line in report.splitlines() if line.startswith("| **onnxpool_indices** |")]
expect(any("| 0.50 | 0.75 |" in line for line in detail),
       f"the detail table's Indices row is compared with the Indices peer: {detail}")

if failures:
    print("bench_report_test: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
print("bench_report_test: all checks passed")
