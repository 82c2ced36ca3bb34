#!/usr/bin/env bash
# scripts/gpu-run.sh: the one GPU run (on the H200 machine, from the repository root).
# SPDX-License-Identifier: Apache-2.0
#
# Unpacks the Debian packages in .deps/ (scripts/gpu-prepare.sh; no registry there), configures and builds
# with CUDA for sm_90 (+ PTX), runs the GPU tests, then the same tests under compute-sanitizer
# memcheck and racecheck, then the benchmark; logs and CSV go to $OUT.
#   scripts/gpu-run.sh [test] [sanitize|memcheck|racecheck] [suite] [stress] [algsan] [bench] [algorithms]
#   (default: test sanitize bench). suite: the whole test suite with the CUDA engine forced in
#   strict mode (K2GRB_ENGINE=cuda K2GRB_STRICT=1), so every native product of the bridge, the
#   algorithms and the CPU tests' AUTO products runs on the GPU (the GPU tests are step test),
#   once with the default device configuration and once with row blocks
#   (K2GRB_DEVICE_CONFIG=rows), then the bridge's differential test under compute-sanitizer
#   memcheck.
# stress: the algorithm tests and the differential test, STRESS_COPIES (default 8) processes of
#   each at once in both device configurations, CUDA engine strict: timing-dependent faults
#   (an upload not yet landed when the first product ran) showed only this way.
# PAR=1: test and the sanitizer steps run each cmocka test of test_gpu_product as its own
# process, all at once (one GPU, many CPU cores: the sanitizers are host-bound), each capped at
# PAR_TIMEOUT seconds (default 480); test_real_graphs as REAL_SHARDS processes (default 6), each
# checking a share of the real graphs (K2GRB_GPU_SHARD=i/n).
# Graph data: the files under .gpudata/ (copied from the data folder by scripts/gpu-prepare.sh).
# Bench options: BENCH_ARGS (passed to bench_gpu), e.g. "--rmat 22,24 --web 1e8".
# algorithms: bench_algorithms with the CUDA engine against SuiteSparse on all the host's cores;
#   ALG_ARGS are its further options, e.g. "--reps 3 --max-seconds 10 --rmat 20,22".
#   (not in the default steps)
# algsan: compute-sanitizer memcheck (with leak check) and racecheck on the algorithm tests with
#   the CUDA engine forced in strict mode, one process per cmocka test of each (K2GRB_TEST_FILTER),
#   all at once, each capped at PAR_TIMEOUT seconds, in the tests' quick mode (K2GRB_TEST_QUICK=1:
#   test_bfs's searches from every source and along thousands of levels ran past 470 s each);
#   ALG_TESTS picks some of the programs (default all six). (not in the default steps)
# SANITIZE_FILTER: run only the GPU tests matching this cmocka pattern under compute-sanitizer
# (e.g. "test_plus_kernel"); default all.
# BUILD_ONLY=1: unpack, configure and build what the steps need, run nothing; SKIP_BUILD=1: run
# the steps on the build already there (scripts/gpu-par.sh: one build, one run per GPU).
set -u
OUT=${OUT:-/tmp/k2-gpu-out}
mkdir -p "$OUT"
STEPS=${*:-test sanitize bench}
ROOT=$PWD
PREFIX=/tmp/k2prefix
BUILD=${BUILD:-build-gpu}
log() { echo "== $(date +%T) $*" | tee -a "$OUT/run.log"; }
# the cmocka tests of test_gpu_product, by name (for K2GRB_GPU_FILTER)
gpu_test_names() { grep -o 'cmocka_unit_test(test_[a-z0-9_]*)' tests/gpu/test_gpu_product.c |
  sed 's/cmocka_unit_test(\(.*\))/\1/'; }
# the algorithm test programs, and the cmocka tests of one of them
ALG_TESTS=${ALG_TESTS:-"test_bfs test_msbfs test_pagerank test_sssp test_wcc test_graph"}
alg_test_names() { grep -o 'cmocka_unit_test(test_[a-z0-9_]*)' "tests/algorithms/$1.c" |
  sed 's/cmocka_unit_test(\(.*\))/\1/'; }
# wait for every background job; false if any failed
wait_all() { local r=0 p; for p in $(jobs -p); do wait "$p" || r=1; done; return $r; }

