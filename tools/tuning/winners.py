"""Scores the timed candidates of a kernel and picks the winner the build takes.

A candidate's score on one CPU is the geometric mean, over the tuned nodes and thread counts, of its
median time over the hand default's median in the same runner process (timed interleaved). It
replaces the hand default only when it beats it by more than the run's noise: score below
1 - noise and no node slower than 1 + noise, noise being the hand default's median relative
interquartile range over the nodes (at least MIN_NOISE). The hand default is always a candidate, so
a kernel never gets slower than the hand schedule on a tuned node."""

import math
import statistics

MIN_NOISE = 0.02


def median(values):
    return statistics.median(values)


def relative_iqr(samples):
    if len(samples) < 4:
        return 0.0
    q = statistics.quantiles(samples, n=4)
    m = median(samples)
    return (q[2] - q[0]) / m if m > 0 else 0.0


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def samples(record):
    """A time record's samples: microseconds per call, or guest instructions per call under qemu."""
    return record["samples_us"] if "samples_us" in record else record["samples_instructions"]


def score_group(timings):
    """timings: the time records of one runner process. Returns ({label: {"score", "ratios", "medians"}},
    noise)."""
    by_label = {}
    for t in timings:
        by_label.setdefault(t["candidate_label"], {})[f"{t['node']}@{t['threads']}"] = t
    hand = by_label.get("hand")
    if not hand:
        return {}, None
    noise = max(MIN_NOISE, median([relative_iqr(samples(t)) for t in hand.values()]))
    scores = {}
    for label, per_node in by_label.items():
        ratios, medians = {}, {}
        for key, t in per_node.items():
            medians[key] = median(samples(t))
            if key in hand:
                ratios[key] = medians[key] / median(samples(hand[key]))
        scores[label] = {"score": geomean(list(ratios.values())), "ratios": ratios, "medians": medians,
                         "reached": all(t["reached"] for t in per_node.values())}
    return scores, noise


def beats_hand(entry, noise):
    return (entry["reached"] and entry["score"] < 1.0 - noise
            and all(r <= 1.0 + noise for r in entry["ratios"].values()))


def pick(scores, noise, buildable):
    """The winning label among `buildable` (labels the build can reproduce), or "hand"."""
    best = "hand"
    for label, entry in scores.items():
        if label == "hand" or label not in buildable or not beats_hand(entry, noise):
            continue
        if best == "hand" or entry["score"] < scores[best]["score"]:
            best = label
    return best


def pick_over_cpus(by_cpu):
    """The label with the best geometric-mean score over every recorded CPU among those measured on all
    of them and buildable; the hand default unless it beats hand on each CPU by that CPU's noise."""
    cpus = list(by_cpu.values())
    if not cpus:
        return "hand", {}
    labels = set.intersection(*(set(c["candidates"]) for c in cpus))
    best, best_score, best_knobs = "hand", 1.0, {}
    for label in sorted(labels):
        entries = [c["candidates"][label] for c in cpus]
        if label == "hand" or not all(e.get("buildable") and e.get("score") and e.get("status") == "passed"
                                      for e in entries):
            continue
        if not all(e["score"] < 1.0 - c["noise"] and e["worst_ratio"] <= 1.0 + c["noise"]
                   for e, c in zip(entries, cpus)):
            continue
        score = geomean([e["score"] for e in entries])
        if score < best_score:
            best, best_score, best_knobs = label, score, entries[0]["knobs"]
    return best, best_knobs
