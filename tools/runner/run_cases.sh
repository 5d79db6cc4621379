#!/bin/sh
# Runs one group of case folders through onnxpool_test_runner for ctest.
#   run_cases.sh RUNNER CASES_DIR NAME COUNT [RUNNER_OPTION...]
# The group is the folders CASES_DIR/NAME and CASES_DIR/NAME_*. It passes
# only when the group holds exactly COUNT cases (COUNT "all": at least one)
# and the runner's last line is "COUNT passed, 0 failed", so a case that is
# missing, renamed or not run fails the test as surely as a wrong value.
# RUNNER_OPTIONs (e.g. --device opencl) go to the runner before the cases.
set -u
if [ $# -lt 4 ]; then
  echo "usage: run_cases.sh RUNNER CASES_DIR NAME COUNT [RUNNER_OPTION...]" >&2
  exit 2
fi
runner=$1
dir=$2
name=$3
expected=$4
shift 4
# "$@" is now the runner's options; the case folders follow them.
found=0
for case_dir in "$dir/$name" "$dir/$name"_*; do
  if [ -d "$case_dir" ]; then
    set -- "$@" "$case_dir"
    found=$((found + 1))
  fi
done
if [ "$expected" = all ]; then
  expected=$found
  if [ "$expected" -eq 0 ]; then
    echo "run_cases.sh: no case named $name or ${name}_* in $dir" >&2
    exit 1
  fi
elif [ "$found" -ne "$expected" ]; then
  echo "run_cases.sh: $found cases named $name or ${name}_* in $dir, expected $expected" >&2
  exit 1
fi
output=$("$runner" "$@")
status=$?
printf '%s\n' "$output"
last=$(printf '%s\n' "$output" | tail -n 1)
if [ "$status" -ne 0 ] || [ "$last" != "$expected passed, 0 failed" ]; then
  echo "run_cases.sh: expected '$expected passed, 0 failed' and exit status 0, got '$last' and $status" >&2
  exit 1
fi
