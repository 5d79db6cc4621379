#!/usr/bin/env python3
"""Reports a census run: onnxpool against its peers on the pooling nodes of real networks.

Reads a census file (bench/models/torchvision.txt: `CASE  # model:calls,...` per node, written
by tools/model_census.py) and the Google Benchmark JSON of `onnxpool_bench --cases-file` and
`bench/python_peers.py --cases-file` on it, and writes Markdown with

- per node: onnxpool's median at each thread count, the fastest peer (any library, any layout),
  onnxpool / that peer and onnxpool / the bandwidth floor of the same bytes, and for every peer
  without a time there, why (the benchmark's error message, else "not run");
- per model and thread count: its pooling time at batch 1, the sum over its nodes of calls x
  median, for onnxpool, for the fastest peer of each node, and for each peer library that has a
  time on every node of the model (that library's fastest layout on each node);
- the geometric mean of onnxpool / fastest peer over the nodes, and how many nodes are over 1.2x
  and over 2x;

and a PNG of onnxpool / fastest peer for every node, sorted, at each thread count.

    tools/census_report.py --models bench/models/torchvision.txt cpp.json python.json
                           [-o census.md] [--plot FILE | --no-plot] [--command TEXT ...]

Only the `onnxpool` rows are ours here and only peers without Indices count: no network in the
census asks MaxPool for its Indices. A peer library is the part of the row's name before its
first `_` (onednn, xnnpack, onnxruntime, torch, tvm).
"""

import argparse
import collections
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_report  # noqa: E402
from bench_report import format_us, ratio  # noqa: E402
from model_census import parse_census  # noqa: E402

# onnxpool's compared row is its created operator (PoolOperator: created once, run per call), as
# each peer's row sets up its primitive or operator once; the one-shot calls (which also check and
# plan) get a column of their own in the summary.
OURS = "onnxpool_operator"
ONE_SHOT = "onnxpool"
NOT_RUN = "not run"
THRESHOLDS = (1.2, 2.0)  # "slower than the fastest peer" counts in the summary

# One node at one thread count: onnxpool's time (or why none), the fastest peer, the floor, and
# each peer library's best time (or why none).
NodeResult = collections.namedtuple(
    "NodeResult", "ours_us ours_reason peer peer_us floor_us libraries")


def library_of(impl):
    return impl.split("_", 1)[0]


def time_or_reason(measurement):
    """(median us, None), or (None, why there is none)."""
    if measurement is None:
        return None, NOT_RUN
    if measurement.error is not None:
        return None, measurement.error
    time_us = measurement.median_us()
    return (time_us, None) if time_us is not None else (None, NOT_RUN)


def peer_libraries(measurements):
    """Every peer library that has a row (timed or failed) anywhere in the inputs."""
    return sorted({library_of(key.impl) for key in measurements
                   if bench_report.kind_of(key.impl) == "peer"
                   and not bench_report.computes_indices(key.impl)})


def node_result(rows, libraries, ours=OURS):
    ours_us, ours_reason = time_or_reason(rows.get(ours))
    peer, peer_us = bench_report.best(rows, "peer")
    _, floor_us = bench_report.best(rows, "floor")
    per_library = {}
    for library in libraries:
        impls = {impl: m for impl, m in rows.items()
                 if bench_report.kind_of(impl) == "peer" and library_of(impl) == library
                 and not bench_report.computes_indices(impl)}
        best_impl, best_us = bench_report.best(impls, "peer")
        if best_impl is not None:
            per_library[library] = (best_us, None)
            continue
        errors = list(dict.fromkeys(m.error for m in impls.values() if m.error is not None))
        per_library[library] = (None, "; ".join(errors) if errors else NOT_RUN)
    return NodeResult(ours_us, ours_reason, peer, peer_us, floor_us, per_library)


def node_results(nodes, measurements, ours=OURS):
    """({case: {threads: NodeResult}} in the census's order, thread counts, peer libraries), with
    `ours` as onnxpool's row."""
    libraries = peer_libraries(measurements)
    by_case = collections.defaultdict(lambda: collections.defaultdict(dict))
    for key, measurement in measurements.items():
        by_case[key.case][key.threads][key.impl] = measurement
    thread_counts = sorted({key.threads for key in measurements if key.case in nodes}) or [1]
    results = collections.OrderedDict()
    for case in nodes:
        results[case] = {threads: node_result(by_case.get(case, {}).get(threads, {}), libraries, ours)
                         for threads in thread_counts}
    return results, thread_counts, libraries


