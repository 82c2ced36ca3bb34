// k2_cuda_kernels.cu: the traversal kernels (expand one level, visit leaves) and their semirings.
// SPDX-License-Identifier: Apache-2.0
//
// Every kernel gives a block of kBlock threads to kBlock consecutive nodes of a level. The first
// children of those nodes come from a CUB scan of the tile (offsets array) or from the sampled
// directory: one directory lookup per block (warp 0 popcounts the signature words between the
// sample and the block's first node) plus a block-wide scan of the fan-outs.
//
// The leaf kernel visits the leaves of a node of the last internal level in place. A node covers
// 2 x 2 leaves; the cells of one output row (column for left products) are folded in registers
// across the two leaves that share it, so a node issues at most 2 * leaf side atomics per vector
// instead of one per cell. In a batch, G lanes share a node and walk the B vectors (row-major
// X and Y: adjacent lanes touch adjacent words).
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cfloat>
#include <climits>

#include "cuda/k2_cuda_internal.cuh"
#include "cuda/k2_cuda_semiring.cuh"

namespace k2cu {

namespace {

// First child of node p0 from the directory: its sample plus the fan-outs of the nodes between
// the sample and p0 (nibbles [s, p0) of the signature words). Called by all lanes of one warp.
__device__ uint64_t dir_first_child(const uint64_t *sig, const uint64_t *dir,
                                    const uint16_t *dir_lo, uint32_t dir_log, uint64_t p0) {
  const unsigned lane = threadIdx.x & 31u;
  const uint64_t k = p0 >> dir_log;
  const uint64_t s = k << dir_log;
  const uint64_t bit_lo = 4 * s, bit_hi = 4 * p0;
  const uint64_t w_lo = bit_lo >> 6, w_hi = (bit_hi + 63) >> 6;
  unsigned sum = 0;
  for (uint64_t w = w_lo + lane; w < w_hi; w += 32) {
    const uint64_t base = w * 64;
    const uint64_t lo = bit_lo > base ? bit_lo - base : 0;
    const uint64_t hi = bit_hi < base + 64 ? bit_hi - base : 64;
    uint64_t mask = hi >= 64 ? ~0ull : ((1ull << hi) - 1);
    mask &= ~((1ull << lo) - 1);
    sum += (unsigned)__popcll(sig[w] & mask);
  }
  sum = __reduce_add_sync(0xffffffffu, sum);
  return dir_sample(dir, dir_lo, k) + sum;
}

// Per-block node data in shared memory: signature, code and absolute first child.
struct NodeTile {
  uint64_t code[kBlock];
  uint64_t fc[kBlock];
  uint8_t sig[kBlock];
};

// Nodes of the step: t.n, or the length a pruned frontier reached on the device.
__device__ __forceinline__ uint64_t step_nodes(const Trav &t) {
  return t.count != nullptr ? min((uint64_t)*t.count, t.n) : t.n;
}

// n: step_nodes(t), read once by the caller (the block returns early when it has no node).
__device__ void load_nodes(const Trav &t, NodeTile &tile, uint64_t n) {
  typedef cub::BlockScan<unsigned, kBlock> Scan;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ uint64_t block_fc;
  const uint64_t first = (uint64_t)blockIdx.x * kBlock;
  const uint64_t idx = first + threadIdx.x;
  const bool valid = idx < n;
  if (t.ids != nullptr) {
    const uint64_t p = valid ? t.ids[idx] : 0;
    tile.sig[threadIdx.x] = valid ? (uint8_t)nibble(t.sig, p) : 0;
    if (valid) {
      tile.code[threadIdx.x] = t.codes[idx];
      tile.fc[threadIdx.x] = thread_first_child(t.sig, t.dir, t.dir_lo, t.dir_log, p);
    }
    __syncthreads();
    return;
  }
  const unsigned s = valid ? nibble(t.sig, t.node_begin + idx) : 0u;
  tile.sig[threadIdx.x] = (uint8_t)s;
  if (valid) tile.code[threadIdx.x] = t.codes[idx];
  if (t.offsets != nullptr) {
    if (valid) tile.fc[threadIdx.x] = t.child_begin + t.offsets[idx];
  } else {
    if (threadIdx.x < 32) {
      const uint64_t fc = dir_first_child(t.sig, t.dir, t.dir_lo, t.dir_log, t.node_begin + first);
      if (threadIdx.x == 0) block_fc = fc;
    }
    unsigned off;
    Scan(scan_tmp).ExclusiveSum((unsigned)__popc(s), off);
    __syncthreads();
    tile.fc[threadIdx.x] = block_fc + off;
  }
  __syncthreads();
}

__global__ void __launch_bounds__(kBlock) expand_kernel(ExpandArgs a) {
  __shared__ NodeTile tile;
  load_nodes(a.t, tile, a.t.n);
  const uint64_t idx = (uint64_t)blockIdx.x * kBlock + threadIdx.x;
  if (idx >= a.t.n) return;
  const unsigned s = tile.sig[threadIdx.x];
  const uint64_t code = tile.code[threadIdx.x] << 2;
  uint64_t pos = tile.fc[threadIdx.x] - a.out_begin;
#pragma unroll
  for (unsigned b = 0; b < 4; b++)
    if (s & (1u << b)) a.out[pos++] = code | b;
}

// Two levels per launch: the block's nodes write their children's codes to shared memory (at
// most 4 per node, contiguous from the block's first child), then every thread takes four
// consecutive children, finds their first children by one directory lookup for the block and a
// block scan of the fan-outs, and writes the grandchildren's codes. The middle level never
// reaches global memory.
__global__ void __launch_bounds__(kBlock) expand2_kernel(ExpandArgs a) {
  __shared__ NodeTile tile;
  __shared__ uint64_t kid[4 * kBlock];
  __shared__ uint64_t kids, first_grand;
  typedef cub::BlockScan<unsigned, kBlock> Scan;
  __shared__ typename Scan::TempStorage scan_tmp;
  load_nodes(a.t, tile, a.t.n);
  const uint64_t first = (uint64_t)blockIdx.x * kBlock;
  const uint64_t idx = first + threadIdx.x;
  const uint64_t valid_here = min((uint64_t)kBlock, a.t.n - first);  // >= 1
  const uint64_t base = tile.fc[0];  // the block's first child (thread 0 has a node)
  if (idx < a.t.n) {
    const unsigned s = tile.sig[threadIdx.x];
    const uint64_t code = tile.code[threadIdx.x] << 2;
    uint64_t pos = tile.fc[threadIdx.x] - base;
#pragma unroll
    for (unsigned b = 0; b < 4; b++)
      if (s & (1u << b)) kid[pos++] = code | b;
    if (threadIdx.x == valid_here - 1) kids = pos;
  }
  __syncthreads();
  const uint64_t nk = kids;
  unsigned ks[4], fan[4], off[4];
#pragma unroll
  for (unsigned q = 0; q < 4; q++) {
    const uint64_t k = 4 * (uint64_t)threadIdx.x + q;
    ks[q] = k < nk ? nibble(a.t.sig, base + k) : 0u;
    fan[q] = (unsigned)__popc(ks[q]);
  }
  Scan(scan_tmp).ExclusiveSum(fan, off);
  if (threadIdx.x < 32) {
    const uint64_t g = dir_first_child(a.t.sig, a.t.dir, a.t.dir_lo, a.t.dir_log, base);
    if (threadIdx.x == 0) first_grand = g;
  }
  __syncthreads();
  const uint64_t g0 = first_grand - a.out_begin;
#pragma unroll
  for (unsigned q = 0; q < 4; q++) {
    if (ks[q] == 0) continue;
    const uint64_t code = kid[4 * threadIdx.x + q] << 2;
    uint64_t pos = g0 + off[q];
#pragma unroll
    for (unsigned b = 0; b < 4; b++)
      if (ks[q] & (1u << b)) a.out[pos++] = code | b;
  }
}

// ---- the leaf kernel ----------------------------------------------------------------------

template <class T, int MON>
__global__ void __launch_bounds__(kBlock) leaf_kernel(LeafArgs a) {
  __shared__ NodeTile tile;
  const uint64_t nodes = step_nodes(a.t);
  if ((uint64_t)blockIdx.x * kBlock >= nodes) return;  // past a pruned frontier's end
  load_nodes(a.t, tile, nodes);
  const T *x = (const T *)a.v.x;
  T *y = (T *)a.v.y;
  const T w = cast_double<T>(a.v.w);
  const uint32_t G = a.G, B = a.v.B;
  const uint32_t lane = threadIdx.x & (G - 1);
  const uint64_t first = (uint64_t)blockIdx.x * kBlock;
  const uint32_t count = (uint32_t)min((uint64_t)kBlock, nodes - first);
  const uint32_t LL = a.leaf_log, LS = 1u << LL;
  const uint64_t row_mask = (LS == 8) ? 0xFFull : ((1ull << LS) - 1);
  const uint64_t leaf_mask = a.leaf_bits == 64 ? ~0ull : ((1ull << a.leaf_bits) - 1);

  for (uint32_t k = threadIdx.x / G; k < count; k += kBlock / G) {
    const unsigned s = tile.sig[k];
    uint64_t q = tile.fc[k] - a.n_internal;
    uint64_t lam[4];
#pragma unroll
    for (unsigned b = 0; b < 4; b++) {
      lam[b] = 0;
      if (s & (1u << b)) {
        const uint64_t bit = q * a.leaf_bits;
        lam[b] = (a.leaves[bit >> 6] >> (bit & 63)) & leaf_mask;
        q++;
      }
    }
    const uint64_t code = tile.code[k];
    const uint64_t r0 = compact(code >> 1) << (LL + 1), c0 = compact(code) << (LL + 1);

    for (uint32_t v = lane; v < B; v += G) {
#pragma unroll
      for (unsigned h = 0; h < 2; h++) {
        // h: the half of the node's block the outputs lie in (rows for right, columns for left)
        const uint64_t la = a.v.left ? lam[h] : lam[2 * h];
        const uint64_t lb = a.v.left ? lam[2 + h] : lam[2 * h + 1];
        if (!(la | lb)) continue;
        for (uint32_t d = 0; d < LS; d++) {
          // bits of the line d of each leaf (a row of cells, or a column for left products)
          uint64_t ba, bb;
          if (!a.v.left) {
            ba = (la >> (d * LS)) & row_mask;
            bb = (lb >> (d * LS)) & row_mask;
          } else {
            ba = bb = 0;
            for (uint32_t e = 0; e < LS; e++) {
              ba |= ((la >> (e * LS + d)) & 1ull) << e;
              bb |= ((lb >> (e * LS + d)) & 1ull) << e;
            }
          }
          if (!(ba | bb)) continue;
          const uint64_t t = (a.v.left ? c0 : r0) + ((uint64_t)h << LL) + d;
          const uint64_t ti = t * B + v;
          if (a.v.ys != nullptr && a.v.ys[ti]) continue;
          const uint64_t o0 = a.v.left ? r0 : c0;
          T acc = T(0);
          bool any = false;
#pragma unroll
          for (unsigned o = 0; o < 2; o++) {
            uint64_t bits = o ? bb : ba;
            while (bits) {
              const unsigned e = (unsigned)__ffsll((long long)bits) - 1;
              bits &= bits - 1;
              const uint64_t src = o0 + ((uint64_t)o << LL) + e;
              const uint64_t si = src * B + v;
              if (a.v.xp != nullptr && !a.v.xp[si]) continue;
              const T val = multiply<T>(a.v.mult, load<T>(x, si), w, src, a.v.index_base);
              acc = any ? combine<T, MON>(acc, val) : val;
              any = true;
            }
          }
          if (any) {
            Atomic<T, MON>::apply(&y[ti], acc);
            if (a.v.yp != nullptr) a.v.yp[ti] = 1;
          }
        }
      }
    }
  }
}

// ---- the bitwise leaf kernel: up to 64 Boolean vectors as the bits of one word -----------------
// Multi-source BFS and its kin (LOR over BOOL on a batch): one thread per node folds, for each
// output line of its leaves, the words of the inputs that line reaches, so every vector of the
// batch is updated by one atomicOr where the byte kernel makes one update per vector. An output
// word that already holds the bits is not written again (hubs are reached from many nodes).
__global__ void __launch_bounds__(kBlock) leaf_bits_kernel(LeafArgs a, BitsArgs bw) {
  __shared__ NodeTile tile;
  const uint64_t nodes = step_nodes(a.t);
  if ((uint64_t)blockIdx.x * kBlock >= nodes) return;  // past a pruned frontier's end
  load_nodes(a.t, tile, nodes);
  const uint64_t first = (uint64_t)blockIdx.x * kBlock;
  if (first + threadIdx.x >= nodes) return;
  const uint32_t LL = a.leaf_log, LS = 1u << LL;
  const uint64_t row_mask = (LS == 8) ? 0xFFull : ((1ull << LS) - 1);
  const uint64_t leaf_mask = a.leaf_bits == 64 ? ~0ull : ((1ull << a.leaf_bits) - 1);
  const uint64_t code = tile.code[threadIdx.x];
  if (bw.in_sum != nullptr) {  // no present input in the node's range: nothing to read
    const uint64_t j = a.v.left ? compact(code >> 1) : compact(code);
    if (!((bw.in_sum[j >> 5] >> (j & 31)) & 1u)) return;
  }
  const unsigned s = tile.sig[threadIdx.x];
  uint64_t q = tile.fc[threadIdx.x] - a.n_internal;
  uint64_t lam[4];
#pragma unroll
  for (unsigned b = 0; b < 4; b++) {
    lam[b] = 0;
    if (s & (1u << b)) {
      const uint64_t bit = q * a.leaf_bits;
      lam[b] = (a.leaves[bit >> 6] >> (bit & 63)) & leaf_mask;
      q++;
    }
  }
  const uint64_t r0 = compact(code >> 1) << (LL + 1), c0 = compact(code) << (LL + 1);
#pragma unroll
  for (unsigned h = 0; h < 2; h++) {
    const uint64_t la = a.v.left ? lam[h] : lam[2 * h];
    const uint64_t lb = a.v.left ? lam[2 + h] : lam[2 * h + 1];
    if (!(la | lb)) continue;
    for (uint32_t d = 0; d < LS; d++) {
      uint64_t ba, bb;
      if (!a.v.left) {
        ba = (la >> (d * LS)) & row_mask;
        bb = (lb >> (d * LS)) & row_mask;
      } else {
        ba = bb = 0;
        for (uint32_t e = 0; e < LS; e++) {
          ba |= ((la >> (e * LS + d)) & 1ull) << e;
          bb |= ((lb >> (e * LS + d)) & 1ull) << e;
        }
      }
      if (!(ba | bb)) continue;
      const uint64_t t = (a.v.left ? c0 : r0) + ((uint64_t)h << LL) + d;
      const uint64_t o0 = a.v.left ? r0 : c0;
      uint64_t pv = 0, pp = 0;
#pragma unroll
      for (unsigned o = 0; o < 2; o++) {
        uint64_t bits = o ? bb : ba;
        while (bits) {
          const unsigned e = (unsigned)__ffsll((long long)bits) - 1;
          bits &= bits - 1;
          const uint64_t src = o0 + ((uint64_t)o << LL) + e;
          pv |= bw.xv[src];
          pp |= bw.xp[src];
        }
      }
      if (bw.skip != nullptr) {
        const uint64_t keep = ~bw.skip[t];
        pv &= keep;
        pp &= keep;
      }
      if (pp == 0) continue;
      if ((bw.yp[t] & pp) != pp) atomicOr((unsigned long long *)&bw.yp[t], (unsigned long long)pp);
      if (pv != 0 && (bw.yv[t] & pv) != pv)
        atomicOr((unsigned long long *)&bw.yv[t], (unsigned long long)pv);
    }
  }
}

// ---- the plus-times leaf kernel: one vector, 2x2 leaves, every x present -----------------------
// The common case of PageRank-like products (PLUS with x or x*w on floats). A thread folds its
// node's 4x4 block with the (at most four) x values it needs into at most four sums, as the
// generic kernel does; the sums then go to a window of kWin outputs in shared memory, starting
// at the block's smallest output index, and only the window's non-zero entries reach y. Nodes
// that are consecutive in level order are close in the matrix, so on graphs with locality most
// of a block's updates fall into the window: one global atomic per touched output per block
// instead of one per node and output. Outputs beyond the window update y directly.
// Skipping zero partial sums is exact: y starts at +0 and never becomes -0, and y + 0 == y.
constexpr uint32_t kWin = 2048;

unsigned blocks_for(uint64_t n);

template <class T>
__global__ void __launch_bounds__(kBlock) leaf_plus_kernel(LeafArgs a) {
  __shared__ NodeTile tile;
  __shared__ T win[kWin];
  __shared__ uint32_t warp_lo[kBlock / 32];
  __shared__ uint32_t block_lo;
  load_nodes(a.t, tile, a.t.n);
  const T *x = (const T *)a.v.x;
  T *y = (T *)a.v.y;
  const bool scale = a.v.mult == K2_MUL_X_TIMES_W;
  const T w = (T)a.v.w;
  const uint64_t idx = (uint64_t)blockIdx.x * kBlock + threadIdx.x;
  const bool valid = idx < a.t.n;
  uint32_t blk = 0, o = 0, src = 0;
  if (valid) {
    const unsigned s = tile.sig[threadIdx.x];
    uint64_t q = tile.fc[threadIdx.x] - a.n_internal;
#pragma unroll
    for (unsigned b = 0; b < 4; b++) {
      if (s & (1u << b)) {
        const uint32_t lb = (uint32_t)(a.leaves[q >> 4] >> ((q & 15) * 4)) & 15u;
        const unsigned sh = (b >> 1) * 8 + (b & 1) * 2;  // quadrant b: row 2*(b>>1), column 2*(b&1)
        blk |= ((lb & 3u) << sh) | (((lb >> 2) & 3u) << (sh + 4));
        q++;
      }
    }
    const uint64_t code = tile.code[threadIdx.x];
    const uint32_t r0 = (uint32_t)(compact(code >> 1) << 2), c0 = (uint32_t)(compact(code) << 2);
    o = a.v.left ? c0 : r0;
    src = a.v.left ? r0 : c0;
  }
  // the window starts at the smallest output index of the block's nodes
  uint32_t lo = valid ? o : 0xFFFFFFFFu;
  lo = __reduce_min_sync(0xFFFFFFFFu, lo);
  if ((threadIdx.x & 31u) == 0) warp_lo[threadIdx.x >> 5] = lo;
  for (uint32_t i = threadIdx.x; i < kWin; i += kBlock) win[i] = T(0);
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t m = warp_lo[0];
    for (int k = 1; k < kBlock / 32; k++) m = min(m, warp_lo[k]);
    block_lo = m;
  }
  __syncthreads();
  const uint32_t base = block_lo;
  if (valid) {
    // source-major pattern: line k (bits 4k .. 4k+3) = the outputs that source k feeds
    const uint32_t S = a.v.left ? blk : block_transpose4(blk);
    T acc[4] = {T(0), T(0), T(0), T(0)};
#pragma unroll
    for (unsigned k = 0; k < 4; k++) {
      const uint32_t line = (S >> (4 * k)) & 15u;
      if (line == 0) continue;
      T xv = x[(uint64_t)src + k];
      if (scale) xv = xv * w;
#pragma unroll
      for (unsigned i = 0; i < 4; i++)
        if (line & (1u << i)) acc[i] += xv;
    }
    const uint32_t outs = (S | (S >> 4) | (S >> 8) | (S >> 12)) & 15u;
#pragma unroll
    for (unsigned i = 0; i < 4; i++) {
      if (!(outs & (1u << i))) continue;
      const uint32_t rel = o + i - base;
      if (rel < kWin) atomicAdd(&win[rel], acc[i]);
      else atomicAdd(&y[(uint64_t)o + i], acc[i]);
    }
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < kWin; i += kBlock) {
    const T v = win[i];
    if (v != T(0)) atomicAdd(&y[(uint64_t)base + i], v);
  }
}

// The same for a batch of B >= 32 vectors (row-major X and Y): a warp takes a node, its lanes
// the vectors (v = lane, lane + 32, ...), so every x and y access of a warp is one contiguous
// run. The window holds kWinBatch / B output rows of all B vectors and is flushed as one
// contiguous range of Y. In dynamic shared memory (set up by batch_window_bytes).
constexpr uint32_t kWinBatchBytes = 64 * 1024;  // 3 blocks per SM
constexpr uint32_t kMaxPerLane = 8;  // B <= 256

template <class T>
__global__ void __launch_bounds__(kBlock) leaf_plus_batch_kernel(LeafArgs a) {
  __shared__ NodeTile tile;
  __shared__ uint32_t warp_lo[kBlock / 32];
  __shared__ uint32_t block_lo;
  extern __shared__ __align__(16) unsigned char win_raw[];
  T *win = (T *)win_raw;
  load_nodes(a.t, tile, a.t.n);
  const T *x = (const T *)a.v.x;
  T *y = (T *)a.v.y;
  const bool scale = a.v.mult == K2_MUL_X_TIMES_W;
  const T w = (T)a.v.w;
  const uint32_t B = a.v.B;
  const uint32_t rows = kWinBatchBytes / (uint32_t)sizeof(T) / B;  // window rows
  const uint32_t lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  const uint64_t first = (uint64_t)blockIdx.x * kBlock;
  const uint32_t count = (uint32_t)min((uint64_t)kBlock, a.t.n - first);
  // window base: the smallest output index of the block's nodes
  uint32_t lo = 0xFFFFFFFFu;
  if (threadIdx.x < count) {
    const uint64_t code = tile.code[threadIdx.x];
    lo = (uint32_t)((a.v.left ? compact(code) : compact(code >> 1)) << 2);
  }
  lo = __reduce_min_sync(0xFFFFFFFFu, lo);
  if (lane == 0) warp_lo[warp] = lo;
  for (uint32_t i = threadIdx.x; i < rows * B; i += kBlock) win[i] = T(0);
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t m = warp_lo[0];
    for (int k = 1; k < kBlock / 32; k++) m = min(m, warp_lo[k]);
    block_lo = m;
  }
  __syncthreads();
  const uint32_t base = block_lo;
  for (uint32_t k = warp; k < count; k += kBlock / 32) {
    const unsigned s = tile.sig[k];
    uint64_t q = tile.fc[k] - a.n_internal;
    uint32_t blk = 0;
#pragma unroll
    for (unsigned b = 0; b < 4; b++) {
      if (s & (1u << b)) {
        const uint32_t lb = (uint32_t)(a.leaves[q >> 4] >> ((q & 15) * 4)) & 15u;
        const unsigned sh = (b >> 1) * 8 + (b & 1) * 2;
        blk |= ((lb & 3u) << sh) | (((lb >> 2) & 3u) << (sh + 4));
        q++;
      }
    }
    const uint64_t code = tile.code[k];
    const uint32_t r0 = (uint32_t)(compact(code >> 1) << 2), c0 = (uint32_t)(compact(code) << 2);
    const uint32_t o = a.v.left ? c0 : r0, src = a.v.left ? r0 : c0;
    const uint32_t S = a.v.left ? blk : block_transpose4(blk);
    T acc[4][kMaxPerLane];
#pragma unroll
    for (unsigned i = 0; i < 4; i++)
#pragma unroll
      for (unsigned j = 0; j < kMaxPerLane; j++) acc[i][j] = T(0);
#pragma unroll
    for (unsigned kk = 0; kk < 4; kk++) {
      const uint32_t line = (S >> (4 * kk)) & 15u;
      if (line == 0) continue;
      const T *xs = x + (uint64_t)(src + kk) * B;
#pragma unroll
      for (unsigned j = 0; j < kMaxPerLane; j++) {
        const uint32_t v = lane + 32 * j;
        if (v >= B) break;
        T xv = xs[v];
        if (scale) xv = xv * w;
#pragma unroll
        for (unsigned i = 0; i < 4; i++)
          if (line & (1u << i)) acc[i][j] += xv;
      }
    }
    const uint32_t outs = (S | (S >> 4) | (S >> 8) | (S >> 12)) & 15u;
#pragma unroll
    for (unsigned i = 0; i < 4; i++) {
      if (!(outs & (1u << i))) continue;
      const uint32_t rel = o + i - base;
      T *dst = rel < rows ? win + (uint64_t)rel * B : y + (uint64_t)(o + i) * B;
#pragma unroll
      for (unsigned j = 0; j < kMaxPerLane; j++) {
        const uint32_t v = lane + 32 * j;
        if (v >= B) break;
        atomicAdd(dst + v, acc[i][j]);
      }
    }
  }
  __syncthreads();
  T *yw = y + (uint64_t)base * B;
  for (uint32_t i = threadIdx.x; i < rows * B; i += kBlock) {
    const T v = win[i];
    if (v != T(0)) atomicAdd(yw + i, v);
  }
}

