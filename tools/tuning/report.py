"""What a tuning run leaves behind: the tuning tables the build reads, and a report per target."""

import datetime
import json
import os
import shutil

import candidates
import winners

# An autoscheduled candidate wrong on the tiny nodes but right on the tuning nodes: timed there for
# the report, never eligible to win.
NODES_ONLY = "tuning nodes only"

TABLE_NOTE = ("Written by tools/tune.sh: per kernel, the knobs the build passes to its generator "
              "(cmake/OnnxpoolTuning.cmake) and, per CPU it was measured on, every candidate's result. "
              "Scores are geometric means of median-time ratios to the hand default, timed interleaved in "
              "one process.")
# arm64 is costed, not timed: no ARM hardware runs the tuning.
COUNT_TABLE_NOTE = ("Written by tools/tune.sh: per kernel, the knobs the build passes to its generator "
                    "(cmake/OnnxpoolTuning.cmake) and every candidate's result. Costs are guest instructions "
                    "per call under qemu-aarch64 at one thread (medians_instructions), not times on an ARM "
                    "core; scores are geometric means of their ratios to the hand default's.")


# The tables of GPU backends: timed on a GPU device, with GPU autoschedulers.
GPU_TABLES = ("opencl", "cuda")
GPU_TABLE_NOTE = ("Written by tools/tune.sh: per kernel, the knobs the build passes to its generator "
                  "(cmake/OnnxpoolTuning.cmake) and, per GPU device it was measured on, every candidate's "
                  "result. Scores are geometric means of median-time ratios to the hand default, timed "
                  "interleaved in one process on host tensors (each call's transfers included).")


def autoscheduler_labels(table):
    """The autoschedulers a table's kernels are tried with, as candidate labels."""
    pool = candidates.GPU_AUTOSCHEDULERS if table in GPU_TABLES else candidates.CPU_AUTOSCHEDULERS
    return [label for label, _ in pool]


def medians_key(unit):
    return f"medians_{unit}"


def table_path(tables_dir, table):
    return os.path.join(tables_dir, f"{table}.json")


def load_table(tables_dir, table, unit="us"):
    path = table_path(tables_dir, table)
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    note = COUNT_TABLE_NOTE if unit == "instructions" else GPU_TABLE_NOTE if table in GPU_TABLES else TABLE_NOTE
    return {"format": 1, "table": table, "note": note, "kernels": {}}


def frozen_dir_of(tables_dir):
    """Where the frozen schedules the tables name live: generators/schedules/frozen next to tuned/."""
    return os.path.join(os.path.dirname(os.path.abspath(tables_dir)), "frozen")


def write_tables(tables_dir, summaries, halide_version, work_dir):
    """Merges each summary's results under its CPU into its table (other CPUs' rows stay), re-picks
    each kernel's build winner over every recorded CPU, and copies the frozen schedule of every winner
    that has one (from this run's candidates in `work_dir`) next to the tables."""
    os.makedirs(tables_dir, exist_ok=True)
    today = datetime.date.today().isoformat()
    frozen_sources = {}
    for table in sorted({s["table"] for s in summaries}):
        data = load_table(tables_dir, table, next(s["unit"] for s in summaries if s["table"] == table))
        for s in (s for s in summaries if s["table"] == table):
            if "hand" not in s["candidates"] or s["candidates"]["hand"]["score"] is None:
                continue  # nothing timed for this kernel yet
            if s["kernel"] == "runtime":
                entry = data.setdefault("runtime", {"knobs": {}, "winner": "hand", "by_cpu": {}})
            else:
                entry = data["kernels"].setdefault(s["kernel"], {"knobs": {}, "winner": "hand", "by_cpu": {}})
            for c in s["candidates"].values():
                if c.get("frozen_source"):
                    frozen_sources[c["knobs"]["frozen_schedule"]] = os.path.join(work_dir, c["frozen_source"])
            entry["by_cpu"][s["cpu"]] = {
                "knobs": s["knobs"], "winner": s["winner"], "date": today, "halide": halide_version,
                "noise": round(s["noise"], 4), "nodes": s["nodes"],
                "candidates": {label: _rounded(c) for label, c in sorted(s["candidates"].items())}}
            entry["winner"], entry["knobs"] = winners.pick_over_cpus(entry["by_cpu"])
        for row in list(data["kernels"].values()) + ([data["runtime"]] if "runtime" in data else []):
            for knobs in [row["knobs"]] + [c["knobs"] for c in row["by_cpu"].values()]:
                stem = knobs.get("frozen_schedule")
                if stem in frozen_sources:
                    os.makedirs(frozen_dir_of(tables_dir), exist_ok=True)
                    shutil.copyfile(frozen_sources[stem], os.path.join(frozen_dir_of(tables_dir), stem + ".cpp"))
        path = table_path(tables_dir, table)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
        os.replace(tmp, path)


def _rounded(c):
    out = dict(c)
    out.pop("frozen_source", None)  # a path in the run's work directory
    for key in ("score", "worst_ratio"):
        if out.get(key) is not None:
            out[key] = round(out[key], 4)
    out["ratios"] = {k: round(v, 4) for k, v in out.get("ratios", {}).items()}
    for unit in ("us", "instructions"):
        if medians_key(unit) in out:
            out[medians_key(unit)] = {k: round(v, 2) for k, v in out[medians_key(unit)].items()}
    return out


