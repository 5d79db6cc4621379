#!/usr/bin/env python3
"""Turns onnxpool Google Benchmark JSON into Markdown tables and a bar plot.

Reads one or more files written with --benchmark_out=FILE --benchmark_out_format=json
(build/bench/onnxpool_bench) or in the same format by bench/python_peers.py, and
prints, for every operator and case, each implementation's median time at each thread
count and how it compares with the fastest peer and the bandwidth floor. A PNG bar plot
of every case is written next to the Markdown (report.md -> report.png). Notes that an
input file carries in its context ("notes") are printed under the summary.

It relies only on the benchmark naming scheme of bench/bench_registry.h:

    BM_<op>/<case>/<impl>/threads:<n>[/<anything Google Benchmark appends>]

where <impl> starting with "onnxpool" is ours, "floor_" a bandwidth-floor row (the
floor is the fastest of them), and anything else a peer. An <impl> with "_indices"
in it also computes MaxPool's Indices, and its "/ peer" ratio is to the fastest
peer that does too (onnxpool_indices against onnxruntime_indices_nchw and
torch_indices_*; none of the C++ peers writes ONNX's Indices). New operators,
cases and peers therefore need no change here.

    tools/bench_report.py results.json [more.json ...] [-o report.md] [--plot FILE | --no-plot]
                          [--title TEXT]

The GPU run (tools/gpu_check.sh) merges bench/gpu's onnxpool_gpu_bench and
bench/torch_gpu_peers.py with it the same way: there "1t" is the one host thread
that calls, the fastest peer the fastest torch formulation and layout, and the
floor a device-to-device copy.

The plot needs matplotlib (pip install matplotlib==3.11.2); the tables do not.
"""

import argparse
import collections
import json
import math
import re
import statistics
import sys
from pathlib import Path

NAME_PATTERN = re.compile(
    r"^BM_(?P<op>[^/]+)/(?P<case>[^/]+)/(?P<impl>[A-Za-z0-9_]+)/threads:(?P<threads>\d+)(?:/.*)?$"
)
OURS_PREFIX = "onnxpool"
FLOOR_PREFIX = "floor_"
MICROSECONDS_PER_UNIT = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}

Key = collections.namedtuple("Key", "op case impl threads")


class Measurement:
    """Everything the input files say about one benchmark (one Key)."""

    def __init__(self):
        self.medians_us = []  # one per file that reported a median aggregate
        self.samples_us = []  # single repetitions, used only when no file had a median
        self.cvs = []  # coefficient of variation over repetitions, one per file
        self.bytes_per_run = None
        self.label = ""
        self.error = None

    def median_us(self):
        values = self.medians_us or self.samples_us
        return statistics.median(values) if values else None

    def cv(self):
        """Spread over repetitions (stddev / mean): a high one flags a noisy machine."""
        if self.cvs:
            return max(self.cvs)
        if len(self.samples_us) >= 2:
            return statistics.stdev(self.samples_us) / statistics.mean(self.samples_us)
        return None


def kind_of(impl):
    if impl.startswith(OURS_PREFIX):
        return "ours"
    if impl.startswith(FLOOR_PREFIX):
        return "floor"
    return "peer"


def computes_indices(impl):
    """Whether a row also writes MaxPool's Indices (it is then compared with peers that do)."""
    return "_indices" in impl


