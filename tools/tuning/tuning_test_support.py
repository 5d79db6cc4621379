"""What the tuning command's tests share: soft expectations collected into one failure list, a run of
tools/tuning/tune.py, the results database read back, and the closing tally."""

import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", flush=True)
    return condition


def fresh_work(*more_dirs):
    """The test's arguments (--build-dir, --work-dir and each of `more_dirs`, e.g. "--arm-build-dir")
    with the work directory emptied: (arguments, work directory, results database, tables folder)."""
    p = argparse.ArgumentParser()
    p.add_argument("--build-dir", required=True, help="the host (x86-64) build")
    for name in more_dirs:
        p.add_argument(name, required=True)
    p.add_argument("--work-dir", required=True)
    a = p.parse_args()
    shutil.rmtree(a.work_dir, ignore_errors=True)
    return a, a.work_dir, os.path.join(a.work_dir, "results.jsonl"), os.path.join(a.work_dir, "tables")


def run_tune(common, extra=()):
    r = subprocess.run([sys.executable, os.path.join(HERE, "tune.py")] + common + list(extra),
                       capture_output=True, text=True)
    print(r.stdout[-3000:], r.stderr[-3000:], sep="\n", flush=True)
    return r


def records(db):
    with open(db) as f:
        return [json.loads(line) for line in f if line.strip()]


def finish():
    """Prints the failures; the test's exit status."""
    print("\n".join(["", f"{len(failures)} failure(s)"] + failures))
    return 1 if failures else 0
