#!/usr/bin/env python3
"""The tuning tables in one Markdown summary: per CPU and target, what the winners gained over the
hand schedules and what each autoscheduler reached, from the rows the tables hold
(generators/schedules/tuned/*.json, written by tools/tune.sh).

    tools/tuning/summary.py [--tables-dir DIR] [--kernels]

Per CPU and table: how many kernels were tuned, how many took a candidate other than the hand default,
the geometric mean over the kernels of the winner's score (its geometric-mean time ratio to the hand
default over the tuned nodes and thread counts; 1.00 where the hand default stayed) and its best
kernel; per autoscheduler, on how many kernels it was right (passed every check), the geometric mean
of its scores there, and the winner's score over the autoscheduler's on those kernels (how much faster
what the build takes is). With --kernels, the same per kernel.

arm64 rows are guest instruction counts under qemu-aarch64, not times (the table says so).
"""

import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import winners  # noqa: E402

AUTOSCHEDULERS = ("adams2019", "li2018", "mullapudi2016", "anderson2021")
AUTOSCHEDULER_NAMES = {"adams2019": "Adams2019", "li2018": "Li2018", "mullapudi2016": "Mullapudi2016",
                       "anderson2021": "Anderson2021 (GPU)"}


def right(candidate):
    """Passed every check (tiny and tuning nodes) and was timed."""
    return candidate is not None and candidate["status"] == "passed" and candidate.get("score") is not None


def short(kernel):
    return kernel.replace("onnxpool_", "")


def rows_by_cpu(table):
    """{cpu: [(kernel, row)]} of one table, the run-time knobs last."""
    out = {}
    for kernel, entry in sorted(table.get("kernels", {}).items()):
        for cpu, row in entry["by_cpu"].items():
            out.setdefault(cpu, []).append((kernel, row))
    if "runtime" in table:
        for cpu, row in table["runtime"]["by_cpu"].items():
            out.setdefault(cpu, []).append(("run-time knobs", row))
    return out


def winner_score(row):
    c = row["candidates"].get(row["winner"])
    return c["score"] if right(c) else 1.0


def summarize(cpu, rows):
    """One summary line's fields for a CPU's rows of one table."""
    kernels = [(k, r) for k, r in rows if k != "run-time knobs" and "hand" in r["candidates"]]
    scores = [winner_score(r) for _, r in kernels]
    best = min(kernels, key=lambda kr: winner_score(kr[1]), default=None)
    s = {"cpu": cpu, "kernels": len(kernels), "tuned": sum(1 for _, r in kernels if r["winner"] != "hand"),
         "geomean": winners.geomean(scores) if scores else None,
         "best": (short(best[0]), best[1]["winner"], winner_score(best[1])) if best else None,
         "dates": sorted({r.get("date", "") for _, r in rows}), "autoschedulers": {}}
    for a in AUTOSCHEDULERS:
        right_rows = [r for _, r in kernels if right(r["candidates"].get(a))]
        tried = [r for _, r in kernels if a in r["candidates"]]
        s["autoschedulers"][a] = {
            "tried": len(tried), "right": len(right_rows),
            "geomean": winners.geomean([r["candidates"][a]["score"] for r in right_rows]) if right_rows else None,
            "winner_over": (winners.geomean([winner_score(r) / r["candidates"][a]["score"] for r in right_rows])
                            if right_rows else None)}
    return s


def fmt(value, digits=2):
    return "—" if value is None else f"{value:.{digits}f}"


def autoscheduler_cell(a):
    if a["tried"] == 0:
        return "not tried"
    if a["right"] == 0:
        return f"right in 0/{a['tried']}"
    return f"{a['right']}/{a['tried']}: {fmt(a['geomean'])}x (winner {fmt(a['winner_over'])}x of it)"


def summary_markdown(tables_dir, per_kernel):
    lines = ["| CPU | table | kernels (tuned) | winner / hand, geomean | best winner | "
             + " | ".join(AUTOSCHEDULER_NAMES[a] for a in AUTOSCHEDULERS) + " |",
             "|---|---|---|---|---|" + "---|" * len(AUTOSCHEDULERS)]
    kernel_lines = []
    for path in sorted(glob.glob(os.path.join(tables_dir, "*.json"))):
        with open(path) as f:
            table = json.load(f)
        name = table.get("table", os.path.splitext(os.path.basename(path))[0])
        for cpu, rows in sorted(rows_by_cpu(table).items()):
            s = summarize(cpu, rows)
            if s["kernels"] == 0:
                continue
            best = f"{s['best'][0]}: {fmt(s['best'][2])} ({s['best'][1]})" if s["best"] else "—"
            lines.append(f"| {cpu} | {name} | {s['kernels']} ({s['tuned']}) | {fmt(s['geomean'], 3)} | {best} | "
                         + " | ".join(autoscheduler_cell(s["autoschedulers"][a]) for a in AUTOSCHEDULERS) + " |")
            for kernel, row in rows:
                cands = row["candidates"]
                cells = [fmt(cands[a]["score"]) if right(cands.get(a)) else (cands[a]["status"] if a in cands else "—")
                         for a in AUTOSCHEDULERS]
                kernel_lines.append(f"| {cpu} | {name} | {short(kernel)} | {row['winner']} | "
                                    f"{fmt(winner_score(row))} | " + " | ".join(cells) + " |")
    out = lines
    if per_kernel:
        out += ["", "| CPU | table | kernel | winner | winner / hand | "
                + " | ".join(AUTOSCHEDULER_NAMES[a] + " / hand" for a in AUTOSCHEDULERS) + " |",
                "|---|---|---|---|---|" + "---|" * len(AUTOSCHEDULERS)] + kernel_lines
    return "\n".join(out) + "\n"


def main(argv=None):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables-dir", default=os.path.join(root, "generators", "schedules", "tuned"))
    parser.add_argument("--kernels", action="store_true", help="also one row per kernel and CPU")
    args = parser.parse_args(argv)
    if not glob.glob(os.path.join(args.tables_dir, "*.json")):
        parser.error(f"no tuning tables (*.json) in {args.tables_dir}")
    sys.stdout.write(summary_markdown(args.tables_dir, args.kernels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
