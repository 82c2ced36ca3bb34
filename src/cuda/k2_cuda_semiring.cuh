// k2_cuda_semiring.cuh: the semirings on the device (values, multiplies, monoids, atomics).
// SPDX-License-Identifier: Apache-2.0
//
// Shared by the traversal kernels (k2_cuda_kernels.cu) and the row-block kernels
// (k2_cuda_rows.cu), so that both compute every (type, monoid, multiply) the same way.
#ifndef K2_CUDA_SEMIRING_CUH
#define K2_CUDA_SEMIRING_CUH

#include <cfloat>
#include <climits>
#include <cstdint>

#include "cuda/k2_cuda_internal.cuh"
#include "engine/k2_values.h"

namespace k2cu {


// The monoid's identity and GraphBLAS's cast of a double, as on the host (k2_values.h).
template <class T> __host__ __device__ T identity_of(k2_monoid m);
template <> __host__ __device__ inline uint8_t identity_of<uint8_t>(k2_monoid m) { return k2_identity_bool(m); }
template <> __host__ __device__ inline int32_t identity_of<int32_t>(k2_monoid m) { return k2_identity_int32(m); }
template <> __host__ __device__ inline int64_t identity_of<int64_t>(k2_monoid m) { return k2_identity_int64(m); }
template <> __host__ __device__ inline float identity_of<float>(k2_monoid m) { return k2_identity_fp32(m); }
template <> __host__ __device__ inline double identity_of<double>(k2_monoid m) { return k2_identity_fp64(m); }
template <class T, int MON> __host__ __device__ T identity() { return identity_of<T>((k2_monoid)MON); }

// A double as a value of the product's type: integers truncate, saturate at their bounds and
// take NaN to 0; BOOL is "nonzero".
template <class T> __device__ T cast_double(double d) { return (T)d; }
template <> __device__ inline uint8_t cast_double<uint8_t>(double d) { return d != 0.0; }
template <> __device__ inline int32_t cast_double<int32_t>(double d) { return k2_double_to_int32(d); }
template <> __device__ inline int64_t cast_double<int64_t>(double d) { return k2_double_to_int64(d); }
// A vector value (BOOL bytes other than 0 count as true).
template <class T> __device__ __forceinline__ T load(const T *x, uint64_t i) { return x[i]; }
template <> __device__ __forceinline__ uint8_t load(const uint8_t *x, uint64_t i) {
  return x[i] != 0;
}

// Wrapping integer arithmetic (what the CPU engines' two's-complement results are).
template <class T> __device__ __forceinline__ T add(T a, T b) { return a + b; }
template <> __device__ __forceinline__ int32_t add(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}
template <> __device__ __forceinline__ int64_t add(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a + (uint64_t)b);
}
template <> __device__ __forceinline__ uint8_t add(uint8_t a, uint8_t b) { return a | b; }
template <class T> __device__ __forceinline__ T mul(T a, T b) { return a * b; }
template <> __device__ __forceinline__ int32_t mul(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a * (uint32_t)b);
}
template <> __device__ __forceinline__ int64_t mul(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a * (uint64_t)b);
}
template <> __device__ __forceinline__ uint8_t mul(uint8_t a, uint8_t b) { return a & b; }

template <class T>
__device__ __forceinline__ T multiply(int mult, T x, T w, uint64_t s, int64_t base) {
  switch (mult) {
    case K2_MUL_X: return x;
    case K2_MUL_X_TIMES_W: return mul<T>(x, w);
    case K2_MUL_X_PLUS_W: return add<T>(x, w);
    case K2_MUL_CONST: return w;
    default: return cast_double<T>((double)((int64_t)s + base));  // K2_MUL_INDEX (never BOOL)
  }
}

template <class T, int MON> __device__ __forceinline__ T combine(T a, T b) {
  if constexpr (MON == K2_MON_PLUS) return add<T>(a, b);
  else if constexpr (MON == K2_MON_MIN) return b < a ? b : a;
  else if constexpr (MON == K2_MON_MAX) return b > a ? b : a;
  else if constexpr (MON == K2_MON_LOR) return (T)(a | b);
  else return a;  // ANY: keep one
}

// y ⊕= v, atomically.
template <class T, int MON> struct Atomic;

