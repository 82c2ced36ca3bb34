// k2_cuda_rows.cu: products over the row-ordered 4x4 blocks (the K2_DEVICE_ROWS configuration).
// SPDX-License-Identifier: Apache-2.0
//
// The blocks of the last internal level sorted by block row (src/matrix/k2_rows.h): a right
// product sums a row's contributions where they are, in registers, and writes each output row
// once per stretch of blocks instead of once per block by an atomic; a left product reads the
// same blocks and scatters to their columns. Three kernels:
//  * rows_plus_kernel: PLUS on floats, one vector, every x present, no presence bytes (what the
//    bridge hands over for a full u, and PageRank's product). A warp takes a stretch of blocks, a
//    lane per block; the four row sums of the lanes that share a block row (sorted: they are
//    adjacent) are folded by shuffles and a row's sum is carried across the stretch.
//  * rows_plus_batch_kernel: the same for 32..256 vectors (row-major X and Y). A warp takes a
//    stretch of blocks and 128 of the vectors (4 consecutive ones per lane, 16-byte accesses),
//    walks the blocks in order and keeps the four rows' sums in registers until the block row
//    changes; a row that continues into a neighbouring stretch is added atomically, any other
//    is stored. The x loads of kUnroll blocks are issued together, so a warp waits once per
//    group of blocks, not once per block.
//  * rows_kernel: every native (type, monoid, multiply), presence and masks, any width. A group
//    of lanes takes a stretch of blocks, lanes over the vectors, and applies the semiring's atomic
//    when the output row (column, for left products) changes.
#include <cstdint>

#include "cuda/k2_cuda_internal.cuh"
#include "cuda/k2_cuda_semiring.cuh"

