#!/usr/bin/env python3
"""tools/model_census.py without torch: pooling calls turned into case strings against cases
worked by hand (strides defaulting to the kernel, ceil_mode, count_include_pad, pads per axis in
ONNX's begins-then-ends order, 1D and 3D, unbatched inputs, adaptive pools that are global pools
and ones that are skipped, spatial means), SPPF's channels per YOLO variant, and the census file
read back as written."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_census as mc  # noqa: E402

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def converted(name, shape, *args, **kwargs):
    """The (case, skipped) of a call as the tracer sees it: the function's name as torch
    dispatches it, the input's shape, the arguments after the input."""
    function = mc.pool_function(name)
    return mc.case_string(function, shape, mc.bind_arguments(function, args, kwargs))


def expect_case(want, name, shape, *args, **kwargs):
    got = converted(name, shape, *args, **kwargs)
    expect(got == (want, None), f"{name}{shape} {args} {kwargs}: {got}, want {want}")


def expect_skipped(want, name, shape, *args, **kwargs):
    got = converted(name, shape, *args, **kwargs)
    expect(got == (None, want), f"{name}{shape} {args} {kwargs}: {got}, want skipped as {want}")


# The names torch dispatches the pooling functions under.
for name, want in [("_max_pool2d", "max_pool2d"), ("max_pool2d_with_indices", "max_pool2d"),
                   ("max_pool1d", "max_pool1d"), ("avg_pool3d", "avg_pool3d"), ("lp_pool2d", "lp_pool2d"),
                   ("adaptive_avg_pool2d", "adaptive_avg_pool2d"),
                   ("_adaptive_max_pool2d", "adaptive_max_pool2d"),
                   ("adaptive_max_pool3d_with_indices", "adaptive_max_pool3d"),
                   ("conv2d", None), ("max_unpool2d", None), ("fractional_max_pool2d", None),
                   ("max_pool4d", None), ("", None)]:
    expect(mc.pool_function(name) == want, f"pool_function({name!r}) = {mc.pool_function(name)!r}, want {want!r}")

# MaxPool: the ResNet stem, F.max_pool2d(x, 3, 2, 1); (112 + 2 - 3) / 2 + 1 = 56.
expect_case("maxpool:1x64x112x112:k3x3:s2x2:p1x1x1x1", "_max_pool2d", (1, 64, 112, 112), 3, 2, 1)
# The stride defaults to the kernel: None in torch.nn.functional, [] in the builtins.
expect_case("maxpool:1x512x28x28:k2x2:s2x2", "_max_pool2d", (1, 512, 28, 28), 2)
expect_case("maxpool:1x512x28x28:k2x2:s2x2", "max_pool2d", (1, 512, 28, 28), [2, 2], [])
# ceil_mode (GoogLeNet's stem: (112 - 3) / 2 is 54.5, one more output with ceil), as a keyword;
# kept where it changes nothing too (stride 1), as the model sets it.
expect_case("maxpool:1x64x112x112:k3x3:s2x2:ceil", "_max_pool2d", (1, 64, 112, 112), 3, 2, ceil_mode=True)
expect_case("maxpool:1x192x28x28:k3x3:s1x1:p1x1x1x1:ceil", "_max_pool2d", (1, 192, 28, 28), 3, 1, 1,
            ceil_mode=True)
# Pads per axis: torch pads (1, 2) are H 1 and W 2 on both sides; ONNX lists begins, then ends.
expect_case("maxpool:1x8x10x12:k3x5:s1x2:p1x2x1x2", "_max_pool2d", (1, 8, 10, 12), (3, 5), (1, 2), (1, 2))
# Dilations, and MaxPool with Indices (the same node).
expect_case("maxpool:1x4x9x9:k3x3:s1x1:d2x2:p2x2x2x2", "max_pool2d_with_indices", (1, 4, 9, 9), 3, 1, 2, 2)
expect_case("maxpool:1x4x9x9:k2x2:s2x2", "max_pool2d_with_indices", (1, 4, 9, 9), 2, return_indices=True)
# 1D and 3D (S3D's separable stem: 1x3x3 windows, pads 0 in time).
expect_case("maxpool:1x8x17:k3:s2:p1x1", "max_pool1d", (1, 8, 17), 3, 2, 1)
expect_case("maxpool:1x64x64x112x112:k1x3x3:s1x2x2:p0x1x1x0x1x1", "_max_pool3d", (1, 64, 64, 112, 112),
            (1, 3, 3), (1, 2, 2), (0, 1, 1))
expect_case("maxpool:1x832x32x14x14:k2x2x2:s2x2x2", "_max_pool3d", (1, 832, 32, 14, 14), 2, 2)
# An unbatched input (C, H, W) is a batch of 1 to ONNX.
expect_case("maxpool:1x64x112x112:k3x3:s2x2:p1x1x1x1", "_max_pool2d", (64, 112, 112), 3, 2, 1)

