// k2_cuda_vector.cu: the element-wise kernels of device-resident vectors (K2_DeviceVector): a
// mask turned into skip bytes, masked assignment, element-wise operators, extraction by a vector
// of indices, counting entries and summing values.
// SPDX-License-Identifier: Apache-2.0
//
// Every kernel is a grid-stride loop over the entries; counts and sums are folded per warp and
// added once per warp to one device word, so a whole vector costs one launch.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "cuda/k2_cuda_internal.cuh"

namespace k2cu {

namespace {

// Whether the value at i of a mask of `type` is nonzero (GraphBLAS's valued mask).
__device__ __forceinline__ bool value_nonzero(const void *values, k2_type type, uint64_t i) {
  switch (type) {
    case K2_T_BOOL: return ((const uint8_t *)values)[i] != 0;
    case K2_T_INT32: return ((const int32_t *)values)[i] != 0;
    case K2_T_INT64: return ((const int64_t *)values)[i] != 0;
    case K2_T_FP32: return ((const float *)values)[i] != 0.0f;
    default: return ((const double *)values)[i] != 0.0;
  }
}

// Add v (one value per thread) of the whole block to *dst with one atomic: a sum over a vector
// then costs one atomic per block, not per warp (a few thousand warps add to one address).
template <typename T>
__device__ __forceinline__ void block_add(T v, T *dst) {
  __shared__ T part[kBlock / 32];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? part[lane] : T(0);
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0 && v != T(0)) atomicAdd(dst, v);
  }
}

__global__ void mask_skip_kernel(uint8_t *skip, const uint8_t *present, const void *values,
                                 k2_type type, bool structural, bool complement, uint64_t n) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    bool allowed = present[i] != 0 && (structural || value_nonzero(values, type, i));
    skip[i] = (uint8_t)(allowed == complement);
  }
}

// The same for a batch of B <= 64 vectors, one word per index (bit b: vector b).
__global__ void mask_bits_kernel(uint64_t *skip, const uint8_t *present, const void *values, k2_type type,
                                 bool structural, bool complement, uint64_t n, uint32_t B) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t w = 0;
    for (uint32_t b = 0; b < B; b++) {
      const uint64_t k = i * B + b;
      const bool allowed = present[k] != 0 && (structural || value_nonzero(values, type, k));
      w |= (uint64_t)(allowed == complement) << b;
    }
    skip[i] = w;
  }
}

__global__ void count_kernel(const uint8_t *p, uint64_t n, unsigned long long *count) {
  unsigned c = 0;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x)
    c += p[i] != 0;
  c = __reduce_add_sync(0xffffffffu, c);  // every lane reaches here: the loop has no early exit
  if ((threadIdx.x & 31u) == 0 && c != 0) atomicAdd(count, (unsigned long long)c);
}

// One thread per index: its B bytes (B <= 64) into one word.
__global__ void pack_bits_kernel(const uint8_t *x, const uint8_t *xp, uint64_t n, uint32_t B, uint64_t *v,
                                 uint64_t *p) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const uint8_t *xi = x + i * B, *pi = xp != nullptr ? xp + i * B : nullptr;
    uint64_t wv = 0, wp = 0;
    for (uint32_t b = 0; b < B; b++) {
      const uint64_t here = pi != nullptr ? (pi[b] != 0) : 1;
      wp |= here << b;
      wv |= (uint64_t)(here && xi[b] != 0) << b;
    }
    v[i] = wv;
    if (p != nullptr) p[i] = wp;
  }
}

// One thread per output byte (coalesced writes); a warp's present count in one atomic.
__global__ void unpack_bits_kernel(const uint64_t *v, const uint64_t *p, int value_mode, uint64_t n,
                                   uint32_t B, uint8_t *y, uint8_t *yp, unsigned long long *count) {
  unsigned c = 0;
  const uint64_t total = n * B;
  for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < total;
       k += (uint64_t)gridDim.x * blockDim.x) {
    const uint64_t i = k / B;
    const uint32_t b = (uint32_t)(k - i * B);
    const uint8_t here = (uint8_t)((p[i] >> b) & 1u);
    const uint8_t val = value_mode == 0 ? (uint8_t)((v[i] >> b) & 1u) : value_mode == 1 ? here : 0;
    y[k] = val;
    yp[k] = here;
    c += here;
  }
  c = __reduce_add_sync(0xffffffffu, c);  // every lane reaches here: the loop has no early exit
  if ((threadIdx.x & 31u) == 0 && c != 0) atomicAdd(count, (unsigned long long)c);
}

