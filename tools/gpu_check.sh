#!/usr/bin/env bash
# The CUDA backend on a real NVIDIA GPU, on a machine that has the GPU but
# not this project's toolchain (no Halide, no CMake, no Debian packages).
#
#   tools/gpu_check.sh pack   here: builds build-cuda/ (SSE4.1 + CUDA kernels
#                             only, the CUDA tests and GPU benchmark, the
#                             generators imported from build/) and packs the
#                             stripped programs, the official and own ONNX
#                             cases and the shared libraries they need into
#                             .device/onnxpool-gpu-check.tar.xz
#   tools/gpu_check.sh run    there, from the repository root with OUT set
#                             to a folder that comes back (and the tarball
#                             carried along: .device/ is ignored by git):
#                             unpacks it into $TMPDIR and
#                             runs every check and benchmark, each step under
#                             a timeout and the whole within GPU_CHECK_SECONDS
#                             (default 400); a failing step does not stop
#                             the rest. Writes to $OUT: gpu_check.log (every
#                             step's output), summary.txt, the device test's
#                             gtest XML, onnxpool_gpu_bench.json,
#                             torch_gpu_peers.json and gpu_report.md; exits
#                             1 unless every step passed.
#
# The run needs python3 with numpy (and torch with CUDA for the PyTorch
# rows; python3 also runs the report). PYTHON overrides python3.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

pack_file=.device/onnxpool-gpu-check.tar.xz
# The build's only targets: SSE4.1, which every x86-64 CPU a datacenter GPU
# sits in has, and the CUDA target of CMakeLists.txt's defaults.
cpu_target=x86-64-linux-sse41
cuda_target=x86-64-linux-sse41-cuda-cuda_capability_80
# The kernel-result tests CMake re-registers with ONNXPOOL_TEST_BACKEND=cuda
# (tests/CMakeLists.txt: backend_tests).
rerun_tests=(maxpool_property_test maxpool_corner_case_test threading_test average_lp_pool_property_test
             global_pool_property_test average_pool_corner_case_test lp_pool_corner_case_test
             global_pool_corner_case_test pool_dispatch_test window_wider_than_input_test window_segments_test
             heap_fault_test device_fault_test)
# The official cases per operator, as tools/runner/CMakeLists.txt counts them.
official_counts=(maxpool:19 averagepool:20 lppool:8 globalmaxpool:2 globalaveragepool:2)
max_pack_mib=60

