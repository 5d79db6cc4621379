"""What the tuning command's tests share: soft expectations collected into one failure list, a run of
tools/tuning/tune.py, the results database read back, and the closing tally."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", flush=True)
    return condition


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