bool leaf_plus_batch_applies(k2_type type, k2_monoid mon, const LeafArgs &a) {
  return mon == K2_MON_PLUS && (type == K2_T_FP32 || type == K2_T_FP64) &&
         (a.v.mult == K2_MUL_X || a.v.mult == K2_MUL_X_TIMES_W) && a.v.B >= 32 &&
         a.v.B <= 32 * kMaxPerLane && a.leaf_log == 1 && a.leaf_bits == 4 && a.v.xp == nullptr &&
         a.v.yp == nullptr && a.v.ys == nullptr;
}

template <class T> cudaError_t launch_plus_batch(const LeafArgs &a, cudaStream_t s) {
  // more than 48 KB of dynamic shared memory needs an opt-in, once per kernel
  static bool opted = false;
  if (!opted) {
    cudaError_t e = cudaFuncSetAttribute(leaf_plus_batch_kernel<T>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)kWinBatchBytes);
    if (e != cudaSuccess) return e;
    opted = true;
  }
  leaf_plus_batch_kernel<T><<<blocks_for(a.t.n), kBlock, kWinBatchBytes, s>>>(a);
  return cudaGetLastError();
}

bool leaf_plus_applies(k2_type type, k2_monoid mon, const LeafArgs &a) {
  return mon == K2_MON_PLUS && (type == K2_T_FP32 || type == K2_T_FP64) &&
         (a.v.mult == K2_MUL_X || a.v.mult == K2_MUL_X_TIMES_W) && a.v.B == 1 && a.leaf_log == 1 &&
         a.leaf_bits == 4 && a.v.xp == nullptr && a.v.yp == nullptr && a.v.ys == nullptr;
}