pack() {
  set -e
  local build=build-cuda
  local stage="$build/gpu-check-pack"
  # The pack reuses the host build's toolchain and generators.
  if [[ ! -x .venv/bin/ninja || ! -f build/build.ninja ]]; then
    echo "gpu_check: no .venv or build/ here; run tools/test.sh (or tools/main.sh) once first" >&2
    exit 1
  fi
  local tool
  for tool in strip xz; do
    command -v "$tool" >/dev/null || { echo "gpu_check: '$tool' is missing (Debian: binutils, xz-utils)" >&2; exit 1; }
  done
  printf '== Making sure build/ has a current generator (the kernels come from it)\n'
  .venv/bin/ninja -C build onnxpool_generators

  printf '\n== Configuring %s\n' "$build"
  .venv/bin/cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_MAKE_PROGRAM=$root/.venv/bin/ninja" \
    "-Donnxpool-halide_generators_ROOT=$root/build" \
    "-DONNXPOOL_TARGETS=$cpu_target" -DONNXPOOL_TARGET_CPU_VARIANTS=kBaseline \
    "-DONNXPOOL_GPU_TARGETS=$cuda_target" -DONNXPOOL_GPU_TARGET_BACKENDS=kCuda \
    -DONNXPOOL_TEST_CUDA=ON -DONNXPOOL_BUILD_BENCH=OFF

  local programs=(onnxpool_cuda_device_tensor_test onnxpool_backend_test onnxpool_test_runner onnxpool_gpu_bench)
  for test in "${rerun_tests[@]}"; do programs+=("onnxpool_$test"); done
  printf '\n== Building %s (first time: generates every kernel for 2 targets, a few minutes)\n' "$build"
  .venv/bin/ninja -C "$build" "${programs[@]}"

  printf '\n== Staging %s\n' "$stage"
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/lib/fallback" "$stage/cases"
  local program path
  for program in "${programs[@]}"; do
    path=$(find "$build" -name "$program" -type f -perm -u+x -not -path "$stage/*" | head -n 1)
    [[ -n "$path" ]] || { echo "gpu_check: $program was not built" >&2; exit 1; }
    strip -o "$stage/bin/$program" "$path"
  done
  # The official cases as published (the remote gets no ../shared); the
  # regenerated copy in build/ if there is none.
  local official=../shared/onnx-node-tests
  [[ -d "$official" ]] || official=build/onnx-cases
  [[ -d "$official" ]] || { echo "gpu_check: no official ONNX cases (../shared/onnx-node-tests, build/onnx-cases)" >&2; exit 1; }
  cp -r "$official" "$stage/cases/official"
  .venv/bin/python tools/make_own_cases.py "$stage/cases/own" >/dev/null
  # Every shared library the programs load beyond the C and C++ runtimes
  # (libbenchmark.so.1debian: Debian's, absent there), and those runtimes in
  # lib/fallback, used only if the GPU machine's are older than these.
  local library
  for library in $(ldd "$stage"/bin/* | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
    case "$(basename "$library")" in
      libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*) ;;
      libstdc++.so.*|libgcc_s.so.*) cp -L "$library" "$stage/lib/fallback/" ;;
      *) cp -L "$library" "$stage/lib/" ;;
    esac
  done
  {
    echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname) from commit $(git rev-parse HEAD 2>/dev/null)"
    echo "targets: $cpu_target, $cuda_target; official cases from $official"
    echo "uncommitted changes:"
    git status --short 2>/dev/null | sed 's/^/  /'
  } > "$stage/MANIFEST"

  mkdir -p .device
  # One xz stream with a 64 MiB dictionary (-9, one thread): the programs
  # share most of their bytes (the same library and kernels), and only a
  # window that spans several of them finds that.
  tar -C "$stage" -cf - . | xz -9 -T1 > "$pack_file.tmp"
  mv "$pack_file.tmp" "$pack_file"
  local bytes
  bytes=$(stat -c %s "$pack_file")
  printf '\n== %s: %s bytes (%s MiB); staged %s\n' "$pack_file" "$bytes" "$((bytes / 1048576))" \
    "$(du -sh "$stage" | cut -f1)"
  if ((bytes > max_pack_mib * 1048576)); then
    echo "gpu_check: the pack is over ${max_pack_mib} MiB" >&2
    exit 1
  fi
}

# ---- run ---------------------------------------------------------------------

summary=()

# A step's output, its first 400 and last 100 lines: a step in which every
# case fails must not bury the rest of the log (nor make it too big to come
# back). Streams as it goes.
clip() {
  awk -v head=400 -v tail=100 '
    NR <= head { print; fflush(); next }
    { ring[NR % tail] = $0 }
    END {
      if (NR <= head) exit
      first = NR - tail + 1
      if (first <= head) first = head + 1
      if (first > head + 1) printf "... %d lines not shown ...\n", first - head - 1
      for (i = first; i <= NR; i++) print ring[i % tail]
    }'
}

# step NAME SECONDS COMMAND...: runs COMMAND under a timeout of SECONDS, cut
# to what is left of the run's time; records PASS, FAIL or TIMEOUT.
step() {
  local name=$1 limit=$2
  shift 2
  local left=$((deadline - $(date +%s)))
  if ((left < 15)); then
    printf '\n=== [%s] SKIPPED: the run is out of time\n' "$name"
    summary+=("$(printf '%-34s SKIPPED (out of time)' "$name")")
    return
  fi
  ((limit > left)) && limit=$left
  printf '\n=== [%s] timeout %ss: %s\n' "$name" "$limit" "$*"
  local began=$SECONDS
  timeout -k 10 "$limit" "$@" 2>&1 | clip
  record "$name" "${PIPESTATUS[0]}" $((SECONDS - began))
}

record() {
  local name=$1 rc=$2 seconds=$3 verdict
  case $rc in
    0) verdict=PASS ;;
    124|137) verdict="TIMEOUT" ;;
    *) verdict="FAIL (exit $rc)" ;;
  esac
  printf '=== [%s] %s after %ss\n' "$name" "$verdict" "$seconds"
  summary+=("$(printf '%-34s %-16s %4ss' "$name" "$verdict" "$seconds")")
}

# The bench, then a check that no row of its JSON is an error (Google
# Benchmark exits 0 when rows fail).
gpu_bench() {
  local json=$1
  shift
  "$@" --benchmark_out="$json" --benchmark_out_format=json || return
  if grep -q '"error_occurred": true' "$json"; then
    echo "gpu_check: some benchmark rows failed (error_occurred in $json)"
    return 1
  fi
}

# The kernel-result tests on the CUDA backend, all at once (the GPU has room
# and they are independent), each log shown when all are done.
kernel_result_reruns() {
  local left=$((deadline - $(date +%s) - 5)) limit=240 test
  ((limit > left)) && limit=$left
  if ((limit < 15)); then
    summary+=("$(printf '%-34s SKIPPED (out of time)' "cuda_* reruns")")
    return
  fi
  printf '\n=== [cuda_* reruns] %s tests in parallel, timeout %ss each, ONNXPOOL_TEST_BACKEND=cuda\n' \
    "${#rerun_tests[@]}" "$limit"
  local pids=() began=$SECONDS
  for test in "${rerun_tests[@]}"; do
    ONNXPOOL_TEST_BACKEND=cuda timeout -k 10 "$limit" "$work/bin/onnxpool_$test" --gtest_brief=1 \
      > "$work/logs/cuda_$test.log" 2>&1 &
    pids+=($!)
  done
  local i rc
  for i in "${!rerun_tests[@]}"; do
    wait "${pids[$i]}"
    rc=$?
    printf '\n--- cuda_%s\n' "${rerun_tests[$i]}"
    clip < "$work/logs/cuda_${rerun_tests[$i]}.log"
    record "cuda_${rerun_tests[$i]}" $rc $((SECONDS - began))
  done
}

# tar's xz needs the xz program; Python's tarfile has the codec built in.
unpack() {
  if command -v xz > /dev/null; then
    tar -xJf "$1" -C "$2"
  else
    "${PYTHON:-python3}" -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' "$1" "$2"
  fi
}

run() {
  : "${OUT:?tools/gpu_check.sh run: set OUT to the folder whose files come back}"
  export PYTHONUNBUFFERED=1
  mkdir -p "$OUT"
  deadline=$(($(date +%s) + ${GPU_CHECK_SECONDS:-400}))
  run_steps 2>&1 | tee "$OUT/gpu_check.log"
}

run_steps() {
  local python=${PYTHON:-python3}

  # Outside the repository, so nothing unpacked here is ever carried along.
  work=${GPU_CHECK_WORK:-${TMPDIR:-/tmp}/onnxpool-gpu-check}
  rm -rf "$work"
  mkdir -p "$work/logs"
  printf '=== gpu_check run %s, in %s, unpacking into %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$root" "$work"
  if ! unpack "$pack_file" "$work"; then
    echo "gpu_check: cannot unpack $pack_file (tools/gpu_check.sh pack makes it; carry it along)"
    exit 1
  fi
  cat "$work/MANIFEST"
  export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ! "$work/bin/onnxpool_test_runner" --help > /dev/null 2>&1; then
    echo "gpu_check: the programs do not start with this machine's C++ runtime; using the packed one"
    "$work/bin/onnxpool_test_runner" --help 2>&1 | head -n 3
    export LD_LIBRARY_PATH="$work/lib:$work/lib/fallback${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  # One JIT cache for every process of the run: the driver compiles each
  # kernel's PTX once, not once per program.
  export CUDA_CACHE_PATH="$work/cuda-cache"
  unset ONNXPOOL_TEST_BACKEND

  step nvidia-smi 30 nvidia-smi
  step machine 30 sh -c "uname -a; ldd --version | head -n 1; nproc; $python --version;
    $python -c 'import torch; print(\"torch\", torch.__version__, \"CUDA\", torch.version.cuda, \"available\", torch.cuda.is_available())'"
  step cuda_device_tensor_test 180 "$work/bin/onnxpool_cuda_device_tensor_test" \
    --gtest_filter=-CudaMisalignedTest.* "--gtest_output=xml:$OUT/cuda_device_tensor_test.xml"
  # Its own process: a misaligned access is a sticky CUDA error (see the test).
  step cuda_misaligned_tensors 60 "$work/bin/onnxpool_cuda_device_tensor_test" --gtest_filter=CudaMisalignedTest.*
  step backend_test 60 "$work/bin/onnxpool_backend_test"
  local op_and_count
  for op_and_count in "${official_counts[@]}"; do
    step "conformance_cuda_${op_and_count%%:*}" 60 sh tools/runner/run_cases.sh "$work/bin/onnxpool_test_runner" \
      "$work/cases/official" "test_${op_and_count%%:*}" "${op_and_count##*:}" --device cuda
  done
  step conformance_cuda_own_cases 60 sh tools/runner/run_cases.sh "$work/bin/onnxpool_test_runner" \
    "$work/cases/own" own all --device cuda
  # 0.1 s per repetition: a row's event-timed calls cost about twice their
  # manual time in wall time, and 36 rows must fit the step.
  export -f gpu_bench
  step onnxpool_gpu_bench 150 bash -c 'gpu_bench "$@"' gpu_bench "$OUT/onnxpool_gpu_bench.json" \
    "$work/bin/onnxpool_gpu_bench" --benchmark_min_time=0.1
  step torch_gpu_peers 150 "$python" bench/torch_gpu_peers.py -o "$OUT/torch_gpu_peers.json"
  local device
  device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
  step gpu_report 30 "$python" tools/bench_report.py "$OUT/onnxpool_gpu_bench.json" "$OUT/torch_gpu_peers.json" \
    -o "$OUT/gpu_report.md" --no-plot --title "onnxpool on CUDA against PyTorch${device:+ ($device)}"
  kernel_result_reruns

  printf '\n=== summary (%ss)\n' "$SECONDS"
  printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
  [[ -f "$OUT/gpu_report.md" ]] && sed -n '/^## Summary/,/^## Notes/p' "$OUT/gpu_report.md"
  # Exit status 1 unless every step passed.
  ! printf '%s\n' "${summary[@]}" | grep -qv ' PASS '
}

case ${1:-} in
  pack) pack ;;
  run) run ;;
  *)
    echo "usage: tools/gpu_check.sh pack|run (see the comment at its top)" >&2
    exit 2
    ;;
esac
