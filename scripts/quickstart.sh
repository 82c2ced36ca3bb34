#!/usr/bin/env bash
# Quick start: install the dependencies, build k2grb, run the demo (the main job).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target k2grb_cli >/dev/null
./build/tools/k2grb demo "$@"