# AveragePool: count_include_pad is True unless the call says otherwise (Inception's 3x3/s1/p1).
expect_case("averagepool:1x192x35x35:k3x3:s1x1:p1x1x1x1:cip", "avg_pool2d", (1, 192, 35, 35), 3, 1, 1)
expect_case("averagepool:1x192x35x35:k3x3:s1x1:p1x1x1x1", "avg_pool2d", (1, 192, 35, 35), 3, 1, 1,
            count_include_pad=False)
# ... written without pads as well (DenseNet's transitions), and with ceil_mode, positionally.
expect_case("averagepool:1x128x56x56:k2x2:s2x2:cip", "avg_pool2d", (1, 128, 56, 56), 2, 2)
expect_case("averagepool:1x8x7x7:k2x2:s2x2:ceil", "avg_pool2d", (1, 8, 7, 7), 2, 2, 0, True, False)
expect_case("averagepool:1x4x10:k3:s3:p1x1:cip", "avg_pool1d", (1, 4, 10), 3, None, 1)
expect_case("averagepool:1x1024x16x7x7:k2x7x7:s1x1x1:cip", "avg_pool3d", (1, 1024, 16, 7, 7), (2, 7, 7), 1)
# divisor_override has no ONNX counterpart.
expect_skipped("avg_pool2d:1x4x8x8:divisor_override=1", "avg_pool2d", (1, 4, 8, 8), 2, divisor_override=1)

# LpPool: p first; no pads in torch. A p that is no integer has no ONNX node.
expect_case("lppool:1x4x9x9:k3x3:s2x2:lp2", "lp_pool2d", (1, 4, 9, 9), 2, 3, 2)
expect_case("lppool:1x4x9:k3:s3:lp3", "lp_pool1d", (1, 4, 9), 3.0, 3)
expect_skipped("lp_pool2d:1x4x9x9:norm_type=1.5", "lp_pool2d", (1, 4, 9, 9), 1.5, 3)

# Adaptive pools to 1 on every spatial axis are the global pools, however the 1 is written;
# None keeps an axis, which is a 1 only where the input's is.
expect_case("globalaveragepool:1x2048x7x7", "adaptive_avg_pool2d", (1, 2048, 7, 7), 1)
expect_case("globalaveragepool:1x2048x7x7", "adaptive_avg_pool2d", (1, 2048, 7, 7), (1, 1))
expect_case("globalaveragepool:1x768x16x7x7", "adaptive_avg_pool3d", (1, 768, 16, 7, 7), output_size=1)
expect_case("globalmaxpool:1x512x7x7", "_adaptive_max_pool2d", (1, 512, 7, 7), 1)
expect_case("globalmaxpool:1x512x7x7", "adaptive_max_pool2d_with_indices", (1, 512, 7, 7), [1, 1], True)
expect_case("globalaveragepool:1x8x1x5", "adaptive_avg_pool2d", (1, 8, 1, 5), (None, 1))
expect_case("globalaveragepool:1x1280x9", "adaptive_avg_pool1d", (1280, 9), 1)  # unbatched
# Any other output size is no ONNX pooling node: skipped, with the sizes.
expect_skipped("adaptive_avg_pool2d:1x512x7x7->7x7", "adaptive_avg_pool2d", (1, 512, 7, 7), (7, 7))
expect_skipped("adaptive_avg_pool2d:1x8x4x5->4x1", "adaptive_avg_pool2d", (1, 8, 4, 5), (None, 1))
expect_skipped("adaptive_avg_pool2d:1x8x5x7->1x7", "adaptive_avg_pool2d", (1, 8, 5, 7), (1, 7))
expect_skipped("adaptive_max_pool1d:1x8x12->3", "adaptive_max_pool1d", (1, 8, 12), 3)

# Means over every spatial axis (mnasnet's x.mean([2, 3]), S3D's over (2, 3, 4)) are noted apart;
# other means are not.
for shape, dim, want in [((1, 1280, 7, 7), [2, 3], "1x1280x7x7"), ((1, 1280, 7, 7), (-1, -2), "1x1280x7x7"),
                         ((1, 400, 2, 1, 1), (2, 3, 4), "1x400x2x1x1"), ((1, 1280, 7, 7), 3, None),
                         ((1, 1280, 7, 7), [1, 2, 3], None), ((1, 1280, 7, 7), None, None),
                         ((1, 197, 768), 2, None), ((1, 7, 7, 768), (1, 2), None)]:
    expect(mc.spatial_mean(shape, dim) == want, f"spatial_mean({shape}, {dim}) = {mc.spatial_mean(shape, dim)}")

# Arguments torch would not take are errors, not guesses.
for args, kwargs in [((3, 2, 1, 1, False, False, 9), {}), ((3,), {"padding_mode": "zeros"})]:
    try:
        mc.bind_arguments("max_pool2d", args, kwargs)
        failures.append(f"bind_arguments accepted {args} {kwargs}")
    except ValueError:
        pass
for shape, kernel in [((8, 9), 3), ((1, 8, 9, 9), (3, 3, 3))]:
    try:
        converted("_max_pool2d", shape, kernel)
        failures.append(f"max_pool2d on {shape} with kernel {kernel} accepted")
    except ValueError:
        pass