def natural_key(text):
    """S2 before S10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def load(paths):
    """Returns ({Key: Measurement}, [context dicts], [names that do not follow the scheme])."""
    measurements = collections.defaultdict(Measurement)
    contexts = []
    unparsed = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        contexts.append((path, document.get("context", {})))
        for row in document.get("benchmarks", []):
            run_name = row.get("run_name", row.get("name", ""))
            match = NAME_PATTERN.match(run_name)
            if not match:
                unparsed.add(run_name)
                continue
            key = Key(match["op"], match["case"], match["impl"], int(match["threads"]))
            measurement = measurements[key]
            if row.get("error_occurred"):
                measurement.error = row.get("error_message", "error")
                continue
            if row.get("label"):
                measurement.label = row["label"]
            if "bytes" in row and row.get("aggregate_name", "median") == "median":
                measurement.bytes_per_run = row["bytes"]
            scale = MICROSECONDS_PER_UNIT[row.get("time_unit", "ns")]
            time_us = row["real_time"] * scale
            if row.get("run_type") == "aggregate":
                if row.get("aggregate_name") == "median":
                    measurement.medians_us.append(time_us)
                elif row.get("aggregate_name") == "cv":
                    measurement.cvs.append(row["real_time"])  # a fraction, whatever time_unit says
            else:
                measurement.samples_us.append(time_us)
    return measurements, contexts, sorted(unparsed)


def group_by_table(measurements):
    """{(op, case, threads): {impl: Measurement}}, in a stable, readable order."""
    ops_in_order = []
    for key in measurements:
        if key.op not in ops_in_order:
            ops_in_order.append(key.op)
    tables = collections.OrderedDict()
    for key in sorted(
        measurements,
        key=lambda k: (ops_in_order.index(k.op), natural_key(k.case), k.threads, k.impl),
    ):
        tables.setdefault((key.op, key.case, key.threads), {})[key.impl] = measurements[key]
    return tables


def best(rows, kind, indices=False):
    """(impl, median_us) of the fastest row of `kind` (a peer: one that computes Indices
    or one that does not, as `indices` says), or (None, None)."""
    timed = [
        (m.median_us(), impl)
        for impl, m in rows.items()
        if kind_of(impl) == kind and m.error is None and m.median_us() is not None
        and (kind != "peer" or computes_indices(impl) == indices)
    ]
    if not timed:
        return None, None
    time_us, impl = min(timed)
    return impl, time_us


def ratio(numerator, denominator):
    if numerator is None or not denominator:
        return "-"
    return f"{numerator / denominator:.2f}"


def format_us(value):
    if value is None:
        return "-"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def thread_label(threads):
    return f"{threads} thread" + ("" if threads == 1 else "s")


def group_by_case(tables):
    """{(op, case): {threads: {impl: Measurement}}}, in the tables' order."""
    cases = collections.OrderedDict()
    for (op, case, threads), rows in tables.items():
        cases.setdefault((op, case), collections.OrderedDict())[threads] = rows
    return cases


def summary_table(tables):
    """One row per operator, case and onnxpool implementation; a column group per thread count."""
    cases = group_by_case(tables)
    thread_counts = sorted({threads for by_threads in cases.values() for threads in by_threads})
    header = "| op | case | onnxpool impl |"
    rule = "|---|---|---|"
    for threads in thread_counts:
        t = f"{threads}t"
        header += f" onnxpool {t} (us) | fastest peer {t} | peer (us) | / peer | / floor |"
        rule += "---:|---|---:|---:|---:|"
    lines = [header, rule]
    for (op, case), by_threads in cases.items():
        ours = sorted({impl for rows in by_threads.values() for impl in rows
                       if kind_of(impl) == "ours"})
        for impl in ours or [None]:
            line = f"| {op} | {case} | {impl or '-'} |"
            for threads in thread_counts:
                rows = by_threads.get(threads, {})
                peer, peer_us = best(rows, "peer", impl is not None and computes_indices(impl))
                _, floor_us = best(rows, "floor")
                m = rows.get(impl)
                if m is not None and m.error is not None:
                    ours_text, ours_us = "error", None
                else:
                    ours_us = m.median_us() if m is not None else None
                    ours_text = format_us(ours_us)
                line += (f" {ours_text} | {peer or '-'} | {format_us(peer_us)} "
                         f"| {ratio(ours_us, peer_us)} | {ratio(ours_us, floor_us)} |")
            lines.append(line)
    return lines