namespace k2cu {
namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;  // no block row (valid ones are below 2^30)
constexpr unsigned kFull = 0xFFFFFFFFu;

unsigned grid_for(uint64_t threads) { return (unsigned)((threads + kBlock - 1) / kBlock); }

// line k of the source-major pattern: the outputs that source k feeds (rows of column k for a
// right product, columns of row k for a left one)
__device__ __forceinline__ uint32_t source_major(uint32_t p, bool left) {
  return left ? p : block_transpose4(p);
}
__device__ __forceinline__ uint32_t outputs_of(uint32_t S) {
  return (S | (S >> 4) | (S >> 8) | (S >> 12)) & 15u;
}

// ---- one vector, PLUS on floats ------------------------------------------------------------
// A warp takes `rounds` x 32 consecutive blocks, a lane per block in each round. The four row sums
// of the lanes of one block row (adjacent: the blocks are sorted) are folded by shuffles; the
// run that reaches the round's last lane is carried into the next round, so a long row costs one
// write per stretch, not one per 32 blocks (unpermuted R-MAT: hub rows are adjacent, and atomics
// from every warp on the same few sectors of y serialise). A row wholly inside the stretch is
// stored, one shared with a neighbouring stretch added atomically. Sums start at +0 and only
// zeros are skipped, so a result is -0 only if the reference's is (y starts at +0, y + 0 == y).
template <class T>
__global__ void __launch_bounds__(kBlock) rows_plus_kernel(RowsArgs a, uint32_t rounds) {
  const unsigned lane = threadIdx.x & 31u;
  const uint64_t warp = ((uint64_t)blockIdx.x * kBlock + threadIdx.x) >> 5;
  const uint64_t start = warp * 32 * rounds;
  if (start >= a.n) return;  // the whole warp
  const uint64_t end = min(start + (uint64_t)32 * rounds, a.n);
  const T *__restrict__ x = (const T *)a.v.x;
  T *__restrict__ y = (T *)a.v.y;
  const bool scale = a.v.mult == K2_MUL_X_TIMES_W;
  const T w = (T)a.v.w;
  const bool left = a.v.left;
  // the block's (at most) four output sums
  auto sums = [&](uint64_t i, uint32_t &key, T (&acc)[4]) {
    const uint32_t r = a.row[i], c = a.col[i], p = a.pat[i];
    key = left ? c : r;
    const uint32_t S = source_major(p, left), src = left ? r : c;
#pragma unroll
    for (unsigned o = 0; o < 4; o++) acc[o] = T(0);
#pragma unroll
    for (unsigned k = 0; k < 4; k++) {
      const uint32_t line = (S >> (4 * k)) & 15u;
      if (line == 0) continue;
      T xv = x[4 * (uint64_t)src + k];
      if (scale) xv = xv * w;
#pragma unroll
      for (unsigned o = 0; o < 4; o++)
        if (line & (1u << o)) acc[o] += xv;
    }
  };
  if (left) {
    // outputs are block columns: they differ from block to block, nothing to fold
    for (uint64_t i = start + lane; i < end; i += 32) {
      uint32_t key;
      T acc[4];
      sums(i, key, acc);
#pragma unroll
      for (unsigned o = 0; o < 4; o++)
        if (acc[o] != T(0)) atomicAdd(&y[4 * (uint64_t)key + o], acc[o]);
    }
    return;
  }
  const uint32_t before = start > 0 ? a.row[start - 1] : kNone;
  const uint32_t after = end < a.n ? a.row[end] : kNone;
  auto put = [&](uint32_t k, const T (&v)[4]) {
    const bool shared = k == before || k == after;
#pragma unroll
    for (unsigned o = 0; o < 4; o++) {
      if (v[o] == T(0)) continue;
      if (shared) atomicAdd(&y[4 * (uint64_t)k + o], v[o]);
      else y[4 * (uint64_t)k + o] = v[o];
    }
  };
  uint32_t carry_key = kNone;  // the run carried from the last round (every lane knows it)
  T carry[4] = {T(0), T(0), T(0), T(0)};
  for (uint64_t base = start; base < end; base += 32) {
    const uint64_t i = base + lane;
    const bool valid = i < end;
    uint32_t key = kNone;
    T acc[4] = {T(0), T(0), T(0), T(0)};
    if (valid) sums(i, key, acc);
    const uint32_t key0 = __shfl_sync(kFull, key, 0);  // lane 0 is always valid
    if (carry_key != kNone && carry_key != key0) {
      if (lane == 0) put(carry_key, carry);  // the carried run ended with the last round
      carry_key = kNone;
    }
    if (lane == 0 && carry_key != kNone) {
#pragma unroll
      for (unsigned q = 0; q < 4; q++) acc[q] += carry[q];
    }
    // after the step with offset d a lane holds the sum over lanes [lane, lane + 2d) of its row
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
      const uint32_t kd = __shfl_down_sync(kFull, key, d);
      T o[4];
#pragma unroll
      for (unsigned q = 0; q < 4; q++) o[q] = __shfl_down_sync(kFull, acc[q], d);
      if (lane + d < 32 && kd == key) {
#pragma unroll
        for (unsigned q = 0; q < 4; q++) acc[q] += o[q];
      }
    }
    const uint32_t kprev = __shfl_up_sync(kFull, key, 1);
    const bool head = valid && (lane == 0 || kprev != key);
    const uint32_t key31 = __shfl_sync(kFull, key, 31);  // kNone past the end of the stretch
    const bool last_run = key31 != kNone && key == key31;
    if (head && !last_run) put(key, acc);
    carry_key = key31;
    if (key31 != kNone) {
      const int hl = __ffs(__ballot_sync(kFull, head && last_run)) - 1;
#pragma unroll
      for (unsigned q = 0; q < 4; q++) carry[q] = __shfl_sync(kFull, acc[q], hl);
    }
  }
  if (carry_key != kNone && lane == 0) put(carry_key, carry);
}

