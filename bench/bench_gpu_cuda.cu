// bench_gpu_cuda.cu: cuSPARSE and Boolean-CSR baselines for bench_gpu, and the event timer.
// SPDX-License-Identifier: Apache-2.0
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_gpu.h"

struct bg_csr {
  uint64_t nrows, ncols, nnz;
  uint32_t B;
  cudaStream_t s;
  uint32_t *rowptr = nullptr, *col = nullptr;
  float *val = nullptr;
  float *x[3] = {nullptr, nullptr, nullptr}, *y[3] = {nullptr, nullptr, nullptr};
  cusparseHandle_t h = nullptr;
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnVecDescr_t vx[2] = {nullptr, nullptr}, vy[2] = {nullptr, nullptr};
  cusparseDnMatDescr_t mx = nullptr, my = nullptr;
  void *buf[3] = {nullptr, nullptr, nullptr};
  size_t buf_bytes[3] = {0, 0, 0};
  cusparseSpMVAlg_t mv_alg[2] = {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMV_ALG_DEFAULT};
  cusparseSpMMAlg_t mm_alg = CUSPARSE_SPMM_ALG_DEFAULT;
};

#define CK(call)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)
#define CS(call)                                                                   \
  do {                                                                             \
    cusparseStatus_t e_ = (call);                                                  \
    if (e_ != CUSPARSE_STATUS_SUCCESS) {                                           \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(e_)); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

__global__ void fill_dyadic(float *v, uint64_t n, uint64_t seed) {
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
       i += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t z = (i + seed) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z ^= z >> 31;
    // k/8 in [0, 1]: sums of up to 2^21 terms are exact in FP32 (k/64 was not for row 0 of
    // R-MAT 26, which has over 2^18 entries)
    v[i] = (float)(z % 9) / 8.0f;
  }
}

