// k2_cuda_rates.cu: the copy rates between pinned host memory and the device, the reference a
// benchmark sets the products' copies against (k2_cuda_copy_rate, k2_cuda_testing.h).
// SPDX-License-Identifier: Apache-2.0
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "cuda/k2_cuda_testing.h"

namespace {

constexpr int kGrbPanic = -101;
constexpr int kGrbInvalidValue = -3;

// The shortest of reps copies of `bytes` (seconds between two events on s).
cudaError_t best_copy(void *dst, const void *src, uint64_t bytes, cudaMemcpyKind kind, int reps,
                      cudaStream_t s, cudaEvent_t ev[2], double *best) {
  *best = 0;
  for (int r = 0; r < reps; r++) {
    cudaError_t e = cudaEventRecord(ev[0], s);
    if (e == cudaSuccess) e = cudaMemcpyAsync(dst, src, bytes, kind, s);
    if (e == cudaSuccess) e = cudaEventRecord(ev[1], s);
    if (e == cudaSuccess) e = cudaEventSynchronize(ev[1]);
    float ms = 0;
    if (e == cudaSuccess) e = cudaEventElapsedTime(&ms, ev[0], ev[1]);
    if (e != cudaSuccess) return e;
    const double t = 1e-3 * (double)ms;
    if (r == 0 || t < *best) *best = t;
  }
  return cudaSuccess;
}

}  // namespace

extern "C" int k2_cuda_copy_rate(uint64_t bytes, int reps, double *up, double *down) {
  if (up == nullptr || down == nullptr || bytes == 0 || reps < 1)
    return k2_cuda_fail(kGrbInvalidValue, "CUDA engine: a copy rate needs bytes and reps");
  *up = *down = 0;
  // the engine's initialisation: whether there is a device
  if (k2_cuda_stream() == nullptr) return k2_cuda_fail(K2_DECLINED, "CUDA engine: no CUDA device");
  // a stream of its own, so that no product's work is timed with the copies
  cudaStream_t s = nullptr;
  cudaEvent_t ev[2] = {nullptr, nullptr};
  void *h = nullptr, *d = nullptr;
  double t_up = 0, t_down = 0;
  cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (e == cudaSuccess) e = cudaEventCreate(&ev[0]);
  if (e == cudaSuccess) e = cudaEventCreate(&ev[1]);
  if (e == cudaSuccess) e = cudaMallocHost(&h, bytes);
  if (e == cudaSuccess) {
    memset(h, 1, bytes);  // pages touched before the first copy
    e = cudaMalloc(&d, bytes);
  }
  if (e == cudaSuccess) e = best_copy(d, h, bytes, cudaMemcpyHostToDevice, reps, s, ev, &t_up);
  if (e == cudaSuccess) e = best_copy(h, d, bytes, cudaMemcpyDeviceToHost, reps, s, ev, &t_down);
  const cudaError_t failed = e;
  if (s != nullptr) cudaStreamSynchronize(s);
  if (d != nullptr) cudaFree(d);
  if (h != nullptr) cudaFreeHost(h);
  for (cudaEvent_t x : ev) {
    if (x != nullptr) cudaEventDestroy(x);
  }
  if (s != nullptr) cudaStreamDestroy(s);
  if (failed != cudaSuccess) {
    (void)cudaGetLastError();  // clear a non-sticky error
    char msg[256];
    snprintf(msg, sizeof msg, "CUDA engine: timing pinned copies failed: %s (%s)",
             cudaGetErrorString(failed), cudaGetErrorName(failed));
    return k2_cuda_fail(failed == cudaErrorMemoryAllocation ? K2_DECLINED : kGrbPanic, msg);
  }
  *up = t_up > 0 ? (double)bytes / t_up : 0;
  *down = t_down > 0 ? (double)bytes / t_down : 0;
  return 0;
}
