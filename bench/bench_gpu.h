// bench_gpu.h: the CUDA side of bench_gpu (cuSPARSE, the Boolean CSR kernels, CUDA events).
// SPDX-License-Identifier: Apache-2.0
#ifndef BENCH_GPU_H
#define BENCH_GPU_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { BG_RIGHT = 0, BG_LEFT, BG_BATCH } bg_op;

// A square or rectangular CSR on the device (32-bit offsets and columns, FP32 ones for
// cuSPARSE), the dense vectors (B columns, row-major) and cuSPARSE descriptors, on `stream`.
typedef struct bg_csr bg_csr;
bg_csr *bg_csr_new(uint64_t nrows, uint64_t ncols, const uint32_t *rowptr, const uint32_t *col,
                   uint64_t nnz, uint32_t B, void *stream);
void bg_csr_free(bg_csr *c);
// Device bytes: the CSR with values, the Boolean CSR, and the cuSPARSE buffer of an op.
uint64_t bg_csr_bytes(const bg_csr *c, bool values);
uint64_t bg_cusparse_buffer(const bg_csr *c, bg_op op);
// Device vectors of the bench: x (ncols*B or nrows*B for left) and y, FP32; filled with
// dyadic values from `seed` (so that every order of summation is exact).
float *bg_x(bg_csr *c, bg_op op);
float *bg_y(bg_csr *c, bg_op op);
// Enqueue one product (y = A x, y' = x' A, Y = A X).
void bg_cusparse(bg_csr *c, bg_op op);
void bg_bcsr(bg_csr *c, bg_op op, int variant);  // right: 0 thread/row, 1 warp/row
// Median over 10 runs of (time of K products / K), ms, CUDA events on the stream; K = 50, or
// fewer (at least 1) when one product takes over 0.5 ms, so that a run lasts about 25 ms.
double bg_time(void (*enqueue)(void *ctx), void *ctx, void *stream);
// Copy n floats from the device.
void bg_download(float *host, const float *dev, uint64_t n);
// Free device memory now (cudaMemGetInfo).
uint64_t bg_device_free(void);
// Check the last CUDA error; prints and returns false on error.
bool bg_ok(const char *where);

#ifdef __cplusplus
}
#endif

#endif