def _timed(c):
    return c is not None and c["status"] in ("passed", NODES_ONLY)


def _ratio_text(c, key):
    if not _timed(c):
        return "—" if c is None else c["status"]
    r = c["ratios"].get(key)
    mark = "*" if c["status"] == NODES_ONLY else ""
    return f"{r:.2f}{mark}" if r is not None else "—"


def write_report(work_dir, table, summaries, cpu, halide_version, command):
    """A Markdown table (and a PNG plot next to it) of one target's run: per kernel and node, the hand
    default's median, then each candidate family's ratio to it."""
    os.makedirs(work_dir, exist_ok=True)
    md = os.path.join(work_dir, f"report-{table}.md")
    unit = summaries[0]["unit"] if summaries else "us"
    counted = unit == "instructions"
    measure = ("Costs are guest instructions per call under qemu-aarch64 at one thread (deterministic; not "
               "times on an ARM core, which no tuning machine has); ratios are to the hand default "
               "(below 1 is fewer instructions)." if counted else
               "Times are medians of interleaved samples in one process; ratios are to the hand default "
               "(below 1 is faster)." + (" Calls take host tensors, so each time includes the call's "
                                         "transfers to and from the device." if table in GPU_TABLES else ""))
    autoschedulers = autoscheduler_labels(table)
    where = "Cost" if counted else "Device" if table in GPU_TABLES else "CPU"
    lines = [f"# Tuning report: {table}", "",
             f"{where}: {cpu}; Halide {halide_version}; {datetime.date.today().isoformat()}; "
             f"`tools/tune.sh {command}`", "",
             measure + " *best knobs*: the best hand-knob candidate; *winner*: what the build takes "
             "(the hand default unless a buildable candidate beats it by more than the noise). A ratio marked * "
             "is an autoscheduled candidate that computes wrong results on the tiny nodes (its splits assume "
             "inputs at least as large as its estimates) but right ones on the tuning nodes: timed for "
             "comparison, it cannot win.", "",
             f"| kernel | node @ threads | hand ({'M instructions' if counted else 'us'}) | "
             + " | ".join(autoschedulers) + " | best knobs | winner |",
             "|---|---|---|---|---|---|---|---|"]
    plot_rows = []
    for s in summaries:
        cands = s["candidates"]
        hand = cands.get("hand")
        if hand is None or not hand.get(medians_key(unit)):
            lines.append(f"| {s['kernel']} | (not timed) | | | | | | |")
            continue
        knob_labels = [l for l, c in cands.items() if not c["autoscheduler"] and l != "hand" and c["buildable"]
                       and c["status"] == "passed" and c["score"] is not None]
        best_knobs = min(knob_labels, key=lambda l: cands[l]["score"]) if knob_labels else None
        hand_medians = hand[medians_key(unit)]
        for key in sorted(hand_medians):
            row = [s["kernel"], key.replace("|", "/"),
                   f"{hand_medians[key] / 1e6:.3f}" if counted else f"{hand_medians[key]:.1f}"]
            row += [_ratio_text(cands.get(a), key) for a in autoschedulers]
            row.append(f"{_ratio_text(cands[best_knobs], key)} ({best_knobs})" if best_knobs else "—")
            row.append(f"{_ratio_text(cands.get(s['winner']), key)} ({s['winner']})")
            lines.append("| " + " | ".join(row) + " |")
            plot_rows.append((f"{s['kernel'].replace('onnxpool_', '')}\n{key.split(':')[0]}@{key.split('@')[-1]}",
                              {a: cands[a]["ratios"].get(key) for a in autoschedulers if _timed(cands.get(a))},
                              cands[best_knobs]["ratios"].get(key) if best_knobs else None))
    rejected = [(s["kernel"], l, c) for s in summaries for l, c in s["candidates"].items()
                if c["status"] not in ("passed",)]
    if rejected:
        lines += ["", "Candidates that did not pass every check (they can never win):", ""]
        lines += [f"- {k} {l}: {c['status']}: {c['reason'][:200]}" for k, l, c in rejected]
    lines.append("")
    with open(md, "w") as f:
        f.write("\n".join(lines))
    _plot(os.path.join(work_dir, f"report-{table}.png"), table, cpu, plot_rows,
          "guest instructions / hand default" if counted else "time / hand default", autoschedulers)
    return md


def _plot(path, table, cpu, rows, ylabel, autoschedulers):
    if not rows:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    series = list(autoschedulers) + ["best knobs"]
    # Slanted labels under each group, so the kernel names of neighbours do not run into each other.
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(rows)), 6))
    width = 0.2
    for i, name in enumerate(series):
        values = [(r[2] if name == "best knobs" else r[1].get(name)) for r in rows]
        xs = [j + (i - 1.5) * width for j, v in enumerate(values) if v is not None]
        ax.bar(xs, [v for v in values if v is not None], width, label=name)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r[0] for r in rows], fontsize=7, rotation=50, ha="right", rotation_mode="anchor")
    ax.set_ylabel(ylabel)
    ax.set_yscale("log")
    ax.set_title(f"{table} on {cpu}", fontsize=8)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
