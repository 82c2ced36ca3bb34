// k2_cuda_plan.cuh: the tile plan of a traversal (host side): its steps and its scratch layout.
// SPDX-License-Identifier: Apache-2.0
//
// A product starts at the top level (codes expanded on the host, resident with the matrix) or,
// in the BOTTOM configuration, at the cached codes of the last internal level. The host plans
// the tiles once per (matrix, tile size, offsets source, fusion): a level is cut into ranges
// whose children (grandchildren, when two levels are expanded per step) fit in M codes, each
// range descended to the leaves before the next (depth first), so one buffer of at most M codes
// per stored level suffices. The plan gives the exact scratch.
#ifndef K2_CUDA_PLAN_CUH
#define K2_CUDA_PLAN_CUH

#include <cstdint>
#include <vector>

#include "cuda/k2_cuda_internal.cuh"

namespace k2cu {

// Every device array starts on a 256-byte boundary (matrix parts, scratch buffers, vectors).
constexpr uint64_t kAlign = 256;
inline uint64_t align_up(uint64_t x) { return (x + kAlign - 1) & ~(kAlign - 1); }

struct Step {
  bool leaf;            // visit leaves (last internal level) or expand
  uint32_t level;
  uint32_t span;        // expand: levels down (1, or 2 in a fused plan; the output is the
                        // buffer of level + span)
  int src;              // -1: top codes, -2: bottom codes, >= 0: buffer of that level
  uint64_t node_begin, n;
  uint64_t code_off;    // index of node_begin's code in its source
  uint64_t child_begin; // absolute first child of node_begin
  uint64_t out_begin;   // expand: absolute number of the first node written (span 1: child_begin;
                        // span 2: the first grandchild of node_begin)
};

struct Plan {
  bool valid = false;
  int config = 0;
  uint64_t M = 0;
  bool scan = false;
  bool fuse = false;             // two levels per expand step where two are left above the leaves
  std::vector<Step> steps;
  uint64_t buf_codes[65] = {0};  // codes per level buffer
  uint64_t buf_off[65] = {0};    // byte offset of each level buffer in the scratch
  uint64_t max_n = 0;            // widest step (scan offsets)
  uint64_t offsets_off = 0, temp_off = 0, temp_bytes = 0;
  uint64_t bytes = 0;            // the whole scratch
};

// Plan the traversal of A for a configuration, tile size M and offsets source (host only, but
// asks CUB for its temporary size with scan); fuse: two levels per expand step where two are
// left above the last internal level (directory offsets only); rule: how a tree-only plan cuts
// its levels (tests; the engine's is the best of both). Returns 0 or an error (message
// recorded).
int make_plan(const k2_view *A, int config, uint64_t M, bool scan, bool fuse, Plan *plan,
              k2_cuda_plan_rule rule = K2_CUDA_PLAN_BEST);

}  // namespace k2cu

#endif
