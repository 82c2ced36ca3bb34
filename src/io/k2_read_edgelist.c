// k2_read_edgelist.c: edge lists (SNAP "u v", "u,v" with a header line, LightGraphs .jlg).
// SPDX-License-Identifier: Apache-2.0
//
// One edge per line: two ids separated by blanks (spaces, tabs) or a comma, then optionally
// more numeric columns (weights, timestamps), which are checked for form and ignored. Lines
// that start with '#' or '%' are comments; blank lines are skipped. Ids are 0-based (1-based
// with opt->one_based) and the matrix is n x n with n = largest id + 1 (or, with remap_ids, the
// number of distinct ids, applied by the caller).
//
// The first data line may be a header instead:
//  - LightGraphs "n,m,d,name[,...]" (or 'u' for undirected): then ids are 1-based and in 1..n,
//    the matrix is n x n, and exactly m edge lines must follow. Undirected files list each
//    edge once; symmetrize (an option) adds the other direction.
//  - any other line that contains a comma and does not start with a digit ("src,dst"): skipped.
#include <string.h>

#include "io/k2_edges.h"
#include "io/k2_io.h"
#include "util/k2_error.h"

static int el_token_len(const char *p) {
  int n = 0;
  while (p[n] != '\0' && !k2_is_blank(p[n]) && p[n] != ',' && n < 40) n++;
  return n;
}

// "n,m,d|u,name..." → true with n and m; false if the line is not a LightGraphs header.
static bool el_lightgraphs_header(const char *p, uint64_t *n, uint64_t *m, int *status) {
  *status = 0;
  int s1 = k2_scan_u64(&p, n);
  if (s1 == 1 || *p++ != ',') return false;
  int s2 = k2_scan_u64(&p, m);
  if (s2 == 1 || *p++ != ',') return false;
  if (*p != 'd' && *p != 'u') return false;
  p++;
  if (*p != ',' && *p != '\0') return false;
  *status = s1 | s2;
  return true;
}

// A "src,dst" header: printable text with a comma (binary garbage is not a header).
static bool el_text_header(const char *p) {
  bool comma = false;
  for (; *p != '\0'; p++) {
    unsigned char c = (unsigned char)*p;
    if ((c < 0x20 && c != '\t') || c == 0x7f) return false;
    comma |= c == ',';
  }
  return comma;
}

// Separator between columns: blanks, or blanks around one comma. False if there is none.
static inline bool el_separator(const char **pp) {
  const char *p = *pp, *q = k2_skip_blanks(p);
  if (*q == ',') q = k2_skip_blanks(q + 1);
  *pp = q;
  return q != p;
}

static GrB_Info el_bad_id(k2_text *t, const char *p, const char *what) {
  const char *q = k2_skip_blanks(p);
  if (*q == '\0') return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: missing %s id", what);
  return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: %s id '%.*s' is not a number", what,
                       el_token_len(q), q);
}

GrB_Info k2_read_edge_list(K2_Edges *E, k2_text *t, const K2_ReadOptions *opt) {
  uint64_t base = (opt != NULL && opt->one_based) ? 1 : 0;
  uint64_t limit = base + UINT32_MAX;  // largest id that fits 32 bits after the base
  bool lightgraphs = false, first = true;
  uint64_t lg_n = 0, lg_m = 0, max_id = 0, count = 0;
  char *line;
  size_t len;
  GrB_Info info;
  if ((info = k2_edges_reserve(E, k2_text_reserve_hint(t, (uint64_t)1 << 20, 8))) != GrB_SUCCESS) return info;
  while ((info = k2_text_next(t, &line, &len)) == GrB_SUCCESS) {
    const char *p = k2_skip_blanks(line);
    char c = *p;
    if (c == '#' || c == '%') continue;
    if (c == '\0' && p == line + len) continue;
    if (first) {
      first = false;
      int status;
      if (el_lightgraphs_header(p, &lg_n, &lg_m, &status)) {
        if (status != 0 || lg_n > K2_INDEX_MAX) {
          return k2_text_error(t, GrB_INVALID_VALUE, "header: %s too large",
                               lg_n > K2_INDEX_MAX ? "node count" : "edge count");
        }
        lightgraphs = true;
        base = 1;
        limit = lg_n;
        if ((info = k2_edges_reserve(E, k2_text_reserve_hint(t, lg_m, 4))) != GrB_SUCCESS) return info;
        continue;
      }
      if ((unsigned)(c - '0') > 9 && el_text_header(p)) continue;  // "src,dst" header
    }
    uint64_t a, b;
    int sa = k2_scan_u64(&p, &a);
    if (sa == 1) return el_bad_id(t, p, "source");
    if (!el_separator(&p)) {
      if (*p == '\0' && p == line + len) return el_bad_id(t, p, "target");
      return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: '%.*s' after the source id",
                           el_token_len(p), p);
    }
    int sb = k2_scan_u64(&p, &b);
    if (sb == 1) return el_bad_id(t, p, "target");
    // more columns: numbers, ignored
    while (*p != '\0' || p != line + len) {
      if (!el_separator(&p)) {
        if (*p == '\0') return k2_text_error(t, GrB_INVALID_VALUE, "binary data (a NUL byte) in the line");
        return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: unexpected '%.*s'",
                             el_token_len(p), p);
      }
      if (*p == '\0' && p == line + len) break;
      const char *q = p;
      if (!k2_scan_real(&q) || !(k2_token_end(*q) || *q == ',')) {
        return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: extra column '%.*s' is not a number",
                             el_token_len(p), p);
      }
      p = q;
    }
    if (sa == 2 || sb == 2 || a > limit || b > limit || a < base || b < base) {
      uint64_t bad = (sa == 2 || a > limit || a < base) ? a : b;
      if (sa == 2 || sb == 2) {
        return k2_text_error(t, GrB_INVALID_INDEX, "id does not fit in 64 bits");
      }
      if (bad < base) return k2_text_error(t, GrB_INVALID_INDEX, "id 0 is below the base 1");
      if (lightgraphs) {
        return k2_text_error(t, GrB_INVALID_INDEX, "id %llu out of range 1..%llu (header)",
                             (unsigned long long)bad, (unsigned long long)lg_n);
      }
      return k2_text_error(t, GrB_INVALID_INDEX, "id %llu does not fit in 32 bits",
                           (unsigned long long)bad);
    }
    if (lightgraphs && count == lg_m) {
      return k2_text_error(t, GrB_INVALID_VALUE, "more edges than the %llu of the header",
                           (unsigned long long)lg_m);
    }
    uint32_t i = (uint32_t)(a - base), j = (uint32_t)(b - base);
    if (a > max_id) max_id = a;
    if (b > max_id) max_id = b;
    if (E->nvals < E->capacity) {
      E->I[E->nvals] = i;
      E->J[E->nvals] = j;
      E->nvals++;
    } else if ((info = k2_edges_push(E, i, j)) != GrB_SUCCESS) {
      return info;
    }
    count++;
  }
  if (info != GrB_NO_VALUE) return info;
  if (t->bytes == 0) return k2_error_set(GrB_INVALID_VALUE, "%s:1: empty file", t->name);
  if (lightgraphs) {
    if (count < lg_m) {
      return k2_text_error(t, GrB_INVALID_VALUE, "file ends after %llu of the %llu edges of the header",
                           (unsigned long long)count, (unsigned long long)lg_m);
    }
    E->nrows = E->ncols = lg_n;
  } else {
    E->nrows = E->ncols = count == 0 ? 0 : max_id + 1 - base;
  }
  return GrB_SUCCESS;
}
