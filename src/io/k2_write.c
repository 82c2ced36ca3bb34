// k2_write.c: Matrix Market and edge-list writers for K2_Edges (plain or gzip by the name).
// SPDX-License-Identifier: Apache-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

#include <k2grb.h>

#include "util/k2_error.h"

#define K2_OUT_BLOCK ((size_t)1 << 20)

typedef struct {
  FILE *f;
  gzFile gz;
  char *buf;
  size_t len;
  GrB_Info info;  // first failure
  const char *path;
} k2_out;

static void k2_out_flush(k2_out *o) {
  if (o->len == 0 || o->info != GrB_SUCCESS) return;
  bool ok = o->gz != NULL ? gzwrite(o->gz, o->buf, (unsigned)o->len) == (int)o->len
                          : fwrite(o->buf, 1, o->len, o->f) == o->len;
  if (!ok) o->info = k2_error_set(GrB_INVALID_VALUE, "%s: write failed: %s", o->path, strerror(errno));
  o->len = 0;
}

static GrB_Info k2_out_open(k2_out *o, const char *path) {
  memset(o, 0, sizeof *o);
  o->path = path;
  size_t n = strlen(path);
  o->buf = malloc(K2_OUT_BLOCK);
  if (o->buf == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
  errno = 0;
  if (n >= 3 && strcasecmp(path + n - 3, ".gz") == 0) o->gz = gzopen(path, "wb6");
  else o->f = fopen(path, "wb");
  if (o->gz == NULL && o->f == NULL) {
    int err = errno;
    free(o->buf);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot create: %s", path, err ? strerror(err) : "out of memory");
  }
  return GrB_SUCCESS;
}

// Close; on any failure remove the partial file.
static GrB_Info k2_out_close(k2_out *o) {
  k2_out_flush(o);
  int rc = o->gz != NULL ? gzclose_w(o->gz) : fclose(o->f);
  if (rc != 0 && o->info == GrB_SUCCESS) {
    o->info = k2_error_set(GrB_INVALID_VALUE, "%s: write failed on close", o->path);
  }
  free(o->buf);
  struct stat st;  // never remove a device (e.g. /dev/full) we were asked to write to
  if (o->info != GrB_SUCCESS && stat(o->path, &st) == 0 && S_ISREG(st.st_mode)) remove(o->path);
  return o->info;
}

static void k2_out_text(k2_out *o, const char *s, size_t n) {
  if (o->len + n > K2_OUT_BLOCK) k2_out_flush(o);
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

// Decimal digits of v (at most 20) written backwards ending at end; returns the start.
static inline char *k2_digits(char *end, uint64_t v) {
  do {
    *--end = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  return end;
}

static inline void k2_out_pair(k2_out *o, uint64_t a, uint64_t b) {
  if (o->len + 48 > K2_OUT_BLOCK) k2_out_flush(o);
  char tmp[48], *end = tmp + sizeof tmp;
  *--end = '\n';
  char *p = k2_digits(end, b);
  *--p = ' ';
  p = k2_digits(p, a);
  size_t n = (size_t)(tmp + sizeof tmp - p);
  memcpy(o->buf + o->len, p, n);
  o->len += n;
}

static GrB_Info k2_check_edges(const K2_Edges *E, const char *path) {
  if (E == NULL || path == NULL) K2_FAIL(GrB_NULL_POINTER, "writing edges: %s is NULL", E == NULL ? "E" : "path");
  if (E->nvals > 0 && (E->I == NULL || E->J == NULL)) K2_FAIL(GrB_NULL_POINTER, "%s: E has %llu edges but its I or J is NULL", path, (unsigned long long)E->nvals);
  if (E->nrows > K2_INDEX_MAX || E->ncols > K2_INDEX_MAX) {
    K2_FAIL(GrB_INVALID_VALUE, "%s: dimensions exceed 2^32", path);
  }
  for (GrB_Index e = 0; e < E->nvals; e++) {
    if (E->I[e] >= E->nrows || E->J[e] >= E->ncols) {
      K2_FAIL(GrB_INVALID_INDEX, "%s: pair %llu (%u,%u) outside %llu x %llu", path,
              (unsigned long long)e, E->I[e], E->J[e], (unsigned long long)E->nrows,
              (unsigned long long)E->ncols);
    }
  }
  return GrB_SUCCESS;
}

static GrB_Info k2_write_edges(const K2_Edges *E, const char *path, bool matrix_market) {
  GrB_Info info = k2_check_edges(E, path);
  if (info != GrB_SUCCESS) return info;
  k2_out o;
  if ((info = k2_out_open(&o, path)) != GrB_SUCCESS) return info;
  char head[256];
  int n = matrix_market
              ? snprintf(head, sizeof head,
                         "%%%%MatrixMarket matrix coordinate pattern general\n%% written by k2grb\n"
                         "%llu %llu %llu\n",
                         (unsigned long long)E->nrows, (unsigned long long)E->ncols,
                         (unsigned long long)E->nvals)
              : snprintf(head, sizeof head, "# k2grb edge list: %llu x %llu, %llu edges, 0-based\n",
                         (unsigned long long)E->nrows, (unsigned long long)E->ncols,
                         (unsigned long long)E->nvals);
  k2_out_text(&o, head, (size_t)n);
  uint64_t base = matrix_market ? 1 : 0;
  for (GrB_Index e = 0; e < E->nvals && o.info == GrB_SUCCESS; e++) {
    k2_out_pair(&o, E->I[e] + base, E->J[e] + base);
  }
  return k2_out_close(&o);
}

GrB_Info K2_Edges_writeMatrixMarket(const K2_Edges *E, const char *path) {
  return k2_write_edges(E, path, true);
}

GrB_Info K2_Edges_writeEdgeList(const K2_Edges *E, const char *path) {
  return k2_write_edges(E, path, false);
}
