"""The nodes a tuning run tunes on: the benchmark suite (bench/shapes.h, bench/README.md) as case strings."""

# name -> (case string without the type field, operators it is tuned for)
SUITE = {
    "S1": ("{op}:1x64x112x112:k3x3:s2x2:p1x1x1x1", ("maxpool", "averagepool")),
    "S2": ("{op}:32x64x112x112:k3x3:s2x2:p1x1x1x1", ("maxpool", "averagepool")),
    "S3": ("{op}:1x128x56x56:k2x2:s2x2", ("maxpool", "averagepool")),
    "S4": ("{op}:1x192x28x28:k3x3:s1x1:p1x1x1x1", ("maxpool", "averagepool")),
    "S5": ("{op}:1x2048x7x7", ("globalmaxpool", "globalaveragepool")),
    "S6": ("{op}:1x64x56x56:k3x3:s2x2:p1x1x1x1", ("lppool",)),
    "S7": ("{op}:1x256x14x14", ("globallppool",)),
    # VGG's second pool, 56-wide output rows: the 2x2/s2 (halving) kernels of 16-bit types on
    # AVX-512 step 32 lanes along a row, so S3's 28-wide rows go to a narrower CPU target
    # (runtime/plan/narrow_rows.h) and rows this wide are what reach them. (The 8-bit ones step 64
    # lanes there and would need wider rows still; the tuned scope has no 8-bit type.)
    "H1": ("{op}:1x128x112x112:k2x2:s2x2", ("maxpool", "averagepool")),
    # EfficientNet's squeeze-and-excitation on 56x56 planes: planes long enough for the
    # GlobalAveragePool long-plane kernels (runtime/plan/long_planes.h), which S5's 7x7 never reach.
    "L1": ("{op}:1x144x56x56", ("globalaveragepool",)),
    # A 1D audio feature map and a 3D video clip (bench/README.md).
    "A1": ("{op}:1x64x16000:k3:s2:p1x1", ("maxpool", "averagepool")),
    "V1": ("{op}:1x64x16x56x56:k2x2x2:s2x2x2", ("maxpool", "averagepool")),
}

# Left out of "suite" for targets costed in guest instructions (arm64 under qemu): S2 is S1 over a
# batch of 32 from DRAM, so its instructions per element are S1's, and what sets its time (memory
# bandwidth) is what an instruction count cannot see. Named explicitly (--shapes S2) it runs.
NOT_COUNTED = ("S2",)

OPS = ("maxpool", "averagepool", "lppool", "globalmaxpool", "globalaveragepool", "globallppool")
TYPES = ("f32", "f16", "bf16", "f64", "i8", "u8")
GLOBAL_OPS = ("globalmaxpool", "globalaveragepool", "globallppool")


def spatial_rank(case):
    """The spatial rank of a case string's shape (its second field)."""
    return len(case.split(":")[1].split("x")) - 2


def suite_nodes(ops, types, ranks):
    """(suite name, case string) for every suite case of the chosen operators, types and spatial ranks
    (the global cases count as rank 2, the rank of their model)."""
    nodes = []
    for name, (pattern, case_ops) in SUITE.items():
        for op in ops:
            if op not in case_ops:
                continue
            case = pattern.format(op=op)
            rank = 2 if op in GLOBAL_OPS else spatial_rank(case)
            if rank not in ranks:
                continue
            for t in types:
                if t in ("i8", "u8") and op != "maxpool":
                    continue
                nodes.append((f"{name}:{t}", case + ("" if t == "f32" else f":{t}")))
    return nodes