// Sources of a multi-source BFS as bits: vector b starts at sources[b] (level 0).
__global__ void bfs_seed_kernel(const uint64_t *sources, uint32_t B, uint64_t *F, uint64_t *V, int32_t *dist,
                                uint8_t *dp, uint8_t *dist8, uint32_t *sum, uint32_t sum_shift) {
  for (uint32_t b = threadIdx.x; b < B; b += blockDim.x) {
    const uint64_t s = sources[b], j = s >> sum_shift;
    atomicOr((unsigned long long *)&F[s], 1ull << b);
    atomicOr((unsigned long long *)&V[s], 1ull << b);
    atomicOr(&sum[j >> 5], 1u << (j & 31));
    if (dist8 != nullptr) {
      dist8[s * B + b] = 0;
    } else {
      dist[s * B + b] = 0;
      dp[s * B + b] = 1;
    }
  }
}

// The new frontier N (already without visited bits: the traversal skipped them) joins V, its
// entries get the level *level and mark N's summary; the frontier just read, its summary and
// the next level's count are cleared, and the next level's number written (BfsLevelArgs).
__global__ void bfs_level_kernel(BfsLevelArgs a) {
  const uint64_t first = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (uint64_t)gridDim.x * blockDim.x;
  const int32_t k = *a.level;
  if (first == 0) {  // read by the next level's launch only
    *a.level_next = k + 1;
    *a.count_next = 0;
  }
  for (uint64_t j = first; j < a.sum_words; j += stride) a.sum_done[j] = 0;
  unsigned c = 0;
  for (uint64_t i = first; i < a.n; i += stride) {
    uint64_t w = a.next[i];
    a.frontier[i] = 0;
    if (w == 0) continue;
    a.visited[i] |= w;
    c += (unsigned)__popcll(w);
    const uint64_t j = i >> a.sum_shift;
    const uint32_t bit = 1u << (j & 31);
    if (!(a.sum_next[j >> 5] & bit)) atomicOr(&a.sum_next[j >> 5], bit);
    if (a.dist8 != nullptr) {  // levels 1 .. 254 of the current span of 254
      const uint8_t k8 = (uint8_t)((k - 1) % 254 + 1);
      while (w) {
        const unsigned b = (unsigned)__ffsll((long long)w) - 1;
        w &= w - 1;
        a.dist8[i * a.B + b] = k8;
      }
      continue;
    }
    while (w) {
      const unsigned b = (unsigned)__ffsll((long long)w) - 1;
      w &= w - 1;
      a.dist[i * a.B + b] = k;
      a.dp[i * a.B + b] = 1;
    }
  }
  c = __reduce_add_sync(0xffffffffu, c);  // every lane reaches here: `continue` stays in the loop
  if ((threadIdx.x & 31u) == 0 && c != 0) atomicAdd(a.count, (unsigned long long)c);
}

// A single-source BFS's start: F, N, V (stride bytes each, a multiple of 4) and the results'
// presence cleared, and the source visited, its own parent, at level 0, and the first frontier.
__global__ void bfs_one_seed_kernel(uint64_t src, uint64_t n, uint8_t *F, uint64_t stride, void *level,
                                    uint8_t *lp, uint32_t lts, void *parent, uint8_t *pp, uint32_t pts,
                                    int64_t *k) {
  const uint64_t first = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, step = (uint64_t)gridDim.x * blockDim.x;
  const uint64_t in_v = 2 * stride + src;  // V[src]
  for (uint64_t w = first; w < 3 * stride / 4; w += step) {
    uint32_t word = 0;  // little-endian: byte b of word w is F[4w + b]
    if (src / 4 == w) word |= 1u << (8 * (src % 4));
    if (in_v / 4 == w) word |= 1u << (8 * (in_v % 4));
    ((uint32_t *)F)[w] = word;
  }
  for (uint64_t i = first; i < n; i += step) {
    if (lp != nullptr) lp[i] = i == src;
    if (pp != nullptr) pp[i] = i == src;
  }
  if (first != 0) return;
  *k = 1;
  if (level != nullptr) {
    if (lts == 8) ((int64_t *)level)[src] = 0;
    else ((int32_t *)level)[src] = 0;
  }
  if (parent != nullptr) {
    if (pts == 8) ((int64_t *)parent)[src] = (int64_t)src;
    else ((int32_t *)parent)[src] = (int32_t)src;
  }
}

