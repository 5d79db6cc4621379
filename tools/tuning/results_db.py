"""The tuning results database: one JSON object per line, appended as each step finishes, so an
interrupted run keeps everything it measured and a rerun skips it.

Every record carries what makes it valid: the kernel, the Halide target, the candidate, the CPU it
ran on (for checks and timings), the Halide version, a hash of the generator sources and one of the
checking sources (runner, runtime, the tests' reference). A record whose Halide version or generator
hash differs from the current ones is ignored, not reused, and so is a check or time record whose
checking hash differs."""

# Records that the checking code produced: a change to it invalidates them.
CHECKED_KINDS = ("check", "time")

import json
import os
import threading


class ResultsDb:
    def __init__(self, path, halide_version, generator_hash, checker_hash):
        self.path = path
        self.halide_version = halide_version
        self.generator_hash = generator_hash
        self.checker_hash = checker_hash
        self.records = []
        self.stale = 0
        # Candidates are generated and checked from several threads at once.
        self.lock = threading.Lock()
        if os.path.exists(path):
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError:
                        # A line cut short by a kill: everything before it stands.
                        continue
                    if (record.get("halide") != halide_version or record.get("generator_hash") != generator_hash
                            or (record.get("kind") in CHECKED_KINDS and record.get("checker_hash") != checker_hash)):
                        self.stale += 1
                        continue
                    self.records.append(record)

    def add(self, record):
        record = dict(record, halide=self.halide_version, generator_hash=self.generator_hash)
        if record.get("kind") in CHECKED_KINDS:
            record["checker_hash"] = self.checker_hash
        with self.lock:
            self._append(record)
        return record

    def _append(self, record):
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        with open(self.path, "a+b") as f:
            # A line a kill cut short gets its own line ended first.
            if f.tell() > 0:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    f.write(b"\n")
            f.write((json.dumps(record, sort_keys=True) + "\n").encode())
            f.flush()
            os.fsync(f.fileno())
        self.records.append(record)

    def find(self, **match):
        """The last record whose fields equal `match`."""
        for record in reversed(self.records):
            if all(record.get(k) == v for k, v in match.items()):
                return record
        return None

    def all(self, **match):
        return [r for r in self.records if all(r.get(k) == v for k, v in match.items())]
