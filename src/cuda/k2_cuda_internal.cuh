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

// Blocks of a grid-stride kernel over n items: one per kBlock items, at most cap.
constexpr unsigned kMaxGrid = 2048;  // 16 blocks per SM of an H200
inline unsigned grid_for(uint64_t n, unsigned cap) {
  uint64_t b = (n + kBlock - 1) / kBlock;
  if (b == 0) b = 1;
  return (unsigned)(b < cap ? b : cap);
}

// Signature (4 bits) of internal node p.
__device__ __forceinline__ unsigned nibble(const uint64_t *sig, uint64_t p) {
  return (unsigned)((sig[p >> 4] >> ((p & 15) * 4)) & 15u);
}

// The even bits of a Morton code, packed: compact(code) is the column, compact(code >> 1) the row.
__device__ __forceinline__ uint64_t compact(uint64_t x) {
  x &= 0x5555555555555555ull;
  x = (x | (x >> 1)) & 0x3333333333333333ull;
  x = (x | (x >> 2)) & 0x0F0F0F0F0F0F0F0Full;
  x = (x | (x >> 4)) & 0x00FF00FF00FF00FFull;
  x = (x | (x >> 8)) & 0x0000FFFF0000FFFFull;
  x = (x | (x >> 16)) & 0x00000000FFFFFFFFull;
  return x;
}

// Directory sample k (k2_view.h): compact, a 64-bit sample every 16 and 16-bit offsets from it
// (dir_lo), or plain (dir_lo NULL). The branch is the same for every thread of a matrix.
__device__ __forceinline__ uint64_t dir_sample(const uint64_t *dir, const uint16_t *dir_lo,
                                               uint64_t k) {
  return dir_lo != nullptr ? dir[k >> K2_DIR_LO_SHIFT] + dir_lo[k] : dir[k];
}

// First child of internal node p, by one thread (for nodes that are not consecutive): its
// directory sample plus the fan-outs of the nodes between the sample and p.
__device__ __forceinline__ uint64_t thread_first_child(const uint64_t *sig, const uint64_t *dir,
                                                       const uint16_t *dir_lo, uint32_t dir_log,
                                                       uint64_t p) {
  const uint64_t k = p >> dir_log;
  uint64_t r = dir_sample(dir, dir_lo, k);
  const uint64_t wend = p >> 4;
  for (uint64_t w = (k << dir_log) >> 4; w < wend; w++) r += (uint64_t)__popcll(sig[w]);
  const unsigned sh = (unsigned)(p & 15) * 4;
  if (sh) r += (uint64_t)__popcll(sig[wend] & ((1ull << sh) - 1));
  return r;
}

