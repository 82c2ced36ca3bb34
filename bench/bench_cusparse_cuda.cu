// bench_cusparse_cuda.cu: the cuSPARSE baseline of bench_algorithms (bench_cusparse.h).
// SPDX-License-Identifier: Apache-2.0
//
// Each algorithm keeps its whole state on the device: a dense frontier (or rank) vector, one
// cuSPARSE product of the CSR of A' per level or iteration, and small kernels for the rest;
// one scalar comes back per level or iteration and the result once at the end.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <new>
#include <vector>

#include "bench_cusparse.h"

namespace {

constexpr int kThreads = 256;

bool cuda_ok(cudaError_t e, const char *call, int line) {
  if (e == cudaSuccess) return true;
  fprintf(stderr, "bench_cusparse_cuda.cu:%d: %s failed: %s (%d)\n", line, call, cudaGetErrorString(e),
          (int)e);
  return false;
}

bool cusparse_ok(cusparseStatus_t s, const char *call, int line) {
  if (s == CUSPARSE_STATUS_SUCCESS) return true;
  fprintf(stderr, "bench_cusparse_cuda.cu:%d: %s failed: %s (%d)\n", line, call, cusparseGetErrorString(s),
          (int)s);
  return false;
}

// In functions that return bool: a failed call prints itself and returns false.
#define CUDA_TRY(call)                                         \
  do {                                                         \
    if (!cuda_ok((call), #call, __LINE__)) return false;       \
  } while (0)
#define CUSPARSE_TRY(call)                                     \
  do {                                                         \
    if (!cusparse_ok((call), #call, __LINE__)) return false;   \
  } while (0)
// After a kernel launch: a bad configuration shows in cudaGetLastError.
#define LAUNCH_TRY(kernel)                                                   \
  do {                                                                       \
    if (!cuda_ok(cudaGetLastError(), "launch of " kernel, __LINE__)) return false; \
  } while (0)

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

//----------------------------------------------------------------------------------------------
// kernels
//----------------------------------------------------------------------------------------------

// The sum over the block, valid in thread 0; every thread of the block must call it.
template <typename T>
__device__ T block_sum(T v) {
  __shared__ T partial[kThreads / 32];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  T sum = 0;
  if (warp == 0) {
    sum = lane < kThreads / 32 ? partial[lane] : T(0);
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  return sum;
}

#define GRID_STRIDE(i, count)                                                          \
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < (count); \
       i += (uint64_t)gridDim.x * blockDim.x)

__global__ void fill_float(float *v, uint64_t count, float value) {
  GRID_STRIDE(i, count) v[i] = value;
}

// No vertex reached yet, empty frontiers.
__global__ void frontier_clear(float *frontier, int32_t *level, uint64_t count) {
  GRID_STRIDE(i, count) {
    frontier[i] = 0.0f;
    level[i] = -1;
  }
}

// Source b is at level 0 and in frontier b (row-major n x width).
__global__ void frontier_seed(float *frontier, int32_t *level, const uint64_t *sources, uint32_t width) {
  const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= width) return;
  const uint64_t at = sources[b] * width + b;
  frontier[at] = 1.0f;
  level[at] = 0;
}

// A single source (BFS) at level 0 and in the frontier.
__global__ void frontier_seed_one(float *frontier, int32_t *level, uint64_t src) {
  frontier[src] = 1.0f;
  level[src] = 0;
}

// reached = the product of the frontier: its unvisited entries take the level and make the next
// frontier (written over the old one, which the product has consumed); *count += how many.
__global__ void frontier_advance(const float *reached, float *frontier, int32_t *level, uint64_t count,
                                 int32_t depth, unsigned long long *new_count) {
  unsigned long long mine = 0;
  GRID_STRIDE(i, count) {
    const bool fresh = reached[i] != 0.0f && level[i] < 0;
    if (fresh) level[i] = depth;
    frontier[i] = fresh ? 1.0f : 0.0f;
    mine += fresh;
  }
  const unsigned long long block = block_sum(mine);
  if (threadIdx.x == 0 && block != 0) atomicAdd(new_count, block);
}

// Parent of each reached vertex v: the first u in row v of A' (an edge u -> v) one level up.
template <typename Index>
__global__ void bfs_parents(const Index *rowptr, const Index *col, const int32_t *level, Index *parent,
                            uint64_t n, uint64_t src) {
  GRID_STRIDE(v, n) {
    const int32_t lv = level[v];
    Index p = -1;
    if (v == src) {
      p = (Index)src;
    } else if (lv > 0) {
      for (Index k = rowptr[v]; k < rowptr[v + 1]; k++) {
        if (level[col[k]] == lv - 1) {
          p = col[k];
          break;
        }
      }
    }
    parent[v] = p;
  }
}

// Out-degree of u = the entries of column u of A'.
template <typename Index>
__global__ void count_out_degrees(const Index *col, uint64_t nnz, int32_t *out_degree) {
  GRID_STRIDE(k, nnz) atomicAdd(&out_degree[col[k]], 1);
}

// w = r ./ d with d = max(outdegree / damping, 1 / damping) as LAGr_PageRank computes it;
// *sink_rank += the rank of the vertices without out-edges.
__global__ void pagerank_scale(const float *rank, const int32_t *out_degree, float *w, uint64_t n,
                               float damping, double *sink_rank) {
  double mine = 0;
  GRID_STRIDE(i, n) {
    const int32_t degree = out_degree[i];
    const float d = fmaxf((float)degree / damping, 1.0f / damping);
    w[i] = rank[i] / d;
    if (degree == 0) mine += rank[i];
  }
  const double block = block_sum(mine);
  if (threadIdx.x == 0 && block != 0) atomicAdd(sink_rank, block);
}

// r = teleport + A' w (propagated = A' w); *change += sum |r_old - r|.
__global__ void pagerank_update(const float *propagated, float *rank, uint64_t n, const double *sink_rank,
                                float scaled_damping, float damping_over_n, double *change) {
  const float teleport = scaled_damping + damping_over_n * (float)*sink_rank;
  double mine = 0;
  GRID_STRIDE(i, n) {
    const float updated = teleport + propagated[i];
    mine += fabsf(rank[i] - updated);
    rank[i] = updated;
  }
  const double block = block_sum(mine);
  if (threadIdx.x == 0 && block != 0) atomicAdd(change, block);
}

//----------------------------------------------------------------------------------------------
// the graph and the per-algorithm workspace
//----------------------------------------------------------------------------------------------

// The scalars that travel back: the new frontier count, or the sink rank and the change.
struct device_scalars {
  unsigned long long new_count;
  double sink_rank;
  double change;
};

// One algorithm's cuSPARSE product: its own matrix descriptor (preprocessing data stays with
// the descriptor and buffer it was made for), dense descriptors and external buffer.
struct product {
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  cusparseDnMatDescr_t X = nullptr, Y = nullptr;
  void *buffer = nullptr;
  size_t buffer_bytes = 0;
  bool batched = false;  // SpMM (msBFS) or SpMV
  cusparseSpMVAlg_t mv_alg = CUSPARSE_SPMV_ALG_DEFAULT;
  cusparseSpMMAlg_t mm_alg = CUSPARSE_SPMM_ALG_DEFAULT;
  const char *name = "-";
};

struct workspace {
  bool ready = false;
  bc_algorithm algorithm = BC_BFS;
  uint32_t width = 1;             // columns of the frontier block (msBFS)
  float *x = nullptr, *y = nullptr;  // the product's input and output
  int32_t *level = nullptr;       // BFS levels, msBFS distances
  void *parent = nullptr;         // BFS parents (index width)
  uint64_t *sources = nullptr;    // msBFS sources
  float *rank = nullptr;          // PageRank
  int32_t *out_degree = nullptr;  // PageRank
  uint64_t vector_bytes = 0;
  product p;
};

}  // namespace

struct bc_graph {
  uint64_t n = 0, nnz = 0;
  bool wide = false;  // 64-bit indices
  int blocks_max = 1;
  void *rowptr = nullptr, *col = nullptr;
  float *val = nullptr;
  cudaStream_t stream = nullptr;
  cusparseHandle_t handle = nullptr;
  device_scalars *scalars = nullptr;       // device
  device_scalars *host_scalars = nullptr;  // pinned
  double upload_seconds = 0;
  workspace ws;
  bc_bytes bytes[BC_ALGORITHMS] = {};
  const char *product_name[BC_ALGORITHMS] = {"-", "-", "-"};
};

namespace {

unsigned grid_for(const bc_graph *g, uint64_t count) {
  const uint64_t blocks = (count + kThreads - 1) / kThreads;
  return (unsigned)std::max<uint64_t>(1, std::min<uint64_t>(blocks, (uint64_t)g->blocks_max));
}

int index_bytes(const bc_graph *g) { return g->wide ? 8 : 4; }

void product_free(product *p) {
  if (p->A) cusparseDestroySpMat(p->A);
  if (p->x) cusparseDestroyDnVec(p->x);
  if (p->y) cusparseDestroyDnVec(p->y);
  if (p->X) cusparseDestroyDnMat(p->X);
  if (p->Y) cusparseDestroyDnMat(p->Y);
  if (p->buffer) cudaFree(p->buffer);
  *p = product();
}

void workspace_free(workspace *ws) {
  product_free(&ws->p);
  cudaFree(ws->x);
  cudaFree(ws->y);
  cudaFree(ws->level);
  cudaFree(ws->parent);
  cudaFree(ws->sources);
  cudaFree(ws->rank);
  cudaFree(ws->out_degree);
  *ws = workspace();
}

bool create_matrix(bc_graph *g, cusparseSpMatDescr_t *A) {
  const cusparseIndexType_t type = g->wide ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
  CUSPARSE_TRY(cusparseCreateCsr(A, (int64_t)g->n, (int64_t)g->n, (int64_t)g->nnz, g->rowptr, g->col, g->val,
                                 type, type, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  return true;
}

// Milliseconds of `calls` products with one algorithm (CUDA events on the stream); < 0 when
// the product fails (cuSPARSE declines that algorithm: not an error of the baseline).
template <typename Call>
float time_calls(bc_graph *g, Call call, int calls) {
  cudaEvent_t start = nullptr, stop = nullptr;
  if (cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) {
    if (start) cudaEventDestroy(start);
    (void)cudaGetLastError();
    return -1;
  }
  bool ok = call() == CUSPARSE_STATUS_SUCCESS;  // the first call apart: lazy set-up
  ok = ok && cudaEventRecord(start, g->stream) == cudaSuccess;
  for (int c = 0; ok && c < calls; c++) ok = call() == CUSPARSE_STATUS_SUCCESS;
  ok = ok && cudaEventRecord(stop, g->stream) == cudaSuccess && cudaEventSynchronize(stop) == cudaSuccess;
  float ms = -1;
  if (ok && cudaEventElapsedTime(&ms, start, stop) != cudaSuccess) ms = -1;
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ok ? ms : -1;
}

// The product y = A' x (SpMV; width 1) or Y = A' X (SpMM, row-major n x width): of the
// algorithms cuSPARSE accepts here, the fastest over 3 calls, preprocessed.
bool product_prepare(bc_graph *g, product *p, float *x, float *y, uint32_t width) {
  const float one = 1.0f, zero = 0.0f;
  const int64_t n = (int64_t)g->n;
  p->batched = width > 1;
  if (p->batched) {
    CUSPARSE_TRY(cusparseCreateDnMat(&p->X, n, width, width, x, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CUSPARSE_TRY(cusparseCreateDnMat(&p->Y, n, width, width, y, CUDA_R_32F, CUSPARSE_ORDER_ROW));
  } else {
    CUSPARSE_TRY(cusparseCreateDnVec(&p->x, n, x, CUDA_R_32F));
    CUSPARSE_TRY(cusparseCreateDnVec(&p->y, n, y, CUDA_R_32F));
  }
  struct candidate {
    cusparseSpMVAlg_t mv;
    cusparseSpMMAlg_t mm;
    const char *name;
  };
  const candidate mv_candidates[] = {
      {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMM_ALG_DEFAULT, "SPMV_ALG_DEFAULT"},
      {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMM_ALG_DEFAULT, "SPMV_CSR_ALG1"},
      {CUSPARSE_SPMV_CSR_ALG2, CUSPARSE_SPMM_ALG_DEFAULT, "SPMV_CSR_ALG2"}};
  const candidate mm_candidates[] = {
      {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMM_ALG_DEFAULT, "SPMM_ALG_DEFAULT"},
      {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMM_CSR_ALG1, "SPMM_CSR_ALG1"},
      {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMM_CSR_ALG2, "SPMM_CSR_ALG2"},
      {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMM_CSR_ALG3, "SPMM_CSR_ALG3"}};
  const candidate *candidates = p->batched ? mm_candidates : mv_candidates;
  const int count = p->batched ? 4 : 3;
  const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  float best_ms = -1;
  for (int c = 0; c < count; c++) {
    const candidate &cand = candidates[c];
    cusparseSpMatDescr_t A = nullptr;
    if (!create_matrix(g, &A)) return false;
    size_t bytes = 0;
    cusparseStatus_t s =
        p->batched ? cusparseSpMM_bufferSize(g->handle, op, op, &one, A, p->X, &zero, p->Y, CUDA_R_32F, cand.mm, &bytes)
                   : cusparseSpMV_bufferSize(g->handle, op, &one, A, p->x, &zero, p->y, CUDA_R_32F, cand.mv, &bytes);
    void *buffer = nullptr;
    if (s == CUSPARSE_STATUS_SUCCESS && cudaMalloc(&buffer, std::max<size_t>(bytes, 1)) != cudaSuccess) {
      (void)cudaGetLastError();  // out of memory for this algorithm's buffer: try the next
      buffer = nullptr;
      s = CUSPARSE_STATUS_ALLOC_FAILED;
    }
    if (s == CUSPARSE_STATUS_SUCCESS) {
      // preprocessing is optional (it speeds up the CSR algorithms that use it): where it is
      // declined, the algorithm runs on a fresh descriptor without it
      const cusparseStatus_t pre =
          p->batched
              ? cusparseSpMM_preprocess(g->handle, op, op, &one, A, p->X, &zero, p->Y, CUDA_R_32F, cand.mm, buffer)
              : cusparseSpMV_preprocess(g->handle, op, &one, A, p->x, &zero, p->y, CUDA_R_32F, cand.mv, buffer);
      if (pre != CUSPARSE_STATUS_SUCCESS) {
        cusparseDestroySpMat(A);
        A = nullptr;
        if (!create_matrix(g, &A)) {
          cudaFree(buffer);
          return false;
        }
      }
    }
    float ms = -1;
    if (s == CUSPARSE_STATUS_SUCCESS) {
      if (p->batched) {
        ms = time_calls(g, [&] {
          return cusparseSpMM(g->handle, op, op, &one, A, p->X, &zero, p->Y, CUDA_R_32F, cand.mm, buffer);
        }, 3);
      } else {
        ms = time_calls(g, [&] {
          return cusparseSpMV(g->handle, op, &one, A, p->x, &zero, p->y, CUDA_R_32F, cand.mv, buffer);
        }, 3);
      }
    }
    if (ms >= 0 && (best_ms < 0 || ms < best_ms)) {
      best_ms = ms;
      if (p->A) cusparseDestroySpMat(p->A);
      if (p->buffer) cudaFree(p->buffer);
      p->A = A;
      p->buffer = buffer;
      p->buffer_bytes = bytes;
      p->mv_alg = cand.mv;
      p->mm_alg = cand.mm;
      p->name = cand.name;
    } else {
      cusparseDestroySpMat(A);
      if (buffer) cudaFree(buffer);
    }
  }
  // a failed kernel of a declined algorithm would be sticky and show here; what a declined
  // algorithm left in the last error (an allocation it could not make) is cleared
  CUDA_TRY(cudaStreamSynchronize(g->stream));
  (void)cudaGetLastError();
  if (best_ms < 0) {
    fprintf(stderr, "bench_cusparse: cuSPARSE accepted none of its %s algorithms for this matrix\n",
            p->batched ? "SpMM" : "SpMV");
    return false;
  }
  return true;
}

bool product_run(bc_graph *g, product *p) {
  const float one = 1.0f, zero = 0.0f;
  const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  if (p->batched) {
    CUSPARSE_TRY(cusparseSpMM(g->handle, op, op, &one, p->A, p->X, &zero, p->Y, CUDA_R_32F, p->mm_alg, p->buffer));
  } else {
    CUSPARSE_TRY(cusparseSpMV(g->handle, op, &one, p->A, p->x, &zero, p->y, CUDA_R_32F, p->mv_alg, p->buffer));
  }
  return true;
}

template <typename T>
bool device_alloc(T **ptr, uint64_t count, uint64_t *total) {
  const uint64_t bytes = std::max<uint64_t>(count, 1) * sizeof(T);
  void *raw = nullptr;
  CUDA_TRY(cudaMalloc(&raw, bytes));
  *ptr = static_cast<T *>(raw);
  *total += bytes;
  return true;
}

// The vectors and the product of `algorithm` (width: msBFS sources); another algorithm's are
// freed first so that one workspace is on the device at a time.
bool workspace_ready(bc_graph *g, bc_algorithm algorithm, uint32_t width) {
  workspace *ws = &g->ws;
  if (ws->ready && ws->algorithm == algorithm && ws->width == width) return true;
  workspace_free(ws);
  CUDA_TRY(cudaStreamSynchronize(g->stream));
  ws->algorithm = algorithm;
  ws->width = width;
  const uint64_t n = g->n, cells = g->n * width;
  uint64_t bytes = sizeof(device_scalars);
  bool ok = device_alloc(&ws->x, cells, &bytes) && device_alloc(&ws->y, cells, &bytes);
  if (ok && algorithm == BC_BFS) {
    char *parent = nullptr;
    ok = device_alloc(&ws->level, n, &bytes) && device_alloc(&parent, n * index_bytes(g), &bytes);
    ws->parent = parent;
  } else if (ok && algorithm == BC_MSBFS) {
    ok = device_alloc(&ws->level, cells, &bytes) && device_alloc(&ws->sources, width, &bytes);
  } else if (ok) {
    ok = device_alloc(&ws->rank, n, &bytes) && device_alloc(&ws->out_degree, n, &bytes);
    // the out-degrees are cached with the workspace, as the benchmark's graphs cache theirs
    if (ok) ok = cuda_ok(cudaMemsetAsync(ws->out_degree, 0, n * sizeof(int32_t), g->stream), "cudaMemsetAsync", __LINE__);
    if (ok && g->nnz > 0) {
      if (g->wide) count_out_degrees<<<grid_for(g, g->nnz), kThreads, 0, g->stream>>>((const int64_t *)g->col, g->nnz, ws->out_degree);
      else count_out_degrees<<<grid_for(g, g->nnz), kThreads, 0, g->stream>>>((const int32_t *)g->col, g->nnz, ws->out_degree);
      ok = cuda_ok(cudaGetLastError(), "count_out_degrees", __LINE__);
    }
  }
  if (ok) {
    ok = cuda_ok(cudaMemsetAsync(ws->x, 0, cells * sizeof(float), g->stream), "cudaMemsetAsync", __LINE__);
  }
  if (ok) ok = product_prepare(g, &ws->p, ws->x, ws->y, width);
  if (!ok) {
    workspace_free(ws);
    return false;
  }
  ws->vector_bytes = bytes;
  ws->ready = true;
  bc_bytes *b = &g->bytes[algorithm];
  b->offsets = (g->n + 1) * index_bytes(g);
  b->indices = g->nnz * index_bytes(g);
  b->values = g->nnz * sizeof(float);
  b->vectors = bytes;
  b->buffer = ws->p.buffer_bytes;
  b->total = b->offsets + b->indices + b->values + b->vectors + b->buffer;
  g->product_name[algorithm] = ws->p.name;
  return true;
}

// Level-synchronous expansion of the frontier block in g->ws (width columns) until no column
// grows; *depth: the last level that reached a vertex.
bool expand_frontiers(bc_graph *g, uint64_t cells, int32_t *depth) {
  workspace *ws = &g->ws;
  *depth = 0;
  for (uint64_t k = 1; k <= g->n; k++) {
    if (!product_run(g, &ws->p)) return false;
    CUDA_TRY(cudaMemsetAsync(&g->scalars->new_count, 0, sizeof(unsigned long long), g->stream));
    frontier_advance<<<grid_for(g, cells), kThreads, 0, g->stream>>>(ws->y, ws->x, ws->level, cells, (int32_t)k,
                                                                       &g->scalars->new_count);
    LAUNCH_TRY("frontier_advance");
    CUDA_TRY(cudaMemcpyAsync(&g->host_scalars->new_count, &g->scalars->new_count, sizeof(unsigned long long),
                             cudaMemcpyDeviceToHost, g->stream));
    CUDA_TRY(cudaStreamSynchronize(g->stream));
    if (g->host_scalars->new_count == 0) break;
    *depth = (int32_t)k;
  }
  return true;
}

bool graph_upload(bc_graph *g, const uint64_t *rowptr, const uint64_t *col) {
  CUDA_TRY(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
  CUSPARSE_TRY(cusparseCreate(&g->handle));
  CUSPARSE_TRY(cusparseSetStream(g->handle, g->stream));
  int device = 0, sms = 0;
  CUDA_TRY(cudaGetDevice(&device));
  CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  g->blocks_max = std::max(1, sms) * 16;
  CUDA_TRY(cudaMalloc(&g->scalars, sizeof(device_scalars)));
  CUDA_TRY(cudaMallocHost(&g->host_scalars, sizeof(device_scalars)));
  const uint64_t w = (uint64_t)index_bytes(g);
  CUDA_TRY(cudaMalloc(&g->rowptr, (g->n + 1) * w));
  CUDA_TRY(cudaMalloc(&g->col, std::max<uint64_t>(g->nnz, 1) * w));
  CUDA_TRY(cudaMalloc(&g->val, std::max<uint64_t>(g->nnz, 1) * sizeof(float)));
  if (g->wide) {
    CUDA_TRY(cudaMemcpy(g->rowptr, rowptr, (g->n + 1) * w, cudaMemcpyHostToDevice));
    if (g->nnz > 0) CUDA_TRY(cudaMemcpy(g->col, col, g->nnz * w, cudaMemcpyHostToDevice));
  } else {
    // narrowed to 32 bits a chunk at a time, so the host holds no second full copy
    const uint64_t chunk = (uint64_t)1 << 22;
    std::vector<int32_t> narrow((size_t)chunk);
    const struct {
      const uint64_t *host;
      int32_t *dev;
      uint64_t count;
    } arrays[2] = {{rowptr, (int32_t *)g->rowptr, g->n + 1}, {col, (int32_t *)g->col, g->nnz}};
    for (const auto &a : arrays) {
      for (uint64_t start = 0; start < a.count; start += chunk) {
        const uint64_t len = std::min(chunk, a.count - start);
        for (uint64_t i = 0; i < len; i++) narrow[i] = (int32_t)a.host[start + i];
        CUDA_TRY(cudaMemcpy(a.dev + start, narrow.data(), len * sizeof(int32_t), cudaMemcpyHostToDevice));
      }
    }
  }
  if (g->nnz > 0) {
    fill_float<<<grid_for(g, g->nnz), kThreads, 0, g->stream>>>(g->val, g->nnz, 1.0f);
    LAUNCH_TRY("fill_float");
  }
  CUDA_TRY(cudaStreamSynchronize(g->stream));
  return true;
}

}  // namespace

extern "C" {

bool bc_device_present(char *why, size_t cap) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    snprintf(why, cap, "cudaGetDeviceCount: %s", cudaGetErrorString(e));
    (void)cudaGetLastError();
    return false;
  }
  if (count == 0) {
    snprintf(why, cap, "no CUDA device");
    return false;
  }
  snprintf(why, cap, "%d CUDA device%s", count, count == 1 ? "" : "s");
  return true;
}

bc_graph *bc_graph_new(uint64_t n, const uint64_t *rowptr, const uint64_t *col, uint64_t nnz) {
  if (n == 0 || rowptr == nullptr || (nnz > 0 && col == nullptr) || rowptr[n] != nnz) {
    fprintf(stderr, "bench_cusparse: bc_graph_new: not a CSR of %llu rows and %llu entries\n",
            (unsigned long long)n, (unsigned long long)nnz);
    return nullptr;
  }
  bc_graph *g = new (std::nothrow) bc_graph();
  if (g == nullptr) return nullptr;
  g->n = n;
  g->nnz = nnz;
  g->wide = n >= (uint64_t)INT32_MAX || nnz > (uint64_t)INT32_MAX;
  const double start = seconds_now();
  if (!graph_upload(g, rowptr, col)) {
    bc_graph_free(g);
    return nullptr;
  }
  g->upload_seconds = seconds_now() - start;
  return g;
}

void bc_graph_free(bc_graph *g) {
  if (g == nullptr) return;
  if (g->stream) cudaStreamSynchronize(g->stream);
  workspace_free(&g->ws);
  if (g->handle) cusparseDestroy(g->handle);
  cudaFree(g->rowptr);
  cudaFree(g->col);
  cudaFree(g->val);
  cudaFree(g->scalars);
  if (g->host_scalars) cudaFreeHost(g->host_scalars);
  if (g->stream) cudaStreamDestroy(g->stream);
  (void)cudaGetLastError();
  delete g;
}

double bc_upload_seconds(const bc_graph *g) { return g->upload_seconds; }

int bc_index_bytes(const bc_graph *g) { return index_bytes(g); }

bc_bytes bc_device_bytes(const bc_graph *g, bc_algorithm algorithm) { return g->bytes[algorithm]; }

const char *bc_product_name(const bc_graph *g, bc_algorithm algorithm) { return g->product_name[algorithm]; }

bool bc_bfs(bc_graph *g, uint64_t src, int32_t *level, void *parent, int32_t *depth) {
  if (src >= g->n) {
    fprintf(stderr, "bench_cusparse: bc_bfs: source %llu out of range\n", (unsigned long long)src);
    return false;
  }
  if (!workspace_ready(g, BC_BFS, 1)) return false;
  workspace *ws = &g->ws;
  const uint64_t n = g->n;
  frontier_clear<<<grid_for(g, n), kThreads, 0, g->stream>>>(ws->x, ws->level, n);
  LAUNCH_TRY("frontier_clear");
  frontier_seed_one<<<1, 1, 0, g->stream>>>(ws->x, ws->level, src);
  LAUNCH_TRY("frontier_seed_one");
  if (!expand_frontiers(g, n, depth)) return false;
  if (parent != nullptr) {
    if (g->wide) {
      bfs_parents<<<grid_for(g, n), kThreads, 0, g->stream>>>((const int64_t *)g->rowptr, (const int64_t *)g->col,
                                                              ws->level, (int64_t *)ws->parent, n, src);
    } else {
      bfs_parents<<<grid_for(g, n), kThreads, 0, g->stream>>>((const int32_t *)g->rowptr, (const int32_t *)g->col,
                                                              ws->level, (int32_t *)ws->parent, n, src);
    }
    LAUNCH_TRY("bfs_parents");
    CUDA_TRY(cudaMemcpyAsync(parent, ws->parent, n * index_bytes(g), cudaMemcpyDeviceToHost, g->stream));
  }
  CUDA_TRY(cudaMemcpyAsync(level, ws->level, n * sizeof(int32_t), cudaMemcpyDeviceToHost, g->stream));
  CUDA_TRY(cudaStreamSynchronize(g->stream));
  return true;
}

bool bc_msbfs(bc_graph *g, const uint64_t *sources, uint32_t nsources, int32_t *dist) {
  if (nsources == 0) {
    fprintf(stderr, "bench_cusparse: bc_msbfs: no sources\n");
    return false;
  }
  for (uint32_t b = 0; b < nsources; b++) {
    if (sources[b] >= g->n) {
      fprintf(stderr, "bench_cusparse: bc_msbfs: source %llu out of range\n", (unsigned long long)sources[b]);
      return false;
    }
  }
  if (!workspace_ready(g, BC_MSBFS, nsources)) return false;
  workspace *ws = &g->ws;
  const uint64_t cells = g->n * nsources;
  CUDA_TRY(cudaMemcpyAsync(ws->sources, sources, nsources * sizeof(uint64_t), cudaMemcpyHostToDevice, g->stream));
  frontier_clear<<<grid_for(g, cells), kThreads, 0, g->stream>>>(ws->x, ws->level, cells);
  LAUNCH_TRY("frontier_clear");
  frontier_seed<<<(nsources + kThreads - 1) / kThreads, kThreads, 0, g->stream>>>(ws->x, ws->level, ws->sources,
                                                                                  nsources);
  LAUNCH_TRY("frontier_seed");
  int32_t depth = 0;
  if (!expand_frontiers(g, cells, &depth)) return false;
  CUDA_TRY(cudaMemcpyAsync(dist, ws->level, cells * sizeof(int32_t), cudaMemcpyDeviceToHost, g->stream));
  CUDA_TRY(cudaStreamSynchronize(g->stream));
  return true;
}

bool bc_pagerank(bc_graph *g, float damping, float tol, int itermax, float *rank, int *iterations,
                 bool *converged) {
  *iterations = 0;
  *converged = false;
  if (!workspace_ready(g, BC_PAGERANK, 1)) return false;
  workspace *ws = &g->ws;
  const uint64_t n = g->n;
  const float scaled_damping = (1 - damping) / (float)n;
  const float damping_over_n = damping / (float)n;
  fill_float<<<grid_for(g, n), kThreads, 0, g->stream>>>(ws->rank, n, 1.0f / (float)n);
  LAUNCH_TRY("fill_float");
  float change = 1;
  int iters = 0;
  for (; iters < itermax && change > tol; iters++) {
    CUDA_TRY(cudaMemsetAsync(g->scalars, 0, sizeof(device_scalars), g->stream));
    pagerank_scale<<<grid_for(g, n), kThreads, 0, g->stream>>>(ws->rank, ws->out_degree, ws->x, n, damping,
                                                                &g->scalars->sink_rank);
    LAUNCH_TRY("pagerank_scale");
    if (!product_run(g, &ws->p)) return false;
    pagerank_update<<<grid_for(g, n), kThreads, 0, g->stream>>>(ws->y, ws->rank, n, &g->scalars->sink_rank,
                                                                 scaled_damping, damping_over_n, &g->scalars->change);
    LAUNCH_TRY("pagerank_update");
    CUDA_TRY(cudaMemcpyAsync(&g->host_scalars->change, &g->scalars->change, sizeof(double), cudaMemcpyDeviceToHost,
                             g->stream));
    CUDA_TRY(cudaStreamSynchronize(g->stream));
    change = (float)g->host_scalars->change;
  }
  CUDA_TRY(cudaMemcpyAsync(rank, ws->rank, n * sizeof(float), cudaMemcpyDeviceToHost, g->stream));
  CUDA_TRY(cudaStreamSynchronize(g->stream));
  *iterations = iters;
  *converged = change <= tol;
  return true;
}

}  // extern "C"