# SPPF: half the last backbone stage's channels, make_divisible(min(1024, max_channels) * width, 8).
want = {"yolov5n": 128, "yolov5s": 256, "yolov5m": 384, "yolov5l": 512, "yolov5x": 640,
        "yolov8n": 128, "yolov8s": 256, "yolov8m": 288, "yolov8l": 256, "yolov8x": 320}
got = {family + variant: mc.sppf_channels(*scale)
       for family, variants in mc.YOLO_VARIANTS.items() for variant, scale in variants.items()}
expect(got == want, f"SPPF channels {got}, want {want}")
expect(mc.make_divisible(1024 * 0.33) == 344 and mc.make_divisible(256) == 256, "make_divisible rounds up to 8")
sppf = mc.merge(mc.sppf_calls())
expect(sppf.get("maxpool:1x288x20x20:k5x5:s1x1:p2x2x2x2") == {"yolov8m": 3}, f"SPPF nodes {sppf}")
expect(sppf.get("maxpool:1x256x20x20:k5x5:s1x1:p2x2x2x2") == {"yolov5s": 3, "yolov8l": 3, "yolov8s": 3},
       f"SPPF nodes {sppf}")

# Merging and the file: one line per node in a fixed order, model:calls by model name; it reads
# back as written, and its case is the first word of a line, as onnxpool_bench --cases-file reads it.
calls = [("resnet50", "globalaveragepool:1x2048x7x7"), ("vgg16", "maxpool:1x64x224x224:k2x2:s2x2"),
         ("googlenet", "maxpool:1x832x7x7:k3x3:s1x1:p1x1x1x1:ceil"),
         ("googlenet", "maxpool:1x832x7x7:k3x3:s1x1:p1x1x1x1:ceil"),
         ("densenet121", "averagepool:1x128x56x56:k2x2:s2x2:cip"), ("s3d", "maxpool:1x832x16x7x7:k3x3x3"),
         ("alexnet", "maxpool:1x64x55x55:k3x3:s2x2"), ("resnet18", "globalaveragepool:1x512x7x7"),
         ("wide_resnet50_2", "globalaveragepool:1x2048x7x7"), ("lp", "lppool:1x4x9x9:k3x3:s2x2:lp2")]
nodes = mc.merge(calls)
expect(nodes["maxpool:1x832x7x7:k3x3:s1x1:p1x1x1x1:ceil"] == {"googlenet": 2}, f"merge: {nodes}")
expect(nodes["globalaveragepool:1x2048x7x7"] == {"resnet50": 1, "wide_resnet50_2": 1}, f"merge: {nodes}")
text = mc.format_census(["what it is", "", "Regenerate: a command"], nodes)
lines = text.splitlines()
expect(lines[:3] == ["# what it is", "#", "# Regenerate: a command"], f"header {lines[:3]}")
expect(lines[3:] == [
    "maxpool:1x64x55x55:k3x3:s2x2  # alexnet:1",
    "maxpool:1x64x224x224:k2x2:s2x2  # vgg16:1",
    "maxpool:1x832x7x7:k3x3:s1x1:p1x1x1x1:ceil  # googlenet:2",
    "maxpool:1x832x16x7x7:k3x3x3  # s3d:1",
    "averagepool:1x128x56x56:k2x2:s2x2:cip  # densenet121:1",
    "lppool:1x4x9x9:k3x3:s2x2:lp2  # lp:1",
    "globalaveragepool:1x512x7x7  # resnet18:1",
    "globalaveragepool:1x2048x7x7  # resnet50:1,wide_resnet50_2:1",
], "census lines:\n  " + "\n  ".join(lines[3:]))
expect(text.endswith("\n") and not text.endswith("\n\n"), "the file ends with one newline")
expect(mc.parse_census(text) == nodes, f"round trip: {mc.parse_census(text)}")
expect(mc.format_census(["what it is", "", "Regenerate: a command"], mc.parse_census(text)) == text,
       "format(parse(file)) is the file")
for line in lines[3:]:
    expect(line.split()[0] == line.partition("#")[0].strip(), f"{line!r}: the case is the first word")
# What a reader must take too: blank lines, indented comments, a line without a comment, tabs.
expect(mc.parse_census("\n   # note\nmaxpool:1x1x8:k2\n\tglobalmaxpool:1x2x3x3\t#m:4\n")
       == {"maxpool:1x1x8:k2": {}, "globalmaxpool:1x2x3x3": {"m": 4}}, "a hand-written file")
for bad in ["maxpool:1x1x8:k2  # m:1\nmaxpool:1x1x8:k2  # n:1\n", "maxpool:1x1x8:k2  # m\n",
            "maxpool:1x1x8:k2  # m:x\n"]:
    try:
        mc.parse_census(bad)
        failures.append(f"parse_census accepted {bad!r}")
    except ValueError:
        pass

if failures:
    print("model_census_test: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
print("model_census_test: all checks passed")