// After a level's traversal into N (present outputs, the visited ones skipped; cand: the parent
// each found, pts bytes), N joins V with the level *k and its parent; *count += N's entries.
__global__ void bfs_one_visit_kernel(const uint8_t *N, uint8_t *V, uint64_t n, void *level, uint8_t *lp, uint32_t lts,
                                     void *parent, uint8_t *pp, uint32_t pts, const void *cand, const int64_t *k,
                                     unsigned long long *count, const unsigned long long *frontier_counts,
                                     uint32_t nlevels, uint64_t capacity) {
  // a pruned traversal whose frontier overflowed found only part of N: the level runs again in
  // full, so nothing is recorded now (the test is the same for every thread)
  if (frontier_counts != nullptr)
    for (uint32_t t = 0; t < nlevels; t++)
      if (frontier_counts[t] > capacity) return;
  unsigned long long c = 0;
  const int64_t lk = *k;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    if (!N[i]) continue;
    V[i] = 1;
    c++;
    if (level != nullptr) {
      if (lts == 8) ((int64_t *)level)[i] = lk;
      else ((int32_t *)level)[i] = (int32_t)lk;
      lp[i] = 1;
    }
    if (parent != nullptr) {
      if (pts == 8) ((int64_t *)parent)[i] = ((const int64_t *)cand)[i];
      else ((int32_t *)parent)[i] = ((const int32_t *)cand)[i];
      pp[i] = 1;
    }
  }
  block_add<unsigned long long>(c, count);  // every thread reaches here: `continue` stays in the loop
}

// The next level's number, unless the level found nothing (or is to run again in full).
__global__ void bfs_one_next_level_kernel(int64_t *k, const unsigned long long *count) {
  if (*count != 0) *k += 1;
}

// PageRank's steps between products, in the host's order of float operations (no contraction
// into FMA). The start of an iteration in one pass: t = r, w = t ./ d, and the sinks' rank
// *sink_sum += r where sink (when not NULL).
__global__ void pr_prepare_kernel(float *w, float *t, const float *r, const float *d, const uint8_t *sink,
                                  uint64_t n, double *sink_sum) {
  double c = 0;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const float ri = r[i];
    t[i] = ri;
    w[i] = __fdiv_rn(ri, d[i]);
    if (sink != nullptr && sink[i]) c += (double)ri;
  }
  if (sink != nullptr) block_add(c, sink_sum);
}

// Its end: r = teleport + y, the teleport formed here from the sinks' rank, and the change
// sum |t - r| (in double, as a reduction of the differences would).
__global__ void pr_update_kernel(float *r, const float *t, const float *y, uint64_t n, float scaled,
                                 float damping_over_n, const double *sink_sum, double *diff) {
  const float tele = sink_sum != nullptr ? __fadd_rn(scaled, __fmul_rn(damping_over_n, (float)*sink_sum)) : scaled;
  double c = 0;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const float ri = __fadd_rn(tele, y[i]);
    r[i] = ri;
    c += (double)fabsf(__fsub_rn(t[i], ri));
  }
  block_add(c, diff);
}

template <typename T>
__global__ void assign_kernel(T *v, uint8_t *vp, const uint8_t *m, const T *w, const uint8_t *wp,
                              T scalar, uint64_t n) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    if (m != nullptr && !m[i]) continue;
    if (w != nullptr) {
      const uint8_t here = wp != nullptr ? wp[i] : 1;
      vp[i] = here;
      if (here) v[i] = w[i];
    } else {
      v[i] = scalar;
      vp[i] = 1;
    }
  }
}

template <typename T, bool kFloat>
__global__ void sum_kernel(const T *x, const uint8_t *p, uint64_t n, unsigned long long *isum,
                           double *fsum) {
  long long is = 0;
  double fs = 0;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    if (p != nullptr && !p[i]) continue;
    if (kFloat) fs += (double)x[i];
    else is += (long long)x[i];
  }
  if (kFloat) block_add(fs, fsum);
  else block_add((unsigned long long)is, isum);  // two's complement: exact
}

