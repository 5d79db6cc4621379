"""Freezes an autoscheduler's schedule of one kernel into source the build compiles.

Input: the `<function>.schedule.h` that a generator run with `autoscheduler=...` and `-e schedule`
writes. Output: generators/schedules/frozen/<name>.cpp, the source of an autoscheduler plugin
(generators/schedules/frozen_schedule.h) that applies those directives instead of searching; the
generator loads it as it loads Adams2019 (`-p <plugin> autoscheduler=OnnxpoolFrozen`). Two changes
to what the autoscheduler wrote, both for correctness on every input:

- Every split's tail becomes GuardWithIf. The autoschedulers pick ShiftInwards and RoundUp, which
  are right only for extents at least as large as the split factor (halide/Halide#5070): on a
  smaller input a ShiftInwards loop starts before the buffer, a RoundUp one runs past it.
  GuardWithIf computes exactly the points asked for at any size.
- Each Func is looked up with frozen_func, which checks that the pipeline's Func at that index
  still has the name it had when frozen, so a changed algorithm fails the build instead of
  scheduling the wrong Func.

Li2018's `-e schedule` output is a listing, not C++ (its Funcs and Vars are never declared), so
only Adams2019's and Mullapudi2016's schedules can be frozen. Mullapudi2016's GPU schedules (Halide
21) come out nearly C++: the Vars its splits introduce are not declared, and a `.gpu(...)` after a
split lacks its dot. Both are mended (a schedule that compiled as written is left as it is).
"""

import hashlib
import re

FROZEN_DIR = "generators/schedules/frozen"
PLUGIN_SCHEDULER = "OnnxpoolFrozen"  # frozen_schedule.h's kFrozenScheduler
# Part of every autoscheduled candidate's id: a change to what freezing does makes them new candidates.
FREEZE_VERSION = "freeze-1"
UNSAFE_TAILS = ("ShiftInwardsAndBlend", "RoundUpAndBlend", "ShiftInwards", "RoundUp")
# Directives that split a loop, and how many arguments they take before the optional tail; without
# one Halide picks TailStrategy::Auto, which is ShiftInwards on an output.
SPLITTING = {"split": (4,), "vectorize": (2,), "unroll": (2,), "parallel": (2,), "tile": (6, 8)}


class FreezeError(Exception):
    pass


def frozen_source(schedule_header, autoscheduler, kernel, table, target, provenance):
    """(file stem, source) of the frozen schedule. The stem names the kernel, its table, the
    autoscheduler and a hash of the frozen directives, e.g.
    onnxpool_averagepool_float32_2d-x86-64-avx512-adams2019-1a2b3c4d, so two different schedules of a
    kernel (from two CPUs' runs, or two Halide versions) never share a file."""
    body, changed = safe_directives(schedule_header, autoscheduler)
    stem = f"{kernel}-{table}-{autoscheduler.lower()}-{hashlib.sha256(body.encode()).hexdigest()[:8]}"
    lines = [
        f"// {kernel} for {target}:",
        f"// the schedule {autoscheduler} planned, frozen by tools/tune.sh ({provenance}).",
        f"// Every split's tail is GuardWithIf ({changed} changed from tails that break on inputs",
        "// smaller than their split factors; tools/tuning/freeze.py says why).",
        "// Regenerate with tools/tune.sh rather than editing by hand.",
        '#include "frozen_schedule.h"',
        "",
        f'ONNXPOOL_FROZEN_SCHEDULE("{FROZEN_DIR}/{stem}.cpp") {{',
        body,
        "}",
        "",
    ]
    return stem, "\n".join(lines)


def schedule_body(text):
    """The statements of apply_schedule_<name>(pipeline, target) { ... }."""
    match = re.search(r"inline void apply_schedule_\w+\(\s*::Halide::Pipeline pipeline,\s*::Halide::Target target\s*\)"
                      r"\s*\{\n(?P<body>.*)\n\}\s*\n\s*#endif", text, re.S)
    if not match:
        raise FreezeError("not a Halide `-e schedule` header (no apply_schedule_<name>(pipeline, target))")
    return match.group("body")


def safe_directives(schedule_header, autoscheduler):
    """(the directives of a `.schedule.h` made safe, how many tails were changed)."""
    if autoscheduler.lower() == "li2018":
        raise FreezeError("Li2018's -e schedule output declares none of its Funcs and Vars; it cannot be compiled")
    body = schedule_body(schedule_header)
    body, funcs = re.subn(r"Func (\w+) = pipeline\.get_func\((\d+)\);",
                          lambda m: f'Func {m.group(1)} = onnxpool::gen::frozen_func(pipeline, {m.group(2)}, '
                                    f'"{m.group(1)}");', body)
    if funcs == 0:
        raise FreezeError("the schedule names no Func of the pipeline")
    body, changed = re.subn(r"\b(?:TailStrategy::)?(" + "|".join(UNSAFE_TAILS) + r")\b", "TailStrategy::GuardWithIf",
                            body)

    def explicit_tail(m):
        nonlocal changed
        args = [a.strip() for a in m.group(2).split(",")] if m.group(2).strip() else []
        if len(args) not in SPLITTING[m.group(1)]:
            return m.group(0)
        changed += 1
        return f".{m.group(1)}({', '.join(args + ['TailStrategy::GuardWithIf'])})"

    # Argument lists with no parentheses inside (the directives' Vars and factors).
    body = re.sub(r"\.(" + "|".join(SPLITTING) + r")\(([^()]*)\)", explicit_tail, body)
    return declare_missing_vars(re.sub(r"\)(gpu\w*\()", r").\1", body)).rstrip(), changed


# Directives whose arguments name loop Vars.
LOOP_DIRECTIVES = tuple(SPLITTING) + ("fuse", "reorder", "gpu", "gpu_blocks", "gpu_threads", "gpu_tile")


def declare_missing_vars(body):
    """`body` with a `Var name("name");` for each Var a directive uses that the body never declares."""
    declared = set(re.findall(r"\b(?:Var|RVar|Func)\s+(\w+)\b", body))
    used = []
    for m in re.finditer(r"\.(?:" + "|".join(LOOP_DIRECTIVES) + r")\(([^()]*)\)", body):
        for arg in (a.strip() for a in m.group(1).split(",")):
            if re.fullmatch(r"[A-Za-z_]\w*", arg) and arg not in declared and arg not in used:
                used.append(arg)
    if not used:
        return body
    declarations = "".join(f'\n    Var {name}("{name}");' for name in sorted(used))
    anchor = "using ::Halide::Var;"
    if anchor not in body:
        raise FreezeError("the schedule uses undeclared Vars and has no `using ::Halide::Var;` to declare them after")
    return body.replace(anchor, anchor + declarations, 1)
