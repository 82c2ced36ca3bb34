// k2_edges.h: helpers shared by the readers and generators (internal).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_EDGES_H
#define K2_EDGES_H

#include <k2grb.h>

// Free the arrays and zero the list (K2_Edges_free).
void k2_edges_free(K2_Edges *E);
// The default read options: format AUTO, nothing else (K2_ReadOptions_default).
void k2_edges_options_default(K2_ReadOptions *opt);
// Append a pair, growing the arrays geometrically. GrB_OUT_OF_MEMORY on failure.
GrB_Info k2_edges_push(K2_Edges *E, uint32_t i, uint32_t j);
// Reserve room for n more pairs.
GrB_Info k2_edges_reserve(K2_Edges *E, uint64_t n);
// Apply symmetrize / transpose / drop_self_loops in place (after the shape is known).
GrB_Info k2_edges_apply_options(K2_Edges *E, const K2_ReadOptions *opt);
// Renumber the ids that occur to 0..k-1 (increasing order); the shape becomes k x k.
GrB_Info k2_edges_remap(K2_Edges *E);
// The pattern of a .k2 file as an edge list, options applied (k2_matrix_io.c: needs the tree).
GrB_Info k2_edges_read_k2(K2_Edges *E, const char *path, const K2_ReadOptions *opt);

#endif
