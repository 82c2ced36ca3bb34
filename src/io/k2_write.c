// k2_write.c: Matrix Market and edge-list writers for K2_Edges (plain or gzip by the name).
// SPDX-License-Identifier: Apache-2.0
#include "io/k2_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "util/k2_atomic_file.h"
#include "util/k2_error.h"

#define K2_OUT_BLOCK ((size_t)1 << 20)

// Text goes into a block buffer, then to the file (plain) or through zlib (gzip), which writes
// to a descriptor of the same temporary; k2_atomic_file renames it over the target at the end.
typedef struct {
  k2_atomic_file file;
  gzFile gz;
  char *buf;
  size_t len;
  bool failed;  // a write failed: nothing more is written
} k2_out;

static void k2_out_flush(k2_out *o) {
  if (o->len == 0 || o->failed) return;
  if (o->gz != NULL) {
    if (gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len) {
      int err = Z_OK;
      gzerror(o->gz, &err);
      k2_atomic_file_fail(&o->file, err == Z_ERRNO ? errno : ENOMEM);
      o->failed = true;
    }
  } else {
    o->failed = !k2_atomic_file_write(&o->file, o->buf, o->len);
  }
  o->len = 0;
}

static GrB_Info k2_out_open(k2_out *o, const char *path) {
  memset(o, 0, sizeof *o);
  o->buf = malloc(K2_OUT_BLOCK);
  if (o->buf == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
  GrB_Info info = k2_atomic_file_open(&o->file, path);
  if (info != GrB_SUCCESS) {
    free(o->buf);
    return info;
  }
  size_t n = strlen(path);
  if (n >= 3 && strcasecmp(path + n - 3, ".gz") == 0) {
    // zlib closes its descriptor at the end: give it its own, the file keeps the other
    int fd = fcntl(o->file.fd, F_DUPFD_CLOEXEC, 0);
    o->gz = fd >= 0 ? gzdopen(fd, "wb6") : NULL;
    if (o->gz == NULL) {
      int err = errno;
      if (fd >= 0) close(fd);
      k2_atomic_file_abort(&o->file);
      free(o->buf);
      K2_FAIL(GrB_OUT_OF_MEMORY, "%s: cannot start the gzip stream: %s", path,
              strerror(err ? err : ENOMEM));
    }
  }
  return GrB_SUCCESS;
}

// Finish the stream and replace the target, or (after any failure) leave it as it was.
static GrB_Info k2_out_close(k2_out *o) {
  k2_out_flush(o);
  if (o->gz != NULL) {
    errno = 0;
    int rc = gzclose_w(o->gz);  // writes the rest of the compressed stream
    if (rc != Z_OK && !o->failed) k2_atomic_file_fail(&o->file, rc == Z_ERRNO ? errno : EIO);
  }
  free(o->buf);
  return k2_atomic_file_commit(&o->file);
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

// The shape and every pair of E (whose arrays the caller has checked).
static GrB_Info k2_check_edges(const K2_Edges *E, const char *path) {
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

GrB_Info k2_io_write_edges(const K2_Edges *E, const char *path, bool matrix_market) {
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
  for (GrB_Index e = 0; e < E->nvals && !o.failed; e++) {
    k2_out_pair(&o, E->I[e] + base, E->J[e] + base);
  }
  return k2_out_close(&o);
}