// ---- 32..256 vectors, PLUS on floats ---------------------------------------------------------
// A lane holds 4 consecutive vectors; with VEC (B a multiple of 4, 16-byte aligned X and Y) their
// values move as one 16-byte access (and one vector atomic for floats on sm_90).
template <class T, bool VEC>
__device__ __forceinline__ void quad_load(T (&q)[4], const T *__restrict__ p, uint32_t valid) {
  if constexpr (VEC && sizeof(T) == 4) {
    const float4 f = valid ? *(const float4 *)p : make_float4(0.f, 0.f, 0.f, 0.f);
    q[0] = f.x, q[1] = f.y, q[2] = f.z, q[3] = f.w;
  } else if constexpr (VEC) {
    double2 a = make_double2(0.0, 0.0), b = a;
    if (valid) {
      a = ((const double2 *)p)[0];
      b = ((const double2 *)p)[1];
    }
    q[0] = a.x, q[1] = a.y, q[2] = b.x, q[3] = b.y;
  } else {
#pragma unroll
    for (unsigned i = 0; i < 4; i++) q[i] = i < valid ? p[i] : T(0);
  }
}

template <class T, bool VEC>
__device__ __forceinline__ void quad_put(T *p, const T (&q)[4], uint32_t valid, bool atomic) {
  if (valid == 0) return;
  if (atomic) {
    bool done = false;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if constexpr (VEC && sizeof(T) == 4) {
      atomicAdd((float4 *)p, make_float4(q[0], q[1], q[2], q[3]));
      done = true;
    }
#endif
    if (!done) {
#pragma unroll
      for (unsigned i = 0; i < 4; i++)
        if (i < valid) atomicAdd(p + i, q[i]);
    }
  } else if constexpr (VEC && sizeof(T) == 4) {
    *(float4 *)p = make_float4(q[0], q[1], q[2], q[3]);
  } else if constexpr (VEC) {
    ((double2 *)p)[0] = make_double2(q[0], q[1]);
    ((double2 *)p)[1] = make_double2(q[2], q[3]);
  } else {
#pragma unroll
    for (unsigned i = 0; i < 4; i++)
      if (i < valid) p[i] = q[i];
  }
}

// blocks a warp decodes and loads for at once (their x loads are in flight together); doubles
// take half, for the registers
template <class T> constexpr unsigned unroll_for() { return sizeof(T) == 8 ? 2 : 4; }