template <class T, int MON> __global__ void init_kernel(T *y, uint64_t count) {
  const T id = identity<T, MON>();
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += (uint64_t)gridDim.x * blockDim.x)
    y[i] = id;
}

unsigned blocks_for(uint64_t n) { return (unsigned)((n + kBlock - 1) / kBlock); }

template <class T, int MON> cudaError_t leaf_t(const LeafArgs &a, cudaStream_t s) {
  leaf_kernel<T, MON><<<blocks_for(a.t.n), kBlock, 0, s>>>(a);
  return cudaGetLastError();
}
template <class T, int MON> cudaError_t init_t(void *y, uint64_t count, cudaStream_t s) {
  uint64_t blocks = (count + kBlock - 1) / kBlock;
  if (blocks > 65536) blocks = 65536;
  if (blocks == 0) return cudaSuccess;
  init_kernel<T, MON><<<(unsigned)blocks, kBlock, 0, s>>>((T *)y, count);
  return cudaGetLastError();
}

struct FanOut {
  const uint64_t *sig;
  uint64_t begin;
  __device__ unsigned operator()(uint64_t i) const {
    const uint64_t p = begin + i;
    return (unsigned)__popc((unsigned)((sig[p >> 4] >> ((p & 15) * 4)) & 15u));
  }
};
typedef thrust::transform_iterator<FanOut, thrust::counting_iterator<uint64_t>> FanOutIter;

}  // namespace

