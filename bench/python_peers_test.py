#!/usr/bin/env python3
"""bench/python_peers.py's Indices reference against a plain loop over every window: ONNX's Indices
are the first maximum in scan order, counted over the whole NCHW tensor, and a pad never wins.
Inputs with many ties (values from a few levels) and windows that hang over every edge. And
bench/tvm_peer.py's capture of MetaSchedule's console log, round after round."""

import itertools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import python_peers  # noqa: E402

failures = []


def loop_indices(case, x):
    n, c, h, w = x.shape
    oh, ow = case.out_hw
    t, l, _, _ = case.pads
    out = np.empty((n, c, oh, ow), dtype=np.int64)
    for b, ch, oy, ox in itertools.product(range(n), range(c), range(oh), range(ow)):
        best, where = None, None
        for ky, kx in itertools.product(range(case.kernel[0]), range(case.kernel[1])):
            y, xx = oy * case.stride[0] - t + ky, ox * case.stride[1] - l + kx
            if 0 <= y < h and 0 <= xx < w and (best is None or x[b, ch, y, xx] > best):
                best, where = x[b, ch, y, xx], ((b * c + ch) * h + y) * w + xx
        out[b, ch, oy, ox] = where
    return out


cases = [
    python_peers.Case("k3s2p1", 2, 3, 9, 8, (3, 3), (2, 2), (1, 1, 1, 1)),
    python_peers.Case("k2s2", 1, 2, 6, 6, (2, 2), (2, 2), (0, 0, 0, 0)),
    python_peers.Case("k3s1p1", 1, 2, 5, 7, (3, 3), (1, 1), (1, 1, 1, 1)),
    python_peers.Case("k2x3s1x2p0x1", 1, 1, 5, 9, (2, 3), (1, 2), (0, 1, 0, 1)),
]
rng = np.random.default_rng(7)
for case in cases:
    for levels in (3, 1000):  # few levels: ties in most windows
        x = rng.integers(0, levels, size=case.input_shape).astype(np.float32) - levels / 2
        got = python_peers.reference_indices(case, x)
        want = loop_indices(case, x)
        if got.shape != want.shape or not np.array_equal(got, want):
            bad = np.flatnonzero(got != want)
            failures.append(f"{case.id}, {levels} levels: first difference at {bad[:1]}: "
                            f"{got.flat[bad[0]] if bad.size else got.shape} against "
                            f"{want.flat[bad[0]] if bad.size else want.shape}")

# A mismatch is reported, not passed over.
case = cases[0]
x = rng.standard_normal(case.input_shape).astype(np.float32)
want = python_peers.reference_indices(case, x)
wrong = want.copy()
wrong.flat[5] += 1
if python_peers.indices_mismatch(want, want) is not None or python_peers.indices_mismatch(wrong, want) is None:
    failures.append("indices_mismatch: equal Indices must pass and a changed one must fail")

# tvm_peer's MetaSchedule rounds (no TVM needed): a console handler configured during a round the
# way TVM configures its own (dictConfig, ext://sys.stdout) must neither write to a closed file
# afterwards nor lose the next round's records logged before that round configures it again.
import logging  # noqa: E402
import logging.config  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import tvm_peer  # noqa: E402

logging_errors = []
original_handle_error = logging.Handler.handleError
logging.Handler.handleError = lambda handler, record: logging_errors.append(record.getMessage())
try:
    logger = logging.getLogger("python_peers_test.tuning")
    with tempfile.TemporaryDirectory() as folder:
        rounds = [Path(folder) / "round1.log", Path(folder) / "round2.log"]
        with tvm_peer.TUNING_OUTPUT.round(rounds[0]):
            logging.config.dictConfig({"version": 1, "disable_existing_loggers": False, "handlers": {
                "console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout"}},
                "loggers": {logger.name: {"level": "INFO", "handlers": ["console"], "propagate": False}}})
            logger.info("in round 1")
        logger.info("between rounds")
        with tvm_peer.TUNING_OUTPUT.round(rounds[1]):
            logger.info("in round 2, before it configures")
        logged = [path.read_text() for path in rounds]
    if logging_errors or logged != ["in round 1\n", "in round 2, before it configures\n"]:
        failures.append(f"tvm_peer.TUNING_OUTPUT: logging errors {logging_errors}, rounds' logs {logged}")
    if sys.stdout is not sys.__stdout__:
        failures.append("tvm_peer.TUNING_OUTPUT: sys.stdout not restored after a round")
finally:
    logging.Handler.handleError = original_handle_error
    logging.getLogger("python_peers_test.tuning").handlers.clear()

if failures:
    print("python_peers_test: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
print("python_peers_test: all checks passed")