# One model at one thread count: sums of calls x median (None where a node lacks a time) and the
# reasons of the nodes that lack one ({reason: node count}).
ModelSum = collections.namedtuple("ModelSum", "us missing")


def weighted_sum(terms):
    """terms: (calls, time us or None, reason); the sum if every node has a time."""
    missing = collections.Counter(reason for _, time_us, reason in terms if time_us is None)
    if missing:
        return ModelSum(None, missing)
    return ModelSum(sum(calls * time_us for calls, time_us, _ in terms), missing)


def model_results(nodes, results, thread_counts, libraries):
    """{model: {threads: {"onnxpool" | "fastest" | library: ModelSum}}}, models by name."""
    models = collections.defaultdict(dict)
    for case, by_model in nodes.items():
        for model, calls in by_model.items():
            models[model][case] = calls
    out = collections.OrderedDict()
    for model in sorted(models, key=bench_report.natural_key):
        out[model] = {}
        for threads in thread_counts:
            per_node = [(calls, results[case][threads]) for case, calls in models[model].items()]
            sums = {
                OURS: weighted_sum([(calls, r.ours_us, r.ours_reason) for calls, r in per_node]),
                "fastest": weighted_sum([(calls, r.peer_us, "no peer") for calls, r in per_node]),
            }
            for library in libraries:
                sums[library] = weighted_sum([(calls, *r.libraries[library]) for calls, r in per_node])
            out[model][threads] = sums
    return out


def node_ratios(results, threads, denominator="peer_us"):
    """onnxpool / fastest peer (or floor) of every node that has both times."""
    ratios = {}
    for case, by_threads in results.items():
        r = by_threads[threads]
        other = getattr(r, denominator)
        if r.ours_us is not None and other:
            ratios[case] = r.ours_us / other
    return ratios


def geometric_mean(values):
    return statistics.geometric_mean(values) if values else None


def cell(text):
    return str(text).replace("|", "/")


def models_cell(by_model, shown=3):
    names = [f"{model}:{calls}" for model, calls in sorted(by_model.items())]
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" +{more}" if more > 0 else "")


def missing_cell(by_threads, thread_counts):
    """The implementations without a time on a node, grouped by why, e.g.
    "onednn, xnnpack: not run; tvm 2t: <error>"."""
    reasons = {}  # implementation -> {threads: reason}
    for threads in thread_counts:
        r = by_threads[threads]
        if r.ours_reason is not None:
            reasons.setdefault(OURS, {})[threads] = r.ours_reason
        for library, (_, reason) in r.libraries.items():
            if reason is not None:
                reasons.setdefault(library, {})[threads] = reason
    grouped = collections.OrderedDict()  # reason -> names
    for name, by_thread in reasons.items():
        if len(by_thread) == len(thread_counts) and len(set(by_thread.values())) == 1:
            grouped.setdefault(next(iter(by_thread.values())), []).append(name)
        else:
            for threads, reason in by_thread.items():
                grouped.setdefault(reason, []).append(f"{name} {threads}t")
    return cell("; ".join(f"{', '.join(names)}: {reason}" for reason, names in grouped.items()))


def model_sum_cell(total, ours_us, node_count):
    """A peer's sum and onnxpool / it, or which of the model's nodes have no time and why."""
    if total.us is not None:
        return f"{format_us(total.us)} ({ratio(ours_us, total.us)})"
    missing = sum(total.missing.values())
    reasons = ", ".join(sorted(total.missing)) if len(total.missing) <= 2 else "see the nodes"
    return cell(f"no time on {missing} of {node_count} nodes ({reasons})")


def summary_lines(results, models, thread_counts, one_shot):
    lines = ["| threads | nodes compared | geomean onnxpool / fastest peer "
             + "".join(f"| nodes over {t:g}x " for t in THRESHOLDS)
             + "| geomean onnxpool / floor | models compared | geomean model onnxpool / fastest per layer "
             + "| geomean one-shot calls / fastest peer |",
             "|---:|---:|---:|" + "---:|" * len(THRESHOLDS) + "---:|---:|---:|---:|"]
    for threads in thread_counts:
        to_peer = node_ratios(results, threads)
        to_floor = node_ratios(results, threads, "floor_us")
        model_ratios = [sums[threads][OURS].us / sums[threads]["fastest"].us
                        for sums in models.values()
                        if sums[threads][OURS].us and sums[threads]["fastest"].us]
        over = "".join(f"| {sum(1 for r in to_peer.values() if r > t)} " for t in THRESHOLDS)
        lines.append(
            f"| {threads} | {len(to_peer)} of {len(results)} | {ratio(geometric_mean(to_peer.values()), 1)} "
            f"{over}| {ratio(geometric_mean(to_floor.values()), 1)} | {len(model_ratios)} of {len(models)} "
            f"| {ratio(geometric_mean(model_ratios), 1)} "
            f"| {ratio(geometric_mean(node_ratios(one_shot, threads).values()), 1)} |")
    return lines


