#!/usr/bin/env bash
# scripts/gpu-par.sh: one build, then one scripts/gpu-run.sh per GPU at the same time (a machine
# with several GPUs: two long benchmarks, or the tests beside a benchmark, in one call).
# SPDX-License-Identifier: Apache-2.0
#   scripts/gpu-par.sh 'STEPS[;BENCH_ARGS]' 'STEPS[;BENCH_ARGS]' ...
# Lane k runs on GPU k (CUDA_VISIBLE_DEVICES=k) with its share of the CPU cores (OpenMP) and
# writes its logs and CSV under $OUT/gpuk/. Example:
#   scripts/gpu-par.sh 'bench;--no-real --rmat 26u --grid 0' 'bench;--no-real --rmat 26p --grid 0'
# GPU timings are per device (CUDA events); the lanes share only the host, so only the host-side
# build and check times of a lane are slowed by the others.
set -u
OUT=${OUT:-/tmp/k2-gpu-out}
mkdir -p "$OUT"
all=""
for lane in "$@"; do all="$all ${lane%%;*}"; done
BUILD_ONLY=1 scripts/gpu-run.sh $all || exit 1
ngpu=$(nvidia-smi -L | wc -l)
[ "$#" -le "$ngpu" ] || { echo "gpu-par: $# lanes, $ngpu GPUs"; exit 1; }
threads=$(( $(nproc) / $# ))
k=0
pids=()
for lane in "$@"; do
  steps=${lane%%;*}
  bench=""
  case $lane in *";"*) bench=${lane#*;} ;; esac
  mkdir -p "$OUT/gpu$k"
  CUDA_VISIBLE_DEVICES=$k OMP_NUM_THREADS=$threads OUT="$OUT/gpu$k" SKIP_BUILD=1 \
    BENCH_ARGS="$bench" scripts/gpu-run.sh $steps >"$OUT/gpu$k/console.log" 2>&1 &
  pids+=($!)
  k=$((k + 1))
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
for d in "$OUT"/gpu*; do
  echo "=== $d"
  tail -30 "$d/console.log"
done
exit $rc