log "machine: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1)"
log "nvcc: $(nvcc --version | tail -1)"
LIBDIR=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIBDIR:${LD_LIBRARY_PATH:-}
export K2GRB_DATA_DIR=$ROOT/.gpudata
if [ "${SKIP_BUILD:-0}" != 1 ]; then
mkdir -p $PREFIX
for f in .deps/*.deb; do dpkg -x "$f" $PREFIX; done
# zlib1g-dev's libz.so points at the builder's libz; point it at this machine's.
ZSO=$(ls /lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1 2>/dev/null | head -1)
[ -n "$ZSO" ] && ln -sf "$ZSO" $LIBDIR/libz.so

log "configure"
cmake -S . -B $BUILD -DCMAKE_BUILD_TYPE=Release -DK2_USE_CUDA=ON -DK2_WERROR=ON \
  -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual" -DGRAPHBLAS_ROOT=$PREFIX/usr \
  -DGRAPHBLAS_INCLUDE_DIR=$PREFIX/usr/include -DGRAPHBLAS_LIBRARY=$LIBDIR/libgraphblas.so \
  -DCMOCKA_INCLUDE_DIR=$PREFIX/usr/include -DCMOCKA_LIBRARY=$LIBDIR/libcmocka.so \
  -DXXHASH_INCLUDE_DIR=$PREFIX/usr/include -DZLIB_ROOT=$PREFIX/usr \
  -DK2_DATA_DIR=$ROOT/.gpudata >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
log "build"
TARGETS=$(cd tests/gpu && ls test_*.c | sed 's/\.c$//' | tr '\n' ' ')
case " $STEPS " in *" suite "* | *" stress "* | *" algsan "*) TARGETS="all" ;; esac
if grep -q bench_gpu bench/CMakeLists.txt 2>/dev/null; then
  TARGETS="$TARGETS bench_gpu"
fi
case " $STEPS " in *" algorithms "*) TARGETS="$TARGETS bench_algorithms" ;; esac
for t in $TARGETS; do
  cmake --build $BUILD -j16 --target $t >>"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
done
grep -iE "warning" "$OUT/build.log" | head -20
fi
[ "${BUILD_ONLY:-0}" = 1 ] && { log "built"; exit 0; }

rc=0
for step in $STEPS; do
  case $step in
    test)
      if [ "${PAR:-0}" = 1 ]; then
        log "test_gpu_product, one process per test"
        for name in $(gpu_test_names); do
          if [ $name = test_real_graphs ]; then  # its graphs split over REAL_SHARDS processes
            for ((i = 0; i < ${REAL_SHARDS:-6}; i++)); do
              K2GRB_GPU_SHARD=$i/${REAL_SHARDS:-6} K2GRB_GPU_FILTER=$name timeout ${PAR_TIMEOUT:-480} \
                $BUILD/tests/test_gpu_product >"$OUT/test-$name-$i.log" 2>&1 &
            done
            continue
          fi
          K2GRB_GPU_FILTER=$name timeout ${PAR_TIMEOUT:-480} $BUILD/tests/test_gpu_product \
            >"$OUT/test-$name.log" 2>&1 &
        done
        wait_all || rc=1
        for log in $(ls "$OUT"/test-test_*.log); do
          echo "$(basename $log .log): $(grep -E 'PASSED|FAILED|real graphs' "$log" | tr '\n' ' ')"
        done | tee -a "$OUT/run.log"
      else
        log "ctest -L gpu"
        ctest --test-dir $BUILD -L gpu --output-on-failure 2>&1 | tee "$OUT/ctest.log" | tail -40
        [ "${PIPESTATUS[0]}" = 0 ] || rc=1
      fi ;;
    sanitize|memcheck|racecheck)
      tools="memcheck racecheck"
      [ $step = sanitize ] || tools=$step
      if [ "${PAR:-0}" = 1 ]; then
        for tool in $tools; do
          log "compute-sanitizer --tool $tool, one process per test (quick mode)"
          extra=""
          [ $tool = memcheck ] && extra="--leak-check full"
          for name in $(gpu_test_names); do
            K2GRB_GPU_QUICK=1 K2GRB_GPU_FILTER=$name timeout ${PAR_TIMEOUT:-480} \
              compute-sanitizer --tool $tool $extra --error-exitcode 99 \
              $BUILD/tests/test_gpu_product >"$OUT/sanitize-$tool-$name.log" 2>&1 &
          done
        done
        wait_all || rc=1
        for tool in $tools; do
          for name in $(gpu_test_names); do
            echo "$tool $name: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|PASSED|FAILED' \
              "$OUT/sanitize-$tool-$name.log" | tr '\n' ' ')"
          done
        done | tee -a "$OUT/run.log"
        continue
      fi
      for t in $(cd tests/gpu && ls test_*.c | sed 's/\.c$//'); do
        for tool in $tools; do
          log "compute-sanitizer --tool $tool $t"
          extra=""
          [ $tool = memcheck ] && extra="--leak-check full"
          K2GRB_GPU_QUICK=1 K2GRB_GPU_FILTER="${SANITIZE_FILTER:-}" \
            compute-sanitizer --tool $tool $extra --error-exitcode 99 \
            $BUILD/tests/$t >"$OUT/sanitize-$tool-$t.log" 2>&1
          src=$?
          grep -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|PASSED|FAILED" \
            "$OUT/sanitize-$tool-$t.log" | tail -5
          log "$tool $t exit $src"
          [ $src = 0 ] || rc=1
        done
      done ;;
    algsan)
      log "compute-sanitizer memcheck and racecheck on the algorithm tests (CUDA engine, strict), one process per test"
      mkdir -p "$OUT/algsan"
      for t in $ALG_TESTS; do
        for name in $(alg_test_names $t); do
          for tool in memcheck racecheck; do
            extra=""
            [ $tool = memcheck ] && extra="--leak-check full"
            log_f="$OUT/algsan/$tool-$t-$name.log"
            # a test that makes no CUDA call (the argument checks) passes with nothing to check,
            # though compute-sanitizer then exits non-zero
            ( K2GRB_ENGINE=cuda K2GRB_STRICT=1 OMP_NUM_THREADS=2 K2GRB_TEST_FILTER=$name K2GRB_TEST_QUICK=1 \
                timeout ${PAR_TIMEOUT:-480} compute-sanitizer --tool $tool $extra --error-exitcode 99 \
                $BUILD/tests/$t >"$log_f" 2>&1
              r=$?
              if [ $r != 0 ] && grep -q "before first instrumented API call" "$log_f" &&
                grep -q "PASSED" "$log_f" && ! grep -q "FAILED" "$log_f"; then r=0; fi
              exit $r ) &
          done
        done
      done
      wait_all || rc=1
      for f in "$OUT"/algsan/*.log; do
        echo "$(basename "$f" .log): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|PASSED|FAILED' "$f" | tr '\n' ' ')"
      done | tee -a "$OUT/run.log" ;;
    suite)
      for cfg in auto rows; do
        log "ctest (all) with K2GRB_ENGINE=cuda K2GRB_STRICT=1 K2GRB_DEVICE_CONFIG=$cfg"
        K2GRB_ENGINE=cuda K2GRB_STRICT=1 K2GRB_DIFF_ENGINE=cuda K2GRB_DEVICE_CONFIG=$cfg \
          ctest --test-dir $BUILD -LE 'install|gpu' -j8 --output-on-failure \
          2>&1 | tee "$OUT/ctest-suite-$cfg.log" | tail -40
        [ "${PIPESTATUS[0]}" = 0 ] || rc=1
      done
      log "compute-sanitizer memcheck test_differential (CUDA engine, strict)"
      K2GRB_ENGINE=cuda K2GRB_STRICT=1 K2GRB_DIFF_ENGINE=cuda K2GRB_SOAK_CASES=800 compute-sanitizer --tool memcheck \
        --leak-check full --error-exitcode 99 $BUILD/tests/test_differential \
        >"$OUT/sanitize-memcheck-test_differential.log" 2>&1
      src=$?
      grep -E "ERROR SUMMARY|LEAK SUMMARY|PASSED|FAILED|cases" "$OUT/sanitize-memcheck-test_differential.log" | tail -5
      [ $src = 0 ] || rc=1 ;;
    stress)
      log "stress: ${STRESS_COPIES:-8} copies of each algorithm test at once, auto and rows"
      mkdir -p "$OUT/stress"
      for cfg in auto rows; do
        for t in test_bfs test_wcc test_sssp test_msbfs test_pagerank test_differential; do
          for i in $(seq ${STRESS_COPIES:-8}); do
            ( K2GRB_ENGINE=cuda K2GRB_STRICT=1 K2GRB_DIFF_ENGINE=cuda K2GRB_DEVICE_CONFIG=$cfg \
                OMP_NUM_THREADS=2 timeout ${PAR_TIMEOUT:-480} $BUILD/tests/$t \
                >"$OUT/stress/$t-$cfg-$i.log" 2>&1 || echo "stress FAIL $t $cfg $i" ) &
          done
        done
      done | tee "$OUT/stress-failures.log"
      wait
      nf=$(grep -c FAIL "$OUT/stress-failures.log")
      log "stress: $nf failed of $(ls "$OUT/stress" | wc -l) processes"
      [ "$nf" = 0 ] || rc=1 ;;
    bench)
      if [ -x $BUILD/bench/bench_gpu ]; then
        log "bench_gpu ${BENCH_ARGS:-}"
        $BUILD/bench/bench_gpu --csv "$OUT/bench.csv" ${BENCH_ARGS:-} 2>&1 | tee "$OUT/bench.log"
        [ "${PIPESTATUS[0]}" = 0 ] || rc=1
      else
        log "no bench_gpu target"
      fi ;;
    algorithms)
      log "bench_algorithms --engine cuda --threads $(nproc) ${ALG_ARGS:-}"
      $BUILD/bench/bench_algorithms --engine cuda --threads "$(nproc)" --csv "$OUT/bench-algorithms.csv" \
        ${ALG_ARGS:-} 2>&1 | tee "$OUT/bench-algorithms.log"
      [ "${PIPESTATUS[0]}" = 0 ] || rc=1 ;;
  esac
done
log "done rc=$rc"
exit $rc