def node_table(nodes, results, thread_counts):
    header = "| node | models:calls | " + "".join(f"onnxpool {t}t (us) | " for t in thread_counts)
    rule = "|---|---|" + "---:|" * len(thread_counts)
    for t in thread_counts:
        header += f"fastest peer {t}t | peer {t}t (us) | / peer {t}t | / floor {t}t | "
        rule += "---|---:|---:|---:|"
    header += "no time (why) |"
    rule += "---|"
    lines = [header, rule]
    for case, by_threads in results.items():
        line = f"| `{case}` | {models_cell(nodes[case])} | "
        for t in thread_counts:
            r = by_threads[t]
            line += (format_us(r.ours_us) if r.ours_reason is None or r.ours_reason == NOT_RUN
                     else "error") + " | "
        for t in thread_counts:
            r = by_threads[t]
            line += (f"{r.peer or '-'} | {format_us(r.peer_us)} | {ratio(r.ours_us, r.peer_us)} "
                     f"| {ratio(r.ours_us, r.floor_us)} | ")
        lines.append(line + missing_cell(by_threads, thread_counts) + " |")
    return lines


def model_table(nodes, models, threads, libraries):
    header = ("| model | nodes | calls | onnxpool (us) | fastest per layer (us) | / fastest | "
              + "".join(f"{library} (us, onnxpool / it) | " for library in libraries)).rstrip()
    rule = "|---|---:|---:|---:|---:|---:|" + "---:|" * len(libraries)
    lines = [header, rule]
    for model, by_threads in models.items():
        sums = by_threads[threads]
        cases = [case for case, by_model in nodes.items() if model in by_model]
        calls = sum(nodes[case][model] for case in cases)
        ours = sums[OURS]
        fastest = sums["fastest"]
        ours_text = format_us(ours.us) if ours.us is not None else model_sum_cell(ours, None, len(cases))
        fastest_text = (format_us(fastest.us) if fastest.us is not None
                        else model_sum_cell(fastest, None, len(cases)))
        line = (f"| {model} | {len(cases)} | {calls} | {ours_text} | {fastest_text} "
                f"| {ratio(ours.us, fastest.us)} | ")
        line += "".join(f"{model_sum_cell(sums[library], ours.us, len(cases))} | " for library in libraries)
        lines.append(line.rstrip())
    return lines


def cpu_model(contexts):
    for _, context in contexts:
        if context.get("cpu_model"):
            return context["cpu_model"]
    return "unknown CPU"


def markdown(nodes, results, one_shot, models, thread_counts, libraries, contexts, commands=(), ignored=0):
    lines = [f"# onnxpool on the pooling nodes of real networks, {cpu_model(contexts)}", ""]
    lines += bench_report.context_lines(contexts)
    if commands:
        lines += ["", "Commands:", ""] + [f"    {command}" for command in commands]
    calls = sum(sum(by_model.values()) for by_model in nodes.values())
    lines += [
        "",
        f"{len(nodes)} nodes, {len(models)} models, {calls} calls (one forward pass of each model at "
        "batch 1). Times are medians of wall time per call in microseconds; `Nt` is N threads. "
        "onnxpool's time is its created operator's (`PoolOperator`, created once and run per call, as "
        "each peer's primitive or operator is set up once); the summary's last column is for the "
        "one-shot calls (`onnxpool::pool`, which check and plan on every call). "
        "The fastest peer is the fastest library and layout on that node (peers without Indices: no "
        "model here asks MaxPool for them); `/ peer` and `/ floor` are onnxpool's time over the "
        "fastest peer's and over the bandwidth floor's for the same bytes (above 1: onnxpool slower). "
        "A model's time is the sum over its nodes of calls x median: onnxpool's; the fastest peer's "
        "of each node (a mix of libraries and layouts no single program runs); and each library's, "
        "its fastest layout on each node, only where it has a time on every node of the model. "
        "Where an implementation has no time, the table says why: the error its benchmark "
        "recorded, or \"not run\" (no row: the program does not offer that node to that peer).",
        "",
        "## Summary",
        "",
    ]
    lines += summary_lines(results, models, thread_counts, one_shot)
    for threads in thread_counts:
        lines += ["", f"## Models, {bench_report.thread_label(threads)}", ""]
        lines += model_table(nodes, models, threads, libraries)
    lines += ["", "## Nodes", ""]
    lines += node_table(nodes, results, thread_counts)
    if ignored:
        lines += ["", f"Ignored: {ignored} benchmarks of nodes outside the census file."]
    return "\n".join(lines) + "\n"


