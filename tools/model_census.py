#!/usr/bin/env python3
"""The pooling nodes of real networks, as case strings (bench/README.md).

Builds torchvision's classification and video models (random weights, nothing downloaded) at each
model's default input size, batch 1, runs one forward pass with every pooling call traced, and
writes each distinct node once, with the models that run it:

    .venv/bin/python tools/model_census.py -o bench/models/torchvision.txt

The file it writes is read back by `onnxpool_bench --cases-file` and `python_peers.py
--cases-file`: one node per line, the case string first, then `  # model:calls,...`, where calls
is how many times one forward pass of that model runs the node; `#` lines are its header.

Traced: max_pool, avg_pool, lp_pool (1D, 2D, 3D) and the adaptive average and max pools whose
output is 1 on every spatial axis, which ONNX writes as GlobalAveragePool / GlobalMaxPool. Both
nn modules and functional calls are seen: a TorchFunctionMode sees torch.nn.functional's pooling
functions, which the modules call too. Not nodes, listed in the header as skipped: adaptive pools
with any other output size (no ONNX pooling operator has their semantics) and avg_pool with a
divisor_override (ONNX has none). Means over every spatial axis (ONNX ReduceMean, no pooling
node) are listed there apart. The models run on torch's "meta" device (shapes only, no arithmetic); a model that
does not is built on the CPU and run on meta, or else run on the CPU.

YOLOv5's and YOLOv8's SPPF block is added from the architecture (ultralytics is not a
dependency): three chained MaxPool 5x5, stride 1, pads 2 on the 20x20 map of a 640x640 input,
on half the channels of the backbone's last stage, for every width variant n/s/m/l/x.

Needs torch and torchvision (tools/requirements-bench.txt). The conversion, merging and the
file format below import neither, so tools/model_census_test.py runs without them.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import textwrap
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "bench" / "models" / "torchvision.txt"
HEADER_WIDTH = 100  # the header's lines are wrapped; the node lines are as long as they are

# The arguments after the input, in order, of each family of pooling functions: the same in
# torch.nn.functional and in the torch / torch._C._nn builtins beneath it.
PARAMETERS = {
    "max_pool": ("kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"),
    "avg_pool": ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    "lp_pool": ("norm_type", "kernel_size", "stride", "ceil_mode"),
    "adaptive_avg_pool": ("output_size",),
    "adaptive_max_pool": ("output_size", "return_indices"),
}
DEFAULTS = {"stride": None, "padding": 0, "dilation": 1, "ceil_mode": False, "count_include_pad": True,
            "divisor_override": None, "return_indices": False}
FUNCTION = re.compile(r"(max_pool|avg_pool|lp_pool|adaptive_avg_pool|adaptive_max_pool)([123])d")

# Case-string operators in the order the file lists them.
OPERATORS = ("maxpool", "averagepool", "lppool", "globalmaxpool", "globalaveragepool", "globallppool")


def pool_function(name: str) -> str | None:
    """The traced function `name` as its family and rank ("max_pool2d"), or None if it is no
    pooling function. F.max_pool2d dispatches to _max_pool2d or max_pool2d_with_indices, and
    F.adaptive_max_pool2d likewise: one node each way."""
    name = name.lstrip("_")
    if name.endswith("_with_indices"):
        name = name[: -len("_with_indices")]
    return name if FUNCTION.fullmatch(name) else None


def bind_arguments(function: str, args: tuple, kwargs: dict) -> dict:
    """The arguments after the input, by name, with torch's defaults filled in."""
    names = PARAMETERS[FUNCTION.fullmatch(function).group(1)]
    if len(args) > len(names):
        raise ValueError(f"{function}: {len(args)} positional arguments after the input")
    bound = {name: DEFAULTS.get(name) for name in names}
    bound.update(zip(names, args))
    for key, value in kwargs.items():
        if key not in bound:
            raise ValueError(f"{function}: unknown argument {key!r}")
        bound[key] = value
    return bound


def _per_axis(value, rank: int, what: str) -> tuple:
    """An int, or a sequence of one or `rank` ints, as `rank` ints (torch's _single/_pair/_triple)."""
    values = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    if len(values) == 1:
        values *= rank
    if len(values) != rank:
        raise ValueError(f"{what} {value!r} for {rank} spatial axes")
    return values


