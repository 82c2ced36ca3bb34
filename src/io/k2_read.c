// k2_read.c: reading a graph file into a K2_Edges or a K2_Matrix (behind K2_Edges_read and
// K2_Matrix_read, src/api/k2_files.c): the format choice and the common steps of every text
// reader.
// SPDX-License-Identifier: Apache-2.0
//
// Format detection (K2_FORMAT_AUTO), in order:
//  1. a name ending in .k2                                  → the .k2 format (as K2_Matrix_load);
//  2. <path>.properties exists, or the name ends in .graph and <stem>.properties exists, or the
//     name ends in .properties                              → BVGraph (METIS files also end in
//     .graph: only the .properties file tells them apart);
//  3. the (decompressed) input starts with %%MatrixMarket   → Matrix Market;
//  4. by the name, without a trailing .gz: .mtx or .mm      → Matrix Market (which then refuses
//     a missing banner); .graph or .metis                   → METIS; anything else → edge list.
// gzip is recognised by its magic bytes, whatever the name. The temporaries of the writers
// (".NAME.k2tmp.XXXXXX", left by a killed write) are refused, whatever the format.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "io/k2_bvgraph.h"
#include "io/k2_edges.h"
#include "io/k2_io.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_serialize.h"
#include "util/k2_atomic_file.h"
#include "util/k2_error.h"

static bool k2_has_suffix(const char *s, size_t n, const char *suffix) {
  size_t k = strlen(suffix);
  return n >= k && strncasecmp(s + n - k, suffix, k) == 0;
}

static bool k2_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static bool k2_starts_with_banner(const char *data, size_t n) {
  return n >= 14 && strncasecmp(data, "%%MatrixMarket", 14) == 0;
}

// Run one text reader, then the options; E is written only on success.
static GrB_Info k2_read_text(K2_Edges *E, k2_text *t, K2_FileFormat format,
                             const K2_ReadOptions *opt) {
  K2_Edges R;
  memset(&R, 0, sizeof R);
  GrB_Info info;
  switch (format) {
    case K2_FORMAT_MATRIX_MARKET: info = k2_read_matrix_market(&R, t); break;
    case K2_FORMAT_METIS: info = k2_read_metis(&R, t); break;
    case K2_FORMAT_EDGE_LIST:
      info = k2_read_edge_list(&R, t, opt);
      if (info == GrB_SUCCESS && opt->remap_ids) info = k2_edges_remap(&R);
      break;
    default: info = k2_error_set(GrB_INVALID_VALUE, "%s: the format is not a text format", t->name);
  }
  if (info == GrB_SUCCESS) info = k2_edges_apply_options(&R, opt);
  if (info != GrB_SUCCESS) {
    k2_edges_free(&R);
    return info;
  }
  *E = R;
  return GrB_SUCCESS;
}

