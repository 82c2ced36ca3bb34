// io_test_util.h: helpers of the io tests (temporary files, edge-set comparison).
// SPDX-License-Identifier: Apache-2.0
#ifndef IO_TEST_UTIL_H
#define IO_TEST_UTIL_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L  // mkdtemp
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "k2_test.h"

// A fresh temporary directory for this test program (removed with its files by io_tmp_cleanup).
static char io_tmp_dir[256];

static inline const char *io_tmp_path(const char *name) {
  static char path[512];
  if (io_tmp_dir[0] == '\0') {
    snprintf(io_tmp_dir, sizeof io_tmp_dir, "%s/k2io.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(io_tmp_dir) == NULL) abort();
  }
  snprintf(path, sizeof path, "%s/%s", io_tmp_dir, name);
  return path;
}

static inline void io_tmp_cleanup(void) {
  if (io_tmp_dir[0] == '\0') return;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", io_tmp_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", io_tmp_dir);
  io_tmp_dir[0] = '\0';
}

// Write bytes to a temporary file (gzip-compressed when gz); returns its path (static buffer).
static inline const char *io_write_tmp(const char *name, const void *data, size_t n, bool gz) {
  const char *path = io_tmp_path(name);
  if (gz) {
    gzFile f = gzopen(path, "wb");
    assert_non_null(f);
    if (n > 0) assert_int_equal(gzwrite(f, data, (unsigned)n), (int)n);
    assert_int_equal(gzclose(f), Z_OK);
  } else {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
  }
  return path;
}

static int io_cmp_pair(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

// The pairs of (I, J) as sorted 64-bit keys (row << 32 | col), duplicates removed if unique.
static inline uint64_t *io_sorted_keys(const uint32_t *I, const uint32_t *J, uint64_t n,
                                       bool unique, uint64_t *out_n) {
  uint64_t *k = malloc((n + 1) * sizeof(uint64_t));
  assert_non_null(k);
  for (uint64_t e = 0; e < n; e++) k[e] = ((uint64_t)I[e] << 32) | J[e];
  qsort(k, n, sizeof(uint64_t), io_cmp_pair);
  uint64_t m = n;
  if (unique) {
    m = 0;
    for (uint64_t e = 0; e < n; e++) {
      if (m == 0 || k[m - 1] != k[e]) k[m++] = k[e];
    }
  }
  *out_n = m;
  return k;
}

static inline uint64_t io_self_loops(const K2_Edges *E) {
  uint64_t s = 0;
  for (uint64_t e = 0; e < E->nvals; e++) s += E->I[e] == E->J[e];
  return s;
}

#endif
