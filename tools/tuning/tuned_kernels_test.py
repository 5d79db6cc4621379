#!/usr/bin/env python3
"""The library's kernels are the ones its tuning tables name.

1. Every compiled kernel carries, in the runtime's kernel table (onnxpool_tune_runner knobs), exactly
   the knobs that its table row gives (generators/schedules/tuned/<table>.json: the winner over the
   recorded CPUs, or the ONNXPOOL_TUNED_FOR CPU's), and none where there is no row.
2. Regenerating a sample of kernels from the manifest's command and those knobs gives the built
   objects byte for byte: the tables alone decide the kernels, so two builds from the same tables
   are identical. The sample is every kernel with tuned knobs (at most MAX_TUNED), every kernel
   built from a frozen autoscheduled schedule, and one hand-default kernel per target.
3. Every kernel built from a frozen autoscheduled schedule (knob frozen_schedule) passes the tuning
   checks' tiny nodes and edge widths against the reference (onnxpool_tune_runner check --tiny) on
   its CPU variant, where this CPU runs it: autoscheduled splits are where small inputs break."""

import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile

MAX_TUNED = 4
# Tuning table -> (onnxpool::cpu_variant_name, the /proc/cpuinfo flags it needs), as tools/tuning/tune.py.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tune import CPU_TARGETS, cpu_info  # noqa: E402

VARIANTS = {table: (variant, flags) for table, variant, flags in CPU_TARGETS.values()}


def expected_knobs(tables_dir, table, kernel, tuned_for, cache={}):
    if table not in cache:
        path = os.path.join(tables_dir, f"{table}.json")
        cache[table] = json.load(open(path)) if os.path.exists(path) else {"kernels": {}}
    row = cache[table]["kernels"].get(kernel)
    if row is None:
        return []
    knobs = row["knobs"] if not tuned_for else row.get("by_cpu", {}).get(tuned_for, {}).get("knobs", {})
    return sorted(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in knobs.items())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build-dir", required=True)
    p.add_argument("--tables-dir", required=True)
    p.add_argument("--tuned-for", default="")
    p.add_argument("--hand-only", default="OFF")
    p.add_argument("--host-build-dir", default="", help="a cross build's host build (its generator)")
    a = p.parse_args()
    with open(os.path.join(a.build_dir, "tools", "tuning", "tuning_env.json")) as f:
        env = json.load(f)
    if a.host_build_dir:
        with open(os.path.join(a.host_build_dir, "tools", "tuning", "tuning_env.json")) as f:
            env["generator"] = json.load(f)["generator"]
    # A cross build's runner runs under its emulator (qemu-aarch64 -L ...).
    runner = [e for e in env.get("emulator", "").split(";") if e] + [env["runner"]]
    with open(env["manifest"]) as f:
        manifest = {k["name"]: k for k in json.load(f)["kernels"]}
    out = subprocess.run(runner + ["knobs"], capture_output=True, text=True, check=True).stdout
    compiled = {(r["kernel"], r["target"]): r["knobs"] for r in map(json.loads, out.splitlines())}
    hand_only = a.hand_only.upper() in ("ON", "TRUE", "1", "YES")

    failures, tuned, frozen, checked = [], [], [], 0
    for name, kernel in sorted(manifest.items()):
        for t in kernel["targets"]:
            want = [] if hand_only else expected_knobs(a.tables_dir, t["table"], name, a.tuned_for)
            have_manifest = sorted(t["knobs"])
            have_library = sorted(compiled.get((name, t["index"]), "").split())
            checked += 1
            if (name, t["index"]) not in compiled:
                failures.append(f"{t['function']}: in the manifest but not in the library")
            elif not (want == have_manifest == have_library):
                failures.append(f"{t['function']} ({t['table']}): table {want}, generator run {have_manifest}, "
                                f"library {have_library}")
            if want:
                tuned.append((name, t))
            if any(k.startswith("frozen_schedule=") for k in want):
                frozen.append((name, t))
    print(f"{checked} compiled kernels carry their table's knobs; {len(tuned)} of them tuned")

    sample = tuned[:MAX_TUNED] + [f for f in frozen if f not in tuned[:MAX_TUNED]]
    seen_tables = set()
    for name in ("onnxpool_maxpool_float32_1d", "onnxpool_globalaveragepool_float32"):
        for t in manifest[name]["targets"]:
            if t["table"] not in seen_tables and not any(s[1] is t for s in sample):
                sample.append((name, t))
                seen_tables.add(t["table"])
    kernel_dir = os.path.dirname(env["manifest"])
    with tempfile.TemporaryDirectory() as tmp:
        for name, t in sample:
            k = manifest[name]
            fn = t["function"]
            cmd = [env["generator"], "-g", k["generator"], "-f", fn, "-n", fn, "-e", "object", "-o", tmp,
                   f"target={t['target']}"] + k["params"] + t.get("knob_args", t["knobs"])
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"{fn}: regenerating failed: {r.stderr[-500:]}")
                continue
            if not filecmp.cmp(os.path.join(tmp, fn + ".o"), os.path.join(kernel_dir, fn + ".o"), shallow=False):
                failures.append(f"{fn}: regenerated from its table row, it differs from the built object")
            else:
                print(f"{fn} ({t['table']}, knobs {' '.join(t['knobs']) or 'hand defaults'}): identical")
    if checked == 0:
        failures.append("the manifest lists no kernel")

    _, flags = cpu_info()
    for name, t in frozen:
        variant, needs = VARIANTS.get(t["table"], (None, ()))
        if variant is None or not set(needs) <= flags:
            print(f"{t['function']} ({t['table']}): frozen schedule, not run: this CPU lacks {t['table']}")
            continue
        r = subprocess.run(runner + ["check", "--kernel", name, "--variant", variant, "--tiny"],
                           capture_output=True, text=True)
        result = json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 and r.stdout.strip() else {}
        if result.get("status") != "passed":
            failures.append(f"{t['function']}: its frozen schedule fails the tiny checks: "
                            f"{result.get('reason') or r.stderr[-500:]}")
        else:
            print(f"{t['function']} ({t['table']}): frozen schedule right on {result['checked']} tiny nodes")
    print("\n".join([f"{len(failures)} failure(s)"] + failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