def plot(nodes, results, thread_counts, title, path):
    """onnxpool / fastest peer of every node, sorted, a panel per thread count, bars colored by
    operator. Log scale: at 2 threads on a busy machine ratios span 0.1x to 100x."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    figure, axes = plt.subplots(len(thread_counts), 1, figsize=(12, 3.6 * len(thread_counts)),
                                dpi=110, squeeze=False)
    operators = list(dict.fromkeys(case.split(":")[0] for case in nodes))
    colors = {op: plt.get_cmap("tab10")(i % 10) for i, op in enumerate(operators)}
    for axis, threads in zip(axes.flat, thread_counts):
        ratios = sorted(node_ratios(results, threads).items(), key=lambda item: item[1])
        positions = range(len(ratios))
        axis.bar(positions, [r for _, r in ratios], 0.8,
                 color=[colors[case.split(":")[0]] for case, _ in ratios])
        axis.set_yscale("log")
        # Plain numbers on the ratio axis, always showing 0.5x to 2x.
        axis.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=2))
        axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        axis.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        low, high = axis.get_ylim()
        axis.set_ylim(min(low, 0.5), max(high, 2.5))
        axis.axhline(1.0, color="black", linewidth=0.8)
        for threshold in THRESHOLDS:
            axis.axhline(threshold, color="gray", linewidth=0.6, linestyle="--")
        if len(ratios) <= 40:  # beyond that, names would overlap; the table lists them
            axis.set_xticks(list(positions))
            axis.set_xticklabels([case for case, _ in ratios], rotation=40, ha="right", fontsize=6)
        else:
            axis.set_xticks([])
            axis.set_xlabel(f"{len(ratios)} nodes, sorted")
        axis.set_ylabel("onnxpool time / fastest peer's\n(below 1: onnxpool faster)")
        axis.set_title(f"{bench_report.thread_label(threads)}", fontsize=9)
        axis.grid(axis="y", which="both", alpha=0.3)
        handles = [plt.Rectangle((0, 0), 1, 1, color=colors[op]) for op in operators]
        axis.legend(handles, operators, fontsize=7, loc="upper left")
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    # No timestamps in the file, so the same inputs always give the same bytes.
    figure.savefig(path, metadata={"Software": None})
    plt.close(figure)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", help="Google Benchmark JSON files of the census run")
    parser.add_argument("--models", required=True, type=Path,
                        help="the census file the run timed (e.g. bench/models/torchvision.txt)")
    parser.add_argument("-o", "--output", help="write the Markdown here instead of stdout")
    parser.add_argument("--plot", help="PNG path (default: the output path with .png, "
                        "or census_report.png when printing to stdout)")
    parser.add_argument("--no-plot", action="store_true", help="tables only")
    parser.add_argument("--command", action="append", default=[],
                        help="a command that made the inputs, printed in the report; repeatable")
    args = parser.parse_args(argv)

    try:
        nodes = parse_census(args.models.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"census_report: {args.models}: {error}", file=sys.stderr)
        return 1
    measurements, contexts, _ = bench_report.load(args.results)
    if not any(key.case in nodes for key in measurements):
        print(f"census_report: no benchmark in the inputs times a node of {args.models}",
              file=sys.stderr)
        return 1
    ignored = len({key for key in measurements if key.case not in nodes})
    results, thread_counts, libraries = node_results(nodes, measurements)
    one_shot, _, _ = node_results(nodes, measurements, ONE_SHOT)
    models = model_results(nodes, results, thread_counts, libraries)
    report = markdown(nodes, results, one_shot, models, thread_counts, libraries, contexts, args.command, ignored)
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(report, encoding="utf-8")
    else:
        print(report, end="")

    if args.no_plot:
        return 0
    plot_path = args.plot or (
        str(Path(args.output).with_suffix(".png")) if args.output else "census_report.png")
    dates = sorted({context.get("date", "")[:10] for _, context in contexts} - {""})
    title = (f"onnxpool / fastest peer on {len(nodes)} pooling nodes of real networks: "
             f"{cpu_model(contexts)}, {', '.join(dates) or 'undated'}")
    return bench_report.write_plot(lambda: plot(nodes, results, thread_counts, title, plot_path), plot_path,
                                   "census_report")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
