"""Apache TVM as a benchmark peer: the tuned compiler onnxpool's tuning is measured against.

The same one-node ONNX model as onnxruntime's (python_peers.one_node_model) goes through TVM's Relax
ONNX frontend and is compiled for this CPU (LLVM, -mcpu = the host's), twice:

    tvm_default_nchw       tvm.compile with TVM's default schedules
    tvm_metaschedule_nchw  tuned by MetaSchedule for a time budget per case (--tvm-budget-s,
                           default 90 s: what tools/tune.sh spends on one kernel over the three
                           x86 targets, about 30 s each), then compiled from the tuning records

Tuning records are kept per CPU, TVM version and case under build/tvm-tuning/, so a rerun compiles
from them without tuning again, and an interrupted tuning resumes from the records it left (each
round of trials appends to them). The schedules are tuned once per case for the largest thread
count and run at each count through TVM's thread pool (runtime.config_threadpool).

Requirements (benchmark-only, tools/requirements-tvm.txt, installed by tools/main.sh): apache-tvm
0.27.0 with apache-tvm-ffi 0.1.14.post0 (0.1.15.post2 segfaults in ToJSONGraph at every MetaSchedule
TuneContext), and for the search psutil, cloudpickle, xgboost and scipy.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TRIALS_PER_ROUND = 8
# LocalBuilder's default, 30 s, kills every build while another job shares
# the two cores (each build starts a process that imports TVM).
BUILD_TIMEOUT_S = 180
# TVM's thread pool, unpinned: every worker may run on every CPU, as
# onnxpool's and onnxruntime's workers do.
SHARE_ALL_CORES = -3


def cpu_slug() -> str:
    """The CPU as a directory name: its model name, family and model (a VM's model name alone, e.g.
    "AMD EPYC", does not tell Zen 3 from Zen 4), so records tuned on one CPU are not reused on
    another."""
    fields = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("model name", "cpu family", "model") and key not in fields:
                fields[key] = value.strip()
    except OSError:
        pass
    text = " ".join(fields.get(k, "") for k in ("model name", "cpu family", "model")) or "cpu"
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


class TvmError(Exception):
    """What python_peers turns into an error row."""


class TuningOutput(io.TextIOBase):
    """sys.stdout during MetaSchedule's rounds, each round's output going to its tuning.log. TVM
    binds its console log handler to the sys.stdout of the round that configures it and keeps it
    until the next round does; bound to that round's file, closed by then, it turned records logged
    in between (the next round's LocalBuilder and LocalRunner) into "Logging error" tracebacks."""

    def __init__(self):
        super().__init__()
        self._file = None

    def write(self, text: str) -> int:
        if self._file is not None:  # between rounds: nowhere (TVM's own logs/ files keep it)
            self._file.write(text)
        return len(text)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    @contextlib.contextmanager
    def round(self, path: Path):
        """sys.stdout, and so TVM's console handler, writes to `path` for the duration."""
        with open(path, "a") as file, contextlib.redirect_stdout(self):
            self._file = file
            try:
                yield
            finally:
                self._file = None


# One for the process: TVM's logging configuration is global.
TUNING_OUTPUT = TuningOutput()


class TvmCompiler:
    """Compiles and runs one-node models; python_peers.TvmPeer wraps it as a peer."""

    def __init__(self, budget_s: float = 90.0, work_root: Path | None = None, max_threads: int = 2,
                 log=None):
        import tvm  # noqa: F401  (fails early with a clear message)
        from tvm import relax  # noqa: F401
        from tvm.relax.frontend.onnx import from_onnx  # noqa: F401

        self.tvm = tvm
        self.version = tvm.__version__
        self.budget_s = budget_s
        self.max_threads = max_threads
        self.mcpu = tvm.target.codegen.llvm_get_system_cpu()
        self.work_root = (work_root or ROOT / "build" / "tvm-tuning") / cpu_slug() / f"tvm-{self.version}"
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self._config_threadpool = tvm.get_global_func("runtime.config_threadpool")
        self._num_threads = tvm.get_global_func("runtime.NumThreads")
        self._executables = {}  # (impl, key) -> (executable, label)

    def target(self):
        return self.tvm.target.Target({"kind": "llvm", "mcpu": self.mcpu, "num-cores": self.max_threads})

    def relax_module(self, model_bytes: bytes):
        import onnx
        from tvm.relax.frontend.onnx import from_onnx

        return from_onnx(onnx.load_from_string(model_bytes), keep_params_in_input=False)

    def tuned_executable(self, mod, key: str):
        """MetaSchedule: tune `mod` (unless the records of `key` say it is done), then compile it
        from the best records."""
        import tvm
        from tvm import relax
        from tvm.s_tir import meta_schedule as ms

        target = self.target()
        work_dir = self.work_root / key
        work_dir.mkdir(parents=True, exist_ok=True)
        stamp = work_dir / "tuned.json"
        done = json.loads(stamp.read_text()) if stamp.exists() else {}
        spent = float(done.get("seconds", 0.0))
        # MetaSchedule tunes the TIR of fused primitive functions: Relax's
        # operators must be lowered to TIR first, or it finds no task.
        lowered = tvm.ir.transform.Sequential([
            relax.transform.LegalizeOps(), relax.transform.AnnotateTIROpPattern(),
            relax.transform.FuseOps(), relax.transform.FuseTIR()])(mod)
        rounds = int(done.get("rounds", 0))
        # Records tuned for a smaller budget are tuned on up to this one.
        finished = done.get("finished") and done.get("budget_s", 0) >= self.budget_s
        while not finished and spent < self.budget_s:
            start = time.monotonic()
            # Each round appends to the JSON records, which the next round's
            # evolutionary search starts from: a time budget out of trial counts.
            # MetaSchedule logs every trial to stdout; those lines go to a file next to its records.
            with TUNING_OUTPUT.round(work_dir / "tuning.log"):
                ms.relax_integration.tune_relax(
                    lowered, None, target, str(work_dir), max_trials_global=TRIALS_PER_ROUND,
                    num_trials_per_iter=TRIALS_PER_ROUND, seed=rounds,
                    builder=ms.builder.LocalBuilder(timeout_sec=BUILD_TIMEOUT_S),
                    runner=ms.runner.LocalRunner(timeout_sec=BUILD_TIMEOUT_S))
            spent += time.monotonic() - start
            rounds += 1
            stamp.write_text(json.dumps({"seconds": spent, "rounds": rounds}) + "\n")
            self.log(f"tvm: {key}: MetaSchedule round {rounds}, {spent:.0f} of {self.budget_s:.0f} s")
        if not finished:
            stamp.write_text(json.dumps({"seconds": spent, "rounds": rounds, "finished": True,
                                         "budget_s": self.budget_s, "target": str(target)}) + "\n")
        database = ms.database.JSONDatabase(work_dir=str(work_dir))
        measured = [r for r in database.get_all_tuning_records() if r.run_secs]
        if not measured:
            raise TvmError(f"tvm: MetaSchedule built and ran none of its {rounds * TRIALS_PER_ROUND} "
                           f"trials (see {work_dir}/logs)")
        return ms.relax_integration.compile_relax(database, lowered, target, None), len(measured)

    def executable(self, impl: str, model_bytes: bytes, key: str):
        """(executable, label) of `impl` on the model, compiled once for every thread count (the
        schedules are made for max_threads; the thread pool is set per run)."""
        cached = self._executables.get((impl, key))
        if cached is not None:
            return cached
        mod = self.relax_module(model_bytes)
        if impl == "tvm_default_nchw":
            executable = self.tvm.compile(mod, target=self.target())
            label = f"tvm {self.version}, default schedules, llvm -mcpu={self.mcpu}"
        elif impl == "tvm_metaschedule_nchw":
            executable, trials = self.tuned_executable(mod, key)
            label = (f"tvm {self.version}, MetaSchedule {trials} measured trials "
                     f"(budget {self.budget_s:.0f} s), llvm -mcpu={self.mcpu}")
        else:
            raise TvmError(f"tvm: no implementation {impl}")
        self._executables[(impl, key)] = (executable, label)
        return executable, label

    def prepare(self, impl: str, model_bytes: bytes, key: str, threads: int, x: np.ndarray):
        """(call, output, label) of `impl` on the model, `key` naming its tuning records."""
        tvm = self.tvm
        from tvm import relax

        if threads > self.max_threads:
            raise TvmError(f"tvm: schedules are compiled for at most {self.max_threads} threads")
        executable, label = self.executable(impl, model_bytes, key)
        self._config_threadpool(SHARE_ALL_CORES, threads, [str(c) for c in range(os.cpu_count() or 1)])
        if self._num_threads() != threads:
            raise TvmError(f"tvm: its thread pool runs {self._num_threads()} threads, not {threads}")
        device = tvm.cpu()
        vm = relax.VirtualMachine(executable, device)
        main = vm["main"]
        tensor = tvm.runtime.tensor(np.ascontiguousarray(x), device)
        result = {}

        def call():
            result["y"] = main(tensor)

        return call, lambda: result["y"].numpy(), f"{label}, {threads} thread{'s' if threads != 1 else ''}"
