// k2_bvgraph_pending.c: TEMPORARY placeholder for K2_Edges_readBVGraph until the BVGraph reader
// (branch bv, src/io/k2_bvgraph*.c) is merged. Delete this file at that merge.
// SPDX-License-Identifier: Apache-2.0
#include <k2grb.h>

#include "util/k2_error.h"

GrB_Info K2_Edges_readBVGraph(K2_Edges *E, const char *basename, const K2_ReadOptions *opt) {
  (void)E;
  (void)opt;
  K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: the BVGraph reader is not built in yet", basename ? basename : "(null)");
}