// GraphBLAS's MIN and MAX: a comparison on integers, fmin / fmax on floats (a NaN loses). The
// float overloads are preferred to the template for float and double.
template <typename T>
__device__ __forceinline__ T min_of(T a, T b) { return a < b ? a : b; }
template <typename T>
__device__ __forceinline__ T max_of(T a, T b) { return a > b ? a : b; }
__device__ __forceinline__ float min_of(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ float max_of(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double min_of(double a, double b) { return fmin(a, b); }
__device__ __forceinline__ double max_of(double a, double b) { return fmax(a, b); }

template <typename T>
__device__ __forceinline__ T binop(int op, T a, T b) {
  switch (op) {
    case K2_CUDA_OP_PLUS: return a + b;
    case K2_CUDA_OP_MINUS: return a - b;
    case K2_CUDA_OP_TIMES: return a * b;
    case K2_CUDA_OP_DIV: return a / b;  // floats only (the API refuses integer division)
    case K2_CUDA_OP_MIN: return min_of(a, b);
    default: return max_of(a, b);
  }
}

template <typename T>
__global__ void ewise_kernel(T *z, uint8_t *zp, const T *x, const uint8_t *xp, const T *y,
                             const uint8_t *yp, int op, bool add, uint64_t n) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const bool px = xp[i] != 0, py = yp[i] != 0;
    if (px && py) z[i] = binop<T>(op, x[i], y[i]);
    else if (add && px) z[i] = x[i];
    else if (add && py) z[i] = y[i];
    zp[i] = (uint8_t)(add ? (px || py) : (px && py));
  }
}

// ABS as GraphBLAS computes it: fabs on floats (the sign bit cleared, -0 and NaN included).
template <typename T>
__device__ __forceinline__ T abs_of(T a) { return a < 0 ? -a : a; }
__device__ __forceinline__ float abs_of(float a) { return fabsf(a); }
__device__ __forceinline__ double abs_of(double a) { return fabs(a); }

template <typename T>
__device__ __forceinline__ T unop(int op, T a) {
  return op == K2_CUDA_UOP_AINV ? -a : op == K2_CUDA_UOP_ABS ? abs_of(a) : a;
}

template <typename T>
__global__ void apply_kernel(T *z, uint8_t *zp, const T *x, const uint8_t *xp, int op, uint64_t n) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const uint8_t p = xp[i];
    if (p) z[i] = unop<T>(op, x[i]);
    zp[i] = p;
  }
}

