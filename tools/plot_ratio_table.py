#!/usr/bin/env python3
"""Draws a recorded benchmark table (bench/results/*.md) as a bar plot of the
onnxpool / fastest-peer ratio of every case, at 1 and 2 threads.

A results file is Markdown: a first heading naming the machine, lines saying
the CPU, date and command, and a table whose rows are

    | op, case | onnxpool | fastest peer | onnxpool / peer |

with "1 thread / 2 threads" pairs in the last column, the way
tools/bench_report.py's summary and README.md print them. Each machine's plot
in README.md is made from its file with this script, so they all look alike:

    .venv/bin/python tools/plot_ratio_table.py bench/results/FILE.md -o docs/performance/FILE.png
"""

import argparse
import re
import sys
from pathlib import Path

ROW = re.compile(r"^\|\s*(?P<case>[^|]+?)\s*\|[^|]*\|[^|]*\|\s*(?P<one>[0-9.]+)\s*/\s*(?P<two>[0-9.]+)\s*\|\s*$")


def read_table(path: Path):
    title, cases = None, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if title is None and line.startswith("# "):
            title = line[2:].strip()
        match = ROW.match(line)
        if match:
            cases.append((match["case"], float(match["one"]), float(match["two"])))
    if not cases:
        raise SystemExit(f"{path}: no table rows of the form '| case | ... | a / b |'")
    return title or path.stem, cases


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("table", type=Path, help="a bench/results/*.md file")
    parser.add_argument("-o", "--output", type=Path, required=True, help="PNG to write")
    args = parser.parse_args(argv[1:])
    title, cases = read_table(args.table)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [case.split(" 1x")[0] for case, _, _ in cases]
    positions = range(len(cases))
    figure, axes = plt.subplots(figsize=(10, 4.2), dpi=110)
    width = 0.38
    axes.bar([p - width / 2 for p in positions], [one for _, one, _ in cases], width, label="1 thread")
    axes.bar([p + width / 2 for p in positions], [two for _, _, two in cases], width, label="2 threads")
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_xticks(list(positions))
    axes.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    axes.set_ylabel("onnxpool time / fastest peer's\n(below 1: onnxpool faster)")
    axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8)
    figure.tight_layout()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    # No timestamps in the file, so the same table always gives the same bytes.
    figure.savefig(args.output, metadata={"Software": None})
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