def _dims(values) -> str:
    return "x".join(str(int(v)) for v in values)


def case_string(function: str, shape: tuple, arguments: dict) -> tuple[str | None, str | None]:
    """(case string, None) for a pooling call that is an ONNX node, (None, what was skipped) for
    one that is not. `shape` is the input's; `arguments` as bind_arguments gives them."""
    family, rank = FUNCTION.fullmatch(function).group(1), int(FUNCTION.fullmatch(function).group(2))
    shape = tuple(int(d) for d in shape)
    if len(shape) == rank + 1:
        shape = (1,) + shape  # unbatched input: ONNX always has N
    if len(shape) != rank + 2:
        raise ValueError(f"{function} on an input of shape {shape}")
    spatial = shape[2:]

    if family.startswith("adaptive_"):
        size = _per_axis(arguments["output_size"], rank, "output_size")
        size = tuple(s if o is None else int(o) for s, o in zip(spatial, size))  # None keeps the axis
        if all(o == 1 for o in size):
            operator = "globalaveragepool" if family == "adaptive_avg_pool" else "globalmaxpool"
            return f"{operator}:{_dims(shape)}", None
        return None, f"{function}:{_dims(shape)}->{_dims(size)}"

    if family == "avg_pool" and arguments["divisor_override"] is not None:
        return None, f"{function}:{_dims(shape)}:divisor_override={arguments['divisor_override']}"
    if family == "lp_pool" and float(arguments["norm_type"]) != int(float(arguments["norm_type"])):
        return None, f"{function}:{_dims(shape)}:norm_type={arguments['norm_type']}"

    kernel = _per_axis(arguments["kernel_size"], rank, "kernel_size")
    # torch's stride defaults to the kernel (None, or [] in the builtins).
    stride = arguments["stride"]
    stride = kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) else \
        _per_axis(stride, rank, "stride")
    padding = _per_axis(arguments.get("padding", 0), rank, "padding")
    dilation = _per_axis(arguments.get("dilation", 1), rank, "dilation")

    operator = {"max_pool": "maxpool", "avg_pool": "averagepool", "lp_pool": "lppool"}[family]
    fields = [operator, _dims(shape), "k" + _dims(kernel), "s" + _dims(stride)]
    if any(int(d) != 1 for d in dilation):
        fields.append("d" + _dims(dilation))
    if any(int(p) for p in padding):
        fields.append("p" + _dims(padding + padding))  # torch pads both ends alike; ONNX: begins, ends
    # Written as the model sets them, as an exporter writes the node, even where they change
    # nothing (ceil_mode on an exact division, count_include_pad without pads).
    if arguments["ceil_mode"]:
        fields.append("ceil")
    if family == "avg_pool" and arguments["count_include_pad"]:
        fields.append("cip")
    if family == "lp_pool":
        fields.append(f"lp{int(float(arguments['norm_type']))}")
    return ":".join(fields), None


def spatial_mean(shape: tuple, dim) -> str | None:
    """The input shape of a mean over every spatial axis of an NCHW or NCDHW map (mnasnet's head
    is x.mean([2, 3])), else None. ONNX writes it as ReduceMean: GlobalAveragePool's arithmetic
    but no pooling node, so the header counts these apart from the nodes."""
    rank = len(shape)
    if rank not in (4, 5) or dim is None:
        return None
    dims = dim if isinstance(dim, (list, tuple)) else (dim,)
    if sorted(int(d) % rank for d in dims) != list(range(2, rank)):
        return None
    return _dims(shape)


def case_sort_key(case: str):
    """The file's order: operator, spatial rank, then the numbers of the string in turn."""
    fields = case.split(":")
    operator = OPERATORS.index(fields[0]) if fields[0] in OPERATORS else len(OPERATORS)
    numbers = tuple(int(n) for n in re.findall(r"\d+", ":".join(fields[1:])))
    return (operator, fields[1].count("x") if len(fields) > 1 else 0, numbers, case)


def merge(calls) -> dict:
    """{case: {model: calls}} from (model, case) pairs, one per traced call."""
    nodes = defaultdict(Counter)
    for model, case in calls:
        nodes[case][model] += 1
    return {case: dict(models) for case, models in nodes.items()}