bool supported(k2_type type, k2_monoid mon, k2_mult mult) {
  if ((unsigned)type >= K2_T_COUNT || (unsigned)mon >= K2_MON_COUNT ||
      (unsigned)mult >= K2_MUL_COUNT)
    return false;
  if (mon == K2_MON_LOR && type != K2_T_BOOL) return false;
  if (mult == K2_MUL_INDEX && type == K2_T_BOOL) return false;
  return true;
}

cudaError_t launch_expand(const ExpandArgs &a, cudaStream_t s) {
  if (a.t.n == 0) return cudaSuccess;
  if (a.levels == 2) expand2_kernel<<<blocks_for(a.t.n), kBlock, 0, s>>>(a);
  else expand_kernel<<<blocks_for(a.t.n), kBlock, 0, s>>>(a);
  return cudaGetLastError();
}

cudaError_t load_kernels(const void *const *k, size_t n) {
  cudaFuncAttributes fa;
  for (size_t i = 0; i < n; i++) {
    const cudaError_t e = cudaFuncGetAttributes(&fa, k[i]);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t warm_tree_kernels() {
  const void *const plain[] = {(const void *)expand_kernel, (const void *)expand2_kernel,
                               (const void *)leaf_bits_kernel, (const void *)leaf_plus_kernel<float>};
  cudaError_t e = load_kernels(plain, sizeof plain / sizeof plain[0]);
  if (e != cudaSuccess) return e;
  cudaFuncAttributes fa;
  // the leaf kernels of BFS (levels: LOR on BOOL; parents: ANY on INT32 and INT64)
  const struct {
    k2_type type;
    k2_monoid mon;
  } used[] = {{K2_T_BOOL, K2_MON_LOR}, {K2_T_INT32, K2_MON_ANY}, {K2_T_INT64, K2_MON_ANY}};
  for (const auto &u : used) {
    e = by_semiring(u.type, u.mon, [&](auto t, auto m) {
      return cudaFuncGetAttributes(&fa, (const void *)leaf_kernel<decltype(t), decltype(m)::value>);
    });
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t launch_leaf(k2_type type, k2_monoid mon, const LeafArgs &a, cudaStream_t s) {
  if (a.t.n == 0) return cudaSuccess;
  if (a.t.ids == nullptr && a.v.fast && leaf_plus_batch_applies(type, mon, a))
    return type == K2_T_FP32 ? launch_plus_batch<float>(a, s) : launch_plus_batch<double>(a, s);
  if (a.t.ids == nullptr && a.v.fast && leaf_plus_applies(type, mon, a)) {
    if (type == K2_T_FP32) leaf_plus_kernel<float><<<blocks_for(a.t.n), kBlock, 0, s>>>(a);
    else leaf_plus_kernel<double><<<blocks_for(a.t.n), kBlock, 0, s>>>(a);
    return cudaGetLastError();
  }
  return by_semiring(type, mon, [&](auto t, auto m) {
    return leaf_t<decltype(t), decltype(m)::value>(a, s);
  });
}

bool bits_applies(k2_type type, k2_monoid mon, int mult, uint32_t batch) {
  return type == K2_T_BOOL && batch >= 2 && batch <= 64 &&
         (mon == K2_MON_LOR || mon == K2_MON_PLUS || mon == K2_MON_MAX || mon == K2_MON_ANY) &&
         (mult == K2_MUL_X || mult == K2_MUL_X_TIMES_W || mult == K2_MUL_X_PLUS_W || mult == K2_MUL_CONST);
}

cudaError_t launch_leaf_bits(const LeafArgs &a, const BitsArgs &b, cudaStream_t s) {
  if (a.t.n == 0) return cudaSuccess;
  leaf_bits_kernel<<<blocks_for(a.t.n), kBlock, 0, s>>>(a, b);
  return cudaGetLastError();
}

cudaError_t launch_init(k2_type type, k2_monoid mon, void *y, uint64_t count, cudaStream_t s) {
  // the identity is that of MIN, of MAX, or zero (PLUS, LOR, ANY)
  const k2_monoid id = mon == K2_MON_MIN || mon == K2_MON_MAX ? mon : K2_MON_PLUS;
  return by_semiring(type, id, [&](auto t, auto m) {
    return init_t<decltype(t), decltype(m)::value>(y, count, s);
  });
}

size_t scan_temp_bytes(uint64_t n) {
  size_t bytes = 0;
  FanOutIter in(thrust::counting_iterator<uint64_t>(0), FanOut{nullptr, 0});
  if (cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, (uint32_t *)nullptr, (int64_t)n) !=
      cudaSuccess)
    return 0;
  return bytes;
}

cudaError_t launch_scan(void *temp, size_t temp_bytes, const uint64_t *sig, uint64_t node_begin,
                        uint64_t n, uint32_t *out, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  FanOutIter in(thrust::counting_iterator<uint64_t>(0), FanOut{sig, node_begin});
  return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, (int64_t)n, s);
}

}  // namespace k2cu
