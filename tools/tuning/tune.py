#!/usr/bin/env python3
"""onnxpool's tuning command (run through tools/tune.sh, which builds what it needs first).

For each kernel the chosen nodes run, on each chosen target: generates every candidate (the hand
schedule with its knobs, and Halide's autoschedulers on the same pipeline), each in its own process;
checks each against the tests' reference on the tuning nodes and on tiny ones (a wrong candidate is
rejected and can never win); times the survivors interleaved in one process; records everything in
a results database that a rerun resumes from; writes the winners into
generators/schedules/tuned/<table>.json, which the next build compiles; and writes a report per
target (Markdown table and plot)."""

import argparse
import concurrent.futures
import copy
import datetime
import hashlib
import json
import os
import signal
import shutil
import subprocess
import sys
import tarfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import candidates as candidate_search  # noqa: E402
import freeze  # noqa: E402
import gpu_device  # noqa: E402
import report  # noqa: E402
import suite  # noqa: E402
import winners  # noqa: E402
from results_db import ResultsDb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# --targets name -> (tuning table, onnxpool::cpu_variant_name, /proc/cpuinfo flags it needs)
CPU_TARGETS = {
    "avx512": ("x86-64-avx512", "avx512_skylake", ("avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl")),
    "avx2": ("x86-64-avx2", "avx2_fma_f16c", ("avx2", "fma", "f16c")),
    "sse41": ("x86-64-sse41", "baseline", ("sse4_1",)),
}
# Targets of the ARM64 cross build (--arm-build-dir), costed in guest instructions under qemu-user:
# --targets name -> (tuning table, variant). Only when asked for: they need that build.
ARM_TARGETS = {"arm64": ("arm64", "baseline")}
# GPU backends of the host build, timed on this machine's device (host tensors: each call's
# transfers are in its time, as for a caller who passes host tensors): --targets name ->
# (tuning table, the runner's variant). Only when asked for: they need a device.
GPU_TARGETS = {"opencl": ("opencl", "opencl"), "cuda": ("cuda", "cuda")}
ALL_TARGETS = tuple(CPU_TARGETS) + tuple(ARM_TARGETS) + tuple(GPU_TARGETS)
# The "CPU" that instruction counts are recorded under: they depend on the guest code alone, not on
# the host that ran qemu, and are not times on any ARM core.
QEMU_COUNT_CPU = "qemu-aarch64 guest instruction count"
TYPE_ENUMS = {"f32": "kFloat32", "f16": "kFloat16", "bf16": "kBFloat16", "f64": "kFloat64", "i8": "kInt8",
              "u8": "kUInt8"}


class UsageError(Exception):
    pass


def cpu_info():
    """The CPU's name as the benchmark report spells it, and its feature flags."""
    name, family, model, flags = "", "", "", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "model name" and not name:
                name = value
            elif key == "cpu family" and not family:
                family = value
            elif key == "model" and not model:
                model = value
            elif key == "flags" and not flags:
                flags = set(value.split())
    if family and model:
        name += f" (family {family}, model {model})"
    return name, flags


def sources_hash(folders, skip=()):
    """A hash of every .cpp and .h under `folders` (relative to the root), but `skip`."""
    h = hashlib.sha256()
    for top in folders:
        for folder, _, files in sorted(os.walk(os.path.join(ROOT, top))):
            if any(part in folder for part in skip):
                continue
            for name in sorted(files):
                if name.endswith((".cpp", ".h")):
                    path = os.path.join(folder, name)
                    h.update(os.path.relpath(path, ROOT).encode())
                    with open(path, "rb") as f:
                        h.update(f.read())
    return h.hexdigest()[:16]


def generator_sources_hash():
    """Changes whenever a generator or schedule source changes: it invalidates earlier records."""
    return sources_hash(["generators"], skip=(os.path.join("schedules", "tuned"), os.path.join("schedules", "frozen")))


def checker_sources_hash():
    """Changes whenever what checks and times a candidate changes (the runner, the runtime that
    routes and calls the kernels, the tests' reference and fills): it invalidates the check and
    time records, not the generated candidates."""
    return sources_hash(["tools/tuning", "runtime", "tests/reference", "tests/support"])


def fmt_duration(seconds):
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s"


class Progress:
    def __init__(self, total, kernels=1):
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.kernels, self.kernels_done = kernels, 0
        self.best = {}

    def kernel_done(self):
        self.kernels_done += 1

    def step(self, what, count=1):
        self.done += count
        elapsed = time.monotonic() - self.start
        # Steps are known one kernel at a time; past the first kernel, the
        # finished kernels' pace says more about the rest of the run.
        if self.kernels_done:
            left = elapsed / self.kernels_done * (self.kernels - self.kernels_done)
        else:
            left = elapsed / self.done * (self.total - self.done) * self.kernels if self.done else 0
        best = "; ".join(f"{k}: {v}" for k, v in self.best.items())
        print(f"[kernel {min(self.kernels_done + 1, self.kernels)}/{self.kernels}, {self.done}/{self.total} steps, "
              f"{fmt_duration(elapsed)} elapsed, ~{fmt_duration(left)} left] {what}"
              + (f"\n    best so far: {best}" if best else ""), flush=True)

    def add(self, count):
        self.total += count


def run(cmd, timeout):
    """(returncode or a reason string, stdout, stderr) of cmd in its own process group, killed at timeout."""
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    except OSError as e:
        return f"cannot start: {e}", "", ""
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return f"timed out after {timeout} s", out, err
    if p.returncode < 0:
        return f"killed by signal {-p.returncode} ({signal.Signals(-p.returncode).name})", out, err
    return p.returncode, out, err


class Platform:
    """Where the candidates of one target family are linked, checked and measured: natively on this
    CPU (timed), or in the ARM64 cross build under qemu-user (guest instructions counted)."""

    def __init__(self, env_path, what):
        if not os.path.exists(env_path):
            raise UsageError(f"no {env_path}: configure and build {what} first (tools/tune.sh does)")
        with open(env_path) as f:
            env = json.load(f)
        with open(env["manifest"]) as f:
            self.kernels = {k["name"]: k for k in json.load(f)["kernels"]}
        if not os.access(env["runner"], os.X_OK):
            raise UsageError(f"{env['runner']} is missing: build it first (tools/tune.sh does)")
        self.env = env
        self.cxx = env["cxx"]
        self.emulator = [e for e in env.get("emulator", "").split(";") if e]
        self.runner = self.emulator + [env["runner"]]
        self.counts_instructions = bool(self.emulator)
        # What a record's samples and a table's medians are in.
        self.unit = "instructions" if self.counts_instructions else "us"
        # A GPU backend's platform (Tuner.gpu_platform): the device its records are under.
        self.device = None
        self.gpu = False


