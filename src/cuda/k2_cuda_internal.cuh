// k2_cuda_internal.cuh: what the engine's .cu files share (kernel arguments and launchers).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_CUDA_INTERNAL_CUH
#define K2_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/k2_cuda_testing.h"

namespace k2cu {

// Threads per block of every traversal kernel: a block owns kBlock consecutive nodes.
constexpr int kBlock = 256;

// One step of the traversal: the nodes [node_begin, node_begin + n) of one level, whose
// Morton codes are codes[0 .. n), and how to find their first children.
struct Trav {
  const uint64_t *sig;      // signatures (device)
  const uint64_t *dir;      // directory (device)
  uint32_t dir_log;
  const uint64_t *codes;
  uint64_t node_begin, n;
  const uint32_t *offsets;  // scan: first child of node i = child_begin + offsets[i];
                            // NULL: directory sample + popcounts + a block scan
  uint64_t child_begin;     // absolute number of the first child of node_begin
};

// Expand one level (write the codes of the children into out[first_child - out_begin ...]) or
// two (the children staged in shared memory; their children's codes into
// out[first_grandchild - out_begin ...]).
struct ExpandArgs {
  Trav t;
  uint64_t *out;
  uint32_t levels;     // 1 or 2
  uint64_t out_begin;  // absolute number of the node written to out[0]
};

// The vectors and the semiring of one product, as every product kernel reads them.
struct VecArgs {
  const void *x;
  void *y;
  const uint8_t *xp;  // x present (or NULL)
  uint8_t *yp;        // y present (or NULL)
  const uint8_t *ys;  // y skipped (or NULL)
  uint32_t B;         // vectors
  int mult;           // k2_mult
  bool left;
  double w;
  int64_t index_base;
  bool fast;          // allow the specialised plus kernels where they apply (settings.fast_leaf)
};

// Leaf visit: the nodes are of the last internal level; their leaves are read in place.
struct LeafArgs {
  Trav t;
  const uint64_t *leaves;
  uint64_t n_internal;
  uint32_t leaf_log, leaf_bits;
  uint32_t G;         // lanes per node: power of two, <= 32
  VecArgs v;
};

// A product over the row-ordered 4x4 blocks (K2_CUDA_CONFIG_ROWS, src/matrix/k2_rows.h).
struct RowsArgs {
  const uint32_t *row, *col;  // block coordinates (device), sorted by (row, column)
  const uint16_t *pat;        // 4x4 cells, bit 4i + j = cell (4 row + i, 4 col + j)
  uint64_t n;                 // blocks
  VecArgs v;
};

// True if (type, monoid, mult) is a combination the engine runs.
bool supported(k2_type type, k2_monoid mon, k2_mult mult);

cudaError_t launch_expand(const ExpandArgs &a, cudaStream_t s);
cudaError_t launch_leaf(k2_type type, k2_monoid mon, const LeafArgs &a, cudaStream_t s);
cudaError_t launch_rows(k2_type type, k2_monoid mon, const RowsArgs &a, cudaStream_t s);
// y[0 .. count) = identity of the monoid.
cudaError_t launch_init(k2_type type, k2_monoid mon, void *y, uint64_t count, cudaStream_t s);
// CUB temporary bytes for a scan of n fan-outs (n <= 2^30); 0 on error.
size_t scan_temp_bytes(uint64_t n);
// out[i] = sum of the fan-outs of nodes node_begin .. node_begin + i - 1, i < n.
cudaError_t launch_scan(void *temp, size_t temp_bytes, const uint64_t *sig, uint64_t node_begin,
                        uint64_t n, uint32_t *out, cudaStream_t s);

}  // namespace k2cu

#endif
