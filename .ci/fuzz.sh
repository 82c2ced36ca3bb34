#!/usr/bin/env bash
# Build the libFuzzer targets with clang in their own tree and run each for a bounded time on
# seed corpora made from small files (the data folder's small graphs plus a few written here).
#   K2_FUZZ_SECONDS  seconds per target (default 20)
#   K2_FUZZ_BUILD    build folder (default build-fuzz)
#   K2GRB_DATA_DIR   the shared data folder (default ../shared/data; seeds from it are optional)
# Exit status: non-zero if a target fails to build or finds a crash (the reproducer is left in
# the build folder as crash-*).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${K2_FUZZ_BUILD:-$root/build-fuzz}
secs=${K2_FUZZ_SECONDS:-20}
data=${K2GRB_DATA_DIR:-$root/../shared/data}
targets=(fuzz_matrix_market fuzz_edge_list fuzz_metis fuzz_bvgraph fuzz_k2)

CC=clang cmake -S "$root" -B "$build" -DK2_FUZZ=ON -DK2_USE_CUDA=OFF -DK2_BUILD_TESTS=OFF \
  -DK2_BUILD_BENCH=OFF -DK2_BUILD_TOOLS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target "${targets[@]}"

# Seeds: one file each. The first byte of a text seed selects the reader's options (0 = none).
seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{fuzz_matrix_market,fuzz_edge_list,fuzz_metis,fuzz_bvgraph,fuzz_k2}
seed() {  # seed <target> <name> <file or -> : prefix one options byte
  { printf '\0'; if [ "$3" = - ]; then cat; else head -c 8192 "$3"; fi; } >"$seeds/$1/$2"
}
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n' | seed fuzz_matrix_market sym -
printf '%%%%MatrixMarket matrix array complex hermitian\n2 2\n1 0\n2 1\n3 0\n' | seed fuzz_matrix_market herm -
printf '# c\n0 1\n1\t2 0.5\n' | seed fuzz_edge_list snap -
printf '3,2,d,graph\n1,2\n3,1\n' | seed fuzz_edge_list lightgraphs -
printf 'src,dst\n0,1\n' | seed fuzz_edge_list csv -
printf '%% c\n3 2\n2 3\n1\n1\n' | seed fuzz_metis plain -
printf '3 2 11\n9 2 5 3 7\n9 1 5\n9 1 7\n' | seed fuzz_metis weights -
if [ -d "$data" ]; then
  for f in "$data"/lagraph/*.mtx; do
    if [ "$(stat -c %s "$f")" -le 4096 ]; then seed fuzz_matrix_market "$(basename "$f")" "$f"; fi
  done
  for f in "$data"/ldbc-graphalytics-examples/*.e "$data"/snap-email-Eu-core/*.txt \
           "$data"/snap-p2p-Gnutella/p2p-Gnutella05.txt; do
    seed fuzz_edge_list "$(basename "$f")" "$f"
  done
  (zcat "$data"/snap-as-caida/*.jlg.gz 2>/dev/null || true) | head -c 4096 | seed fuzz_edge_list caida -
  for f in "$data"/networkit-misc/power.graph; do seed fuzz_metis "$(basename "$f")" "$f"; done
fi
# BVGraph seeds: [options][u32 len][properties][u32 len][graph][offsets]
bvseed() {  # bvseed <name> <basename>
  local p=$2.properties g=$2.graph o=$2.offsets
  { printf '\0'; python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<I', int(sys.argv[1])))" "$(stat -c %s "$p")"
    cat "$p"; python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<I', int(sys.argv[1])))" "$(stat -c %s "$g")"
    cat "$g"; [ -f "$o" ] && cat "$o"; } >"$seeds/fuzz_bvgraph/$1"
}
if [ -d "$data" ]; then
  bvseed harvard500 "$data"/harvard500/harvard500
  bvseed swh "$data"/swh-example/example
  bvseed swh-t "$data"/swh-example/example-transposed
fi
# .k2 seeds: small valid images written by the fuzz target itself
K2_FUZZ_WRITE_SEEDS=$seeds/fuzz_k2 "$build/tests/fuzz/fuzz_k2"

status=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  echo "== $t: ${secs}s"
  if ! (cd "$build" && "./tests/fuzz/$t" -max_total_time="$secs" -rss_limit_mb=2048 \
          -max_len=65536 -timeout=10 -print_final_stats=1 "$corpus" "$seeds/$t" 2>&1 | tail -15); then
    echo "!! $t found a problem (see $build/crash-* or leak-*)"
    status=1
  fi
done
exit $status