// One step of the traversal: the nodes [node_begin, node_begin + n) of one level, whose
// Morton codes are codes[0 .. n), and how to find their first children.
struct Trav {
  const uint64_t *sig;      // signatures (device)
  const uint64_t *dir;      // directory (device)
  const uint16_t *dir_lo;   // its 16-bit offsets when compact, or NULL
  uint32_t dir_log;
  const uint64_t *codes;
  uint64_t node_begin, n;
  const uint32_t *offsets;  // scan: first child of node i = child_begin + offsets[i];
                            // NULL: directory sample + popcounts + a block scan
  uint64_t child_begin;     // absolute number of the first child of node_begin
  // A pruned frontier instead of a range of nodes: ids[i] is the node whose code is codes[i],
  // for i < *count (at most n); its first child comes from the directory, one node per thread.
  const uint64_t *ids = nullptr;
  const unsigned long long *count = nullptr;
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

// A batch of up to 64 Boolean vectors, one bit per vector in a word per index (bit b: vector b),
// as the bitwise leaf kernel reads and writes it (k2_cuda_kernels.cu).
struct BitsArgs {
  const uint64_t *xv;    // per input index: the vectors whose x is present and true
  const uint64_t *xp;    // per input index: the vectors whose x is present
  const uint64_t *skip;  // per output index: the vectors whose output the mask excludes, or NULL
  uint64_t *yv, *yp;     // per output index: true outputs, present outputs (cleared by the caller)
  // or NULL: bit j says that the inputs [j 2^(leaf_log + 1), (j + 1) 2^(leaf_log + 1)), one
  // node's of the last internal level, hold a present x; a node without one is not visited
  const uint32_t *in_sum = nullptr;
};

// One level's bookkeeping of the bitwise multi-source BFS (launch_bfs_update): the levels and
// the counts alternate between two slots, and each level clears what the one after next
// writes, so a level is two launches (traversal, update) with nothing cleared in between.
struct BfsLevelArgs {
  const uint64_t *next;     // N: the new frontier (its visited bits already masked out)
  uint64_t *visited;        // V
  uint64_t *frontier;       // F, this level's frontier: read, so cleared for the level after next
  int32_t *dist;            // n x B distances and their presence, or NULL where dist8 is set
  uint8_t *dp;
  uint8_t *dist8;           // or n x B bytes: a level k >= 1 as (k - 1) % 254 + 1, 0xFF unreached
                            // (the host reads them back every 254 levels and clears them)
  uint64_t n;
  uint32_t B;
  const int32_t *level;     // this level's number; *level_next = *level + 1
  int32_t *level_next;
  unsigned long long *count, *count_next;  // += N's bits; the next level's count cleared
  uint32_t *sum_next;       // N's input summary (BitsArgs::in_sum), set here (cleared before)
  uint32_t *sum_done;       // F's, cleared here
  uint64_t sum_words;       // words of each summary
  uint32_t sum_shift;       // leaf_log + 1: inputs per summary bit, as a shift
};

// A product over the row-ordered 4x4 blocks (K2_CUDA_CONFIG_ROWS, src/matrix/k2_rows.h).
struct RowsArgs {
  const uint32_t *row, *col;  // block coordinates (device), sorted by (row, column)
  const uint16_t *pat;        // 4x4 cells, bit 4i + j = cell (4 row + i, 4 col + j)
  uint64_t n;                 // blocks
  VecArgs v;
};

// One level of the pruned descent (k2_cuda_pruned.cu): the frontier in (ids_in, codes_in,
// *count_in entries) and out; the stripe bitmaps of the input and of the allowed outputs (NULL:
// that side is not pruned). Entries past `capacity` are counted but not written.
struct PruneArgs {
  const uint64_t *sig, *dir;
  const uint16_t *dir_lo;
  uint32_t dir_log;
  bool left;
  const uint32_t *in_bm, *out_bm;
  const uint64_t *top;          // the top level: codes, its first node, how many
  uint64_t top_begin, top_count;
  uint32_t top_level;
  const uint64_t *ids_in, *codes_in;
  const unsigned long long *count_in;
  uint64_t *ids_out, *codes_out;
  unsigned long long *count_out;
  uint64_t capacity;
};

// True if (type, monoid, mult) is a combination the engine runs.
bool supported(k2_type type, k2_monoid mon, k2_mult mult);

cudaError_t launch_expand(const ExpandArgs &a, cudaStream_t s);
// Load the kernels that uploads, BFS and PageRank launch (this file's, k2_cuda_pruned.cu's,
// k2_cuda_vector.cu's). CUDA loads a kernel at its first launch otherwise (lazy loading): about
// 3 ms of the first upload and 2 ms of the first BFS on the H200, charged to them rather than to
// the device's start.
cudaError_t warm_tree_kernels();
cudaError_t warm_pruned_kernels();
cudaError_t warm_vector_kernels();
// Load the n kernels of k[] (their attributes asked for, which loads each).
cudaError_t load_kernels(const void *const *k, size_t n);
cudaError_t launch_leaf(k2_type type, k2_monoid mon, const LeafArgs &a, cudaStream_t s);
cudaError_t launch_rows(k2_type type, k2_monoid mon, const RowsArgs &a, cudaStream_t s);
// True if a batch product folds exactly as words of bits: BOOL with a monoid that is an OR on
// BOOL (LOR, PLUS, MAX, ANY), 2 to 64 vectors, a multiply whose value is x's, true or false.
bool bits_applies(k2_type type, k2_monoid mon, int mult, uint32_t batch);
// The leaf visit of a product whose vectors are words of bits (yv, yp: OR into them).
cudaError_t launch_leaf_bits(const LeafArgs &a, const BitsArgs &b, cudaStream_t s);
// y[0 .. count) = identity of the monoid.
cudaError_t launch_init(k2_type type, k2_monoid mon, void *y, uint64_t count, cudaStream_t s);
// CUB temporary bytes for a scan of n fan-outs (n <= 2^30); 0 on error.
size_t scan_temp_bytes(uint64_t n);
// out[i] = sum of the fan-outs of nodes node_begin .. node_begin + i - 1, i < n.
cudaError_t launch_scan(void *temp, size_t temp_bytes, const uint64_t *sig, uint64_t node_begin,
                        uint64_t n, uint32_t *out, cudaStream_t s);

// ---- the pruned traversal and the sparse forms (k2_cuda_pruned.cu) ----
// Mark in the heap-ordered stripe bitmap bm (levels 0 .. deepest) the stripes that hold a listed
// index / an index whose flag is (nonzero == want).
cudaError_t launch_stripes_from_list(uint32_t *bm, const uint64_t *list, uint64_t k,
                                     uint32_t side_log, uint32_t deepest, cudaStream_t s);
cudaError_t launch_stripes_from_flags(uint32_t *bm, const uint8_t *flags, bool want, uint64_t n,
                                      uint32_t side_log, uint32_t deepest, cudaStream_t s);
cudaError_t launch_prune_top(const PruneArgs &a, cudaStream_t s);
// Children (level + 1) of the frontier's nodes (level); width: the nodes of that level.
cudaError_t launch_prune_expand(const PruneArgs &a, uint32_t level, uint64_t width, cudaStream_t s);
// xp[list[i]] = 1 and x[list[i]] = vals[i] (ts bytes), i < k.
cudaError_t launch_scatter_input(const uint64_t *list, const void *vals, uint64_t k, uint32_t ts,
                                 void *x, uint8_t *xp, cudaStream_t s);
// The present outputs (present[i] != 0, i < n), ascending, into list (*count of them) and their
// values (ts bytes each, from y) into vals.
size_t select_temp_bytes(uint64_t n);
cudaError_t launch_list_outputs(void *temp, size_t temp_bytes, const uint8_t *present, uint64_t n,
                                uint64_t *list, unsigned long long *count, const void *y,
                                uint32_t ts, void *vals, cudaStream_t s);

// ---- device-resident vectors (k2_cuda_vector.cu) ----
// skip[i] = 1 where the mask does not allow output i (see k2_cuda_mask), i < n.
cudaError_t launch_mask_skip(uint8_t *skip, const uint8_t *present, const void *values, k2_type type,
                             bool structural, bool complement, uint64_t n, cudaStream_t s);
// Pack n x B bytes (row-major, B <= 64) into a word per index: v[i] bit b = x[i B + b] != 0 and
// (xp == NULL or xp[i B + b] != 0); p (if not NULL) bit b = xp == NULL or xp[i B + b] != 0.
cudaError_t launch_pack_bits(const uint8_t *x, const uint8_t *xp, uint64_t n, uint32_t B, uint64_t *v,
                             uint64_t *p, cudaStream_t s);
// The reverse for a product's output: y[i B + b] = the value (value_mode 0: v's bit, 1: p's bit,
// 2: false), yp[i B + b] = p's bit; *count += the present outputs.
cudaError_t launch_unpack_bits(const uint64_t *v, const uint64_t *p, int value_mode, uint64_t n, uint32_t B,
                               uint8_t *y, uint8_t *yp, unsigned long long *count, cudaStream_t s);
// The skip bits of a batch of B <= 64 vectors from its mask: bit b of skip[i] for entry i B + b.
cudaError_t launch_mask_bits(uint64_t *skip, const uint8_t *present, const void *values, k2_type type,
                             bool structural, bool complement, uint64_t n, uint32_t B, cudaStream_t s);
// A multi-source BFS as words of bits (B <= 64 sources): seed F and V with the sources (dist 0)
// and F's summary sum (BitsArgs::in_sum, cleared before); after a level's traversal into N (one
// launch, BfsLevelArgs): V |= N, dist (int32, n x B, presence dp) = *level where N has a bit,
// *count += N's bits, N's summary, F and its summary cleared.
cudaError_t launch_bfs_seed(const uint64_t *sources, uint32_t B, uint64_t *F, uint64_t *V, int32_t *dist,
                            uint8_t *dp, uint8_t *dist8, uint32_t *sum, uint32_t sum_shift, cudaStream_t s);
cudaError_t launch_bfs_update(const BfsLevelArgs &a, cudaStream_t s);
// A single-source BFS on bytes: clear the frontiers and the visited set (F, N, V: stride bytes
// each, back to back) and the results' presence (n bytes), then seed F and V with src (level 0,
// its own parent; *k = 1), in one launch (three memsets and a seed cost four); after a
// level's traversal into N (cand: the parents found, pts bytes), V |= N, level (lts bytes, or
// NULL) = *k and parent (pts bytes, or NULL) = cand where N is set, *count += N's entries, then
// *k += 1 where *count is not 0. Nothing where one of frontier_counts[0, nlevels) (a pruned
// traversal's, or NULL) exceeds capacity: that level runs again.
cudaError_t launch_bfs_one_seed(uint64_t src, uint64_t n, uint8_t *F, uint64_t stride, void *level, uint8_t *lp,
                                uint32_t lts, void *parent, uint8_t *pp, uint32_t pts, int64_t *k, cudaStream_t s);
cudaError_t launch_bfs_one_visit(const uint8_t *N, uint8_t *V, uint64_t n, void *level, uint8_t *lp, uint32_t lts,
                                 void *parent, uint8_t *pp, uint32_t pts, const void *cand, int64_t *k,
                                 unsigned long long *count, const unsigned long long *frontier_counts,
                                 uint32_t nlevels, uint64_t capacity, cudaStream_t s);
// PageRank between its products: w = t ./ d; r = teleport + y with teleport = scaled +
// damping_over_n * *sink_sum (scaled alone when sink_sum is NULL), *diff += sum |t - r|.
// t = r, w = r ./ d and *sink_sum += the sum of r where sink (not NULL), in one pass.
cudaError_t launch_pr_prepare(float *w, float *t, const float *r, const float *d, const uint8_t *sink, uint64_t n,
                              double *sink_sum, cudaStream_t s);
cudaError_t launch_pr_update(float *r, const float *t, const float *y, uint64_t n, float scaled,
                             float damping_over_n, const double *sink_sum, double *diff, cudaStream_t s);
// *count += how many of p[0, n) are nonzero.
cudaError_t launch_count_present(const uint8_t *p, uint64_t n, unsigned long long *count,
                                 cudaStream_t s);
// Where m[i]: v[i] = w[i], vp[i] = wp[i] (w != NULL) or v[i] = scalar (its low ts bytes), vp[i] = 1.
cudaError_t launch_assign(void *v, uint8_t *vp, const uint8_t *m, const void *w, const uint8_t *wp,
                          uint64_t scalar, uint32_t ts, uint64_t n, cudaStream_t s);
// z = x op y (both present; with add, either) and z = op(x), as k2_cuda_vector_ewise / _apply.
cudaError_t launch_ewise(void *z, uint8_t *zp, const void *x, const uint8_t *xp, const void *y,
                         const uint8_t *yp, k2_type t, int op, bool add, uint64_t n, cudaStream_t s);
cudaError_t launch_apply(void *z, uint8_t *zp, const void *x, const uint8_t *xp, k2_type t, int op,
                         uint64_t n, cudaStream_t s);
// *isum += the present values (BOOL and integers), *fsum += them (floats).
cudaError_t launch_sum(const void *x, const uint8_t *p, k2_type t, uint64_t n,
                       unsigned long long *isum, double *fsum, cudaStream_t s);

// w[i] = u[I[i]] (see k2_cuda_vector_extract); *bad += the indices out of range, *present +=
// the entries written.
cudaError_t launch_extract(void *w, uint8_t *wp, const void *u, const uint8_t *up, uint64_t nu,
                           const void *I, const uint8_t *Ip, bool index64, uint32_t ts, uint64_t n,
                           unsigned long long *bad, unsigned long long *present, cudaStream_t s);

}  // namespace k2cu

#endif
