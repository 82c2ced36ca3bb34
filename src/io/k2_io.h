// k2_io.h: the graph file readers and writers (internal): the entry points behind the public
// file calls (src/api/k2_files.c, which check the pointers), and the text readers, one per
// format.
// SPDX-License-Identifier: Apache-2.0
//
// Each text reader appends to an empty K2_Edges and sets its shape; the caller (k2_read.c)
// applies the options and frees the partial result on error, so that the user's K2_Edges is
// only written on success.
#ifndef K2_IO_H
#define K2_IO_H

#include "io/k2_text.h"

// The graph file at path as an edge list or a matrix, the format chosen as k2_read.c says
// (opt NULL: the defaults). *E / *A is written only on success.
GrB_Info k2_io_read_edges(K2_Edges *E, const char *path, const K2_ReadOptions *opt);
GrB_Info k2_io_read_matrix(K2_Matrix *A, const char *path, const K2_ReadOptions *opt);
// E (whose I and J the caller has checked) or the pattern of a live A as a Matrix Market file
// or an edge list (gzip when the name ends in .gz), replacing path whole or not at all.
GrB_Info k2_io_write_edges(const K2_Edges *E, const char *path, bool matrix_market);
GrB_Info k2_io_write_matrix(K2_Matrix A, const char *path, bool matrix_market);

GrB_Info k2_read_matrix_market(K2_Edges *E, k2_text *t);
GrB_Info k2_read_edge_list(K2_Edges *E, k2_text *t, const K2_ReadOptions *opt);
GrB_Info k2_read_metis(K2_Edges *E, k2_text *t);

// Parse a text graph held in memory (no gzip): format MATRIX_MARKET, EDGE_LIST, METIS or AUTO
// (by the first line only), with the options. `name` appears in messages. E is written only on
// success. Used by the fuzz targets and tests.
GrB_Info k2_io_read_buffer(K2_Edges *E, const void *data, size_t size, const char *name,
                           const K2_ReadOptions *opt);

#endif
