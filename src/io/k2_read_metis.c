// k2_read_metis.c: METIS graph files (the adjacency format of METIS, Chaco and networkit).
// SPDX-License-Identifier: Apache-2.0
//
// Header "n m [fmt [ncon]]", then exactly n vertex lines (an empty line is a vertex without
// neighbours): line v lists the 1-based neighbours of vertex v. fmt is up to three 0/1 digits:
// the last says edges carry weights (each neighbour is followed by one), the middle that
// vertices carry ncon weights (default 1), the first that vertices carry a size; weights are
// checked to be integers and ignored. Lines starting with '%' are comments. Every undirected
// edge is listed in both lists, so the lists hold 2m entries (a self-loop may be listed once:
// 2m - loops); the result holds each listed entry, i.e. both directions. A vertex line may have
// any length (it is read in pieces); the header and the comments before it are ordinary lines.
#include "io/k2_edges.h"
#include "io/k2_io.h"
#include "util/k2_error.h"

static int metis_token_len(const char *p) {
  int n = 0;
  while (p[n] != '\0' && !k2_is_blank(p[n]) && n < 40) n++;
  return n;
}

static bool metis_comment(const char *line) { return line[0] == '%'; }

static bool metis_blank(const char *line, size_t len) {
  const char *p = k2_skip_blanks(line);
  return *p == '\0' && p == line + len;
}

// An integer weight (form only), after blanks.
static GrB_Info metis_weight(k2_text *t, const char **pp, const char *what) {
  const char *p = k2_skip_blanks(*pp);
  const char *q = p;
  if (!k2_scan_integer(&q) || !k2_token_end(*q)) {
    if (*p == '\0') return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: missing %s", what);
    return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: %s '%.*s' is not an integer",
                         what, metis_token_len(p), p);
  }
  *pp = q;
  return GrB_SUCCESS;
}

GrB_Info k2_read_metis(K2_Edges *E, k2_text *t) {
  char *line;
  size_t len;
  GrB_Info info;
  // header
  do {
    info = k2_text_next(t, &line, &len);
  } while (info == GrB_SUCCESS && (metis_comment(line) || metis_blank(line, len)));
  if (info == GrB_NO_VALUE) {
    if (t->bytes == 0) return k2_error_set(GrB_INVALID_VALUE, "%s:1: empty file", t->name);
    return k2_text_error(t, GrB_INVALID_VALUE, "no header line 'n m [fmt [ncon]]'");
  }
  if (info != GrB_SUCCESS) return info;
  uint64_t h[4] = {0, 0, 0, 1};
  int nh = 0;
  const char *p = k2_skip_blanks(line);
  while (*p != '\0' && nh < 4) {
    const char *q = p;
    int status = k2_scan_u64(&q, &h[nh]);
    if (status != 0 || !k2_token_end(*q)) {
      return k2_text_error(t, GrB_INVALID_VALUE, "header must be 'n m [fmt [ncon]]', found '%s'", line);
    }
    nh++;
    p = k2_skip_blanks(q);
  }
  if (nh < 2 || p != line + len) {
    return k2_text_error(t, GrB_INVALID_VALUE, "header must be 'n m [fmt [ncon]]', found '%s'", line);
  }
  uint64_t n = h[0], m = h[1], fmt = h[2], ncon = h[3];
  bool edge_w = fmt % 10 == 1, vertex_w = fmt / 10 % 10 == 1, vertex_s = fmt / 100 == 1;
  if (n > K2_INDEX_MAX || m > UINT64_MAX / 2 || fmt % 10 > 1 || fmt / 10 % 10 > 1 || fmt / 100 > 1 ||
      (nh == 4 && !vertex_w) || ncon > 1000) {
    return k2_text_error(t, GrB_INVALID_VALUE, "unsupported header values in '%s'", line);
  }
  E->nrows = E->ncols = n;
  if ((info = k2_edges_reserve(E, k2_text_reserve_hint(t, 2 * m, 2))) != GrB_SUCCESS) return info;

  // The vertex lines come in pieces (a vertex's list is not bounded by K2_TEXT_LINE_MAX): the
  // place of a token in its line says what it is: `lead` weights, then neighbours, each followed
  // by its weight when edges carry one.
  const uint64_t lead = (vertex_s ? 1 : 0) + (vertex_w ? ncon : 0);
  uint64_t v = 0, loops = 0, tok = 0;  // tok: tokens of the current line so far
  bool in_line = false, comment = false, more;
  while ((info = k2_text_next_piece(t, &line, &len, &more)) == GrB_SUCCESS) {
    if (!in_line) {
      comment = metis_comment(line);
      tok = 0;
    }
    in_line = more;
    if (comment) continue;
    const char *end = line + len;
    if (v == n) {
      if (metis_blank(line, len)) continue;  // trailing blank lines
      return k2_text_error(t, GrB_INVALID_VALUE, "more vertex lines than the %llu of the header",
                           (unsigned long long)n);
    }
    for (p = k2_skip_blanks(line); *p != '\0'; p = k2_skip_blanks(p), tok++) {
      if (tok < lead) {
        info = metis_weight(t, &p, vertex_s && tok == 0 ? "vertex size" : "vertex weight");
        if (info != GrB_SUCCESS) return info;
        continue;
      }
      if (edge_w && (tok - lead) % 2 == 1) {
        if ((info = metis_weight(t, &p, "edge weight")) != GrB_SUCCESS) return info;
        continue;
      }
      uint64_t u;
      const char *q = p;
      int status = k2_scan_u64(&q, &u);
      if (status == 1 || !k2_token_end(*q)) {
        return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: neighbour '%.*s' is not a number",
                             metis_token_len(p), p);
      }
      if (status == 2 || u > n || u == 0) {
        if (u == 0 && status == 0) {
          return k2_text_error(t, GrB_INVALID_INDEX, "neighbour 0 is below the base 1");
        }
        return k2_text_error(t, GrB_INVALID_INDEX, "neighbour %.*s out of range 1..%llu",
                             metis_token_len(p), p, (unsigned long long)n);
      }
      p = q;
      uint32_t i = (uint32_t)v, j = (uint32_t)(u - 1);
      loops += i == j;
      if (E->nvals < E->capacity) {
        E->I[E->nvals] = i;
        E->J[E->nvals] = j;
        E->nvals++;
      } else if ((info = k2_edges_push(E, i, j)) != GrB_SUCCESS) {
        return info;
      }
    }
    if (p != end) return k2_text_error(t, GrB_INVALID_VALUE, "binary data (a NUL byte) in the line");
    if (more) continue;
    // the line ends: nothing may be missing
    if (tok < lead) {
      return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: missing %s",
                           vertex_s && tok == 0 ? "vertex size" : "vertex weight");
    }
    if (edge_w && (tok - lead) % 2 == 1) {
      return k2_text_error(t, GrB_INVALID_VALUE, "malformed line: missing edge weight");
    }
    v++;
  }
  if (info != GrB_NO_VALUE) return info;
  if (v < n) {
    return k2_text_error(t, GrB_INVALID_VALUE, "file ends after %llu of the %llu vertex lines",
                         (unsigned long long)v, (unsigned long long)n);
  }
  if (E->nvals != 2 * m && E->nvals != 2 * m - loops) {
    return k2_text_error(t, GrB_INVALID_VALUE,
                         "the lists hold %llu entries but the header's %llu edges need %llu",
                         (unsigned long long)E->nvals, (unsigned long long)m,
                         (unsigned long long)(2 * m));
  }
  return GrB_SUCCESS;
}
