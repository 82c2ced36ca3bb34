// k2_cuda_pruned.cu: the kernels of the traversal pruned by the input and the mask, and of the
// sparse forms of a product's vectors (an input that travels as its index list, an output that
// comes back as one).
// SPDX-License-Identifier: Apache-2.0
//
// The summaries are stripe bitmaps in heap order: bit 2^t + s says that stripe s of level t (the
// indices [s 2^(side_log - t), (s + 1) 2^(side_log - t))) holds a present input, or an output the
// mask allows. A node of level t covers one input stripe and one output stripe of its level, so a
// child is kept by two bit tests. The descent keeps a frontier per level (node numbers and Morton
// codes, compacted by warp-aggregated atomics); its length stays on the device, so a level is one
// launch with no host round trip, and the kernels loop over whatever length the previous level
// left. Frontier buffers have a fixed capacity: a level that would overflow it is counted but not
// written, and the engine then runs the full traversal instead (k2_cuda_engine.cu).
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "cuda/k2_cuda_internal.cuh"

namespace k2cu {

namespace {

__device__ __forceinline__ bool stripe_set(const uint32_t *bm, uint32_t level, uint64_t stripe) {
  const uint64_t bit = (1ull << level) + stripe;
  return (bm[bit >> 5] >> (bit & 31)) & 1u;
}

// Mark the stripes of every level that hold index i, deepest first; a stripe found marked
// already was (or is being) marked with its ancestors by another thread.
__device__ void mark_stripes(uint32_t *bm, uint64_t i, uint32_t side_log, uint32_t deepest) {
  for (int t = (int)deepest; t >= 0; t--) {
    const uint64_t bit = (1ull << t) + (i >> (side_log - (uint32_t)t));
    const uint32_t m = 1u << (bit & 31);
    if (bm[bit >> 5] & m) return;
    if (atomicOr(&bm[bit >> 5], m) & m) return;
  }
}

__global__ void stripes_from_list_kernel(uint32_t *bm, const uint64_t *list, uint64_t k,
                                         uint32_t side_log, uint32_t deepest) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k;
       i += (uint64_t)gridDim.x * blockDim.x)
    mark_stripes(bm, list[i], side_log, deepest);
}

// One thread per stripe of the deepest level: marked if one of its flags is (nonzero == want).
__global__ void stripes_from_flags_kernel(uint32_t *bm, const uint8_t *flags, bool want, uint64_t n,
                                          uint32_t side_log, uint32_t deepest) {
  const uint32_t width_log = side_log - deepest;
  const uint64_t stripes = (n + (1ull << width_log) - 1) >> width_log;
  for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < stripes;
       j += (uint64_t)gridDim.x * blockDim.x) {
    const uint64_t lo = j << width_log, end = lo + (1ull << width_log), hi = end < n ? end : n;
    bool hit = false;
    for (uint64_t i = lo; i < hi && !hit; i++) hit = (flags[i] != 0) == want;
    if (hit) mark_stripes(bm, lo, side_log, deepest);
  }
}

// Whether a node of level t with this code survives both summaries.
__device__ __forceinline__ bool node_kept(const PruneArgs &a, uint64_t code, uint32_t t) {
  const uint64_t row = compact(code >> 1), col = compact(code);
  const uint64_t in = a.left ? row : col, out = a.left ? col : row;
  return (a.in_bm == nullptr || stripe_set(a.in_bm, t, in)) &&
         (a.out_bm == nullptr || stripe_set(a.out_bm, t, out));
}

// Append `take` entries for this lane to the frontier; returns the lane's first slot. Called by
// all 32 lanes of a warp together.
__device__ __forceinline__ unsigned long long warp_reserve(unsigned long long *counter, unsigned take) {
  const unsigned lane = threadIdx.x & 31u;
  unsigned incl = take;
#pragma unroll
  for (unsigned o = 1; o < 32; o <<= 1) {
    const unsigned v = __shfl_up_sync(0xffffffffu, incl, o);
    if (lane >= o) incl += v;
  }
  const unsigned total = __shfl_sync(0xffffffffu, incl, 31);
  unsigned long long base = 0;
  if (lane == 31 && total != 0) base = atomicAdd(counter, (unsigned long long)total);
  base = __shfl_sync(0xffffffffu, base, 31);
  return base + incl - take;
}

// The nodes of the top level that survive: the first frontier.
__global__ void prune_top_kernel(PruneArgs a) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t b = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) & ~31ull; b < a.top_count;
       b += stride) {
    const uint64_t i = b + (threadIdx.x & 31u);
    bool keep = false;
    uint64_t code = 0;
    if (i < a.top_count) {
      code = a.top[i];
      keep = node_kept(a, code, a.top_level);
    }
    const unsigned long long pos = warp_reserve(a.count_out, keep ? 1u : 0u);
    if (keep && pos < a.capacity) {
      a.ids_out[pos] = a.top_begin + i;
      a.codes_out[pos] = code;
    }
  }
}