GrB_Info k2_io_read_edges(K2_Edges *E, const char *path, const K2_ReadOptions *opt_in) {
  K2_ReadOptions opt;
  if (opt_in != NULL) opt = *opt_in;
  else k2_edges_options_default(&opt);
  if ((unsigned)opt.format > (unsigned)K2_FORMAT_K2) {
    K2_FAIL(GrB_INVALID_VALUE, "%s: unknown format %d", path, (int)opt.format);
  }
  if (k2_atomic_file_is_temporary(path)) {
    K2_FAIL(GrB_INVALID_VALUE, "%s: an unfinished temporary file of a k2grb writer, not a graph",
            path);
  }
  size_t n = strlen(path);
  K2_FileFormat format = opt.format;

  // BVGraph: find the basename and whether it is one
  char *stem = malloc(n + sizeof ".properties");
  if (stem == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
  memcpy(stem, path, n + 1);
  if (k2_has_suffix(path, n, ".graph")) stem[n - 6] = '\0';
  else if (k2_has_suffix(path, n, ".properties")) stem[n - 11] = '\0';
  if (format == K2_FORMAT_AUTO) {
    char *props = malloc(n + sizeof ".properties");
    if (props == NULL) {
      free(stem);
      K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    if (k2_has_suffix(path, n, ".k2")) {
      format = K2_FORMAT_K2;
    } else if (k2_has_suffix(path, n, ".properties")) {
      format = K2_FORMAT_BVGRAPH;
    } else {
      snprintf(props, n + sizeof ".properties", "%s.properties", path);
      if (k2_exists(props)) {
        format = K2_FORMAT_BVGRAPH;
        memcpy(stem, path, n + 1);
      } else if (k2_has_suffix(path, n, ".graph")) {
        snprintf(props, n + sizeof ".properties", "%s.properties", stem);
        if (k2_exists(props)) format = K2_FORMAT_BVGRAPH;
      }
    }
    free(props);
  }
  if (format == K2_FORMAT_BVGRAPH) {
    opt.format = K2_FORMAT_BVGRAPH;
    GrB_Info info = k2_bvgraph_read(E, stem, &opt, NULL);
    free(stem);
    return info;
  }
  free(stem);
  if (format == K2_FORMAT_K2) return k2_edges_read_k2(E, path, &opt);

  k2_text t;
  GrB_Info info = k2_text_open_file(&t, path);
  if (info != GrB_SUCCESS) return info;
  if (format == K2_FORMAT_AUTO) {
    const char *data;
    size_t got;
    info = k2_text_peek(&t, &data, &got);
    if (info != GrB_SUCCESS) {
      k2_text_close(&t);
      return info;
    }
    size_t m = k2_has_suffix(path, n, ".gz") ? n - 3 : n;
    if (k2_starts_with_banner(data, got) || k2_has_suffix(path, m, ".mtx") ||
        k2_has_suffix(path, m, ".mm")) {
      format = K2_FORMAT_MATRIX_MARKET;
    } else if (k2_has_suffix(path, m, ".graph") || k2_has_suffix(path, m, ".metis")) {
      format = K2_FORMAT_METIS;
    } else {
      format = K2_FORMAT_EDGE_LIST;
    }
  }
  info = k2_read_text(E, &t, format, &opt);
  k2_text_close(&t);
  return info;
}

GrB_Info k2_io_read_buffer(K2_Edges *E, const void *data, size_t size, const char *name,
                           const K2_ReadOptions *opt_in) {
  if (E == NULL || (data == NULL && size > 0)) K2_FAIL(GrB_NULL_POINTER, "reading a buffer: %s is NULL", E == NULL ? "E" : "data");
  K2_ReadOptions opt;
  if (opt_in != NULL) opt = *opt_in;
  else k2_edges_options_default(&opt);
  K2_FileFormat format = opt.format;
  if (format == K2_FORMAT_AUTO) {
    format = k2_starts_with_banner(data, size) ? K2_FORMAT_MATRIX_MARKET : K2_FORMAT_EDGE_LIST;
  }
  k2_text t;
  GrB_Info info = k2_text_open_memory(&t, data, size, name != NULL ? name : "(memory)");
  if (info != GrB_SUCCESS) return info;
  info = k2_read_text(E, &t, format, &opt);
  k2_text_close(&t);
  return info;
}

GrB_Info k2_io_read_matrix(K2_Matrix *A, const char *path, const K2_ReadOptions *opt) {
  size_t n = strlen(path);
  bool k2 = opt != NULL ? opt->format == K2_FORMAT_K2 : false;
  if (opt == NULL || opt->format == K2_FORMAT_AUTO) k2 = n >= 3 && strcasecmp(path + n - 3, ".k2") == 0;
  bool plain = opt == NULL || (!opt->symmetrize && !opt->transpose && !opt->drop_self_loops);
  if (k2 && plain) return k2_serialize_load(A, path);  // no edge list needed

  K2_Edges E;
  GrB_Info info = k2_io_read_edges(&E, path, opt);
  if (info != GrB_SUCCESS) return info;
  K2_Matrix M = NULL;
  info = k2_matrix_alloc(&M, E.nrows, E.ncols, NULL);
  if (info == GrB_SUCCESS) info = k2_matrix_build_32(M, E.I, E.J, E.nvals);
  k2_edges_free(&E);
  if (info != GrB_SUCCESS) {
    if (M != NULL) k2_matrix_free(M);
    return info;
  }
  *A = M;
  return GrB_SUCCESS;
}
