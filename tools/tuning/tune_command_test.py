#!/usr/bin/env python3
"""A real tuning run through tools/tuning/tune.py on one small kernel (1D float32 MaxPool, SSE4.1,
which every x86-64 CPU runs): the hand default, two knob settings, one autoscheduler (Adams2019,
frozen into source) and a candidate made wrong on purpose (the test-only knob test_fault). Checks
that bad input is refused before anything is written, that timings are recorded, that the frozen
autoscheduled schedule is right on the tiny nodes, that the wrong candidate is rejected and never
wins, that the table and report are written, that a rerun (also after an interruption or a
change to the checking code) resumes instead of measuring again, and that --retime measures again
and lets the new measurement decide."""

import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tuning_test_support import expect, finish, fresh_work, records, run_tune  # noqa: E402
import winners  # noqa: E402

KERNEL = "onnxpool_maxpool_float32_1d"
CANDIDATES = {"hand", "vector_multiple=2", "vector_multiple=4", "adams2019", "test_fault=true"}


def main():
    a, work, db, tables = fresh_work()
    common = ["--build-dir", a.build_dir, "--work-dir", work, "--tables-dir", tables, "--ops", "maxpool",
              "--shapes", "maxpool:1x4x301:k3:s2:p1x1", "maxpool:2x3x64:k2:s2", "--kernels", KERNEL,
              "--targets", "sse41", "--knob", "vector_multiple=0,2,4", "--autoschedulers", "adams2019", "--test-fault",
              "--threads", "1", "--rounds", "3", "--sample-ms", "1", "--jobs", "2"]

    # Bad input: a clear error naming the valid values, and nothing written.
    bad_inputs = [(["--ops", "maxpoool"], "valid: maxpool"),
                  (["--types", "f31"], "valid: f32"),
                  (["--targets", "neon"], "valid: avx512"),
                  (["--knob", "vector_width=2"], "vector_multiple"),
                  (["--autoschedulers", "ansor"], "adams2019"),
                  (["--kernels", "onnxpool_maxpool_float33_1d"], KERNEL),
                  (["--shapes", "maxpool:1x4x301:k3:s0"], "strides")]
    for extra, needle in bad_inputs:
        r = run_tune(common, extra)
        expect(r.returncode == 2, f"{extra}: exit status {r.returncode}, expected 2")
        expect(needle in r.stderr, f"{extra}: the error does not name {needle!r}")
        expect(not os.path.exists(db) and not os.path.exists(tables), f"{extra}: something was written")

    r = run_tune(common)
    if not expect(r.returncode == 0, f"the tuning run failed ({r.returncode})"):
        return 1
    first = records(db)
    generated = {x["label"]: x for x in first if x["kind"] == "generate"}
    expect(set(generated) == CANDIDATES, f"generated {sorted(generated)}, expected {sorted(CANDIDATES)}")
    checks = {x["label"]: x for x in first if x["kind"] == "check"}
    for label in ("hand", "vector_multiple=2", "vector_multiple=4"):
        expect(checks.get(label, {}).get("status") == "passed", f"{label} did not pass its checks")
        expect(checks.get(label, {}).get("reached", 0) > 20, f"{label}: its checks reached it on too few nodes")
    fault = checks.get("test_fault=true", {})
    expect(fault.get("status") == "rejected" and fault.get("reason"), "the wrong candidate was not rejected")
    # Adams2019's splits (ShiftInwards) break on inputs under their factors; frozen with GuardWithIf
    # tails, its schedule must be right on every tiny node, and be timed.
    adams = generated.get("adams2019", {})
    expect(adams.get("status") == "ok" and adams.get("frozen"), f"adams2019 was not frozen: {adams}")
    frozen_source = os.path.join(work, adams.get("frozen_source") or "missing")
    expect(os.path.exists(frozen_source), "the frozen schedule's source is missing")
    if os.path.exists(frozen_source):
        with open(frozen_source) as f:
            text = "\n".join(line for line in f if not line.lstrip().startswith("//"))
        expect("ONNXPOOL_FROZEN_SCHEDULE" in text and "ShiftInwards" not in text and "RoundUp" not in text,
               "the frozen source keeps an unsafe tail or lacks its entry point")
    expect(checks.get("adams2019", {}).get("status") == "passed"
           and checks.get("adams2019", {}).get("reached", 0) > 20,
           f"the frozen adams2019 schedule failed the tiny checks: {checks.get('adams2019')}")
    times = [x for x in first if x["kind"] == "time"]
    timed = {x["candidate_label"] for x in times}
    expect({"hand", "vector_multiple=2", "vector_multiple=4", "adams2019"} <= timed, f"timed only {sorted(timed)}")
    expect("test_fault=true" not in timed, "the rejected candidate was timed")
    expect(all(len(x["samples_us"]) == 3 and min(x["samples_us"]) > 0 and x["reached"] for x in times),
           "a timing record lacks its 3 positive samples or did not reach the candidate")
    expect(len({x["group"] for x in times}) == 1, "the candidates were not timed in one process")

    with open(os.path.join(tables, "x86-64-sse41.json")) as f:
        table = json.load(f)
    row = table["kernels"].get(KERNEL, {})
    expect(table.get("format") == 1 and row, "the table has no row for the kernel")
    (cpu_row,) = row.get("by_cpu", {"": {}}).values()
    expect(row.get("winner") != "test_fault=true" and cpu_row.get("winner") != "test_fault=true",
           "the wrong candidate won")
    expect(cpu_row.get("candidates", {}).get("test_fault=true", {}).get("status") == "rejected",
           "the table does not record the rejection")
    expect(cpu_row.get("candidates", {}).get("hand", {}).get("score") == 1.0, "the hand default's score is not 1")
    adams_row = cpu_row.get("candidates", {}).get("adams2019", {})
    expect(adams_row.get("buildable") and adams_row.get("knobs", {}).get("frozen_schedule") == adams.get("frozen_stem"),
           f"the table does not offer the frozen adams2019 schedule to the build: {adams_row}")
    if row.get("knobs", {}).get("frozen_schedule"):
        expect(os.path.exists(os.path.join(work, "frozen", row["knobs"]["frozen_schedule"] + ".cpp")),
               "a frozen schedule won, but its source was not written next to the tables")
    with open(os.path.join(work, "report-x86-64-sse41.md")) as f:
        expect(KERNEL in f.read(), "the report does not name the kernel")

    # A rerun measures nothing again.
    r = run_tune(common)
    expect(r.returncode == 0 and len(records(db)) == len(first), "the rerun measured again")
    expect("already timed" in r.stdout, "the rerun did not say what it skipped")

    # --retime measures every passed candidate again, in a new group whose ratios and noise then
    # decide: the first group's noise no longer counts. That group is made noisy on purpose first
    # (its hand samples doubled in number, the added ones 4x slower), so counting it would show.
    with open(db, "w") as f:
        for x in first:
            if x["kind"] == "time" and x["candidate_label"] == "hand":
                x = dict(x, samples_us=x["samples_us"] + [4 * v for v in x["samples_us"]])
            f.write(json.dumps(x) + "\n")
    _, doctored_noise = winners.score_group([x for x in records(db) if x["kind"] == "time"])
    r = run_tune(common, ["--retime"])
    retimed = records(db)[len(first):]
    new_times = [x for x in retimed if x["kind"] == "time"]
    expect(r.returncode == 0 and {x["candidate_label"] for x in new_times} == timed,
           f"--retime timed {sorted({x['candidate_label'] for x in new_times})}, expected {sorted(timed)}")
    expect(len({x["group"] for x in new_times}) == 1 and new_times[0]["group"] not in {x["group"] for x in times},
           "--retime did not time the candidates in one new group")
    expect(not any(x["kind"] in ("generate", "check") for x in retimed), "--retime generated or checked again")
    with open(os.path.join(tables, "x86-64-sse41.json")) as f:
        (retimed_row,) = json.load(f)["kernels"][KERNEL]["by_cpu"].values()
    _, newest_noise = winners.score_group(new_times)
    expect(doctored_noise > newest_noise and abs(retimed_row.get("noise", -1) - round(newest_noise, 4)) < 1e-4,
           f"the table's noise {retimed_row.get('noise')} is not the new group's {newest_noise:.4f} "
           f"(the first group's, made noisy: {doctored_noise:.4f})")

    # An interrupted run (the database cut after the generation records, its last line half written)
    # resumes: nothing is generated again, the checks and timings are redone.
    kept = [x for x in first if x["kind"] == "generate"]
    with open(db, "w") as f:
        f.writelines(json.dumps(x) + "\n" for x in kept)
        f.write('{"kind": "check", "kern')
    r = run_tune(common)
    after = records_tolerant(db)
    expect(r.returncode == 0, "the resumed run failed")
    expect(sum(x["kind"] == "generate" for x in after) == len(kept), "the resumed run generated again")
    expect({x["candidate_label"] for x in after if x["kind"] == "time"} >= {"hand", "vector_multiple=2"},
           "the resumed run did not time again")

    # Checks and timings made by other checking code (another checker_hash) are stale: they are
    # redone, and the candidates are not generated again.
    stale = records_tolerant(db)
    expect(all(x.get("checker_hash") for x in stale if x["kind"] in ("check", "time")),
           "a check or time record carries no checker_hash")
    with open(db, "w") as f:
        f.writelines(json.dumps(dict(x, checker_hash="0") if x["kind"] in ("check", "time") else x) + "\n"
                     for x in stale)
    r = run_tune(common)
    redone = records_tolerant(db)[len(stale):]
    expect(r.returncode == 0, "the run after a checking-code change failed")
    expect(not any(x["kind"] == "generate" for x in redone), "a checking-code change regenerated candidates")
    expect({x["label"] for x in redone if x["kind"] == "check"} >= {"hand", "test_fault=true"},
           "a checking-code change did not check again")
    check_reference_cache(a.build_dir, work)
    return finish()