template <typename T>
cudaError_t ewise_as(void *z, uint8_t *zp, const void *x, const uint8_t *xp, const void *y,
                     const uint8_t *yp, int op, bool add, uint64_t n, cudaStream_t s) {
  ewise_kernel<T><<<grid_for(n, kMaxGrid), kBlock, 0, s>>>((T *)z, zp, (const T *)x, xp, (const T *)y,
                                                          yp, op, add, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t apply_as(void *z, uint8_t *zp, const void *x, const uint8_t *xp, int op, uint64_t n,
                     cudaStream_t s) {
  apply_kernel<T><<<grid_for(n, kMaxGrid), kBlock, 0, s>>>((T *)z, zp, (const T *)x, xp, op, n);
  return cudaGetLastError();
}

template <typename T>
cudaError_t assign_as(void *v, uint8_t *vp, const uint8_t *m, const void *w, const uint8_t *wp,
                      uint64_t scalar, uint64_t n, cudaStream_t s) {
  T sc;
  memcpy(&sc, &scalar, sizeof sc);  // the low bytes (little-endian)
  assign_kernel<T><<<grid_for(n, kMaxGrid), kBlock, 0, s>>>((T *)v, vp, m, (const T *)w, wp, sc, n);
  return cudaGetLastError();
}

// w[i] = u[I[i]] (GrB_Vector_extract with the indices on the device). The index type Ix is
// signed, so a negative index is out of range as one past the end is; T copies the bits.
template <typename T, typename Ix>
__global__ void extract_kernel(T *w, uint8_t *wp, const T *u, const uint8_t *up, uint64_t nu,
                               const Ix *I, const uint8_t *Ip, uint64_t n, unsigned long long *bad,
                               unsigned long long *present) {
  unsigned nbad = 0, nhere = 0;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    uint8_t here = 0;
    if (Ip[i]) {
      const long long j = (long long)I[i];
      if (j < 0 || (unsigned long long)j >= nu) {
        nbad++;
      } else if (up[j]) {
        w[i] = u[j];
        here = 1;
      }
    }
    wp[i] = here;
    nhere += here;
  }
  nbad = __reduce_add_sync(0xffffffffu, nbad);  // every lane reaches here: no early exit
  nhere = __reduce_add_sync(0xffffffffu, nhere);
  if ((threadIdx.x & 31u) == 0) {
    if (nbad != 0) atomicAdd(bad, (unsigned long long)nbad);
    if (nhere != 0) atomicAdd(present, (unsigned long long)nhere);
  }
}

template <typename T>
cudaError_t extract_as(void *w, uint8_t *wp, const void *u, const uint8_t *up, uint64_t nu,
                       const void *I, const uint8_t *Ip, bool index64, uint64_t n,
                       unsigned long long *bad, unsigned long long *present, cudaStream_t s) {
  const unsigned g = grid_for(n, kMaxGrid);
  if (index64)
    extract_kernel<T, int64_t><<<g, kBlock, 0, s>>>((T *)w, wp, (const T *)u, up, nu, (const int64_t *)I,
                                                    Ip, n, bad, present);
  else
    extract_kernel<T, int32_t><<<g, kBlock, 0, s>>>((T *)w, wp, (const T *)u, up, nu, (const int32_t *)I,
                                                    Ip, n, bad, present);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_mask_skip(uint8_t *skip, const uint8_t *present, const void *values, k2_type type,
                             bool structural, bool complement, uint64_t n, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  mask_skip_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(skip, present, values, type,
                                                            structural || values == nullptr,
                                                            complement, n);
  return cudaGetLastError();
}

cudaError_t launch_mask_bits(uint64_t *skip, const uint8_t *present, const void *values, k2_type type,
                             bool structural, bool complement, uint64_t n, uint32_t B, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  mask_bits_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(skip, present, values, type,
                                                            structural || values == nullptr, complement, n, B);
  return cudaGetLastError();
}

cudaError_t warm_vector_kernels() {
  const void *const kernels[] = {(const void *)mask_skip_kernel,     (const void *)mask_bits_kernel,
                                 (const void *)count_kernel,         (const void *)pack_bits_kernel,
                                 (const void *)unpack_bits_kernel,   (const void *)bfs_seed_kernel,
                                 (const void *)bfs_level_kernel,     (const void *)bfs_one_seed_kernel,
                                 (const void *)bfs_one_visit_kernel, (const void *)pr_prepare_kernel,
                                 (const void *)pr_update_kernel};
  return load_kernels(kernels, sizeof kernels / sizeof kernels[0]);
}

cudaError_t launch_count_present(const uint8_t *p, uint64_t n, unsigned long long *count,
                                 cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  count_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(p, n, count);
  return cudaGetLastError();
}

cudaError_t launch_bfs_seed(const uint64_t *sources, uint32_t B, uint64_t *F, uint64_t *V, int32_t *dist,
                            uint8_t *dp, uint8_t *dist8, uint32_t *sum, uint32_t sum_shift, cudaStream_t s) {
  bfs_seed_kernel<<<1, 64, 0, s>>>(sources, B, F, V, dist, dp, dist8, sum, sum_shift);
  return cudaGetLastError();
}

cudaError_t launch_bfs_update(const BfsLevelArgs &a, cudaStream_t s) {
  bfs_level_kernel<<<grid_for(std::max<uint64_t>(a.n, a.sum_words), kMaxGrid), kBlock, 0, s>>>(a);
  return cudaGetLastError();
}


cudaError_t launch_pr_prepare(float *w, float *t, const float *r, const float *d, const uint8_t *sink, uint64_t n,
                              double *sink_sum, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  pr_prepare_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(w, t, r, d, sink, n, sink_sum);
  return cudaGetLastError();
}

cudaError_t launch_pr_update(float *r, const float *t, const float *y, uint64_t n, float scaled,
                             float damping_over_n, const double *sink_sum, double *diff, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  pr_update_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(r, t, y, n, scaled, damping_over_n, sink_sum, diff);
  return cudaGetLastError();
}

cudaError_t launch_bfs_one_seed(uint64_t src, uint64_t n, uint8_t *F, uint64_t stride, void *level, uint8_t *lp,
                                uint32_t lts, void *parent, uint8_t *pp, uint32_t pts, int64_t *k, cudaStream_t s) {
  bfs_one_seed_kernel<<<grid_for(std::max(n, 3 * stride / 4), kMaxGrid), kBlock, 0, s>>>(
      src, n, F, stride, level, level != nullptr ? lp : nullptr, lts, parent, parent != nullptr ? pp : nullptr, pts, k);
  return cudaGetLastError();
}

cudaError_t launch_bfs_one_visit(const uint8_t *N, uint8_t *V, uint64_t n, void *level, uint8_t *lp, uint32_t lts,
                                 void *parent, uint8_t *pp, uint32_t pts, const void *cand, int64_t *k,
                                 unsigned long long *count, const unsigned long long *frontier_counts,
                                 uint32_t nlevels, uint64_t capacity, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  bfs_one_visit_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(N, V, n, level, lp, lts, parent, pp, pts, cand, k,
                                                                 count, frontier_counts, nlevels, capacity);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  bfs_one_next_level_kernel<<<1, 1, 0, s>>>(k, count);
  return cudaGetLastError();
}

cudaError_t launch_pack_bits(const uint8_t *x, const uint8_t *xp, uint64_t n, uint32_t B, uint64_t *v,
                             uint64_t *p, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  pack_bits_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(x, xp, n, B, v, p);
  return cudaGetLastError();
}

cudaError_t launch_unpack_bits(const uint64_t *v, const uint64_t *p, int value_mode, uint64_t n, uint32_t B,
                               uint8_t *y, uint8_t *yp, unsigned long long *count, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  unpack_bits_kernel<<<grid_for(n * B, kMaxGrid), kBlock, 0, s>>>(v, p, value_mode, n, B, y, yp, count);
  return cudaGetLastError();
}

cudaError_t launch_assign(void *v, uint8_t *vp, const uint8_t *m, const void *w, const uint8_t *wp,
                          uint64_t scalar, uint32_t ts, uint64_t n, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  if (ts == 8) return assign_as<uint64_t>(v, vp, m, w, wp, scalar, n, s);
  if (ts == 4) return assign_as<uint32_t>(v, vp, m, w, wp, scalar, n, s);
  return assign_as<uint8_t>(v, vp, m, w, wp, scalar, n, s);
}

cudaError_t launch_ewise(void *z, uint8_t *zp, const void *x, const uint8_t *xp, const void *y,
                         const uint8_t *yp, k2_type t, int op, bool add, uint64_t n, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  switch (t) {
    case K2_T_INT32: return ewise_as<int32_t>(z, zp, x, xp, y, yp, op, add, n, s);
    case K2_T_INT64: return ewise_as<int64_t>(z, zp, x, xp, y, yp, op, add, n, s);
    case K2_T_FP32: return ewise_as<float>(z, zp, x, xp, y, yp, op, add, n, s);
    case K2_T_FP64: return ewise_as<double>(z, zp, x, xp, y, yp, op, add, n, s);
    default: return cudaErrorInvalidValue;
  }
}

cudaError_t launch_apply(void *z, uint8_t *zp, const void *x, const uint8_t *xp, k2_type t, int op,
                         uint64_t n, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  switch (t) {
    case K2_T_INT32: return apply_as<int32_t>(z, zp, x, xp, op, n, s);
    case K2_T_INT64: return apply_as<int64_t>(z, zp, x, xp, op, n, s);
    case K2_T_FP32: return apply_as<float>(z, zp, x, xp, op, n, s);
    case K2_T_FP64: return apply_as<double>(z, zp, x, xp, op, n, s);
    default: return cudaErrorInvalidValue;
  }
}

cudaError_t launch_sum(const void *x, const uint8_t *p, k2_type t, uint64_t n,
                       unsigned long long *isum, double *fsum, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  const unsigned g = grid_for(n, kMaxGrid);
  switch (t) {
    case K2_T_BOOL: sum_kernel<uint8_t, false><<<g, kBlock, 0, s>>>((const uint8_t *)x, p, n, isum, fsum); break;
    case K2_T_INT32: sum_kernel<int32_t, false><<<g, kBlock, 0, s>>>((const int32_t *)x, p, n, isum, fsum); break;
    case K2_T_INT64: sum_kernel<int64_t, false><<<g, kBlock, 0, s>>>((const int64_t *)x, p, n, isum, fsum); break;
    case K2_T_FP32: sum_kernel<float, true><<<g, kBlock, 0, s>>>((const float *)x, p, n, isum, fsum); break;
    default: sum_kernel<double, true><<<g, kBlock, 0, s>>>((const double *)x, p, n, isum, fsum); break;
  }
  return cudaGetLastError();
}

cudaError_t launch_extract(void *w, uint8_t *wp, const void *u, const uint8_t *up, uint64_t nu,
                           const void *I, const uint8_t *Ip, bool index64, uint32_t ts, uint64_t n,
                           unsigned long long *bad, unsigned long long *present, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  if (ts == 8) return extract_as<uint64_t>(w, wp, u, up, nu, I, Ip, index64, n, bad, present, s);
  if (ts == 4) return extract_as<uint32_t>(w, wp, u, up, nu, I, Ip, index64, n, bad, present, s);
  return extract_as<uint8_t>(w, wp, u, up, nu, I, Ip, index64, n, bad, present, s);
}

}  // namespace k2cu
