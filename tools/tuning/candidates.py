"""The candidates of one kernel: the hand schedule with its knobs (generators/schedules/schedule_knobs.h)
and Halide's autoschedulers run on the same pipeline."""

import itertools
import random

# Autoschedulers per target family: (label, Halide name); the build's
# tuning_env.json says where each plugin is.
CPU_AUTOSCHEDULERS = (("adams2019", "Adams2019"), ("li2018", "Li2018"), ("mullapudi2016", "Mullapudi2016"))
GPU_AUTOSCHEDULERS = (("anderson2021", "Anderson2021"), ("li2018", "Li2018"), ("mullapudi2016", "Mullapudi2016"))
# The schedule a schedule must expose, not a thread count (Halide's
# autoscheduler.parallelism): room for machines wider than the tuning one.
AUTOSCHEDULER_PARALLELISM = 8
# On a GPU, the streaming multiprocessors (or compute units) to fill: 132 on an
# H100 SXM, 108 on an A100.
GPU_AUTOSCHEDULER_PARALLELISM = 128


def autoscheduler_params(halide_name, gpu):
    """The autoscheduler.* generator parameters of an autoscheduled candidate."""
    params = {"parallelism": GPU_AUTOSCHEDULER_PARALLELISM if gpu else AUTOSCHEDULER_PARALLELISM}
    if gpu and halide_name == "Mullapudi2016":
        params["experimental_gpu_schedule"] = 1  # its CPU schedule otherwise, with no GPU loops
    return params

# Every knob a generator takes, with the values the search tries; the first
# is the hand default. (The GPU ones are searched only for GPU targets.)
KNOBS = {
    "vector_multiple": (0, 2, 4),
    "unroll_stem": (-1, 0, 1),
    "global_partials": (0, 4, 8, 32),
    "unroll_small_planes": ("true", "false"),
    "gpu_tile_x": (0, 16, 64),
    "gpu_tile_y": (0, 4, 16),
    "gpu_global_threads": (0, 32, 128),
    "test_fault": ("false", "true"),
}


# The run-time knobs (runtime/dispatch/runtime_knobs.h) and the values the search
# tries; the first is the hand default. They change which of the library's
# kernels a call takes and how it is split across threads, so they are
# tuned over every node at once, not per kernel.
RUNTIME_KNOBS = {
    "min_outputs_per_task": (16384, 4096, 65536),
    "min_inputs_per_task": (16384, 4096, 65536),
    "tasks_per_thread": (4, 1, 8),
    # 0: the target's hand default (16 rows on AVX-512, no cap elsewhere).
    "max_rows_per_task": (0, 8, 16, 32, 4096),
    "flat_plane_width_limit": (64, 32, 128),
    "max_flat_plane_area": (65536, 262144),
    "long_plane_size": (64, 128, 1024),
}


def runtime_points(strategy):
    """Run-time knob settings (dicts without the defaults): one knob at a time for greedy (the default
    for these), the whole grid for exhaustive."""
    if strategy == "exhaustive":
        axes = [[(n, v) for v in vs] for n, vs in RUNTIME_KNOBS.items()]
        points = [{n: v for n, v in combo if v != RUNTIME_KNOBS[n][0]} for combo in itertools.product(*axes)]
    else:
        points = [{}] + [{n: v} for n, vs in RUNTIME_KNOBS.items() for v in vs[1:]]
    return points


def runtime_spec(knobs):
    """The runner's runtime:name=value,... for a setting."""
    return "runtime:" + ",".join(f"{k}={v}" for k, v in sorted(knobs.items()))


# Knob values searched instead of KNOBS' for one family: the long-plane kernels fix
# global_partials=32 in their own parameters (generators/kernel_matrix.cmake), so the search
# tries either side of it, not the other global kernels' small counts.
FAMILY_KNOB_VALUES = {"long_planes": {"global_partials": (16, 64)}}


# Knob values that give the same code as the default (0 / -1) on an
# architecture (x86_tiling.cpp, arm_tiling.cpp): not generated twice.
SAME_AS_DEFAULT = {
    "x86": {"unroll_stem": 1, "vector_multiple": 1},
    "arm": {"unroll_stem": 0},
}


def arch_of(halide_target):
    return "arm" if halide_target.startswith("arm") else "x86"


