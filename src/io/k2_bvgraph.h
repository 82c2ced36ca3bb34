// k2_bvgraph.h: the BVGraph reader's internal entry point (tests and benchmarks pick the mode).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_BVGRAPH_H
#define K2_BVGRAPH_H

#include <k2grb.h>

typedef struct {
  // Use the .offsets file (parallel decode) when present. false: one sequential scan.
  bool use_offsets;
  // Pieces the nodes are cut into for the parallel decode (0: a few per thread).
  uint32_t chunks;
} k2_bvgraph_config;

// The reader behind K2_Edges_readBVGraph, with an explicit configuration (NULL: the defaults).
GrB_Info k2_bvgraph_read(K2_Edges *E, const char *basename, const K2_ReadOptions *opt,
                         const k2_bvgraph_config *cfg);

#endif