class Tuner:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build_dir)
        self.host = Platform(os.path.join(self.build, "tools", "tuning", "tuning_env.json"), "the x86-64 build")
        env = self.host.env
        self.arm = None  # loaded when an ARM target is chosen (arm_platform)
        self.gpus = {}  # GPU backend -> its platform (gpu_platform)
        self.generator = env["generator"]
        # Absent from a build configured before the ARM64 tuning existed; needed for arm64 alone.
        self.qemu_plugin = env.get("qemu_plugin", "")
        if not os.access(self.generator, os.X_OK):
            raise UsageError(f"{self.generator} is missing: build it first (tools/tune.sh does)")
        # Frozen schedules load into the host's generator, so the host's compiler builds them.
        self.host_cxx = env["cxx"]
        self.plugins = env["plugins"]
        self.halide_include = [d for d in env["halide_include"].split(";") if d]
        self.halide_library = env["halide_library"]
        self.halide_version = env["halide_version"]
        self.cpu, self.flags = cpu_info()
        self.work = os.path.abspath(args.work_dir)
        self.db = ResultsDb(args.db or os.path.join(self.work, "results.jsonl"), self.halide_version,
                            generator_sources_hash(), checker_sources_hash())
        # The reference's results for the large nodes, shared by every check; one directory per
        # version of the checking code, so none outlives a change to the reference.
        self.reference_cache = os.path.join(self.work, "reference-cache", self.db.checker_hash)
        self.interrupted = False

    def arm_platform(self):
        if self.arm is None:
            self.arm = Platform(os.path.join(os.path.abspath(self.args.arm_build_dir), "tools", "tuning",
                                             "tuning_env.json"), "the arm64 preset")
            if not self.qemu_plugin or not os.access(self.qemu_plugin, os.R_OK):
                raise UsageError(f"the instruction-count plugin {self.qemu_plugin or '(not configured)'} is "
                                 "missing: build it first (tools/tune.sh does)")
        return self.arm

    def emulator_version(self):
        """E.g. "qemu-aarch64 version 7.2.22 (...)", for the reports."""
        rc, out, _ = run([self.arm_platform().emulator[0], "--version"], 60)
        return out.splitlines()[0].strip() if rc == 0 and out else self.arm_platform().emulator[0]

    def gpu_platform(self, backend):
        """The host build's runner on a GPU backend, recorded under the device's name."""
        if backend not in self.gpus:
            if self.args.device_pack or self.args.device_import:
                device = None  # measured elsewhere: the records name it (import_from_device)
            else:
                try:
                    device = gpu_device.device_name(backend)
                except gpu_device.NoDevice as e:
                    raise UsageError(f"--targets {backend}: no {backend} device here: {e} (--device-pack packs "
                                     "the candidates for a GPU machine without this toolchain)")
            platform = copy.copy(self.host)
            platform.device = device
            platform.gpu = True
            self.gpus[backend] = platform
        return self.gpus[backend]

    def platform_of(self, target_name):
        if target_name in ARM_TARGETS:
            return self.arm_platform()
        if target_name in GPU_TARGETS:
            return self.gpu_platform(target_name)
        return self.host

    def cpu_of(self, platform):
        """The CPU (or GPU device) a platform's checks and measurements are recorded under."""
        if platform.device:
            return platform.device
        return QEMU_COUNT_CPU if platform.counts_instructions else self.cpu

    def thread_counts(self, platform):
        # Instruction counts at several threads would add the pool's spinning to the kernel's work;
        # a GPU kernel does not run on the host's threads.
        return [1] if platform.counts_instructions or platform.gpu else self.args.threads

    # ---- nodes and the kernels they run ----

    def route(self, platform, nodes, variant):
        """{kernel name: [node texts]} for the kernels (on `variant`'s CPU target) the nodes run."""
        cmd = platform.runner + ["route", "--variant", variant]
        for _, text in nodes:
            cmd += ["--node", text]
        rc, out, err = run(cmd, 600)
        if rc != 0:
            raise UsageError(err.strip() or f"route failed: {rc}")
        routed = {}
        for line in out.splitlines():
            r = json.loads(line)
            if r["status"] != "ok":
                raise UsageError(f"node {r['node']}: {r['status']}")
            for slot in r["kernels"]:
                name, _, target = slot.partition("@")
                routed.setdefault((name, int(target)), []).append(r["node"])
        return routed

    # ---- one candidate: generate, check ----

    def candidate_id(self, kernel, target, cand):
        key = json.dumps([kernel["name"], target["target"], cand["knobs"], cand["autoscheduler"]]
                         + ([freeze.FREEZE_VERSION] if cand["autoscheduler"] else []), sort_keys=True)
        return hashlib.sha256((key + self.db.generator_hash).encode()).hexdigest()[:12]

    def generate(self, platform, kernel, target, cand):
        """Generates the candidate's kernel as a shared object. An autoscheduled candidate is
        generated by its autoscheduler, then frozen (tools/tuning/freeze.py) and generated again from
        the frozen schedule, which is what gets checked, timed and can win; one that cannot be frozen
        keeps the autoscheduler's own kernel, for the report only."""
        cid = self.candidate_id(kernel, target, cand)
        fn = f"tune_{cid}"
        out_dir = os.path.join(self.work, "candidates", kernel["name"])
        so = os.path.join(out_dir, fn + ".so")
        keys = dict(kind="generate", kernel=kernel["name"], target=target["target"], candidate=cid)
        done = self.db.find(**keys)
        if done and (done["status"] != "ok" or os.path.exists(so)):
            return dict(done, recorded=True)
        os.makedirs(out_dir, exist_ok=True)
        base = [self.generator, "-g", kernel["generator"], "-f", fn, "-n", fn, "-o", out_dir,
                f"target={target['target']}"] + kernel["params"]
        base += [f"{k}={v}" for k, v in sorted(cand["knobs"].items())]
        start = time.monotonic()
        extra = {}
        if not cand["autoscheduler"]:
            cmd = base + ["-e", "object,c_header"]
        else:
            cmd = base + ["-e", "object,c_header,schedule", "-p", self.plugins[cand["autoscheduler"]],
                          f"autoscheduler={cand['autoscheduler']}"]
            cmd += [f"autoscheduler.{k}={v}"
                    for k, v in candidate_search.autoscheduler_params(cand["autoscheduler"], platform.gpu).items()]
        status, reason = self.build_kernel(platform, cmd, out_dir, fn, so)
        if status == "ok" and cand["autoscheduler"]:
            extra = self.freeze(platform, kernel, target, cand, base, out_dir, fn, so)
        record = dict(keys, status=status, reason=reason, seconds=round(time.monotonic() - start, 2),
                      label=cand["label"], knobs=cand["knobs"], autoscheduler=cand["autoscheduler"],
                      function=fn, shared_object=os.path.relpath(so, self.work), table=target["table"],
                      command=" ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(cmd)), **extra)
        return self.db.add(record)

    def build_kernel(self, platform, cmd, out_dir, fn, so):
        """Runs a generator command writing <fn>.o into out_dir and links it as `so`: (status, reason)."""
        rc, _, err = run(cmd, self.args.generate_timeout)
        if rc != 0:
            return "failed", f"generator: {rc}: {err.strip()[-1000:]}"
        link_rc, _, link_err = run([platform.cxx, "-shared", "-o", so, os.path.join(out_dir, fn + ".o")], 300)
        if link_rc != 0:
            return "failed", f"link: {link_rc}: {link_err.strip()[-500:]}"
        return "ok", ""

    def freeze(self, platform, kernel, target, cand, base, out_dir, fn, so):
        """Freezes the autoscheduler's `<fn>.schedule.h`, builds it as a plugin and regenerates the
        candidate from it into `so`. The record's fields: frozen, and frozen_stem and frozen_source,
        or freeze_reason (the autoscheduler's own kernel then stays in `so`)."""
        try:
            with open(os.path.join(out_dir, fn + ".schedule.h")) as f:
                header = f.read()
            params = candidate_search.autoscheduler_params(cand["autoscheduler"], platform.gpu)
            provenance = (", ".join(f"autoscheduler.{k}={v}" for k, v in params.items())
                          + f", Halide {self.halide_version}, {datetime.date.today().isoformat()}")
            stem, source = freeze.frozen_source(header, cand["autoscheduler"], kernel["name"], target["table"],
                                                target["target"], provenance)
        except (OSError, freeze.FreezeError) as e:
            return dict(frozen=False, freeze_reason=str(e))
        frozen_dir = os.path.join(out_dir, "frozen")
        os.makedirs(frozen_dir, exist_ok=True)
        source_path = os.path.join(frozen_dir, stem + ".cpp")
        with open(source_path, "w") as f:
            f.write(source)
        plugin = os.path.join(frozen_dir, stem + ".so")
        rc, _, err = run([self.host_cxx, "-std=c++17", "-O1", "-fPIC", "-shared", "-o", plugin, source_path,
                          f"-I{os.path.join(ROOT, 'generators', 'schedules')}"]
                         + [f"-I{d}" for d in self.halide_include] + [self.halide_library], 600)
        if rc != 0:
            return dict(frozen=False, freeze_reason=f"compiling the frozen schedule: {rc}: {err.strip()[-800:]}")
        # Generated aside first: a failure leaves the autoscheduler's own kernel in place.
        aside = os.path.join(frozen_dir, "out")
        os.makedirs(aside, exist_ok=True)
        cmd = [c if c != out_dir else aside for c in base] + [
            "-e", "object,c_header", "-p", plugin, f"autoscheduler={freeze.PLUGIN_SCHEDULER}"]
        status, reason = self.build_kernel(platform, cmd, aside, fn, os.path.join(aside, fn + ".so"))
        if status != "ok":
            return dict(frozen=False, freeze_reason=f"generating from the frozen schedule: {reason}")
        os.replace(os.path.join(aside, fn + ".so"), so)
        return dict(frozen=True, frozen_stem=stem, frozen_source=os.path.relpath(source_path, self.work))

    def check(self, platform, kernel, target, variant, cand, gen, nodes, tiny=True):
        """Checks on the nodes and, with `tiny`, on the tiny ones too (what a winner must pass)."""
        keys = dict(kind="check", kernel=kernel["name"], target=target["target"], candidate=gen["candidate"],
                    cpu=self.cpu_of(platform), nodes=sorted(nodes))
        if not tiny:
            keys["scope"] = "nodes"
        done = self.db.find(**keys)
        if done:
            return dict(done, recorded=True)
        so = os.path.join(self.work, gen["shared_object"])
        cmd = platform.runner + ["check", "--kernel", kernel["name"], "--variant", variant, "--candidate",
                                 f"{so}:{gen['function']}", "--reference-cache", self.reference_cache]
        cmd += ["--tiny"] if tiny else []
        for n in nodes:
            cmd += ["--node", n]
        return self.db.add(dict(keys, label=cand["label"], **self.run_check(cmd)))

    def run_check(self, cmd):
        """Runs a runner `check` command: its status and reason (and, from the kernels' checks, how many
        nodes it checked and whether the candidate's kernel was reached); a runner that crashed, hung or
        printed nothing is "failed"."""
        rc, out, err = run(cmd, self.args.check_timeout)
        if rc != 0 or not out.strip():
            return dict(status="failed", reason=f"runner: {rc}: {err.strip()[-1000:]}")
        result = json.loads(out.strip().splitlines()[-1])
        return {key: result[key] for key in ("status", "reason", "checked", "reached") if key in result}

    # ---- timing ----

    def time_group(self, platform, kernel, variant, entries, nodes, threads):
        """Times `entries` [(cand, gen)] on `nodes` in one runner process (counts their guest
        instructions, on an emulated platform); returns its records."""
        if platform.counts_instructions:
            return self.count_group(platform, kernel, variant, entries, nodes)
        cmd = [self.host.env["runner"], "time", "--kernel", kernel["name"], "--variant", variant, "--threads", str(threads),
               "--rounds", str(self.args.rounds), "--sample-ms", str(self.args.sample_ms)]
        args, ids = self.candidate_args(entries, nodes)
        cmd += args
        return self.record_timing(cmd, kernel["name"], entries[0][1]["target"], ids, threads, self.cpu_of(platform))

    def candidate_args(self, entries, nodes):
        """The runner's --candidate and --node arguments for `entries` [(cand, gen)] on `nodes`, and the
        candidates' ids by label."""
        args = []
        for cand, gen in entries:
            args += ["--candidate", f"{cand['label']}|{os.path.join(self.work, gen['shared_object'])}:{gen['function']}"]
        for n in nodes:
            args += ["--node", n]
        return args, {cand["label"]: gen["candidate"] for cand, gen in entries}

    def add_time_record(self, kernel_name, target_string, ids, group, cpu, row, threads, samples):
        """One timed (or counted) candidate and node of a runner process, into the database."""
        return self.db.add(dict(
            kind="time", kernel=kernel_name, target=target_string, candidate=ids[row["candidate"]],
            candidate_label=row["candidate"], cpu=cpu, node=row["node"], threads=threads, reached=row["reached"],
            group=group, date=datetime.date.today().isoformat(), **samples))

    def count_group(self, platform, kernel, variant, entries, nodes):
        """Counts the guest instructions of one call of each of `entries` on each node, in one runner
        process under qemu with the counting plugin (tools/tuning/qemu_instruction_count.cpp). The
        counts are deterministic up to a few allocator paths, so one sample of --calls calls each."""
        os.makedirs(self.work, exist_ok=True)
        counts_path = os.path.join(self.work, f"counts-{os.getpid()}-{kernel['name']}.txt")
        emulator, runner = platform.emulator, platform.runner[len(platform.emulator):]
        cmd = emulator[:1] + ["-plugin", f"{self.qemu_plugin},out={counts_path}"] + emulator[1:] + runner + [
            "count", "--kernel", kernel["name"], "--variant", variant, "--calls", str(self.args.count_calls)]
        args, ids = self.candidate_args(entries, nodes)
        cmd += args
        rc, out, err = run(cmd, self.args.time_timeout)
        counts = {}
        if os.path.exists(counts_path):
            with open(counts_path) as f:
                for line in f:
                    region, _, count = line.partition(" ")
                    counts[int(region)] = int(count)
            os.remove(counts_path)
        if rc != 0:
            print(f"    counting failed: {rc}: {err.strip()[:500]}", flush=True)
            return []
        group = hashlib.sha256(f"{time.time()}{kernel['name']}count".encode()).hexdigest()[:12]
        rows = [json.loads(line) for line in out.splitlines()]
        missing = [t["region"] for t in rows if t["region"] not in counts]
        if missing or not rows:
            # Nothing of a group the plugin did not count whole goes into the database.
            print(f"    counting failed: the plugin recorded no region {missing[:1] or 'at all'}", flush=True)
            return []
        return [self.add_time_record(kernel["name"], entries[0][1]["target"], ids, group, QEMU_COUNT_CPU, t, 1,
                                     {"samples_instructions": [counts[t["region"]] / t["calls"]]})
                for t in rows]

    def latest_scores(self, kernel_name, target_string, cpu=None):
        """Scores from each thread count's timing groups of this kernel on this CPU, merged, a later
        group's ratio replacing an earlier one's; the noise is the largest among the groups whose
        ratios are kept, so a group that --retime measured again no longer counts."""
        times = self.db.all(kind="time", kernel=kernel_name, target=target_string, cpu=cpu or self.cpu)
        merged, noise_of = {}, {}
        for threads in sorted({t["threads"] for t in times}):
            of_threads = [t for t in times if t["threads"] == threads]
            groups = {}
            for t in of_threads:
                groups.setdefault(t["group"], []).append(t)
            # Every group has the hand default; a later group adds candidates the earlier lacked, or
            # (--retime) measures them all again.
            for group in groups.values():
                scores, noise = winners.score_group(group)
                if noise is None:
                    continue
                for label, s in scores.items():
                    m = merged.setdefault(label, {"ratios": {}, "medians": {}, "reached": True})
                    m["ratios"].update(s["ratios"])
                    m["medians"].update(s["medians"])
                    m["reached"] = m["reached"] and s["reached"]
                    for key in s["ratios"]:
                        noise_of[(label, key)] = noise
        for m in merged.values():
            m["score"] = winners.geomean(list(m["ratios"].values()))
            m["worst_ratio"] = max(m["ratios"].values()) if m["ratios"] else float("nan")
        noise = max(noise_of.values()) if noise_of else winners.MIN_NOISE
        return merged, noise

    # ---- one kernel ----

    def tune_kernel(self, platform, kernel, target, variant, nodes, progress):
        gpu = platform.gpu
        threads = self.thread_counts(platform)
        overrides = self.args.knob_grid
        cands = candidate_search.choose(kernel, gpu, self.args.strategy, self.args.max_candidates, self.args.seed,
                                        overrides, self.args.autoschedulers, candidate_search.arch_of(target["target"]))
        if self.args.test_fault:
            cands.append(candidate_search.candidate({"test_fault": "true"}))
        progress.add(2 * len(cands) + len(threads))
        self.run_candidates(platform, kernel, target, variant, nodes, cands, progress)
        if self.args.strategy == "greedy" and not self.interrupted:
            scores, _ = self.latest_scores(kernel["name"], target["target"], self.cpu_of(platform))
            measured = {c["label"]: (c["knobs"], scores[c["label"]]["score"]) for c in cands
                        if c["label"] in scores and not c["autoscheduler"]}
            combo = candidate_search.combined_best(measured)
            if len(combo) > 1:
                extra = [candidate_search.candidate(combo)]
                progress.add(2 + len(threads))
                self.run_candidates(platform, kernel, target, variant, nodes, [candidate_search.candidate({})] + extra,
                                    progress, only_new=True)

    def run_candidates(self, platform, kernel, target, variant, nodes, cands, progress, only_new=False):
        results = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            futures = {pool.submit(self.generate, platform, kernel, target, c): c for c in cands}
            for future in concurrent.futures.as_completed(futures):
                c = futures[future]
                gen = future.result()
                results[c["label"]] = (c, gen)
                progress.step(f"{kernel['name']} on {target['table']}: "
                              f"{'recorded' if gen.get('recorded') else 'generated'} {c['label']}: {gen['status']}"
                              + (f" ({gen['reason'][:200]})" if gen["status"] != "ok" else ""))
        def check_one(c):
            """The candidate's check (and the nodes-only one of an autoscheduled candidate wrong on
            the tiny nodes); True when it is to be timed."""
            cand, gen = results[c["label"]]
            if gen["status"] != "ok":
                progress.step(f"{kernel['name']}: {c['label']} not checked (generation failed)")
                return False
            chk = self.check(platform, kernel, target, variant, cand, gen, nodes)
            progress.step(f"{kernel['name']}: {'recorded check of' if chk.get('recorded') else 'checked'} "
                          f"{c['label']}: {chk['status']}"
                          + (f" ({chk['reason'][:300]})" if chk["status"] != "passed" else ""))
            if chk["status"] == "passed":
                return True
            if chk["status"] == "rejected" and cand["autoscheduler"]:
                # Autoscheduled splits assume inputs as large as the estimates (halide#5070): timed
                # on the tuning nodes when right there, for the report; it cannot win.
                on_nodes = self.check(platform, kernel, target, variant, cand, gen, nodes, tiny=False)
                progress.step(f"{kernel['name']}: {c['label']} on the tuning nodes alone: {on_nodes['status']}", 0)
                return on_nodes["status"] == "passed"
            return False

        # Checks time nothing, so they run side by side; the timing below runs alone.
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            to_time = list(pool.map(check_one, cands))
        passed = [results[c["label"]] for c, keep in zip(cands, to_time) if keep]
        if not any(c["label"] == "hand" for c, _ in passed):
            print(f"    {kernel['name']}: the hand default did not pass its checks; nothing to time", flush=True)
            progress.step("skipped timing", len(self.thread_counts(platform)))
            return
        cpu = self.cpu_of(platform)
        measured = "counted" if platform.counts_instructions else "timed"
        for threads in self.thread_counts(platform):
            timings = self.db.all(kind="time", kernel=kernel["name"], target=target["target"], cpu=cpu,
                                  threads=threads)
            timed = {c for c in {t["candidate"] for t in timings}
                     if set(nodes) <= {t["node"] for t in timings if t["candidate"] == c}}
            todo = passed if self.args.retime else [(c, g) for c, g in passed if g["candidate"] not in timed]
            if not todo:
                progress.step(f"{kernel['name']} at {threads} thread(s): every candidate already {measured}")
                continue
            # The hand default is timed again with the new ones: ratios come from one process.
            hand = [(c, g) for c, g in passed if c["label"] == "hand"]
            entries = hand + [e for e in todo if e[0]["label"] != "hand"]
            self.time_group(platform, kernel, variant, entries, nodes, threads)
            scores, noise = self.latest_scores(kernel["name"], target["target"], cpu)
            if scores:
                best = min((s["score"], label) for label, s in scores.items())
                progress.best[kernel["name"]] = f"{best[1]} {best[0]:.3f}x hand"
            progress.step(f"{kernel['name']} at {threads} thread(s): {measured} {len(entries)} candidates "
                          f"(noise {noise:.3f})")

    # ---- the run-time knobs of one target ----

    def runtime_nodes(self, nodes):
        """The tuning nodes, plus small ones on each side of the flat-plane thresholds."""
        extra = [f"{op}:1x3x{h}x{w}:k3x3:s1x1:p1x1x1x1" for op in ("maxpool", "averagepool")
                 for w in (8, 31, 32, 33, 63, 64, 65, 127, 128, 129) for h in (7, 300)]
        return [n for _, n in nodes] + extra

    def tune_runtime(self, table, variant, nodes, progress):
        points = candidate_search.runtime_points(self.args.strategy)
        self.run_runtime_settings(table, variant, nodes, points, progress)
        if self.args.strategy != "exhaustive" and not self.interrupted:
            scores, _ = self.latest_scores("runtime", f"runtime:{table}")
            measured = {candidate_search.label_of(p): (p, scores[candidate_search.label_of(p)]["score"])
                        for p in points if candidate_search.label_of(p) in scores}
            combo = candidate_search.combined_best(measured)
            if len(combo) > 1:
                self.run_runtime_settings(table, variant, nodes, [{}, combo], progress)

    def run_runtime_settings(self, table, variant, nodes, points, progress):
        check_nodes = self.runtime_nodes(nodes)
        tuned_nodes = [n for _, n in nodes]
        target = {"target": f"runtime:{table}", "table": table}
        progress.add(len(points) + len(self.args.threads))
        passed = []
        for knobs in points:
            label = candidate_search.label_of(knobs)
            cid = hashlib.sha256(json.dumps(["runtime", table, knobs], sort_keys=True).encode()).hexdigest()[:12]
            keys = dict(kind="check", kernel="runtime", target=target["target"], candidate=cid, cpu=self.cpu,
                        nodes=sorted(check_nodes))
            chk = self.db.find(**keys)
            if chk is None:
                cmd = self.host.runner + ["check", "--variant", variant, "--candidate",
                                          candidate_search.runtime_spec(knobs),
                       "--reference-cache", self.reference_cache]
                for n in check_nodes:
                    cmd += ["--node", n]
                result = self.run_check(cmd)
                chk = self.db.add(dict(keys, status=result["status"], reason=result["reason"], label=label,
                                       knobs=knobs))
            progress.step(f"run-time knobs on {table}: checked {label}: {chk['status']}")
            if chk["status"] == "passed":
                passed.append((label, cid, knobs))
        if not any(label == "hand" for label, _, _ in passed):
            print(f"    run-time knobs on {table}: the hand defaults did not pass; nothing to time", flush=True)
            return
        for threads in self.args.threads:
            timings = self.db.all(kind="time", kernel="runtime", target=target["target"], cpu=self.cpu,
                                  threads=threads)
            timed = {c for c in {t["candidate"] for t in timings}
                     if set(tuned_nodes) <= {t["node"] for t in timings if t["candidate"] == c}}
            todo = [p for p in passed if self.args.retime or p[1] not in timed or p[0] == "hand"]
            if len(todo) == 1:
                progress.step(f"run-time knobs at {threads} thread(s): every candidate already timed")
                continue
            cmd = self.host.runner + ["time", "--variant", variant, "--threads", str(threads), "--rounds",
                   str(self.args.rounds), "--sample-ms", str(self.args.sample_ms)]
            for label, _, knobs in todo:
                cmd += ["--candidate", f"{label}|{candidate_search.runtime_spec(knobs)}"]
            for n in tuned_nodes:
                cmd += ["--node", n]
            self.record_timing(cmd, "runtime", target["target"], {l: c for l, c, _ in todo}, threads)
            progress.step(f"run-time knobs at {threads} thread(s): timed {len(todo)} settings")

    def record_timing(self, cmd, kernel_name, target_string, ids, threads, cpu=None):
        """Runs a runner `time` command and records its samples under `cpu` (this CPU by default, or
        the GPU device that ran them)."""
        rc, out, err = run(cmd, self.args.time_timeout)
        if rc != 0:
            print(f"    timing failed: {rc}: {err.strip()[:500]}", flush=True)
            return []
        group = hashlib.sha256(f"{time.time()}{kernel_name}{threads}".encode()).hexdigest()[:12]
        return [self.add_time_record(kernel_name, target_string, ids, group, cpu or self.cpu, t, t["threads"],
                                     {"samples_us": t["samples_us"]})
                for t in map(json.loads, out.splitlines())]

    def summarize_runtime(self, table):
        target_string = f"runtime:{table}"
        scores, noise = self.latest_scores("runtime", target_string)
        cands = {}
        for chk in self.db.all(kind="check", kernel="runtime", target=target_string, cpu=self.cpu):
            s = scores.get(chk["label"], {})
            cands[chk["label"]] = {
                "knobs": chk["knobs"], "autoscheduler": None, "status": chk["status"], "reason": chk["reason"][:300],
                "buildable": True, "score": s.get("score"), "worst_ratio": s.get("worst_ratio"),
                "ratios": s.get("ratios", {}), "medians_us": s.get("medians", {})}
        timed = {l: scores[l] for l in scores if l in cands and cands[l]["status"] == "passed"}
        winner = winners.pick(timed, noise, set(cands)) if "hand" in timed else "hand"
        return {"kernel": "runtime", "table": table, "target": target_string, "nodes": [], "noise": noise,
                "cpu": self.cpu, "unit": "us",
                "winner": winner, "knobs": cands.get(winner, {}).get("knobs", {}), "candidates": cands}

    # ---- the run ----

    def targets(self):
        chosen = []
        for name in self.args.targets:
            if name in ARM_TARGETS:
                table, variant = ARM_TARGETS[name]
                self.arm_platform()
            elif name in GPU_TARGETS:
                table, variant = GPU_TARGETS[name]
                self.gpu_platform(name)
            else:
                table, variant, needs = CPU_TARGETS[name]
                if not set(needs) <= self.flags:
                    raise UsageError(f"--targets {name}: this CPU ({self.cpu}) cannot run it")
            chosen.append((name, table, variant))
        return chosen

    def main(self):
        nodes = self.args.nodes
        if self.args.runtime:
            return self.main_runtime(nodes)
        if self.args.device_import:
            return self.import_from_device()
        plan = []
        for name, table, variant in self.targets():
            platform = self.platform_of(name)
            of_target = [n for n in nodes if not (platform.counts_instructions and n[1] in self.args.uncounted)]
            if not of_target:
                continue
            # Packing for a device this machine lacks: the nodes are routed on OpenCL (PoCL here), whose
            # GPU kernels are the same functions; the backend's own build of each is then taken.
            proxy = self.args.device_pack and variant != "opencl"
            routed = self.route(platform, of_target, "opencl" if proxy else variant)
            for (kernel_name, index), texts in sorted(routed.items()):
                kernel = platform.kernels[kernel_name]
                target = next((t for t in kernel["targets"] if (t["table"] == table if proxy else t["index"] == index)),
                              None)
                if target is None or target["table"] != table:
                    continue
                if self.args.kernels and kernel_name not in self.args.kernels:
                    continue
                plan.append((platform, kernel, target, variant, texts))
        known = self.host.kernels
        unknown = [k for k in self.args.kernels if k not in known]
        if unknown:
            prefix = "_".join(unknown[0].split("_")[:2]) + "_"
            near = sorted(k for k in known if k.startswith(prefix)) or sorted(known)
            raise UsageError(f"--kernels: no kernel {', '.join(unknown)}; valid: {', '.join(near)} "
                             "(build/kernels/onnxpool_kernel_manifest.json lists them all)")
        if not plan:
            raise UsageError("the nodes run no kernel of the chosen targets")
        print(f"Tuning {len(plan)} kernel(s) on {self.cpu}, Halide {self.halide_version}; results in {self.db.path}"
              + (f" ({self.db.stale} records of other generator or checking sources or Halide versions ignored)"
                 if self.db.stale else ""), flush=True)
        for platform, kernel, target, _, texts in plan:
            print(f"  {kernel['name']} ({target['table']}"
                  + (", guest instructions under qemu" if platform.counts_instructions else "")
                  + f"): {', '.join(texts)}")
        if self.args.device_pack:
            return self.pack_for_device(plan)
        progress = Progress(0, len(plan))
        deadline = time.monotonic() + self.args.budget_minutes * 60 if self.args.budget_minutes else None
        try:
            for platform, kernel, target, variant, texts in plan:
                if deadline and time.monotonic() > deadline:
                    print("time budget spent; the rest stays for a rerun", flush=True)
                    break
                self.tune_kernel(platform, kernel, target, variant, texts, progress)
                progress.kernel_done()
        except KeyboardInterrupt:
            self.interrupted = True
            print("\ninterrupted: every finished step is in the database; rerun the same command to resume",
                  flush=True)
        return self.write_results(plan)

    # ---- a GPU machine without this toolchain: pack here, measure there, import here ----

    def device_plan_path(self):
        return os.path.join(self.work, "device-pack", "plan.json")

    def pack_for_device(self, plan):
        """Generates every candidate of the planned kernels and packs them with the runner, the plan
        and tools/tuning/device_tune.py into the --device-pack tarball."""
        stage = os.path.dirname(self.device_plan_path())
        shutil.rmtree(stage, ignore_errors=True)
        os.makedirs(os.path.join(stage, "bin"))
        steps, backend = [], None
        progress = Progress(0, len(plan))
        for platform, kernel, target, variant, texts in plan:
            backend = variant
            cands = candidate_search.choose(kernel, True, self.args.strategy, self.args.max_candidates, self.args.seed,
                                            self.args.knob_grid, self.args.autoschedulers,
                                            candidate_search.arch_of(target["target"]))
            if self.args.test_fault:
                cands.append(candidate_search.candidate({"test_fault": "true"}))
            progress.add(len(cands))
            with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
                gens = list(pool.map(lambda c: (c, self.generate(platform, kernel, target, c)), cands))
            packed = []
            for c, g in gens:
                progress.step(f"{kernel['name']} on {target['table']}: generated {c['label']}: {g['status']}"
                              + (f" ({g['reason'][:200]})" if g["status"] != "ok" else ""))
                if g["status"] != "ok":
                    continue
                rel = os.path.join("candidates", kernel["name"], os.path.basename(g["shared_object"]))
                os.makedirs(os.path.join(stage, os.path.dirname(rel)), exist_ok=True)
                shutil.copyfile(os.path.join(self.work, g["shared_object"]), os.path.join(stage, rel))
                packed.append(dict(label=c["label"], candidate=g["candidate"], function=g["function"],
                                   shared_object=rel, autoscheduler=c["autoscheduler"]))
            steps.append(dict(kernel=kernel["name"], target=target["target"], table=target["table"],
                              variant=variant, nodes=texts, candidates=packed))
            progress.kernel_done()
        rc, commit, _ = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], 60)
        manifest = dict(backend=backend, packed=f"{datetime.date.today().isoformat()} from commit "
                                                f"{commit.strip() if rc == 0 else 'unknown'}",
                        halide=self.halide_version, generator_hash=self.db.generator_hash,
                        checker_hash=self.db.checker_hash, rounds=self.args.rounds, sample_ms=self.args.sample_ms,
                        check_timeout=self.args.check_timeout, time_timeout=self.args.time_timeout,
                        command=" ".join(sys.argv[1:]), kernels=steps)
        with open(self.device_plan_path(), "w") as f:
            json.dump(manifest, f, indent=1)
        rc, _, err = run(["strip", "-o", os.path.join(stage, "bin", "onnxpool_tune_runner"), self.host.env["runner"]], 300)
        if rc != 0:
            raise UsageError(f"strip failed on the runner: {err.strip()[:300]} (Debian: binutils)")
        for script in ("device_tune.py", "gpu_device.py"):
            shutil.copyfile(os.path.join(os.path.dirname(os.path.abspath(__file__)), script), os.path.join(stage, script))
        # The C++ runtime the runner was linked against, for a GPU machine whose own is older.
        os.makedirs(os.path.join(stage, "lib", "fallback"))
        rc, out, _ = run(["ldd", self.host.env["runner"]], 60)
        for line in out.splitlines() if rc == 0 else []:
            parts = line.split()
            if len(parts) >= 3 and parts[1] == "=>" and parts[0].startswith(("libstdc++.so", "libgcc_s.so")):
                shutil.copyfile(os.path.realpath(parts[2]), os.path.join(stage, "lib", "fallback", parts[0]))
        os.makedirs(os.path.dirname(os.path.abspath(self.args.device_pack)), exist_ok=True)
        # xz's fastest preset: 13 MiB in about 5 s, where its default takes ten times as long for 9.
        with tarfile.open(self.args.device_pack, "w:xz", preset=1) as tar:
            for entry in sorted(os.listdir(stage)):
                tar.add(os.path.join(stage, entry), arcname=entry)
        size = os.path.getsize(self.args.device_pack)
        print(f"packed {sum(len(s['candidates']) for s in steps)} candidates of {len(steps)} kernel(s) into "
              f"{self.args.device_pack} ({size / 1048576:.1f} MiB). On the GPU machine:\n"
              f"  mkdir -p /tmp/tune && tar -xJf {self.args.device_pack} -C /tmp/tune && "
              f"python3 /tmp/tune/device_tune.py --out \"$OUT\"\n"
              f"then here: tools/tune.sh --targets {backend} --device-import <OUT>/tuning_records.jsonl"
              + (f" --work-dir {self.args.work_dir}" if self.args.work_dir else ""), flush=True)
        return 0

    def import_from_device(self):
        """Reads device_tune.py's records of the packed plan into the database; writes the tables and
        reports as a run on that device would have."""
        try:
            with open(self.device_plan_path()) as f:
                manifest = json.load(f)
        except OSError:
            raise UsageError(f"--device-import: no packed plan in {self.device_plan_path()}: pack with "
                             "--device-pack (same --work-dir) first")
        if (manifest["halide"], manifest["generator_hash"], manifest["checker_hash"]) != (
                self.halide_version, self.db.generator_hash, self.db.checker_hash):
            raise UsageError("--device-import: the pack was made from other generator or checking sources (or "
                             "another Halide); pack again and rerun it on the device")
        try:
            with open(self.args.device_import) as f:
                records = [json.loads(line) for line in f if line.strip()]
        except (OSError, json.JSONDecodeError) as e:
            raise UsageError(f"--device-import {self.args.device_import}: {e}")
        known = {(s["kernel"], s["target"], c["candidate"]) for s in manifest["kernels"] for c in s["candidates"]}
        records = [r for r in records if r.get("kind") in ("check", "time")
                   and (r.get("kernel"), r.get("target"), r.get("candidate")) in known]
        devices = sorted({r["cpu"] for r in records})
        if len(devices) != 1:
            raise UsageError(f"--device-import: expected the records of one device, found {devices or 'none'}")
        fields = ("kind", "kernel", "target", "candidate", "cpu", "scope", "node", "group")
        have = {tuple(r.get(k) for k in fields) for r in self.db.records}
        added = 0
        for r in records:
            if tuple(r.get(k) for k in fields) not in have:
                self.db.add(r)
                added += 1
        print(f"imported {added} records ({len(records) - added} already held) measured on {devices[0]}", flush=True)
        platform = copy.copy(self.gpu_platform(manifest["backend"]))
        platform.device = devices[0]
        plan = []
        for step in manifest["kernels"]:
            kernel = self.host.kernels[step["kernel"]]
            target = next(t for t in kernel["targets"] if t["target"] == step["target"])
            plan.append((platform, kernel, target, step["variant"], step["nodes"]))
        return self.write_results(plan)

    def write_results(self, plan):
        """The tables (unless --no-tables) and a report per table, from what the database holds."""
        summaries = self.summarize(plan)
        if self.args.write_tables:
            report.write_tables(self.args.tables_dir, summaries, self.halide_version, self.work)
        for table in sorted({s["table"] for s in summaries}):
            of_table = [s for s in summaries if s["table"] == table]
            cpu = of_table[0]["cpu"]
            if cpu == QEMU_COUNT_CPU:
                cpu = f"{cpu} ({self.emulator_version()} on {self.cpu})"
            path = report.write_report(self.work, table, of_table, cpu, self.halide_version,
                                       " ".join(sys.argv[1:]))
            print(f"report: {path}")
        return 130 if self.interrupted else 0

    def main_runtime(self, nodes):
        arm = [name for name in self.args.targets if name in ARM_TARGETS]
        if arm:
            raise UsageError(f"--runtime --targets {arm[0]}: the run-time knobs pick kernels and split work "
                             "across threads, which guest instruction counts under qemu cannot judge; "
                             f"valid with --runtime: {', '.join(CPU_TARGETS)}")
        gpu = [name for name in self.args.targets if name in GPU_TARGETS]
        if gpu:
            raise UsageError(f"--runtime --targets {gpu[0]}: the run-time knobs are the CPU targets' (which "
                             "kernel a host call takes, how it is split across threads); "
                             f"valid with --runtime: {', '.join(CPU_TARGETS)}")
        print(f"Tuning the run-time knobs on {self.cpu}, Halide {self.halide_version}, over "
              f"{len(nodes)} node(s); results in {self.db.path}", flush=True)
        progress = Progress(0)
        done = []
        try:
            for _, table, variant in self.targets():
                self.tune_runtime(table, variant, nodes, progress)
                done.append(table)
        except KeyboardInterrupt:
            self.interrupted = True
            print("\ninterrupted: every finished step is in the database; rerun the same command to resume",
                  flush=True)
        summaries = [self.summarize_runtime(table) for table in done]
        if self.args.write_tables:
            report.write_tables(self.args.tables_dir, summaries, self.halide_version, self.work)
        for s in summaries:
            path = report.write_report(self.work, s["table"] + "-runtime", [s], self.cpu, self.halide_version,
                                       " ".join(sys.argv[1:]))
            print(f"report: {path}")
        return 130 if self.interrupted else 0

    def summarize(self, plan):
        out = []
        for platform, kernel, target, _, texts in plan:
            cpu = self.cpu_of(platform)
            scores, noise = self.latest_scores(kernel["name"], target["target"], cpu)
            cands = {}
            for gen in self.db.all(kind="generate", kernel=kernel["name"], target=target["target"]):
                chk = self.db.find(kind="check", kernel=kernel["name"], target=target["target"],
                                   candidate=gen["candidate"], cpu=cpu, scope=None)
                on_nodes = self.db.find(kind="check", kernel=kernel["name"], target=target["target"],
                                        candidate=gen["candidate"], cpu=cpu, scope="nodes")
                status = gen["status"] if gen["status"] != "ok" else (chk["status"] if chk else "unchecked")
                if status == "rejected" and on_nodes and on_nodes["status"] == "passed":
                    status = report.NODES_ONLY
                reason = gen["reason"] if gen["status"] != "ok" else (chk["reason"] if chk else "")
                s = scores.get(gen["label"], {})
                if gen["autoscheduler"] and not gen.get("frozen"):
                    reason = reason or f"not frozen ({gen.get('freeze_reason', '')}): cannot be built"
                cands[gen["label"]] = {
                    "knobs": {"frozen_schedule": gen["frozen_stem"]} if gen.get("frozen") else gen["knobs"],
                    "frozen_source": gen.get("frozen_source"), "autoscheduler": gen["autoscheduler"], "status": status,
                    "reason": reason[:300],
                    # An autoscheduled candidate is built from its frozen schedule, when it could be frozen.
                    "buildable": ((not gen["autoscheduler"] or gen.get("frozen", False))
                                  and "test_fault" not in gen["knobs"]),
                    "score": s.get("score"), "worst_ratio": s.get("worst_ratio"), "ratios": s.get("ratios", {}),
                    f"medians_{platform.unit}": s.get("medians", {}), "generation_s": gen["seconds"]}
            # Only candidates that passed every check are eligible; the nodes-only ones are reported.
            timed = {l: scores[l] for l in scores if l in cands and cands[l]["status"] == "passed"}
            buildable = {l for l, c in cands.items() if c["buildable"]}
            winner = winners.pick(timed, noise, buildable) if "hand" in timed else "hand"
            out.append({"kernel": kernel["name"], "table": target["table"], "target": target["target"],
                        "nodes": texts, "noise": noise, "winner": winner, "cpu": cpu, "unit": platform.unit,
                        "knobs": cands.get(winner, {}).get("knobs", {}), "candidates": cands})
        return out


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="tools/tune.sh", formatter_class=argparse.RawDescriptionHelpFormatter, description=__doc__,
        epilog="examples:\n"
               "  tools/tune.sh --ops maxpool --shapes S1 S4           # two suite nodes, every x86 variant here\n"
               "  tools/tune.sh --shapes maxpool:1x32x300x300:k3x3:s2x2  # your own node (bench/README.md grammar)\n"
               "  tools/tune.sh --strategy random --max-candidates 6 --budget-minutes 30\n"
               "A rerun of the same command resumes: what the database holds is not measured again.")
    p.add_argument("--ops", default=",".join(suite.OPS), help=f"comma-separated, of: {', '.join(suite.OPS)}")
    p.add_argument("--types", default="f32", help=f"comma-separated, of: {', '.join(suite.TYPES)}")
    p.add_argument("--ranks", default="2", help="spatial ranks of the suite nodes, comma-separated, of: 1, 2, 3")
    p.add_argument("--targets", default=None,
                   help=f"comma-separated, of: {', '.join(ALL_TARGETS)} (default: every x86 one this CPU runs; "
                        "arm64 needs the arm64 preset's build and is costed in guest instructions under qemu; "
                        "opencl and cuda time the host build's GPU kernels on this machine's device)")
    p.add_argument("--shapes", nargs="+", default=["suite"],
                   help="suite names (" + ", ".join(suite.SUITE) + "), 'suite' for all, or case strings")
    p.add_argument("--kernels", default="", help="only these kernel names (comma-separated)")
    p.add_argument("--strategy", choices=("exhaustive", "random", "greedy"), default=None,
                   help="default: exhaustive for the kernels, greedy for --runtime")
    p.add_argument("--max-candidates", type=int, default=8, help="random strategy: hand-knob candidates per kernel")
    p.add_argument("--knob", action="append", default=[], metavar="NAME=V1,V2",
                   help="search these values of a knob instead of its default list: "
                        + ", ".join(candidate_search.KNOBS))
    p.add_argument("--autoschedulers", default="adams2019,li2018,mullapudi2016,anderson2021",
                   help="comma-separated, of: adams2019, li2018, mullapudi2016, anderson2021 (or 'none'); each "
                        "target takes those of its family (CPU: the first three; GPU: the last three)")
    p.add_argument("--threads", default="1,2", help="thread counts to time at, comma-separated")
    p.add_argument("--rounds", type=int, default=9, help="interleaved timing rounds (samples per candidate and node)")
    p.add_argument("--retime", action="store_true",
                   help="time every candidate that passed its checks again, in a new group, though the database "
                        "has its timings (a noisy run measured again, e.g. with more --rounds); the newest "
                        "group's ratios and noise then decide")
    p.add_argument("--sample-ms", type=float, default=5.0, help="milliseconds of repeated calls per sample")
    p.add_argument("--budget-minutes", type=float, default=0, help="stop starting kernels after this long (0: none)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="candidates generated (and checked) at once")
    p.add_argument("--generate-timeout", type=int, default=900)
    p.add_argument("--check-timeout", type=int, default=900)
    p.add_argument("--time-timeout", type=int, default=1800)
    p.add_argument("--count-calls", type=int, default=2,
                   help="arm64: calls per candidate and node in the instruction count (the count is per call)")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    p.add_argument("--arm-build-dir", default=os.path.join(ROOT, "build-arm64"),
                   help="the arm64 preset's build, for --targets arm64")
    p.add_argument("--work-dir", default=None, help="candidates, database and reports (default: BUILD/tuning)")
    p.add_argument("--db", default=None, help="results database (default: WORK/results.jsonl)")
    p.add_argument("--tables-dir", default=os.path.join(ROOT, "generators", "schedules", "tuned"))
    p.add_argument("--no-tables", dest="write_tables", action="store_false", help="do not write the tuning tables")
    p.add_argument("--runtime", action="store_true",
                   help="tune the run-time knobs (runtime/dispatch/runtime_knobs.h) over the nodes instead of the kernels; "
                        "greedy unless --strategy exhaustive")
    p.add_argument("--device-pack", metavar="FILE",
                   help="one GPU target whose device is on another machine without this toolchain: generate "
                        "every candidate and pack them with the runner into FILE (e.g. "
                        ".device/onnxpool-gpu-tune.tar.xz) for tools/tuning/device_tune.py there")
    p.add_argument("--device-import", metavar="RECORDS",
                   help="the tuning_records.jsonl that device_tune.py wrote: into the database (the --work-dir of "
                        "the pack), then the table and report")
    p.add_argument("--test-fault", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)

    def listed(text, valid, what):
        items = [x.strip() for x in text.split(",") if x.strip()]
        bad = [x for x in items if x not in valid]
        if bad or not items:
            raise UsageError(f"unknown {what} {', '.join(bad) or '(none given)'}; valid: {', '.join(valid)}")
        return items

    a.ops = listed(a.ops, suite.OPS, "operator")
    a.types = listed(a.types, suite.TYPES, "type")
    a.ranks = [int(r) for r in listed(a.ranks, ("1", "2", "3"), "rank")]
    a.targets = listed(a.targets, ALL_TARGETS, "target") if a.targets else None
    a.threads = [int(t) for t in listed(a.threads, [str(i) for i in range(1, 257)], "thread count")]
    a.autoschedulers = ([] if a.autoschedulers == "none" else
                        listed(a.autoschedulers, sorted({x[0] for x in candidate_search.CPU_AUTOSCHEDULERS
                                                         + candidate_search.GPU_AUTOSCHEDULERS}), "autoscheduler"))
    a.kernels = [k for k in a.kernels.split(",") if k]
    if a.strategy is None:
        a.strategy = "greedy" if a.runtime else "exhaustive"
    try:
        a.knob_grid = candidate_search.parse_knob_settings(a.knob)
    except ValueError as e:
        raise UsageError(str(e))
    nodes = []
    # Suite nodes that "suite" brought in and a counted target leaves out (suite.NOT_COUNTED).
    a.uncounted = set()
    for s in a.shapes:
        if s == "suite":
            found = suite.suite_nodes(a.ops, a.types, a.ranks)
            a.uncounted |= {text for name, text in found if name.split(":")[0] in suite.NOT_COUNTED}
            nodes += found
        elif s in suite.SUITE:
            nodes += [n for n in suite.suite_nodes(a.ops, a.types, (1, 2, 3)) if n[0].split(":")[0] == s]
        elif ":" in s:
            nodes.append((s, s))
        else:
            raise UsageError(f"--shapes {s!r}: not a suite name ({', '.join(suite.SUITE)}), 'suite' or a case string")
    if not nodes:
        raise UsageError("no nodes: the chosen --ops, --types and --ranks select no suite case")
    a.nodes = nodes
    if a.device_pack or a.device_import:
        if a.device_pack and a.device_import:
            raise UsageError("--device-pack and --device-import are two steps: one at a time")
        if a.runtime or not a.targets or len(a.targets) != 1 or a.targets[0] not in GPU_TARGETS:
            raise UsageError(f"--device-pack and --device-import take one GPU target: --targets "
                             f"{' or '.join(GPU_TARGETS)}, without --runtime")
    if a.max_candidates < 1 or a.rounds < 3 or a.count_calls < 1:
        raise UsageError("--max-candidates and --count-calls must be at least 1 and --rounds at least 3")
    return a


def main(argv):
    try:
        args = parse_args(argv)
        if args.work_dir is None:
            args.work_dir = os.path.join(args.build_dir, "tuning")
        tuner = Tuner(args)
        if args.targets is None:
            args.targets = [n for n, (_, _, needs) in CPU_TARGETS.items() if set(needs) <= tuner.flags]
        return tuner.main()
    except UsageError as e:
        print(f"tools/tune.sh: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
