// k2_io.h: the text readers behind K2_Edges_read, one per format (internal).
// SPDX-License-Identifier: Apache-2.0
//
// Each reader appends to an empty K2_Edges and sets its shape; the caller (k2_read.c) applies
// the options and frees the partial result on error, so that the user's K2_Edges is only
// written on success.
#ifndef K2_IO_H
#define K2_IO_H

#include "io/k2_text.h"

GrB_Info k2_read_matrix_market(K2_Edges *E, k2_text *t);
GrB_Info k2_read_edge_list(K2_Edges *E, k2_text *t, const K2_ReadOptions *opt);
GrB_Info k2_read_metis(K2_Edges *E, k2_text *t);

// Parse a text graph held in memory (no gzip): format MATRIX_MARKET, EDGE_LIST, METIS or AUTO
// (by the first line only), with the options. `name` appears in messages. E is written only on
// success. Used by the fuzz targets and tests.
GrB_Info k2_io_read_buffer(K2_Edges *E, const void *data, size_t size, const char *name,
                           const K2_ReadOptions *opt);

#endif
