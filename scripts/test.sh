#!/usr/bin/env bash
# Build and run the whole test suite. With --sanitize: the ASan+UBSan build (CPU code only).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
dir=build-test
opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DK2_WERROR=ON)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  opts=(-DCMAKE_BUILD_TYPE=Debug -DK2_WERROR=ON -DK2_SANITIZE=ON -DK2_USE_CUDA=OFF -DK2_BUILD_BENCH=OFF)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
cmake -S . -B "$dir" "${opts[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j2 --timeout 900 --no-tests=error
