#!/usr/bin/env python3
"""A real GPU tuning run through tools/tuning/tune.py (--targets opencl) on one kernel (2D float32
MaxPool), on whatever OpenCL device is installed (PoCL on the CPU in CI): the GPU knobs are searched
(thread-block tiles), the GPU autoschedulers are tried, every candidate is checked against the
reference on the device, the wrong one is rejected, the survivors are timed on the device, and the
opencl table and report name the device, not the CPU. Then GlobalMaxPool with Mullapudi2016's GPU
schedule, which Halide prints with undeclared Vars: frozen (tools/tuning/freeze.py mends it), right
on every tiny node, and timed. Then the flow for a GPU machine without this toolchain, on OpenCL:
--device-pack, the pack unpacked and run by tools/tuning/device_tune.py with the system's python3,
--device-import of its records into the table; and a CUDA pack made here without a driver. Also: --targets cuda without an NVIDIA driver is refused, naming the
driver library (or the failed cuInit), and writes nothing; a rerun measures nothing again."""

import json
import os
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_device  # noqa: E402
from tuning_test_support import expect, finish, fresh_work, records, run_tune  # noqa: E402

KERNEL = "onnxpool_maxpool_float32_2d"
NODE = "maxpool:1x8x40x36:k3x3:s2x2:p1x1x1x1"


def main():
    a, work, db, tables = fresh_work()
    common = ["--build-dir", a.build_dir, "--work-dir", work, "--tables-dir", tables, "--shapes", NODE,
              "--kernels", KERNEL, "--knob", "gpu_tile_x=0,16", "--knob", "gpu_tile_y=0,4",
              "--autoschedulers", "anderson2021,li2018", "--test-fault", "--rounds", "3", "--jobs", "2"]

    try:
        gpu_device.device_name("cuda")
        has_cuda = True
    except gpu_device.NoDevice:
        has_cuda = False
    if not has_cuda:
        r = run_tune(common, ["--targets", "cuda"])
        expect(r.returncode == 2 and "--targets cuda: no cuda device here" in r.stderr
               and ("libcuda" in r.stderr or "cuInit" in r.stderr),
               "--targets cuda without a driver (or a device) was not refused saying which")
        expect(not os.path.exists(db), "the refused cuda run wrote something")

    r = run_tune(common, ["--targets", "opencl", "--runtime"])
    expect(r.returncode == 2 and "valid with --runtime: avx512" in r.stderr,
           "--runtime --targets opencl was not refused with the valid targets")
    expect(not os.path.exists(work), "the refused --runtime run wrote something")

    device = gpu_device.device_name("opencl")
    r = run_tune(common, ["--targets", "opencl"])
    expect(r.returncode == 0, f"the opencl run failed: {r.returncode}")
    recs = records(db)
    generated = {x["label"]: x for x in recs if x["kind"] == "generate"}
    expect(set(generated) == {"hand", "gpu_tile_x=16", "gpu_tile_y=4", "gpu_tile_x=16,gpu_tile_y=4",
                              "anderson2021", "li2018", "test_fault=true"},
           f"generated candidates: {sorted(generated)}")
    expect(all("opencl" in x["target"] for x in generated.values()),
           "a candidate was generated for another target than OpenCL")
    expect(all(x["status"] == "ok" for label, x in generated.items() if not label.startswith(("anderson", "li"))),
           "a hand-knob candidate failed to generate")
    checks = {x["label"]: x for x in recs if x["kind"] == "check" and x.get("scope") is None}
    expect(checks.get("test_fault=true", {}).get("status") == "rejected", "the wrong candidate was not rejected")
    for label in ("hand", "gpu_tile_x=16", "gpu_tile_y=4", "gpu_tile_x=16,gpu_tile_y=4"):
        expect(checks.get(label, {}).get("status") == "passed" and checks[label].get("reached", 0) > 0,
               f"{label} did not pass its check on the device, reached: {checks.get(label)}")
    expect(all(x["cpu"] == device for x in checks.values()), f"checks not recorded under the device {device}")
    times = [x for x in recs if x["kind"] == "time"]
    timed = {x["candidate_label"] for x in times}
    expect({"hand", "gpu_tile_x=16", "gpu_tile_y=4", "gpu_tile_x=16,gpu_tile_y=4"} <= timed
           and "test_fault=true" not in timed, f"timed candidates: {sorted(timed)}")
    expect(all(x["cpu"] == device and x["threads"] == 1 and x["reached"] for x in times),
           "a timing is not under the device, at one host thread, or did not reach the candidate")

    with open(os.path.join(tables, "opencl.json")) as f:
        table = json.load(f)
    row = table["kernels"].get(KERNEL, {})
    expect(list(row.get("by_cpu", {})) == [device], f"the opencl table's row is not under {device}: {row.keys()}")
    expect("GPU device" in table.get("note", ""), "the opencl table's note does not say it holds device times")
    cands = row.get("by_cpu", {}).get(device, {}).get("candidates", {})
    expect(cands.get("hand", {}).get("medians_us"), "the hand default's medians are not in the table")
    expect(row.get("winner") != "test_fault=true", "the wrong candidate won")
    with open(os.path.join(work, "report-opencl.md")) as f:
        text = f.read()
    expect(f"Device: {device}" in text and "anderson2021" in text and "adams2019" not in text,
           "the report does not name the device and the GPU autoschedulers")

    before = len(recs)
    r = run_tune(common, ["--targets", "opencl"])
    expect(r.returncode == 0 and len(records(db)) == before, "the rerun measured again")

    global_work = os.path.join(work, "global")
    r = run_tune(["--build-dir", a.build_dir, "--work-dir", global_work, "--no-tables", "--targets", "opencl",
                  "--shapes", "globalmaxpool:1x64x7x7", "--kernels", "onnxpool_globalmaxpool_float32",
                  "--knob", "gpu_global_threads=0,32", "--autoschedulers", "mullapudi2016", "--rounds", "3"])
    expect(r.returncode == 0, f"the GlobalMaxPool run failed: {r.returncode}")
    recs = records(os.path.join(global_work, "results.jsonl"))
    mullapudi = next((x for x in recs if x["kind"] == "generate" and x["label"] == "mullapudi2016"), {})
    expect(mullapudi.get("status") == "ok" and mullapudi.get("frozen"),
           f"Mullapudi2016's GPU schedule was not frozen: {mullapudi.get('freeze_reason', mullapudi)}")
    check = next((x for x in recs if x["kind"] == "check" and x["label"] == "mullapudi2016"
                  and x.get("scope") is None), {})
    expect(check.get("status") == "passed", f"the frozen GPU schedule failed its tiny checks: {check}")
    expect("mullapudi2016" in {x["candidate_label"] for x in recs if x["kind"] == "time"},
           "the frozen GPU schedule was not timed")
    check_device_flow(a.build_dir, os.path.join(work, "device"), device)
    return finish()