def detail_table(op, case, by_threads):
    """Every implementation of one operator and case, a column per thread count."""
    thread_counts = sorted(by_threads)
    lines = [f"### {op} {case}", ""]
    for threads in thread_counts:
        peer, peer_us = best(by_threads[threads], "peer")
        floor, floor_us = best(by_threads[threads], "floor")
        line = (f"- {thread_label(threads)}: fastest peer {peer or 'none'} "
                f"({format_us(peer_us)} us), bandwidth floor {floor or 'none'} "
                f"({format_us(floor_us)} us)")
        indices_peer, indices_us = best(by_threads[threads], "peer", indices=True)
        if indices_peer:
            line += f"; with Indices, fastest peer {indices_peer} ({format_us(indices_us)} us)"
        lines.append(line)
    lines.append("")
    header = "| implementation |"
    rule = "|---|"
    for threads in thread_counts:
        header += f" {threads}t (us) |"
        rule += "---:|"
    for threads in thread_counts:
        header += f" / peer {threads}t |"
        rule += "---:|"
    for threads in thread_counts:
        header += f" / floor {threads}t |"
        rule += "---:|"
    header += " cv % | GB/s 1t | label |"
    rule += "---:|---:|---|"
    lines += [header, rule]

    impls = {impl for rows in by_threads.values() for impl in rows}
    first = by_threads[thread_counts[0]]
    order = {"ours": 0, "peer": 1, "floor": 2}

    def sort_key(impl):
        m = first.get(impl)
        time_us = m.median_us() if m is not None and m.error is None else None
        return (order[kind_of(impl)], time_us if time_us is not None else math.inf, impl)

    for impl in sorted(impls, key=sort_key):
        name = f"**{impl}**" if kind_of(impl) == "ours" else impl
        times, to_peer, to_floor, cvs = [], [], [], []
        errors = collections.OrderedDict()  # message -> thread counts that hit it
        label, gbps = "", "-"
        for threads in thread_counts:
            rows = by_threads[threads]
            _, peer_us = best(rows, "peer", computes_indices(impl))
            _, floor_us = best(rows, "floor")
            m = rows.get(impl)
            if m is None:
                times.append("-"), to_peer.append("-"), to_floor.append("-")
                continue
            if m.error is not None:
                times.append("error"), to_peer.append("-"), to_floor.append("-")
                errors.setdefault(m.error, []).append(threads)
                continue
            time_us = m.median_us()
            times.append(format_us(time_us))
            to_peer.append(ratio(time_us, peer_us))
            to_floor.append(ratio(time_us, floor_us))
            if m.cv() is not None:
                cvs.append(m.cv())
            label = label or m.label
            if threads == thread_counts[0] and m.bytes_per_run and time_us:
                gbps = f"{m.bytes_per_run / (time_us * 1e3):.1f}"
        cv_text = f"{100 * max(cvs):.1f}" if cvs else "-"
        error_texts = [
            message if len(errors) == 1 and len(counts) == len(thread_counts)
            else f"{', '.join(f'{t}t' for t in counts)}: {message}"
            for message, counts in errors.items()
        ]
        note = "; ".join(([label] if label else []) + error_texts).replace("|", "/")
        lines.append(f"| {name} | " + " | ".join(times + to_peer + to_floor)
                     + f" | {cv_text} | {gbps} | {note} |")
    lines.append("")
    return lines


def context_lines(contexts):
    lines = []
    for path, context in contexts:
        versions = context.get("peer_versions") or {}
        extra = "".join(f", {name} {version}" for name, version in versions.items())
        if context.get("cuda_device"):  # the GPU run's inputs name their device
            extra += f", GPU {context['cuda_device']}"
        # bench/bench_main.cpp records the CPU's model name (the machines differ between runs).
        model = f" ({context['cpu_model']})" if context.get("cpu_model") else ""
        lines.append(
            f"- `{path}` ({context.get('executable', '?')}{extra}): {context.get('date', '?')}, "
            f"host {context.get('host_name', '?')}{model}, {context.get('num_cpus', '?')} CPUs at "
            f"{context.get('mhz_per_cpu', '?')} MHz, load {context.get('load_avg', '?')}"
        )
    return lines


def note_lines(contexts):
    """Notes the inputs carry (bench/python_peers.py: where a peer's semantics differ)."""
    notes = []
    for _, context in contexts:
        for note in context.get("notes") or []:
            if note not in notes:
                notes.append(note)
    if not notes:
        return []
    return ["## Notes", ""] + [f"- {note}" for note in notes] + [""]


def markdown(tables, contexts, unparsed, title="onnxpool benchmark report"):
    lines = [f"# {title}", ""]
    lines += context_lines(contexts)
    lines += [
        "",
        "Times are medians of wall time per run, in microseconds; `Nt` is N threads. Ratios "
        "above 1 mean slower than the fastest peer (`/ peer`; for a row that writes MaxPool's "
        "Indices, the fastest peer that writes them too) or the bandwidth floor "
        "(`/ floor`). GB/s counts the bytes the operator must move (input plus outputs). cv is "
        "the largest spread over repetitions (stddev / mean) among the thread counts; more than "
        "a few percent means the machine was busy and the row should be measured again. "
        "`CallOverhead T0` is the cost of one call on a 1x1x1x1 tensor (onnxpool: MaxPool 1x1; "
        "onnxruntime and TVM: an Identity model; torch: x.clone()): a floor under every row of that "
        "implementation, which matters for the small cases.",
        "",
        "## Summary",
        "",
    ]
    lines += summary_table(tables)
    lines.append("")
    lines += note_lines(contexts)
    lines += ["## Details", ""]
    for (op, case), by_threads in group_by_case(tables).items():
        lines += detail_table(op, case, by_threads)
    if unparsed:
        lines += ["Ignored (name outside the scheme): " + ", ".join(unparsed), ""]
    return "\n".join(lines)