extern "C" {

bg_csr *bg_csr_new(uint64_t nrows, uint64_t ncols, const uint32_t *rowptr, const uint32_t *col,
                   uint64_t nnz, uint32_t B, void *stream) {
  bg_csr *c = new bg_csr();
  c->nrows = nrows;
  c->ncols = ncols;
  c->nnz = nnz;
  c->B = B;
  c->s = (cudaStream_t)stream;
  CK(cudaMalloc(&c->rowptr, (nrows + 1) * 4));
  CK(cudaMalloc(&c->col, std::max<uint64_t>(nnz, 1) * 4));
  CK(cudaMalloc(&c->val, std::max<uint64_t>(nnz, 1) * 4));
  CK(cudaMemcpy(c->rowptr, rowptr, (nrows + 1) * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(c->col, col, nnz * 4, cudaMemcpyHostToDevice));
  std::vector<float> ones(std::max<uint64_t>(nnz, 1), 1.0f);
  CK(cudaMemcpy(c->val, ones.data(), nnz * 4, cudaMemcpyHostToDevice));
  const uint64_t xin[3] = {ncols, nrows, ncols * B}, yout[3] = {nrows, ncols, nrows * B};
  for (int op = 0; op < 3; op++) {
    CK(cudaMalloc(&c->x[op], xin[op] * 4));
    CK(cudaMalloc(&c->y[op], yout[op] * 4));
    fill_dyadic<<<1024, 256>>>(c->x[op], xin[op], 12345 + op);
  }
  CK(cudaDeviceSynchronize());
  CS(cusparseCreate(&c->h));
  CS(cusparseSetStream(c->h, c->s));
  CS(cusparseCreateCsr(&c->A, nrows, ncols, nnz, c->rowptr, c->col, c->val, CUSPARSE_INDEX_32I,
                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  for (int op = 0; op < 2; op++) {
    CS(cusparseCreateDnVec(&c->vx[op], xin[op], c->x[op], CUDA_R_32F));
    CS(cusparseCreateDnVec(&c->vy[op], yout[op], c->y[op], CUDA_R_32F));
  }
  CS(cusparseCreateDnMat(&c->mx, ncols, B, B, c->x[2], CUDA_R_32F, CUSPARSE_ORDER_ROW));
  CS(cusparseCreateDnMat(&c->my, nrows, B, B, c->y[2], CUDA_R_32F, CUSPARSE_ORDER_ROW));
  const float one = 1, zero = 0;
  // the fastest algorithm of each op, timed once
  const cusparseSpMVAlg_t mv[] = {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMV_CSR_ALG1,
                                  CUSPARSE_SPMV_CSR_ALG2};
  for (int op = 0; op < 2; op++) {
    cusparseOperation_t o = op ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
    double best = 1e30;
    for (auto alg : mv) {
      size_t bytes = 0;
      if (cusparseSpMV_bufferSize(c->h, o, &one, c->A, c->vx[op], &zero, c->vy[op], CUDA_R_32F,
                                  alg, &bytes) != CUSPARSE_STATUS_SUCCESS)
        continue;
      void *b = nullptr;
      CK(cudaMalloc(&b, std::max<size_t>(bytes, 1)));
      cudaEvent_t e0, e1;
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      bool ok = cusparseSpMV(c->h, o, &one, c->A, c->vx[op], &zero, c->vy[op], CUDA_R_32F, alg, b) ==
                CUSPARSE_STATUS_SUCCESS;
      cudaEventRecord(e0, c->s);
      for (int r = 0; r < 10 && ok; r++)
        cusparseSpMV(c->h, o, &one, c->A, c->vx[op], &zero, c->vy[op], CUDA_R_32F, alg, b);
      cudaEventRecord(e1, c->s);
      cudaEventSynchronize(e1);
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      cudaEventDestroy(e0);
      cudaEventDestroy(e1);
      if (ok && ms < best) {
        best = ms;
        if (c->buf[op]) cudaFree(c->buf[op]);
        c->buf[op] = b;
        c->buf_bytes[op] = bytes;
        c->mv_alg[op] = alg;
      } else {
        cudaFree(b);
      }
    }
  }
  const cusparseSpMMAlg_t mm[] = {CUSPARSE_SPMM_CSR_ALG1, CUSPARSE_SPMM_CSR_ALG2,
                                  CUSPARSE_SPMM_CSR_ALG3};
  double best = 1e30;
  for (auto alg : mm) {
    size_t bytes = 0;
    if (cusparseSpMM_bufferSize(c->h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->mx, &zero, c->my,
                                CUDA_R_32F, alg, &bytes) != CUSPARSE_STATUS_SUCCESS)
      continue;
    void *b = nullptr;
    CK(cudaMalloc(&b, std::max<size_t>(bytes, 1)));
    if (alg == CUSPARSE_SPMM_CSR_ALG3 &&
        cusparseSpMM_preprocess(c->h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->mx, &zero, c->my,
                                CUDA_R_32F, alg, b) != CUSPARSE_STATUS_SUCCESS) {
      cudaFree(b);
      continue;
    }
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    bool ok = cusparseSpMM(c->h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                           &one, c->A, c->mx, &zero, c->my, CUDA_R_32F, alg, b) ==
              CUSPARSE_STATUS_SUCCESS;
    cudaEventRecord(e0, c->s);
    for (int r = 0; r < 5 && ok; r++)
      cusparseSpMM(c->h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                   c->A, c->mx, &zero, c->my, CUDA_R_32F, alg, b);
    cudaEventRecord(e1, c->s);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (ok && ms < best) {
      best = ms;
      if (c->buf[2]) cudaFree(c->buf[2]);
      c->buf[2] = b;
      c->buf_bytes[2] = bytes;
      c->mm_alg = alg;
    } else {
      cudaFree(b);
    }
  }
  (void)cudaGetLastError();
  CK(cudaDeviceSynchronize());
  return c;
}

void bg_csr_free(bg_csr *c) {
  if (!c) return;
  cusparseDestroySpMat(c->A);
  for (int op = 0; op < 2; op++) {
    cusparseDestroyDnVec(c->vx[op]);
    cusparseDestroyDnVec(c->vy[op]);
  }
  cusparseDestroyDnMat(c->mx);
  cusparseDestroyDnMat(c->my);
  cusparseDestroy(c->h);
  for (int op = 0; op < 3; op++) {
    cudaFree(c->x[op]);
    cudaFree(c->y[op]);
    cudaFree(c->buf[op]);
  }
  cudaFree(c->rowptr);
  cudaFree(c->col);
  cudaFree(c->val);
  delete c;
}

uint64_t bg_csr_bytes(const bg_csr *c, bool values) {
  return (c->nrows + 1) * 4 + c->nnz * 4 + (values ? c->nnz * 4 : 0);
}
uint64_t bg_cusparse_buffer(const bg_csr *c, bg_op op) { return c->buf_bytes[op]; }
float *bg_x(bg_csr *c, bg_op op) { return c->x[op]; }
float *bg_y(bg_csr *c, bg_op op) { return c->y[op]; }

void bg_cusparse(bg_csr *c, bg_op op) {
  const float one = 1, zero = 0;
  if (op == BG_BATCH) {
    cusparseSpMM(c->h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                 c->A, c->mx, &zero, c->my, CUDA_R_32F, c->mm_alg, c->buf[2]);
  } else {
    cusparseSpMV(c->h, op ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                 c->A, c->vx[op], &zero, c->vy[op], CUDA_R_32F, c->mv_alg[op], c->buf[op]);
  }
}

// ---- Boolean CSR (no values) ------------------------------------------------------------------

__global__ void bcsr_thread(const uint32_t *rp, const uint32_t *col, const float *x, float *y,
                            uint64_t n) {
  uint64_t r = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (r >= n) return;
  float acc = 0;
  for (uint32_t k = rp[r]; k < rp[r + 1]; k++) acc += x[col[k]];
  y[r] = acc;
}
__global__ void bcsr_warp(const uint32_t *rp, const uint32_t *col, const float *x, float *y,
                          uint64_t n) {
  uint64_t r = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) >> 5;
  const unsigned lane = threadIdx.x & 31;
  if (r >= n) return;
  float acc = 0;
  for (uint32_t k = rp[r] + lane; k < rp[r + 1]; k += 32) acc += x[col[k]];
  for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) y[r] = acc;
}
__global__ void bcsr_left(const uint32_t *rp, const uint32_t *col, const float *x, float *y,
                          uint64_t n) {
  uint64_t r = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (r >= n) return;
  const float v = x[r];
  if (v == 0) return;
  for (uint32_t k = rp[r]; k < rp[r + 1]; k++) atomicAdd(&y[col[k]], v);
}
// A warp per row, lanes over the B vectors (row-major X, Y).
__global__ void bcsr_batch(const uint32_t *rp, const uint32_t *col, const float *X, float *Y,
                           uint64_t n, uint32_t B) {
  uint64_t r = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) >> 5;
  const unsigned lane = threadIdx.x & 31;
  if (r >= n) return;
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (uint32_t k = rp[r]; k < rp[r + 1]; k++) {
    const float *xr = X + (uint64_t)col[k] * B;
#pragma unroll
    for (int j = 0; j < 8; j++)
      if (lane + 32 * j < B) acc[j] += xr[lane + 32 * j];
  }
#pragma unroll
  for (int j = 0; j < 8; j++)
    if (lane + 32 * j < B) Y[r * B + lane + 32 * j] = acc[j];
}

void bg_bcsr(bg_csr *c, bg_op op, int variant) {
  const uint64_t n = c->nrows;
  if (op == BG_RIGHT) {
    if (variant == 0)
      bcsr_thread<<<(unsigned)((n + 255) / 256), 256, 0, c->s>>>(c->rowptr, c->col, c->x[0], c->y[0], n);
    else
      bcsr_warp<<<(unsigned)((n * 32 + 255) / 256), 256, 0, c->s>>>(c->rowptr, c->col, c->x[0], c->y[0], n);
  } else if (op == BG_LEFT) {
    cudaMemsetAsync(c->y[1], 0, c->ncols * 4, c->s);
    bcsr_left<<<(unsigned)((n + 255) / 256), 256, 0, c->s>>>(c->rowptr, c->col, c->x[1], c->y[1], n);
  } else {
    bcsr_batch<<<(unsigned)((n * 32 + 255) / 256), 256, 0, c->s>>>(c->rowptr, c->col, c->x[2], c->y[2], n, c->B);
  }
}

double bg_time(void (*enqueue)(void *ctx), void *ctx, void *stream) {
  cudaStream_t s = (cudaStream_t)stream;
  for (int w = 0; w < 3; w++) enqueue(ctx);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  // products per run: 50, or fewer where 50 would take over 25 ms (the graphs of 10^9 edges)
  cudaEventRecord(e0, s);
  enqueue(ctx);
  cudaEventRecord(e1, s);
  cudaEventSynchronize(e1);
  float one = 0;
  cudaEventElapsedTime(&one, e0, e1);
  int per_run = 50;
  if (one > 0.5f) per_run = std::max(1, (int)(25.0f / one));
  std::vector<double> t;
  for (int run = 0; run < 10; run++) {
    cudaEventRecord(e0, s);
    for (int k = 0; k < per_run; k++) enqueue(ctx);
    cudaEventRecord(e1, s);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    t.push_back(ms / per_run);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  std::sort(t.begin(), t.end());
  return (t[4] + t[5]) / 2;
}

void bg_download(float *host, const float *dev, uint64_t n) {
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(host, dev, n * 4, cudaMemcpyDeviceToHost));
}

uint64_t bg_device_free(void) {
  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  return free_b;
}

bool bg_ok(const char *where) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", where, cudaGetErrorString(e));
    return false;
  }
  return true;
}

}  // extern "C"
