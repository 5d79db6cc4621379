#!/usr/bin/env python3
"""tools/tuning/summary.py on a table written here: two CPUs, three kernels, each autoscheduler right,
wrong or never tried; the counts, geometric means and per-kernel rows it must print."""

import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summary  # noqa: E402

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def candidate(score, status="passed", autoscheduler=None):
    return {"autoscheduler": autoscheduler, "buildable": status == "passed", "score": score, "status": status,
            "ratios": {}, "worst_ratio": score}


def row(winner, candidates):
    return {"winner": winner, "knobs": {}, "date": "2026-12-06", "noise": 0.03, "nodes": [],
            "candidates": candidates}


CPU_A, CPU_B = "CPU A (family 1, model 2)", "CPU B (family 3, model 4)"
table = {"format": 1, "table": "x86-64-test", "kernels": {
    "onnxpool_one": {"winner": "hand", "knobs": {}, "by_cpu": {
        CPU_A: row("vector_multiple=2", {"hand": candidate(1.0), "vector_multiple=2": candidate(0.8),
                                         "adams2019": candidate(4.0, autoscheduler="Adams2019"),
                                         "li2018": candidate(None, "rejected", "Li2018")}),
        CPU_B: row("hand", {"hand": candidate(1.0), "vector_multiple=2": candidate(1.1),
                            "adams2019": candidate(2.0, autoscheduler="Adams2019")})}},
    "onnxpool_two": {"winner": "hand", "knobs": {}, "by_cpu": {
        CPU_A: row("adams2019", {"hand": candidate(1.0), "adams2019": candidate(0.5, autoscheduler="Adams2019"),
                                 "mullapudi2016": candidate(None, "failed", "Mullapudi2016")})}},
    "onnxpool_three": {"winner": "hand", "knobs": {}, "by_cpu": {
        CPU_A: row("hand", {"hand": candidate(1.0), "global_partials=8": candidate(1.02)})}}}}

with tempfile.TemporaryDirectory() as tables:
    with open(os.path.join(tables, "x86-64-test.json"), "w") as f:
        json.dump(table, f)
    rows = summary.rows_by_cpu(table)
    a = summary.summarize(CPU_A, rows[CPU_A])
    expect(a["kernels"] == 3 and a["tuned"] == 2, f"CPU A: 3 kernels, 2 tuned; got {a['kernels']}, {a['tuned']}")
    expect(math.isclose(a["geomean"], (0.8 * 0.5 * 1.0) ** (1 / 3), rel_tol=1e-9),
           f"CPU A winners' geomean: {a['geomean']}")
    expect(a["best"] == ("two", "adams2019", 0.5), f"CPU A best winner: {a['best']}")
    adams = a["autoschedulers"]["adams2019"]
    expect(adams["tried"] == 2 and adams["right"] == 2, f"CPU A Adams2019 tried/right: {adams}")
    expect(math.isclose(adams["geomean"], math.sqrt(4.0 * 0.5)), f"CPU A Adams2019 geomean: {adams}")
    # The winners over Adams2019 on the kernels it was right on: 0.8 / 4.0 and 0.5 / 0.5.
    expect(math.isclose(adams["winner_over"], math.sqrt(0.2 * 1.0)), f"CPU A winner over Adams2019: {adams}")
    li = a["autoschedulers"]["li2018"]
    expect(li["tried"] == 1 and li["right"] == 0 and li["geomean"] is None, f"CPU A Li2018: {li}")
    mullapudi = a["autoschedulers"]["mullapudi2016"]
    expect(mullapudi["tried"] == 1 and mullapudi["right"] == 0, f"CPU A Mullapudi2016: {mullapudi}")
    b = summary.summarize(CPU_B, rows[CPU_B])
    expect(b["kernels"] == 1 and b["tuned"] == 0 and b["geomean"] == 1.0, f"CPU B: {b}")
    expect(b["autoschedulers"]["li2018"]["tried"] == 0, f"CPU B Li2018 never tried: {b['autoschedulers']}")

    text = summary.summary_markdown(tables, per_kernel=True)
    lines = text.splitlines()
    expect(f"| {CPU_A} | x86-64-test | 3 (2) | 0.737 | two: 0.50 (adams2019) | 2/2: 1.41x (winner 0.45x of it) | "
           "right in 0/1 | right in 0/1 | not tried |" in lines, "CPU A's summary line:\n" + text)
    expect(f"| {CPU_B} | x86-64-test | 1 (0) | 1.000 | one: 1.00 (hand) | 1/1: 2.00x (winner 0.50x of it) | "
           "not tried | not tried | not tried |" in lines, "CPU B's summary line:\n" + text)
    expect(f"| {CPU_A} | x86-64-test | two | adams2019 | 0.50 | 0.50 | — | failed | — |" in lines,
           "kernel two's row:\n" + text)
    expect(f"| {CPU_A} | x86-64-test | one | vector_multiple=2 | 0.80 | 4.00 | rejected | — | — |" in lines,
           "kernel one's row:\n" + text)

    empty = os.path.join(tables, "none")
    os.makedirs(empty)
    try:
        summary.main(["--tables-dir", empty])
        failures.append("an empty tables folder was accepted")
    except SystemExit as e:
        expect(e.code == 2, f"an empty tables folder: exit {e.code}, not 2")

if failures:
    print("summary_test FAILED:\n- " + "\n- ".join(failures))
    sys.exit(1)
print("summary_test: all checks passed")