template <class T, bool VEC>
__global__ void __launch_bounds__(kBlock) rows_plus_batch_kernel(RowsArgs a, uint64_t span,
                                                                 uint32_t slices) {
  const unsigned lane = threadIdx.x & 31u;
  const uint64_t warp = ((uint64_t)blockIdx.x * kBlock + threadIdx.x) >> 5;
  const uint64_t start = (warp / slices) * span;
  if (start >= a.n) return;  // the whole warp
  const uint64_t end = min(start + span, a.n);
  const uint32_t B = a.v.B, v0 = (uint32_t)(warp % slices) * 128 + 4 * lane;
  const uint32_t valid = v0 >= B ? 0 : B - v0 >= 4 ? 4 : B - v0;  // vectors of this lane
  const bool left = a.v.left, scale = a.v.mult == K2_MUL_X_TIMES_W;
  const T w = (T)a.v.w;
  const T *__restrict__ x = (const T *)a.v.x;
  T *__restrict__ y = (T *)a.v.y;
  // a block row shared with the neighbouring stretches takes atomics (right products; left
  // products always do: their outputs are columns)
  const uint32_t before = (!left && start > 0) ? a.row[start - 1] : kNone;
  const uint32_t after = (!left && end < a.n) ? a.row[end] : kNone;
  constexpr unsigned kUnroll = unroll_for<T>();
  T acc[4][4];  // [output line][vector]
#pragma unroll
  for (unsigned o = 0; o < 4; o++)
#pragma unroll
    for (unsigned q = 0; q < 4; q++) acc[o][q] = T(0);
  uint32_t cur = kNone, touched = 0;
  auto flush = [&]() {
    const bool shared = left || cur == before || cur == after;
#pragma unroll
    for (unsigned o = 0; o < 4; o++) {
      if (touched & (1u << o))
        quad_put<T, VEC>(y + (4 * (uint64_t)cur + o) * B + v0, acc[o], valid, shared);
#pragma unroll
      for (unsigned q = 0; q < 4; q++) acc[o][q] = T(0);
    }
    touched = 0;
  };
  for (uint64_t base = start; base < end; base += 32) {
    // 32 blocks' coordinates at once, one per lane, handed out by shuffles
    const uint32_t cnt = (uint32_t)min((uint64_t)32, end - base);
    uint32_t mr = 0, mc = 0, mp = 0;
    if (lane < cnt) {
      mr = a.row[base + lane];
      mc = a.col[base + lane];
      mp = a.pat[base + lane];
    }
    for (uint32_t t0 = 0; t0 < cnt; t0 += kUnroll) {
      uint32_t key[kUnroll], S[kUnroll];
      T xv[kUnroll][4][4];  // [block][source][vector]
#pragma unroll
      for (unsigned u = 0; u < kUnroll; u++) {
        const uint32_t r = __shfl_sync(kFull, mr, (t0 + u) & 31u);
        const uint32_t c = __shfl_sync(kFull, mc, (t0 + u) & 31u);
        const uint32_t p = __shfl_sync(kFull, mp, (t0 + u) & 31u);
        key[u] = left ? c : r;
        S[u] = t0 + u < cnt ? source_major(p, left) : 0u;
        const uint64_t src = 4 * (uint64_t)(left ? r : c);
#pragma unroll
        for (unsigned k = 0; k < 4; k++)
          quad_load<T, VEC>(xv[u][k], x + (src + k) * B + v0,
                            ((S[u] >> (4 * k)) & 15u) ? valid : 0u);
      }
#pragma unroll
      for (unsigned u = 0; u < kUnroll; u++) {
        if (S[u] == 0) continue;  // past the stretch (the same for the whole warp)
        if (key[u] != cur) {
          if (cur != kNone) flush();
          cur = key[u];
        }
#pragma unroll
        for (unsigned k = 0; k < 4; k++) {
          const uint32_t line = (S[u] >> (4 * k)) & 15u;
          if (line == 0) continue;
#pragma unroll
          for (unsigned q = 0; q < 4; q++) {
            const T xs = scale ? xv[u][k][q] * w : xv[u][k][q];
#pragma unroll
            for (unsigned o = 0; o < 4; o++)
              if (line & (1u << o)) acc[o][q] += xs;
          }
        }
        touched |= outputs_of(S[u]);
      }
    }
  }
  if (cur != kNone) flush();
}

// ---- every semiring ------------------------------------------------------------------------
// A group of G lanes walks its stretch once per slice of G vectors (B > 32: several passes over
// the same blocks, which stay in the caches), so a lane keeps just one output block's four values.
template <class T, int MON>
__global__ void __launch_bounds__(kBlock) rows_kernel(RowsArgs a, uint64_t span, uint32_t G) {
  const uint32_t lane = threadIdx.x & (G - 1);
  const uint64_t start = (((uint64_t)blockIdx.x * kBlock + threadIdx.x) / G) * span;
  if (start >= a.n) return;
  const uint64_t end = min(start + span, a.n);
  const uint32_t B = a.v.B;
  const T *x = (const T *)a.v.x;
  T *y = (T *)a.v.y;
  const T w = cast_double<T>(a.v.w);
  for (uint32_t v = lane; v < B; v += G) {
    T acc[4] = {T(0), T(0), T(0), T(0)};
    uint32_t has = 0;  // bit o: acc[o] holds a contribution
    uint32_t cur = kNone;
    auto flush = [&]() {
#pragma unroll
      for (unsigned o = 0; o < 4; o++) {
        if (!((has >> o) & 1u)) continue;
        const uint64_t ti = (4 * (uint64_t)cur + o) * B + v;
        if (a.v.ys != nullptr && a.v.ys[ti]) continue;
        Atomic<T, MON>::apply(&y[ti], acc[o]);
        if (a.v.yp != nullptr) a.v.yp[ti] = 1;
      }
      has = 0;
    };
    for (uint64_t i = start; i < end; i++) {
      const uint32_t r = a.row[i], c = a.col[i], p = a.pat[i];
      const uint32_t key = a.v.left ? c : r;
      if (key != cur) {
        if (cur != kNone) flush();
        cur = key;
      }
      const uint32_t S = source_major(p, a.v.left);
      const uint64_t src0 = 4 * (uint64_t)(a.v.left ? r : c);
#pragma unroll
      for (unsigned k = 0; k < 4; k++) {
        const uint32_t line = (S >> (4 * k)) & 15u;
        if (line == 0) continue;
        const uint64_t si = (src0 + k) * B + v;
        if (a.v.xp != nullptr && !a.v.xp[si]) continue;
        const T val = multiply<T>(a.v.mult, load<T>(x, si), w, src0 + k, a.v.index_base);
#pragma unroll
        for (unsigned o = 0; o < 4; o++) {
          if (!(line & (1u << o))) continue;
          acc[o] = ((has >> o) & 1u) ? combine<T, MON>(acc[o], val) : val;
          has |= 1u << o;
        }
      }
    }
    if (cur != kNone) flush();
  }
}

