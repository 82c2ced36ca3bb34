// fuzz_text.h: the body shared by the text-reader fuzz targets (one format each).
// SPDX-License-Identifier: Apache-2.0
//
// The first byte picks the options, the rest is the file. The reader must return an error or a
// consistent edge list (every pair inside the shape), never crash, leak or touch E on error.
#ifndef FUZZ_TEXT_H
#define FUZZ_TEXT_H

#include <stdlib.h>
#include <string.h>

#include <k2grb.h>

#include "io/k2_io.h"

// A reader's successful result must be a consistent edge list: every pair inside the shape.
static inline void fuzz_check_edges(const K2_Edges *E, bool no_self_loops) {
  if (E->nrows > K2_INDEX_MAX || E->ncols > K2_INDEX_MAX || E->nvals > E->capacity) abort();
  for (GrB_Index e = 0; e < E->nvals; e++) {
    if (E->I[e] >= E->nrows || E->J[e] >= E->ncols) abort();
    if (no_self_loops && E->I[e] == E->J[e]) abort();
  }
}

static inline int fuzz_text(const uint8_t *data, size_t size, K2_FileFormat format) {
  if (size == 0) return 0;
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = format;
  opt.symmetrize = data[0] & 1;
  opt.transpose = data[0] & 2;
  opt.drop_self_loops = data[0] & 4;
  opt.remap_ids = data[0] & 8;
  opt.one_based = data[0] & 16;
  K2_Edges E;
  memset(&E, 0x77, sizeof E);
  K2_Edges before = E;
  GrB_Info info = k2_io_read_buffer(&E, data + 1, size - 1, "fuzz", &opt);
  if (info != GrB_SUCCESS) {
    if (memcmp(&E, &before, sizeof E) != 0) abort();  // touched on error
    if (info != GrB_OUT_OF_MEMORY && strncmp(K2_error_string(), "fuzz:", 5) != 0) abort();
    return 0;
  }
  fuzz_check_edges(&E, opt.drop_self_loops);
  K2_Edges_free(&E);
  return 0;
}

#endif
