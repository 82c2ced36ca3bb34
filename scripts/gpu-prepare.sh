#!/usr/bin/env bash
# scripts/gpu-prepare.sh: on a machine with a package registry and the data folder, before a run
# on a GPU machine that has neither: put the Debian packages the build needs into .deps/ and the
# real graphs of the tests and the benchmark into .gpudata/. Both folders are git-ignored; copy
# them with the source tree to the GPU machine, then run scripts/gpu-run.sh there.
# SPDX-License-Identifier: Apache-2.0
#   scripts/gpu-prepare.sh            (K2GRB_DATA_DIR: the data folder, default the data folder
#                                      beside the source tree, ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${K2GRB_DATA_DIR:-../shared/data}
pkgs=(libgraphblas7 libgraphblas-dev libcmocka0 libcmocka-dev libxxhash0 libxxhash-dev zlib1g-dev)
mkdir -p .deps
if ! ls .deps/libgraphblas7_*.deb >/dev/null 2>&1; then
  (cd .deps && apt-get download "${pkgs[@]}")
fi
# the graphs of tests/support/k2_real_graphs.c (a BVGraph is its .graph, .properties, .offsets)
rm -rf .gpudata
mkdir -p .gpudata
grep -oE '^ *\{"[^"]+", "[^"]+"' tests/support/k2_real_graphs.c | sed -E 's/.*, "([^"]+)"/\1/' |
while read -r rel; do
  for f in "$data/$rel" "$data/$rel".graph "$data/$rel".properties "$data/$rel".offsets; do
    [ -f "$f" ] || continue
    mkdir -p ".gpudata/$(dirname "$rel")"
    cp "$f" ".gpudata/$(dirname "$rel")/"
  done
done
# the small folders the CPU tests read whole (gpu-run.sh suite runs them too)
for d in lagraph ldbc-graphalytics-examples; do
  [ -d "$data/$d" ] && rm -rf ".gpudata/$d" && cp -r "$data/$d" .gpudata/
done
echo "gpu-prepare: $(ls .deps/*.deb | wc -l) packages in .deps, $(find .gpudata -type f | wc -l) files ($(du -sh .gpudata | cut -f1)) in .gpudata"