def format_census(header: list, nodes: dict) -> str:
    """The file: `# header` lines, then one `CASE  # model:calls,...` line per node, nodes in
    case_sort_key order and models by name."""
    lines = [("# " + line).rstrip() for line in header]
    for case in sorted(nodes, key=case_sort_key):
        models = ",".join(f"{model}:{count}" for model, count in sorted(nodes[case].items()))
        lines.append(f"{case}  # {models}")
    return "\n".join(lines) + "\n"


def parse_census(text: str) -> dict:
    """format_census's nodes back from its text: the first whitespace-separated token of each
    line that has one before any `#` is the case; the `model:calls` list follows the `#`."""
    nodes = {}
    for number, line in enumerate(text.splitlines(), 1):
        body, _, comment = line.partition("#")
        if not body.split():
            continue
        case = body.split()[0]
        models = {}
        for item in filter(None, (part.strip() for part in comment.split(","))):
            model, _, count = item.rpartition(":")
            if not model or not count.isdigit():
                raise ValueError(f"line {number}: {item!r} is not model:calls")
            models[model] = int(count)
        if case in nodes:
            raise ValueError(f"line {number}: {case} listed twice")
        nodes[case] = models
    return nodes


def make_divisible(value: float, divisor: int = 8) -> int:
    """Rounds a scaled channel count up to a multiple of 8, as the YOLO model builders do."""
    return math.ceil(value / divisor) * divisor


# Width multiplier and channel cap of each variant. YOLOv5 (v6.0 on) scales the backbone's
# 1024 channels by the width alone; YOLOv8 also caps them at max_channels first.
YOLO_VARIANTS = {
    "yolov5": {"n": (0.25, 1024), "s": (0.50, 1024), "m": (0.75, 1024), "l": (1.00, 1024), "x": (1.25, 1024)},
    "yolov8": {"n": (0.25, 1024), "s": (0.50, 1024), "m": (0.75, 768), "l": (1.00, 512), "x": (1.25, 512)},
}
YOLO_INPUT = 640
YOLO_STRIDE = 32  # the P5 map SPPF runs on


def sppf_channels(width: float, max_channels: int) -> int:
    """SPPF's MaxPool channels: half its input (c_ = c1 // 2), the last backbone stage's
    make_divisible(min(1024, max_channels) * width)."""
    return make_divisible(min(1024, max_channels) * width) // 2


def sppf_calls() -> list:
    """(model, case) for each of SPPF's three MaxPools in every YOLO variant."""
    side = YOLO_INPUT // YOLO_STRIDE
    calls = []
    for family, variants in YOLO_VARIANTS.items():
        for variant, (width, max_channels) in variants.items():
            shape = (1, sppf_channels(width, max_channels), side, side)
            case, _ = case_string("max_pool2d", shape, bind_arguments("max_pool2d", (5, 1, 2), {}))
            calls += [(family + variant, case)] * 3
    return calls


# --- What needs torch: building the models and tracing their forward pass. ---


def default_input_shape(name: str, video: bool) -> tuple:
    """Batch 1 at the size the model's DEFAULT weights are evaluated at: their transform's crop
    size, and for video models the clip length their documentation gives."""
    from torchvision.models import get_model_weights

    weights = get_model_weights(name).DEFAULT
    crop = list(weights.transforms().crop_size)
    if len(crop) == 1:
        crop *= 2
    if not video:
        return (1, 3, *crop)
    clip = re.search(r"clip_len=(\d+)", weights.meta.get("_docs", ""))
    if not clip:
        raise SystemExit(f"model_census: {name}'s weights do not say their clip length")
    return (1, 3, int(clip.group(1)), *crop)