def plot(tables, path):
    """One panel per operator and case, every implementation, a bar per thread count.

    The time axis is logarithmic: the slowest peers are 100x the fastest rows.
    """
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    panels = group_by_case(tables)
    columns = min(2, len(panels))
    rows_of_panels = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(
        rows_of_panels, columns, figsize=(8 * columns, 3.8 * rows_of_panels), squeeze=False
    )
    for axis in axes.flat[len(panels):]:
        axis.set_visible(False)

    for axis, ((op, case), by_threads) in zip(axes.flat, panels.items()):
        impls = sorted(
            {impl for rows in by_threads.values() for impl in rows},
            key=lambda impl: ({"ours": 0, "peer": 1, "floor": 2}[kind_of(impl)], impl),
        )
        thread_counts = sorted(by_threads)
        width = 0.8 / len(thread_counts)
        for slot, threads in enumerate(thread_counts):
            heights = []
            failed = []
            for impl in impls:
                m = by_threads[threads].get(impl)
                ok = m is not None and m.error is None and m.median_us() is not None
                heights.append(m.median_us() if ok else float("nan"))
                failed.append(m is not None and m.error is not None)
            offset = (slot - (len(thread_counts) - 1) / 2) * width
            positions = [i + offset for i in range(len(impls))]
            axis.bar(positions, heights, width, label=thread_label(threads))
            for position, is_failed in zip(positions, failed):
                if is_failed:  # an empty slot must not read as "infinitely fast"
                    axis.text(position, 0.02, "error", rotation=90, ha="center", va="bottom",
                              fontsize=7, color="red", transform=axis.get_xaxis_transform())
        axis.set_yscale("log")
        axis.set_xticks(range(len(impls)))
        axis.set_xticklabels(impls, rotation=40, ha="right", fontsize=7)
        for tick, impl in zip(axis.get_xticklabels(), impls):
            if kind_of(impl) == "ours":
                tick.set_fontweight("bold")
        axis.set_title(f"{op} {case}")
        axis.set_ylabel("median time (us, log)")
        axis.grid(axis="y", which="both", alpha=0.3)
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", help="Google Benchmark JSON files")
    parser.add_argument("-o", "--output", help="write the Markdown here instead of stdout")
    parser.add_argument("--plot", help="PNG path (default: the output path with .png, "
                        "or bench_report.png when printing to stdout)")
    parser.add_argument("--no-plot", action="store_true", help="tables only")
    parser.add_argument("--title", default="onnxpool benchmark report",
                        help="the report's heading (tools/gpu_check.sh names the GPU run's)")
    args = parser.parse_args(argv)

    measurements, contexts, unparsed = load(args.results)
    if not measurements:
        print("bench_report: no benchmark in the inputs follows BM_<op>/<case>/<impl>/threads:<n>",
              file=sys.stderr)
        return 1
    tables = group_by_table(measurements)
    report = markdown(tables, contexts, unparsed, args.title)
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(report + "\n", encoding="utf-8")
    else:
        print(report)

    if args.no_plot:
        return 0
    plot_path = args.plot or (
        str(Path(args.output).with_suffix(".png")) if args.output else "bench_report.png"
    )
    return write_plot(lambda: plot(tables, plot_path), plot_path, "bench_report")


def write_plot(draw, plot_path, tool):
    """Runs draw() (which writes plot_path); 1, saying why, when matplotlib is missing."""
    try:
        draw()
    except ImportError:
        print(f"{tool}: matplotlib is missing, no plot written; install it with "
              "`pip install matplotlib==3.11.2` or pass --no-plot", file=sys.stderr)
        return 1
    print(f"{tool}: plot written to {plot_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