// One level down: the children of the frontier's nodes that survive (level t + 1).
__global__ void prune_expand_kernel(PruneArgs a, uint32_t t) {
  const unsigned long long c = *a.count_in, n = c < a.capacity ? c : a.capacity;
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t b = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) & ~31ull; b < n; b += stride) {
    const uint64_t i = b + (threadIdx.x & 31u);
    unsigned keep = 0, s = 0;
    uint64_t id = 0, code = 0;
    if (i < n) {
      id = a.ids_in[i];
      code = a.codes_in[i] << 2;
      s = nibble(a.sig, id);
#pragma unroll
      for (unsigned q = 0; q < 4; q++)
        if ((s & (1u << q)) && node_kept(a, code | q, t + 1)) keep |= 1u << q;
    }
    unsigned long long pos = warp_reserve(a.count_out, (unsigned)__popc(keep));
    if (keep == 0) continue;
    const uint64_t fc = thread_first_child(a.sig, a.dir, a.dir_lo, a.dir_log, id);
    for (; keep != 0; keep &= keep - 1, pos++) {
      const unsigned q = (unsigned)__ffs((int)keep) - 1;
      if (pos >= a.capacity) continue;
      a.ids_out[pos] = fc + (uint64_t)__popc(s & ((1u << q) - 1));
      a.codes_out[pos] = code | q;
    }
  }
}

// The sparse input: present at the listed indices, with the listed values (ts bytes each).
__global__ void scatter_input_kernel(const uint64_t *list, const void *vals, uint64_t k, uint32_t ts,
                                     void *x, uint8_t *xp) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const uint64_t j = list[i];
    xp[j] = 1;
    if (ts == 8) ((uint64_t *)x)[j] = ((const uint64_t *)vals)[i];
    else if (ts == 4) ((uint32_t *)x)[j] = ((const uint32_t *)vals)[i];
    else ((uint8_t *)x)[j] = ((const uint8_t *)vals)[i];
  }
}

// The values of the listed outputs, packed.
__global__ void gather_output_kernel(const uint64_t *list, const unsigned long long *count,
                                     const void *y, uint32_t ts, void *vals) {
  const unsigned long long k = *count;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < k;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const uint64_t j = list[i];
    if (ts == 8) ((uint64_t *)vals)[i] = ((const uint64_t *)y)[j];
    else if (ts == 4) ((uint32_t *)vals)[i] = ((const uint32_t *)y)[j];
    else ((uint8_t *)vals)[i] = ((const uint8_t *)y)[j];
  }
}

}  // namespace

cudaError_t launch_stripes_from_list(uint32_t *bm, const uint64_t *list, uint64_t k,
                                     uint32_t side_log, uint32_t deepest, cudaStream_t s) {
  if (k == 0) return cudaSuccess;
  stripes_from_list_kernel<<<grid_for(k, kMaxGrid), kBlock, 0, s>>>(bm, list, k, side_log, deepest);
  return cudaGetLastError();
}

cudaError_t launch_stripes_from_flags(uint32_t *bm, const uint8_t *flags, bool want, uint64_t n,
                                      uint32_t side_log, uint32_t deepest, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  const uint64_t stripes = (n >> (side_log - deepest)) + 1;
  stripes_from_flags_kernel<<<grid_for(stripes, kMaxGrid), kBlock, 0, s>>>(bm, flags, want, n,
                                                                            side_log, deepest);
  return cudaGetLastError();
}

cudaError_t launch_prune_top(const PruneArgs &a, cudaStream_t s) {
  prune_top_kernel<<<grid_for(a.top_count, kMaxGrid), kBlock, 0, s>>>(a);
  return cudaGetLastError();
}

cudaError_t launch_prune_expand(const PruneArgs &a, uint32_t level, uint64_t width, cudaStream_t s) {
  prune_expand_kernel<<<grid_for(width < a.capacity ? width : a.capacity, kMaxGrid), kBlock, 0, s>>>(
      a, level);
  return cudaGetLastError();
}

cudaError_t warm_pruned_kernels() {
  const void *const kernels[] = {(const void *)stripes_from_list_kernel, (const void *)stripes_from_flags_kernel,
                                 (const void *)prune_top_kernel,         (const void *)prune_expand_kernel,
                                 (const void *)scatter_input_kernel,     (const void *)gather_output_kernel};
  return load_kernels(kernels, sizeof kernels / sizeof kernels[0]);
}

cudaError_t launch_scatter_input(const uint64_t *list, const void *vals, uint64_t k, uint32_t ts,
                                 void *x, uint8_t *xp, cudaStream_t s) {
  if (k == 0) return cudaSuccess;
  scatter_input_kernel<<<grid_for(k, kMaxGrid), kBlock, 0, s>>>(list, vals, k, ts, x, xp);
  return cudaGetLastError();
}

size_t select_temp_bytes(uint64_t n) {
  size_t bytes = 0;
  thrust::counting_iterator<uint64_t> in(0);
  if (cub::DeviceSelect::Flagged(nullptr, bytes, in, (const uint8_t *)nullptr, (uint64_t *)nullptr,
                                 (unsigned long long *)nullptr, (int64_t)n) != cudaSuccess)
    return 0;
  return bytes;
}

cudaError_t launch_list_outputs(void *temp, size_t temp_bytes, const uint8_t *present, uint64_t n,
                                uint64_t *list, unsigned long long *count, const void *y,
                                uint32_t ts, void *vals, cudaStream_t s) {
  thrust::counting_iterator<uint64_t> in(0);
  cudaError_t e = cub::DeviceSelect::Flagged(temp, temp_bytes, in, present, list, count,
                                             (int64_t)n, s);
  if (e != cudaSuccess) return e;
  gather_output_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(list, count, y, ts, vals);
  return cudaGetLastError();
}

}  // namespace k2cu