def check_device_flow(build_dir, work, device):
    """Pack for a device, run the pack as a GPU machine would (its own python3, no toolchain), import."""
    pack = os.path.join(work, "pack.tar.xz")
    common = ["--build-dir", build_dir, "--work-dir", os.path.join(work, "tune"), "--tables-dir",
              os.path.join(work, "tables"), "--shapes", NODE, "--kernels", KERNEL, "--knob", "gpu_tile_x=0,16",
              "--knob", "gpu_tile_y=0", "--autoschedulers", "none", "--test-fault", "--rounds", "3"]
    r = run_tune(common, ["--targets", "opencl", "--device-pack", pack])
    expect(r.returncode == 0 and os.path.exists(pack), f"--device-pack failed: {r.returncode}")
    if not os.path.exists(pack):
        return
    unpacked = os.path.join(work, "unpacked")
    with tarfile.open(pack) as tar:
        names = tar.getnames()
        tar.extractall(unpacked)
    expect({"plan.json", "device_tune.py", "gpu_device.py", "bin/onnxpool_tune_runner"} <= set(names),
           f"the pack lacks a part: {sorted(names)[:12]}")
    out = os.path.join(work, "out")
    d = subprocess.run(["python3", os.path.join(unpacked, "device_tune.py"), "--out", out],
                       capture_output=True, text=True, cwd=work, env={"PATH": os.environ.get("PATH", "")})
    print(d.stdout[-2000:], d.stderr[-2000:])
    expect(d.returncode == 0, f"device_tune.py failed: {d.returncode}")
    records_file = os.path.join(out, "tuning_records.jsonl")
    recs = records(records_file) if os.path.exists(records_file) else []
    expect({x["label"]: x["status"] for x in recs if x["kind"] == "check"}
           == {"hand": "passed", "gpu_tile_x=16": "passed", "test_fault=true": "rejected"},
           f"the device's checks: {[(x['label'], x['status']) for x in recs if x['kind'] == 'check']}")
    expect({x["candidate_label"] for x in recs if x["kind"] == "time"} == {"hand", "gpu_tile_x=16"}
           and all(x["cpu"] == device for x in recs), "the device's timings or their device name")
    r = run_tune(common, ["--targets", "opencl", "--device-import", records_file])
    expect(r.returncode == 0 and f"imported {len(recs)} records" in r.stdout, f"--device-import failed: {r.returncode}")
    tables = os.path.join(work, "tables", "opencl.json")
    if expect(os.path.exists(tables), "--device-import wrote no table"):
        with open(tables) as f:
            row = json.load(f)["kernels"].get(KERNEL, {})
        expect(list(row.get("by_cpu", {})) == [device], f"the imported row is not under {device}")
    r = run_tune(common, ["--targets", "opencl", "--device-import", records_file])
    expect(r.returncode == 0 and "imported 0 records" in r.stdout, "a second import added records again")
    # CUDA: packed here, routed on OpenCL, generated for the CUDA target; no driver needed.
    r = run_tune(common, ["--targets", "cuda", "--device-pack", os.path.join(work, "cuda.tar.xz"), "--work-dir",
                          os.path.join(work, "cuda")])
    plan_path = os.path.join(work, "cuda", "device-pack", "plan.json")
    if expect(r.returncode == 0 and os.path.exists(plan_path), f"the CUDA pack failed: {r.returncode}"):
        with open(plan_path) as f:
            plan = json.load(f)
        expect(plan["backend"] == "cuda" and all("-cuda-" in s["target"] for s in plan["kernels"])
               and plan["kernels"] and plan["kernels"][0]["candidates"],
               f"the CUDA pack's plan: {plan.get('backend')}, {[s['target'] for s in plan.get('kernels', [])]}")
    r = run_tune(common, ["--targets", "avx2", "--device-pack", pack])
    expect(r.returncode == 2 and "one GPU target" in r.stderr, "--device-pack on a CPU target was not refused")


if __name__ == "__main__":
    sys.exit(main())
