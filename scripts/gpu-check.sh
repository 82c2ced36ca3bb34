#!/usr/bin/env bash
# scripts/gpu-check.sh: every correctness run of the GPU in one call of the device machine
# (one H200, 16 cores): the GPU tests in full mode, each cmocka test as its own process; the
# same tests under compute-sanitizer racecheck and memcheck (quick mode), also one process per
# test; and the whole suite on the CUDA engine in strict mode (scripts/gpu-run.sh suite). The
# three run side by side, then gpu-run.sh stress alone (many copies of the algorithm tests at
# once); the logs come back as one archive, $OUT/gpu-check-logs.tar.gz, and
# the summary lines in $OUT/summary.txt.
#   scripts/gpu-check.sh            (CHECK_TIMEOUT: seconds per process, default 420)
# SPDX-License-Identifier: Apache-2.0
set -u
OUT=${OUT:-/tmp/k2-gpu-out}
mkdir -p "$OUT"
LOGS=$(mktemp -d)
BUILD_ONLY=1 OUT=$LOGS/build scripts/gpu-run.sh suite bench || { cat $LOGS/build/*.log | tail -40; exit 1; }
T=${CHECK_TIMEOUT:-420}
PAR=1 PAR_TIMEOUT=$T SKIP_BUILD=1 OUT=$LOGS/sanitize scripts/gpu-run.sh racecheck memcheck \
  >$LOGS/sanitize.console 2>&1 &
san=$!
PAR=1 PAR_TIMEOUT=$T SKIP_BUILD=1 OUT=$LOGS/test scripts/gpu-run.sh test >$LOGS/test.console 2>&1 &
tst=$!
SKIP_BUILD=1 OUT=$LOGS/suite timeout $T scripts/gpu-run.sh suite >$LOGS/suite.console 2>&1
suite_rc=$?
wait $tst; test_rc=$?
wait $san; san_rc=$?
# last, alone: many processes of the algorithm tests at once
SKIP_BUILD=1 OUT=$LOGS/stress timeout $T scripts/gpu-run.sh stress >$LOGS/stress.console 2>&1
stress_rc=$?
{
  echo "test rc=$test_rc sanitize rc=$san_rc suite rc=$suite_rc stress rc=$stress_rc"
  grep -hE '^(test_|memcheck|racecheck)' $LOGS/test/run.log $LOGS/sanitize/run.log
  grep -hE 'tests passed|tests failed|The following|Failed|\*\*\*|ERROR SUMMARY|LEAK SUMMARY|cases' \
    $LOGS/suite/ctest-suite-*.log $LOGS/suite/sanitize-memcheck-test_differential.log 2>/dev/null
  grep -h '== ' $LOGS/suite/run.log $LOGS/stress/run.log
  cat $LOGS/stress/stress-failures.log
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
tar -czf "$OUT/gpu-check-logs.tar.gz" -C "$LOGS" .
[ $test_rc = 0 ] && [ $san_rc = 0 ] && [ $suite_rc = 0 ] && [ $stress_rc = 0 ]