def check_reference_cache(build_dir, work):
    """The runner keeps the reference's result of a large node on disk and checks against what it
    reads back: a right kernel passes from the cache, and a cache entry changed on purpose makes the
    same kernel fail, which proves the entry is what the check used."""
    with open(os.path.join(build_dir, "tools", "tuning", "tuning_env.json")) as f:
        runner = json.load(f)["runner"]
    cache = os.path.join(work, "reference-cache-test")
    shutil.rmtree(cache, ignore_errors=True)
    node = "maxpool:1x4x256x256:k3x3:s2x2:p1x1x1x1"  # 2^18 input elements: the smallest cached size
    cmd = [runner, "check", "--kernel", "onnxpool_maxpool_float32_2d", "--variant", "baseline", "--node", node,
           "--reference-cache", cache]

    def status():
        r = subprocess.run(cmd, capture_output=True, text=True)
        return json.loads(r.stdout.strip().splitlines()[-1])["status"] if r.returncode == 0 else f"exit {r.returncode}"

    expect(status() == "passed", "the first check (computing the reference) did not pass")
    entries = os.listdir(cache) if os.path.isdir(cache) else []
    if not expect(len(entries) == 1, f"the reference cache holds {entries}, expected one entry"):
        return
    expect(status() == "passed", "the check from the cached reference did not pass")
    path = os.path.join(cache, entries[0])
    with open(path, "r+b") as f:
        # Past the key (the node, " seed 1") and Y's type, rank and 4 dimensions: Y's values.
        f.seek(len(node + " seed 1") + 4 + 4 + 4 * 8 + 400)
        f.write(b"\x7f" * 8)
    expect(status() == "rejected", "a changed cache entry went unnoticed: the check did not read the cache")


def records_tolerant(db):
    out = []
    with open(db) as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return out


if __name__ == "__main__":
    sys.exit(main())
