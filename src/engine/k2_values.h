// k2_values.h: the values the engines and the API agree on, written once for host and device
// code: each monoid's identity and terminal value per type, and GraphBLAS's typecast of a
// double to an integer (internal). The reference engine keeps its own copy, as the oracle.
// Plain C (and CUDA: the functions are host and device functions there).
#ifndef K2_VALUES_H
#define K2_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/k2_kernels.h"

#if defined(__CUDACC__)
#define K2_HOST_DEVICE __host__ __device__
#else
#define K2_HOST_DEVICE
#endif

// GraphBLAS's double -> integer rule (GB_cast_to_int*): NaN -> 0, saturate, else truncate.
static inline K2_HOST_DEVICE int32_t k2_double_to_int32(double d) {
  if (d != d) return 0;
  if (d <= (double)INT32_MIN) return INT32_MIN;
  if (d >= (double)INT32_MAX) return INT32_MAX;
  return (int32_t)d;
}
static inline K2_HOST_DEVICE int64_t k2_double_to_int64(double d) {
  if (d != d) return 0;
  if (d <= (double)INT64_MIN) return INT64_MIN;
  if (d >= (double)INT64_MAX) return INT64_MAX;
  return (int64_t)d;
}

// Identities: MIN starts at the type's highest value, MAX at its lowest, PLUS, LOR and ANY at
// zero. On BOOL, MIN is LAND (true) and MAX is LOR (false).
static inline K2_HOST_DEVICE uint8_t k2_identity_bool(k2_monoid m) { return m == K2_MON_MIN; }
static inline K2_HOST_DEVICE int32_t k2_identity_int32(k2_monoid m) {
  return m == K2_MON_MIN ? INT32_MAX : m == K2_MON_MAX ? INT32_MIN : 0;
}
static inline K2_HOST_DEVICE int64_t k2_identity_int64(k2_monoid m) {
  return m == K2_MON_MIN ? INT64_MAX : m == K2_MON_MAX ? INT64_MIN : 0;
}
static inline K2_HOST_DEVICE float k2_identity_fp32(k2_monoid m) {
  return m == K2_MON_MIN ? __builtin_huge_valf() : m == K2_MON_MAX ? -__builtin_huge_valf() : 0.0f;
}
static inline K2_HOST_DEVICE double k2_identity_fp64(k2_monoid m) {
  return m == K2_MON_MIN ? __builtin_huge_val() : m == K2_MON_MAX ? -__builtin_huge_val() : 0.0;
}

// The identity as k2_type_size(t) bytes at out.
static inline K2_HOST_DEVICE void k2_identity_bytes(void *out, k2_type t, k2_monoid m) {
  switch (t) {
    case K2_T_BOOL: *(uint8_t *)out = k2_identity_bool(m); break;
    case K2_T_INT32: *(int32_t *)out = k2_identity_int32(m); break;
    case K2_T_INT64: *(int64_t *)out = k2_identity_int64(m); break;
    case K2_T_FP32: *(float *)out = k2_identity_fp32(m); break;
    default: *(double *)out = k2_identity_fp64(m); break;
  }
}

// Whether the identity is all zero bytes (a memset fills it).
static inline K2_HOST_DEVICE bool k2_identity_is_zero(k2_type t, k2_monoid m) {
  return m == K2_MON_PLUS || m == K2_MON_LOR || m == K2_MON_ANY ||
         (t == K2_T_BOOL && m == K2_MON_MAX);
}

// The terminal value, where the monoid has one (a result no further contribution changes):
// MIN's is the lowest value (MAX's identity), MAX's the highest (MIN's identity), LOR's true.
// PLUS has none; ANY is terminal at any value (no bytes: false).
static inline K2_HOST_DEVICE bool k2_terminal_bytes(void *out, k2_type t, k2_monoid m) {
  switch (m) {
    case K2_MON_MIN: k2_identity_bytes(out, t, K2_MON_MAX); return true;
    case K2_MON_MAX: k2_identity_bytes(out, t, K2_MON_MIN); return true;
    case K2_MON_LOR: *(uint8_t *)out = 1; return true;
    default: return false;
  }
}

#endif