def trace(build, input_shape: tuple, build_on: str, run_on: str) -> list:
    """(function, input shape, arguments) of every pooling call in one forward pass of the model
    `build` makes on device `build_on`, moved to `run_on`."""
    import torch
    from torch.overrides import TorchFunctionMode

    calls = []

    class PoolTracer(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = getattr(func, "__name__", "")
            function = pool_function(name)
            if function is not None:
                rest = dict(kwargs)
                x = args[0] if args else rest.pop("input", rest.pop("self", None))
                calls.append((function, tuple(x.shape), bind_arguments(function, tuple(args[1:]), rest)))
            elif name == "mean" and args and hasattr(args[0], "shape"):
                dim = args[1] if len(args) > 1 else kwargs.get("dim")
                shape = spatial_mean(tuple(args[0].shape), dim)
                if shape is not None:
                    calls.append(("mean", shape, {}))
            # The mode is off while this runs: F.lp_pool2d's own avg_pool2d is not a second call.
            return func(*args, **kwargs)

    with torch.no_grad():
        with torch.device(build_on):
            model = build().eval()
        model = model.to(run_on)
        with torch.device(run_on):
            x = torch.empty(input_shape)
            with PoolTracer():
                model(x)
    return calls


# Where a model is built and where it runs, tried in turn: on "meta" nothing is computed; a
# model whose constructor computes on values (regnet's widths) is built on the CPU and still
# runs on meta; one whose forward pass needs values would run on the CPU.
DEVICES = (("meta", "meta"), ("cpu", "meta"), ("cpu", "cpu"))


def trace_anywhere(build, input_shape: tuple, log, name: str) -> tuple:
    """(trace's calls, (build device, run device))."""
    for devices in DEVICES:
        try:
            return trace(build, input_shape, *devices), devices
        except Exception as error:  # torch raises several types for a value it has not computed
            if devices == DEVICES[-1]:
                raise
            log(f"model_census: {name}: failed built on {devices[0]} and run on {devices[1]} "
                f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); next")


def census_models(only=None, log=print):
    """([(model, case)], [(model, skipped)], [(model, spatial mean)], {model: input shape},
    [models not all on meta])."""
    import warnings

    import torch
    import torchvision.models as models

    warnings.filterwarnings("ignore")  # googlenet's and inception's init_weights notice, and the like
    torch.manual_seed(0)
    calls, skipped, means, inputs, on_cpu = [], [], [], {}, []
    for module, video in ((models, False), (models.video, True)):
        for name in models.list_models(module=module):
            if only and name not in only:
                continue
            shape = default_input_shape(name, video)
            inputs[name] = shape

            # A ViT is built for one image size, which its weights set when they are loaded
            # (vit_h_14's are 518x518); without weights it would be built for 224.
            options = {"image_size": shape[-1]} if name.startswith("vit_") else {}

            def build(name=name, options=options):
                return models.get_model(name, weights=None, **options)
            traced, devices = trace_anywhere(build, shape, log, name)
            if devices != DEVICES[0]:
                on_cpu.append(f"{name} (built on {devices[0]}, run on {devices[1]})")
            for function, input_shape, arguments in traced:
                if function == "mean":
                    means.append((name, "mean:" + input_shape))
                    continue
                case, skip = case_string(function, input_shape, arguments)
                (calls if case else skipped).append((name, case or skip))
            log(f"model_census: {name} {'x'.join(map(str, shape))}: {len(traced)} calls traced")
    return calls, skipped, means, inputs, on_cpu


def check_sppf(log=print):
    """Runs the SPPF pools as the block's module does (one MaxPool2d applied three times) and
    checks the traced calls against sppf_calls()."""
    import torch

    class SppfPools(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = torch.nn.MaxPool2d(kernel_size=5, stride=1, padding=2)

        def forward(self, x):
            y1 = self.m(x)
            y2 = self.m(y1)
            return torch.cat((x, y1, y2, self.m(y2)), 1)

    expected = sppf_calls()
    side = YOLO_INPUT // YOLO_STRIDE
    traced = []
    for family, variants in YOLO_VARIANTS.items():
        for variant, (width, max_channels) in variants.items():
            shape = (1, sppf_channels(width, max_channels), side, side)
            traced += [(family + variant, case_string(*call)[0]) for call in trace(SppfPools, shape, "meta", "meta")]
    if traced != expected:
        raise SystemExit(f"model_census: SPPF traced as {traced}, not {expected}")
    log(f"model_census: SPPF {len(traced)} calls in {len(traced) // 3} YOLO variants")
    return traced


def _paragraph(text: str, indent: str = "") -> list:
    return textwrap.wrap(text, HEADER_WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False)


def _calls(count: int) -> str:
    return f"{count} call" + ("" if count == 1 else "s")


def _model_list(models: dict) -> str:
    return ",".join(f"{model}:{count}" for model, count in sorted(models.items()))


def header_lines(calls, skipped, means, inputs, command: str) -> list:
    import torch
    import torchvision

    nodes = merge(calls)
    usual = Counter(inputs.values()).most_common(1)[0][0]
    others = defaultdict(list)
    for name, shape in sorted(inputs.items()):
        if shape != usual:
            others[shape].append(name)
    without = sorted(set(inputs) - {model for model, _ in calls})
    yolo = ", ".join(f"{family}{v} {sppf_channels(*w)}" for family, vs in YOLO_VARIANTS.items()
                     for v, w in vs.items())
    lines = _paragraph(
        f"Pooling nodes of torchvision {torchvision.__version__.split('+')[0]}'s classification and "
        f"video models (torch {torch.__version__.split('+')[0]}) and of YOLOv5's and YOLOv8's SPPF "
        "block, as onnxpool case strings (bench/README.md), one line per node:")
    lines.append("  CASE  # model:calls,...   (calls: how often one forward pass of the model runs it)")
    lines += _paragraph(
        "Batch 1, random weights, each model at the input size of its DEFAULT weights (video: their "
        f"clip length): {_dims(usual)}, except " + "; ".join(
            f"{_dims(shape)} {','.join(names)}"
            for shape, names in sorted(others.items(), key=lambda item: (len(item[0]), item[0]))) + ".")
    lines += _paragraph(
        "Adaptive pools with output 1 on every spatial axis are ONNX's global pools. Attributes are "
        "as the model sets them, as an exporter writes them, even where they change nothing: "
        "ceil_mode on an exact division, count_include_pad (PyTorch's default) without pads.")
    lines += _paragraph(
        "SPPF: three chained MaxPool 5x5/s1/p2 on the 20x20 map of a 640x640 input, on half the "
        "channels of the last backbone stage (YOLOv5 v6.0 on: 1024 x width; YOLOv8: min(1024, "
        f"max_channels) x width): {yolo}.")
    lines += _paragraph(
        f"{len(inputs)} torchvision models and {sum(len(v) for v in YOLO_VARIANTS.values())} YOLO "
        f"variants: {len(nodes)} distinct nodes, {_calls(len(calls))}. Without a pooling node: "
        + (", ".join(without) if without else "none") + ".")
    lines += _paragraph(
        f"Skipped, {_calls(len(skipped))}: adaptive pools with another output size (no ONNX pooling "
        "operator has their semantics) and avg_pool with a divisor_override (none in ONNX):")
    for what, models in sorted(merge(skipped).items(), key=lambda item: case_sort_key(item[0])):
        lines += _paragraph(f"{what}  {_model_list(models)}", "  ")
    lines += _paragraph(
        f"Not counted, {_calls(len(means))}: means over every spatial axis (ONNX ReduceMean, "
        "GlobalAveragePool's arithmetic but no pooling node), by input shape:")
    for what, models in sorted(merge(means).items(), key=lambda item: case_sort_key(item[0])):
        lines += _paragraph(f"{what}  {_model_list(models)}", "  ")
    lines.append(f"Regenerate: {command}")
    return lines


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT,
                        help="file to write (default: bench/models/torchvision.txt)")
    parser.add_argument("--models", default="", help="comma-separated torchvision names: only these "
                        "(a partial census, for trying the tool)")
    args = parser.parse_args(argv)
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731

    only = set(filter(None, args.models.split(",")))
    calls, skipped, means, inputs, on_cpu = census_models(only, log)
    calls += check_sppf(log)
    command = ".venv/bin/python tools/model_census.py -o bench/models/torchvision.txt"
    text = format_census(header_lines(calls, skipped, means, inputs, command), merge(calls))
    if parse_census(text) != merge(calls):
        raise SystemExit("model_census: the file does not read back as written")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    log(f"model_census: {len(merge(calls))} nodes from {len(inputs)} models "
        f"({len(on_cpu)} not all on meta{': ' + ', '.join(on_cpu) if on_cpu else ''}), "
        f"{len(skipped)} calls skipped; wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