def kernel_family(kernel):
    """separable, flat_plane, halving, long_planes or global, from the kernel manifest's entry."""
    params = set(kernel["params"])
    if kernel["variant"] == "kLongPlanes":
        return "long_planes"
    if kernel["rank"] == 0:
        return "global"
    if "flat_plane=true" in params:
        return "flat_plane"
    if "halving=true" in params:
        return "halving"
    return "separable"


def searched_knobs(kernel, gpu):
    """The knobs that change this kernel's code on this target family."""
    family = kernel_family(kernel)
    if gpu:
        return ["gpu_global_threads"] if family in ("global", "long_planes") else ["gpu_tile_x", "gpu_tile_y"]
    if family == "long_planes":
        return ["global_partials"]
    if family == "global":
        return ["global_partials", "unroll_small_planes"]
    knobs = ["vector_multiple"]
    # The stem's unrolled copy exists only in 2D MaxPool (no Indices) and AveragePool.
    if (family == "separable" and kernel["rank"] == 2 and kernel["generator"] in ("onnxpool_maxpool", "onnxpool_averagepool")
            and "with_indices=true" not in kernel["params"]):
        knobs.append("unroll_stem")
    return knobs


def label_of(knobs, autoscheduler=None):
    if autoscheduler:
        return autoscheduler
    if not knobs:
        return "hand"
    return ",".join(f"{k}={v}" for k, v in sorted(knobs.items()))


def candidate(knobs, autoscheduler=None, halide_name=None):
    return {"label": label_of(knobs, autoscheduler), "knobs": dict(knobs), "autoscheduler": halide_name}


def parse_knob_settings(texts):
    """--knob NAME=V1,V2 overrides of the searched values; errors list the valid knobs."""
    grid = {}
    for text in texts:
        name, _, values = text.partition("=")
        if name not in KNOBS or not values:
            raise ValueError(f"--knob {text!r}: expected NAME=V1[,V2...] with NAME one of: {', '.join(KNOBS)}")
        grid[name] = tuple(v.strip() for v in values.split(","))
    return grid


def grid_points(kernel, gpu, overrides, arch="x86"):
    """Every knob setting of the searched knobs (dicts without the defaults)."""
    names = searched_knobs(kernel, gpu)
    for name in overrides:
        if name not in names and name != "test_fault":
            names.append(name)
    axes = []
    family_values = FAMILY_KNOB_VALUES.get(kernel_family(kernel), {})
    for name in names:
        values = overrides.get(name, family_values.get(name, KNOBS[name]))
        axes.append([(name, v) for v in values])
    points = []
    same = SAME_AS_DEFAULT.get(arch, {})
    for combo in itertools.product(*axes):
        knobs = {n: v for n, v in combo if str(v) != str(KNOBS[n][0]) and str(v) != str(same.get(n))}
        if knobs not in points:
            points.append(knobs)
    if {} not in points:
        points.insert(0, {})
    points.sort(key=lambda k: (len(k), label_of(k)))
    return points


def one_knob_points(kernel, gpu, overrides, arch="x86"):
    """The greedy search's first pass: the hand default and each knob moved alone."""
    return [p for p in grid_points(kernel, gpu, overrides, arch) if len(p) <= 1]


def combined_best(measured):
    """The greedy search's second step: each knob at the value that did best when moved alone.
    measured: {label: (knobs, score)} of one-knob candidates (score: geomean ratio to hand)."""
    best = {}
    for knobs, score in measured.values():
        if len(knobs) != 1:
            continue
        (name, value), = knobs.items()
        if score < 1.0 and (name not in best or score < best[name][1]):
            best[name] = (value, score)
    return {name: value for name, (value, _) in best.items()}


def choose(kernel, gpu, strategy, max_candidates, seed, overrides, autoschedulers, arch="x86"):
    """The first set of candidates a kernel's search generates."""
    if strategy == "greedy":
        points = one_knob_points(kernel, gpu, overrides, arch)
    else:
        points = grid_points(kernel, gpu, overrides, arch)
        if strategy == "random" and len(points) > max_candidates:
            rng = random.Random(seed)
            rest = [p for p in points if p]
            points = [{}] + rng.sample(rest, max_candidates - 1)
    found = [candidate(p) for p in points]
    pool = GPU_AUTOSCHEDULERS if gpu else CPU_AUTOSCHEDULERS
    for label, halide_name in pool:
        if label in autoschedulers:
            found.append(candidate({}, label, halide_name))
    return found
