#!/usr/bin/env python3
"""The device half of a GPU tuning run, for a GPU machine without this project's toolchain.

`tools/tune.sh --targets cuda --device-pack FILE` (on a machine with the toolchain) generates every
candidate and packs them with the tuning runner, this script and a plan. On the GPU machine:

    mkdir -p /tmp/tune && tar -xJf FILE -C /tmp/tune && python3 /tmp/tune/device_tune.py --out "$OUT"

checks each candidate against the reference on the device (tiny nodes included), times the ones
that pass interleaved in one runner process per kernel, and appends every result to
OUT/tuning_records.jsonl as it comes, so a run cut short still returns what it measured. Back on the
toolchain machine, `tools/tune.sh --targets cuda --device-import OUT/tuning_records.jsonl` puts them
into the results database and writes the table and report. Python 3 standard library only.
"""

import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_device  # noqa: E402


def runner_env():
    """The environment the packed runner runs in: the packed C++ runtime only if this machine's is
    older than the one it was built with."""
    env = dict(os.environ)
    probe = subprocess.run([os.path.join(HERE, "bin", "onnxpool_tune_runner"), "knobs"], capture_output=True, text=True)
    if probe.returncode != 0 and "GLIBCXX" in probe.stderr:
        env["LD_LIBRARY_PATH"] = os.path.join(HERE, "lib", "fallback") + (
            ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    return env


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="where tuning_records.jsonl and device_tune.log go")
    p.add_argument("--seconds", type=float, default=400, help="start no kernel after this long")
    a = p.parse_args()
    with open(os.path.join(HERE, "plan.json")) as f:
        plan = json.load(f)
    os.makedirs(a.out, exist_ok=True)
    records_path = os.path.join(a.out, "tuning_records.jsonl")
    log = open(os.path.join(a.out, "device_tune.log"), "a")

    def say(text):
        print(text, flush=True)
        log.write(text + "\n")
        log.flush()

    def record(r):
        with open(records_path, "a") as f:
            f.write(json.dumps(r, sort_keys=True) + "\n")

    try:
        device = gpu_device.device_name(plan["backend"])
    except gpu_device.NoDevice as e:
        say(f"device_tune: no {plan['backend']} device: {e}")
        return 1
    say(f"device_tune: {device}; {len(plan['kernels'])} kernel(s); packed {plan['packed']}")
    env = runner_env()
    runner = os.path.join(HERE, "bin", "onnxpool_tune_runner")
    # Beside the unpacked pack, not in OUT: the reference's outputs for the large nodes are tens of MB
    # that need not come back.
    cache = os.path.join(HERE, "reference-cache")
    start = time.monotonic()

    def run(cmd, timeout):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
            return r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired:
            return -1, "", f"timed out after {timeout} s"

    def check(step, cand, tiny):
        cmd = [runner, "check", "--kernel", step["kernel"], "--variant", plan["backend"], "--candidate",
               f"{os.path.join(HERE, cand['shared_object'])}:{cand['function']}", "--reference-cache", cache]
        cmd += ["--tiny"] if tiny else []
        for n in step["nodes"]:
            cmd += ["--node", n]
        rc, out, err = run(cmd, plan["check_timeout"])
        if rc != 0 or not out.strip():
            result = dict(status="failed", reason=f"runner: {rc}: {err.strip()[-1000:]}")
        else:
            line = json.loads(out.strip().splitlines()[-1])
            result = {k: line[k] for k in ("status", "reason", "checked", "reached") if k in line}
        r = dict(kind="check", kernel=step["kernel"], target=step["target"], candidate=cand["candidate"],
                 cpu=device, nodes=sorted(step["nodes"]), label=cand["label"], **result)
        if not tiny:
            r["scope"] = "nodes"
        record(r)
        return r["status"]

    for number, step in enumerate(plan["kernels"], 1):
        if time.monotonic() - start > a.seconds:
            say(f"time budget spent after {number - 1} kernel(s); the rest stays for another run")
            break
        to_time = []
        for cand in step["candidates"]:
            status = check(step, cand, tiny=True)
            if status == "rejected" and cand["autoscheduler"]:
                status = "passed" if check(step, cand, tiny=False) == "passed" else status
            say(f"[{number}/{len(plan['kernels'])}] {step['kernel']}: {cand['label']}: {status}")
            if status == "passed":
                to_time.append(cand)
        if not any(c["label"] == "hand" for c in to_time):
            say(f"[{number}/{len(plan['kernels'])}] {step['kernel']}: the hand default did not pass; nothing timed")
            continue
        cmd = [runner, "time", "--kernel", step["kernel"], "--variant", plan["backend"], "--threads", "1",
               "--rounds", str(plan["rounds"]), "--sample-ms", str(plan["sample_ms"])]
        for cand in to_time:
            cmd += ["--candidate", f"{cand['label']}|{os.path.join(HERE, cand['shared_object'])}:{cand['function']}"]
        for n in step["nodes"]:
            cmd += ["--node", n]
        rc, out, err = run(cmd, plan["time_timeout"])
        if rc != 0:
            say(f"[{number}/{len(plan['kernels'])}] {step['kernel']}: timing failed: {rc}: {err.strip()[:500]}")
            continue
        ids = {c["label"]: c["candidate"] for c in to_time}
        group = hashlib.sha256(f"{time.time()}{step['kernel']}".encode()).hexdigest()[:12]
        for row in map(json.loads, out.splitlines()):
            record(dict(kind="time", kernel=step["kernel"], target=step["target"], candidate=ids[row["candidate"]],
                        candidate_label=row["candidate"], cpu=device, node=row["node"], threads=1,
                        reached=row["reached"], group=group, date=datetime.date.today().isoformat(),
                        samples_us=row["samples_us"]))
        say(f"[{number}/{len(plan['kernels'])}] {step['kernel']}: timed {len(to_time)} candidates")
    say(f"device_tune: done in {time.monotonic() - start:.0f} s; records in {records_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
