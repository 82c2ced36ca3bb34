#!/usr/bin/env bash
# scripts/bench-algorithms.sh: build bench_algorithms (Release, CPU only, in build-bench) and run
# it with the given arguments, e.g.
#   scripts/bench-algorithms.sh --graphs wiki-Vote,cnr-2000 --reps 3 --threads 2 --csv alg.csv
# (bench/bench_algorithms.c's header lists the options). BUILD_DIR overrides the build folder.
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${BUILD_DIR:-build-bench}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DK2_USE_CUDA=OFF -DK2_WERROR=ON >/dev/null
cmake --build "$dir" -j"$(nproc)" --target bench_algorithms >/dev/null
exec "$dir/bench/bench_algorithms" "$@"
