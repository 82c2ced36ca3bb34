// k2_cuda_vector.cu: the element-wise kernels of device-resident vectors (K2_DeviceVector): a
// mask turned into skip bytes, masked assignment, counting entries and summing values.
// SPDX-License-Identifier: Apache-2.0
//
// Every kernel is a grid-stride loop over the entries; counts and sums are folded per warp and
// added once per warp to one device word, so a whole vector costs one launch.
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

__global__ void mask_skip_kernel(uint8_t *skip, const uint8_t *present, const void *values,
                                 k2_type type, bool structural, bool complement, uint64_t n) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    bool allowed = present[i] != 0 && (structural || value_nonzero(values, type, i));
    skip[i] = (uint8_t)(allowed == complement);
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
  for (int off = 16; off > 0; off >>= 1) {
    if (kFloat) fs += __shfl_down_sync(0xffffffffu, fs, off);
    else is += __shfl_down_sync(0xffffffffu, is, off);
  }
  if ((threadIdx.x & 31u) == 0) {
    if (kFloat) atomicAdd(fsum, fs);
    else if (is != 0) atomicAdd(isum, (unsigned long long)is);  // two's complement: exact
  }
}

template <typename T>
cudaError_t assign_as(void *v, uint8_t *vp, const uint8_t *m, const void *w, const uint8_t *wp,
                      uint64_t scalar, uint64_t n, cudaStream_t s) {
  T sc;
  memcpy(&sc, &scalar, sizeof sc);  // the low bytes (little-endian)
  assign_kernel<T><<<grid_for(n, kMaxGrid), kBlock, 0, s>>>((T *)v, vp, m, (const T *)w, wp, sc, n);
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

cudaError_t launch_count_present(const uint8_t *p, uint64_t n, unsigned long long *count,
                                 cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  count_kernel<<<grid_for(n, kMaxGrid), kBlock, 0, s>>>(p, n, count);
  return cudaGetLastError();
}

cudaError_t launch_assign(void *v, uint8_t *vp, const uint8_t *m, const void *w, const uint8_t *wp,
                          uint64_t scalar, uint32_t ts, uint64_t n, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  if (ts == 8) return assign_as<uint64_t>(v, vp, m, w, wp, scalar, n, s);
  if (ts == 4) return assign_as<uint32_t>(v, vp, m, w, wp, scalar, n, s);
  return assign_as<uint8_t>(v, vp, m, w, wp, scalar, n, s);
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

}  // namespace k2cu