template <class T, int MON> cudaError_t rows_t(const RowsArgs &a, cudaStream_t s) {
  uint32_t G = 1;
  while (G < a.v.B && G < 32) G <<= 1;
  // about 2^21 lanes in all, at most 64 blocks per group
  const uint64_t groups_wanted = (UINT64_C(1) << 21) / G;
  uint64_t span = (a.n + groups_wanted - 1) / groups_wanted;
  span = span < 1 ? 1 : span > 64 ? 64 : span;
  const uint64_t groups = (a.n + span - 1) / span;
  rows_kernel<T, MON><<<grid_for(groups * G), kBlock, 0, s>>>(a, span, G);
  return cudaGetLastError();
}

template <class T> cudaError_t rows_plus_t(const RowsArgs &a, cudaStream_t s) {
  if (a.v.B == 1) {
    // up to 8 rounds of 32 blocks per warp, as long as there are at least 2^14 warps
    uint64_t rounds = a.n / (UINT64_C(32) << 14);
    rounds = rounds < 1 ? 1 : rounds > 8 ? 8 : rounds;
    const uint64_t warps = (a.n + 32 * rounds - 1) / (32 * rounds);
    rows_plus_kernel<T><<<grid_for(warps * 32), kBlock, 0, s>>>(a, (uint32_t)rounds);
    return cudaGetLastError();
  }
  // stretches long enough that few rows straddle two, short enough for about 2^15 warps
  const uint32_t slices = (a.v.B + 127) / 128;
  uint64_t span = a.n * slices / 32768;
  span = span < 4 ? 4 : span > 256 ? 256 : span;
  const uint64_t warps = (a.n + span - 1) / span * slices;
  const bool vec = a.v.B % 4 == 0 && ((uintptr_t)a.v.x | (uintptr_t)a.v.y) % 16 == 0;
  if (vec) rows_plus_batch_kernel<T, true><<<grid_for(warps * 32), kBlock, 0, s>>>(a, span, slices);
  else rows_plus_batch_kernel<T, false><<<grid_for(warps * 32), kBlock, 0, s>>>(a, span, slices);
  return cudaGetLastError();
}

bool rows_plus_applies(k2_type type, k2_monoid mon, const RowsArgs &a) {
  return a.v.fast && mon == K2_MON_PLUS && (type == K2_T_FP32 || type == K2_T_FP64) &&
         (a.v.mult == K2_MUL_X || a.v.mult == K2_MUL_X_TIMES_W) && (a.v.B == 1 || (a.v.B >= 32 && a.v.B <= 256)) &&
         a.v.xp == nullptr && a.v.yp == nullptr && a.v.ys == nullptr;
}

}  // namespace

cudaError_t launch_rows(k2_type type, k2_monoid mon, const RowsArgs &a, cudaStream_t s) {
  if (a.n == 0) return cudaSuccess;
  if (rows_plus_applies(type, mon, a))
    return type == K2_T_FP32 ? rows_plus_t<float>(a, s) : rows_plus_t<double>(a, s);
  return by_semiring(type, mon, [&](auto t, auto m) {
    return rows_t<decltype(t), decltype(m)::value>(a, s);
  });
}

}  // namespace k2cu
