// k2_real_graphs.h: the real graphs of the data folder (../shared/data), one list for the tests
// and the benchmarks, so that "every real graph" means the same graphs everywhere.
// SPDX-License-Identifier: Apache-2.0
//
// Plain C without cmocka: bench/ compiles k2_real_graphs.c into its programs too.
#ifndef K2_REAL_GRAPHS_H
#define K2_REAL_GRAPHS_H

#include <stdbool.h>
#include <stddef.h>

#include <k2grb.h>

typedef struct {
  const char *name;      // short name for tables ("cnr-2000")
  const char *path;      // relative to the data folder; BVGraph: the basename
  K2_FileFormat format;  // AUTO, EDGE_LIST (with one_based) or BVGRAPH
  bool one_based;        // an edge list whose ids start at 1
} k2_real_graph;

// Every graph of the data folder that the readers take, smallest folders first within a source.
// Not listed: LAGraph's malformed and typed test matrices (they test the reader, not products)
// and acubelab-k2's .k2 files (another library's format).
extern const k2_real_graph k2_real_graph_list[];
extern const size_t k2_real_graph_count;

// Read one graph from the data folder dir into *E (overwritten on success only).
// GrB_NO_VALUE (E untouched, no message) when the file is absent; a reader's error otherwise.
GrB_Info k2_real_graph_read(K2_Edges *E, const char *dir, const k2_real_graph *g);

// The data folder: $K2GRB_DATA_DIR, else the given default (K2_DATA_DIR from CMake).
const char *k2_real_graph_dir(const char *fallback);

#endif