template <int MON> struct Atomic<uint8_t, MON> {
  // Bytes: every update moves y one way (to 1 for LOR/MAX/PLUS, to 0 for MIN = LAND), so a
  // plain store is exact; ANY stores any contribution.
  static __device__ __forceinline__ void apply(uint8_t *y, uint8_t v) {
    if (MON == K2_MON_MIN) {
      if (!v) *(volatile uint8_t *)y = 0;
    } else if (MON == K2_MON_ANY) {
      *(volatile uint8_t *)y = v;
    } else if (v) {
      *(volatile uint8_t *)y = 1;
    }
  }
};
template <int MON> struct Atomic<int32_t, MON> {
  static __device__ __forceinline__ void apply(int32_t *y, int32_t v) {
    if (MON == K2_MON_PLUS) atomicAdd((unsigned *)y, (unsigned)v);
    else if (MON == K2_MON_MIN) atomicMin(y, v);
    else if (MON == K2_MON_MAX) atomicMax(y, v);
    else *(volatile int32_t *)y = v;
  }
};
template <int MON> struct Atomic<int64_t, MON> {
  static __device__ __forceinline__ void apply(int64_t *y, int64_t v) {
    if (MON == K2_MON_PLUS) atomicAdd((unsigned long long *)y, (unsigned long long)v);
    else if (MON == K2_MON_MIN) atomicMin((long long *)y, (long long)v);
    else if (MON == K2_MON_MAX) atomicMax((long long *)y, (long long)v);
    else *(volatile int64_t *)y = v;
  }
};
// Floats: min/max through the bit patterns. A non-negative float orders like its bits as a
// signed integer; a negative one orders in reverse of its bits as an unsigned integer, so a
// negative v takes the opposite unsigned atomic. Both cases are exact for mixed signs.
template <int MON> struct Atomic<float, MON> {
  static __device__ __forceinline__ void apply(float *y, float v) {
    if (MON == K2_MON_PLUS) {
      atomicAdd(y, v);
    } else if (MON == K2_MON_MIN) {
      if (!(v < *(volatile float *)y)) return;  // cannot improve: skip the atomic
      if (!signbit(v)) atomicMin((int *)y, __float_as_int(v));
      else atomicMax((unsigned *)y, __float_as_uint(v));
    } else if (MON == K2_MON_MAX) {
      if (!(v > *(volatile float *)y)) return;
      if (!signbit(v)) atomicMax((int *)y, __float_as_int(v));
      else atomicMin((unsigned *)y, __float_as_uint(v));
    } else {
      *(volatile float *)y = v;
    }
  }
};
template <int MON> struct Atomic<double, MON> {
  static __device__ __forceinline__ void apply(double *y, double v) {
    if (MON == K2_MON_PLUS) {
      atomicAdd(y, v);
    } else if (MON == K2_MON_MIN) {
      if (!(v < *(volatile double *)y)) return;
      if (!signbit(v)) atomicMin((long long *)y, __double_as_longlong(v));
      else atomicMax((unsigned long long *)y, (unsigned long long)__double_as_longlong(v));
    } else if (MON == K2_MON_MAX) {
      if (!(v > *(volatile double *)y)) return;
      if (!signbit(v)) atomicMax((long long *)y, __double_as_longlong(v));
      else atomicMin((unsigned long long *)y, (unsigned long long)__double_as_longlong(v));
    } else {
      *(volatile double *)y = v;
    }
  }
};

// The launch of a native (type, monoid): f(T(), MonoidTag<MON>()) with the value type and the
// monoid as template arguments, one switch for every kernel family. LOR exists for BOOL only
// (the engine checks combinations before it launches).
template <int MON> struct MonoidTag {
  static constexpr int value = MON;
};
template <class T, class F> cudaError_t by_monoid(k2_monoid mon, F &&f) {
  switch (mon) {
    case K2_MON_PLUS: return f(T(), MonoidTag<K2_MON_PLUS>());
    case K2_MON_MIN: return f(T(), MonoidTag<K2_MON_MIN>());
    case K2_MON_MAX: return f(T(), MonoidTag<K2_MON_MAX>());
    case K2_MON_LOR:
      if constexpr (sizeof(T) == 1) return f(T(), MonoidTag<K2_MON_LOR>());
      else return cudaErrorInvalidValue;
    default: return f(T(), MonoidTag<K2_MON_ANY>());
  }
}
template <class F> cudaError_t by_semiring(k2_type type, k2_monoid mon, F &&f) {
  switch (type) {
    case K2_T_BOOL: return by_monoid<uint8_t>(mon, f);
    case K2_T_INT32: return by_monoid<int32_t>(mon, f);
    case K2_T_INT64: return by_monoid<int64_t>(mon, f);
    case K2_T_FP32: return by_monoid<float>(mon, f);
    default: return by_monoid<double>(mon, f);
  }
}

// The 4x4 bit matrix transposed (bit 4i + j <-> bit 4j + i).
__device__ __forceinline__ uint32_t block_transpose4(uint32_t x) {
  uint32_t t = (x ^ (x >> 3)) & 0x0A0Au;  // swap the off-diagonal bits of the 2x2 sub-blocks
  x ^= t ^ (t << 3);
  t = (x ^ (x >> 6)) & 0x00CCu;  // swap the off-diagonal 2x2 sub-blocks
  x ^= t ^ (t << 6);
  return x & 0xFFFFu;
}

}  // namespace k2cu

#endif
