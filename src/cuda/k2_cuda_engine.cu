// k2_cuda_engine.cu: residency, the workspace, CUDA graphs and the product entries.
// SPDX-License-Identifier: Apache-2.0
//
// A product starts at the top level (codes expanded on the host, resident with the matrix) or,
// in the BOTTOM configuration, at the cached codes of the last internal level; in the ROWS
// configuration the matrix is only its row-ordered 4x4 blocks (src/matrix/k2_rows.h) and a
// product is one launch of k2_cuda_rows.cu (no plan, no scratch). Each matrix keeps its tile
// plans (k2_cuda_plan.cuh: one per offsets source, rebuilt when the tile size or the fusion
// setting changes); a plan gives the exact scratch, and every device allocation goes through
// dev_alloc, which counts bytes.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "cuda/k2_cuda_engine.cuh"
#include "engine/k2_values.h"
#include "cuda/k2_cuda_plan.cuh"
#include "matrix/k2_rows.h"
#include "util/k2_clock.h"
#include "util/k2_copy.h"

namespace k2cu {

// ---- engine-wide state ------------------------------------------------------------------------

std::recursive_mutex g_mu;  // products, uploads and settings are serialised
k2_cuda_settings g_settings = {UINT64_C(1) << 20, K2_CUDA_OFFSETS_AUTO, 0,    true,
                               true, true, K2_CUDA_PRUNE_AUTO, K2_CUDA_CONFIG_AUTO};
int g_available = -1;
cudaStream_t g_stream = nullptr;

std::atomic<uint64_t> g_allocated{0}, g_peak{0}, g_live{0};

void *g_ws = nullptr;       // the shared workspace: scratch + vector buffers
uint64_t g_ws_bytes = 0;
uint64_t g_ws_gen = 0;      // bumped on every reallocation (recorded graphs point into it)

int fail(int info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int fail(int info, const char *fmt, ...) {
  char msg[384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return k2_cuda_fail(info, msg);
}

// A CUDA error while doing `what` (in words): allocation failures decline (the dispatcher
// falls back to the CPU), anything else is GrB_PANIC with CUDA's description of the error.
int cuda_fail(cudaError_t e, const char *what) {
  (void)cudaGetLastError();  // clear a non-sticky error
  if (e == cudaErrorMemoryAllocation)
    return fail(K2_DECLINED, "CUDA engine: %s: out of device memory", what);
  return fail(kGrbPanic, "CUDA engine: %s failed: %s (%s)", what, cudaGetErrorString(e),
              cudaGetErrorName(e));
}

cudaError_t dev_alloc(void **p, uint64_t bytes) {
  *p = nullptr;
  if (bytes == 0) return cudaSuccess;
  cudaError_t e = cudaMalloc(p, bytes);
  if (e != cudaSuccess) {
    *p = nullptr;
    return e;
  }
  uint64_t now = g_allocated.fetch_add(bytes) + bytes;
  uint64_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  g_live.fetch_add(1);
  return cudaSuccess;
}

void dev_free(void *p, uint64_t bytes) {
  if (p == nullptr) return;
  cudaFree(p);
  g_allocated.fetch_sub(bytes);
  g_live.fetch_sub(1);
}



bool ensure_init() {
  if (g_available >= 0) return g_available == 1;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    g_available = 0;
    return false;
  }
  if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) {
    (void)cudaGetLastError();
    g_available = 0;
    return false;
  }
  g_available = 1;
  // the staging buffer for uploads and vectors, pinned now (a few ms with the context) rather
  // than inside the first upload; without it, ensure_staging tries again when one needs it
  (void)ensure_staging(kStageMax);
  // and the host threads that fill it: the first upload would otherwise start them
  k2_copy_warm();
  // the kernels of uploads, BFS and PageRank loaded now (else each at its first launch); a
  // failure here leaves them to that, as without
  if (warm_tree_kernels() != cudaSuccess || warm_pruned_kernels() != cudaSuccess ||
      warm_vector_kernels() != cudaSuccess)
    (void)cudaGetLastError();
  return true;
}

uint64_t g_plan_ids = 0;

uint64_t bottom_count(const k2_view *A) {
  if (A->n_internal == 0) return 0;
  return A->level_start[A->levels] - A->level_start[A->levels - 1];
}

// The directory's 64-bit samples, aligned; its 16-bit offsets follow them when it is compact.
uint64_t dir_hi_bytes(const k2_view *A) {
  return align_up(k2_dir_words(A->dir_len, A->dir_lo != nullptr) * 8);
}

// Sizes of the resident copy: signatures, leaves, directory, top codes, bottom codes; in
// ROWS the block rows, columns and patterns (parts 0..2).
void matrix_parts(const k2_view *A, int config, uint64_t part[5]) {
  if (config == K2_CUDA_CONFIG_ROWS) {
    const uint64_t n = bottom_count(A);
    part[0] = align_up(n * 4);
    part[1] = align_up(n * 4);
    part[2] = align_up(n * 2);
    part[3] = part[4] = 0;
    return;
  }
  part[0] = align_up(((A->n_internal + 15) / 16) * 8);
  part[1] = align_up(((A->n_leaves * A->leaf_bits + 63) / 64) * 8);
  part[2] = dir_hi_bytes(A) + align_up(A->dir_lo != nullptr ? A->dir_len * 2 : 0);
  part[3] = align_up(A->top_count * 8);
  part[4] = config == K2_CUDA_CONFIG_BOTTOM ? align_up(bottom_count(A) * 8) : 0;
  if (A->n_internal == 0) part[0] = part[1] = part[2] = part[3] = part[4] = 0;
}

uint64_t vector_bytes(const k2_view *A, const k2_product *P) {
  const uint64_t in = (P->left ? A->nrows : A->ncols) * P->batch;
  const uint64_t out = (P->left ? A->ncols : A->nrows) * P->batch;
  const uint64_t ts = k2_type_size(P->type);
  uint64_t b = align_up(in * ts) + align_up(out * ts);
  if (P->x_present) b += align_up(in);
  if (P->y_present) b += align_up(out);
  if (P->y_skip) b += align_up(out);
  return b;
}

bool resolve_scan(uint32_t batch) {
  if (g_settings.offsets == K2_CUDA_OFFSETS_SCAN) return true;
  if (g_settings.offsets == K2_CUDA_OFFSETS_DIRECTORY) return false;
  return batch > 1;
}

bool view_ok(const k2_view *A) {
  if (A->n_internal == 0) return true;
  if (A->levels == 0 || A->levels > 32 || A->top_level >= A->levels) return false;
  if (A->leaf_log < 1 || A->leaf_log > 3 || A->leaf_bits != (1u << (2 * A->leaf_log))) return false;
  if (A->top_count != A->level_start[A->top_level + 1] - A->level_start[A->top_level]) return false;
  if (A->top_count > 0 && A->top_codes == nullptr) return false;
  return A->sig != nullptr && (A->leaves != nullptr || A->leafc != nullptr) && A->dir != nullptr &&
         A->level_start != nullptr;
}

// The row configuration's limits are the builder's (k2_rows.h); its message says which failed.
int rows_check(const k2_view *A) { return k2_row_blocks_check(A) == 0 ? 0 : K2_DECLINED; }

// AUTO: the settings' default configuration where the tree allows it, else BOTTOM when the
// view caches its bottom codes or the last internal level fits in one tile, else TREE. A
// tree-only plan holds min(that level, tile) codes in its scratch anyway (its leaf steps read
// them from a level buffer), so up to a tile BOTTOM costs no more device memory, and its
// single-vector product is one kernel where TREE's is one launch per level pair and tile.
int resolve_config(const k2_view *A, int config) {
  if (config != K2_CUDA_CONFIG_AUTO) return config;
  const int d = g_settings.config;
  if (d == K2_CUDA_CONFIG_TREE || d == K2_CUDA_CONFIG_BOTTOM) return d;
  if (d == K2_CUDA_CONFIG_ROWS && k2_row_blocks_fit(A)) return d;
  return A->bottom_codes != nullptr || bottom_count(A) <= g_settings.tile ? K2_CUDA_CONFIG_BOTTOM
                                                                        : K2_CUDA_CONFIG_TREE;
}

// Pinned host memory for the sparse forms (an input's list and values, an output's list and
// values, the pruned traversal's counters): reused across products, grown when too small (only
// between products: nothing is in flight then).
void *g_host = nullptr;
uint64_t g_host_bytes = 0;

int ensure_staging(uint64_t need) {
  if (need <= g_host_bytes) return 0;
  if (g_host != nullptr) {
    cudaStreamSynchronize(g_stream);  // a copy from or to it may still be in flight
    cudaFreeHost(g_host);
  }
  g_host = nullptr;
  g_host_bytes = 0;
  need = std::max<uint64_t>(need, UINT64_C(1) << 16);
  cudaError_t e = cudaMallocHost(&g_host, need);
  if (e != cudaSuccess) {
    g_host = nullptr;
    return cuda_fail(e, "allocating pinned host memory for the sparse vectors");
  }
  g_host_bytes = need;
  return 0;
}

// ---- host <-> device through the pinned staging buffer ------------------------------------------
// A copy from pageable memory runs at one core's copy rate (about 12 GB/s on the H200's host, for
// a 1.3 MB vector), a copy from pinned memory at the link's (45-55 GB/s). So host vectors go
// through g_host: the host side copied on several threads, the device side one DMA per direction
// (per chunk of kStageMax for larger vectors). A piece is one host array at an offset of a
// device range whose pieces are laid out back to back, as in the staging buffer.

struct Piece {
  void *host;       // const for copies up
  uint64_t off;     // from the device range's start (and the staging buffer's)
  uint64_t bytes;
};

// One round through the staging buffer: up, the pieces gathered into it (after its last copy
// has landed) and one DMA to dev; down, one DMA from dev, a wait, and the pieces scattered.
int stage_round(char *dev, uint64_t bytes, const Piece *p, int n, bool up, cudaStream_t s) {
  if (up) {
    K2CU_TRY("waiting for the staging buffer", cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) k2_copy_parallel((char *)g_host + p[i].off, p[i].host, p[i].bytes);
    K2CU_TRY("copying host arrays to the device", cudaMemcpyAsync(dev, g_host, bytes, cudaMemcpyHostToDevice, s));
    return 0;
  }
  K2CU_TRY("copying the results from the device", cudaMemcpyAsync(g_host, dev, bytes, cudaMemcpyDeviceToHost, s));
  K2CU_TRY("running the product", cudaStreamSynchronize(s));
  for (int i = 0; i < n; i++) k2_copy_parallel(p[i].host, (const char *)g_host + p[i].off, p[i].bytes);
  return 0;
}

// The pieces in one round where they fit the buffer, else each in rounds of kStageMax. Down:
// returns when the host arrays hold the data.
int stage(char *dev, const Piece *p, int n, bool up, cudaStream_t s) {
  const uint64_t total = n == 0 ? 0 : p[n - 1].off + p[n - 1].bytes;
  if (total == 0) return 0;
  int rc = ensure_staging(std::min(total, kStageMax));
  if (rc != 0) return rc;
  if (total <= kStageMax) return stage_round(dev, total, p, n, up, s);
  for (int i = 0; i < n; i++) {
    for (uint64_t done = 0; done < p[i].bytes; done += kStageMax) {
      const Piece part = {(char *)p[i].host + done, 0, std::min(kStageMax, p[i].bytes - done)};
      rc = stage_round(dev + p[i].off + done, part.bytes, &part, 1, up, s);
      if (rc != 0) return rc;
    }
  }
  return 0;
}

int stage_up(char *dev, const Piece *p, int n, cudaStream_t s) { return stage(dev, p, n, true, s); }

int stage_down(const char *dev, const Piece *p, int n, cudaStream_t s) {
  return stage(const_cast<char *>(dev), p, n, false, s);
}

// The tree goes up through the pinned staging buffer (stage_up) on the products' stream, then
// this waits for it. Not cudaMemcpy: from pageable memory it may return before the DMA has
// landed, and the non-blocking stream the products run on does not wait for the legacy stream
// it used, so the first product could read a matrix still being copied (seen on the H200 with
// 16 processes sharing it: wrong WCC labels, and BFS kernels faulting on addresses decoded
// from half-copied trees).
// Wait for the copies: the host arrays may be freed after it, and the matrix is complete.
cudaError_t upload_wait(cudaError_t ce) {
  const cudaError_t we = cudaStreamSynchronize(g_stream);
  return ce != cudaSuccess ? ce : we;
}

// Copy the row-ordered blocks of A (built on the host) into m's allocation.
int upload_rows(const k2_view *A, DevMatrix *m, const uint64_t part[5]) {
  k2_row_blocks hb;
  int rc = k2_row_blocks_build(A, &hb);
  if (rc != 0) return rc == kGrbOutOfMemory ? rc : K2_DECLINED;  // the builder said why
  char *base = (char *)m->mem;
  m->n_blocks = hb.count;
  m->brow = (const uint32_t *)base;
  m->bcol = (const uint32_t *)(base + part[0]);
  m->bpat = (const uint16_t *)(base + part[0] + part[1]);
  const Piece pieces[3] = {{hb.row, 0, hb.count * 4}, {hb.col, part[0], hb.count * 4},
                           {hb.pattern, part[0] + part[1], hb.count * 2}};
  rc = hb.count > 0 ? stage_up(base, pieces, 3, g_stream) : 0;
  const cudaError_t ce = upload_wait(cudaSuccess);
  k2_row_blocks_free(&hb);
  if (rc != 0) return rc;
  if (ce != cudaSuccess) return cuda_fail(ce, "copying the row blocks to the device");
  return 0;
}

// expand_bottom's launches: from the top codes down to `bottom`, through `temp`.
int expand_levels(const DevMatrix *m, const uint64_t *top, uint64_t *temp, uint64_t *bottom) {
  const uint32_t last = m->levels - 1;
  const uint64_t *from = top;
  for (uint32_t t = m->top_level; t < last; t++) {
    uint64_t *to = ((last - 1 - t) & 1) == 0 ? bottom : temp;  // the last expansion writes bottom
    ExpandArgs ea{};
    ea.t.sig = m->sig;
    ea.t.dir = m->dir;
    ea.t.dir_lo = m->dir_lo;
    ea.t.dir_log = m->dir_log;
    ea.t.codes = from;
    ea.t.node_begin = m->level_start[t];
    ea.t.n = level_width(m, t);
    ea.out = to;
    ea.levels = 1;
    ea.out_begin = m->level_start[t + 1];
    K2CU_TRY("expanding the bottom codes on the device", launch_expand(ea, g_stream));
    from = to;
  }
  return 0;
}

// The bottom codes of m (BOTTOM) from its top codes, on the device: one expansion per level
// below the top. A level is at least as wide as the one above it (every internal node has a
// child), so the bottom buffer can hold any level: the levels alternate between it and a
// temporary, arranged so that the last one lands in it. The temporary is the workspace when that
// is large enough, else an allocation freed before the upload returns (after it the device
// holds the matrix alone, as K2_Matrix_deviceBytes says; the pinned staging buffer, read and
// written by the device over the link, took 0.9 ms on cnr-2000's levels, against 0.3-0.4 ms
// for the cudaMalloc and cudaFree). Waits for the stream.
int expand_bottom(DevMatrix *m) {
  const uint32_t last = m->levels - 1;
  const uint64_t *top = m->top;
  uint64_t *bottom = const_cast<uint64_t *>(m->bottom);
  if (m->top_level == last) {
    K2CU_TRY("copying the top codes to the bottom codes",
             cudaMemcpyAsync(bottom, top, level_width(m, last) * 8, cudaMemcpyDeviceToDevice, g_stream));
    return 0;
  }
  const uint64_t temp_bytes = last - m->top_level >= 2 ? level_width(m, last - 1) * 8 : 0;
  void *own = nullptr;
  if (temp_bytes > g_ws_bytes) {
    const cudaError_t e = dev_alloc(&own, temp_bytes);
    if (e != cudaSuccess) return cuda_fail(e, "allocating a level of the bottom codes on the device");
  }
  uint64_t *temp = (uint64_t *)(own != nullptr ? own : g_ws);
  const int rc = expand_levels(m, top, temp, bottom);
  const cudaError_t we = cudaStreamSynchronize(g_stream);  // before the temporary goes
  dev_free(own, temp_bytes);
  if (rc != 0) return rc;
  if (we != cudaSuccess) return cuda_fail(we, "expanding the bottom codes on the device");
  return 0;
}

// Copy the tree of A (and its bottom codes in BOTTOM) into m's allocation.
int upload_tree(const k2_view *A, DevMatrix *m, const uint64_t part[5]) {
  char *base = (char *)m->mem;
  m->sig = (const uint64_t *)base;
  m->leaves = (const uint64_t *)(base + part[0]);
  m->dir = (const uint64_t *)(base + part[0] + part[1]);
  m->dir_lo = A->dir_lo != nullptr ? (const uint16_t *)(base + part[0] + part[1] + dir_hi_bytes(A))
                                   : nullptr;
  m->top = (const uint64_t *)(base + part[0] + part[1] + part[2]);
  m->bottom = part[4] ? (const uint64_t *)(base + part[0] + part[1] + part[2] + part[3]) : nullptr;
  // full blocks: the callers pass the tree expanded to plain nodes (k2_matrix_plain_view): the
  // kernels would miss a full node's entries
  if (A->n_full > 0) {
    return fail(K2_DECLINED, "CUDA engine: the tree has %llu full blocks; it uploads their expansion",
                (unsigned long long)A->n_full);
  }
  // compressed leaves are decoded here: the device copy holds them plain (the kernels read
  // leaves in place)
  uint64_t *plain = nullptr;
  if (A->leafc != nullptr && A->n_leaves > 0 && (plain = k2_leafc_plain(A->leafc)) == nullptr) {
    return fail(kGrbOutOfMemory, "CUDA engine: out of host memory to decode the leaves");
  }
  // through the pinned staging buffer, laid out as on the device (one DMA per 16 MB; from
  // pageable memory each array was a driver-staged copy at one core's rate)
  const uint64_t dir_off = part[0] + part[1], top_off = dir_off + part[2], bot_off = top_off + part[3];
  const Piece all[6] = {
      {(void *)A->sig, 0, ((A->n_internal + 15) / 16) * 8},
      {(void *)(plain != nullptr ? plain : A->leaves), part[0], ((A->n_leaves * A->leaf_bits + 63) / 64) * 8},
      {(void *)A->dir, dir_off, k2_dir_words(A->dir_len, A->dir_lo != nullptr) * 8},
      {(void *)A->dir_lo, dir_off + dir_hi_bytes(A), m->dir_lo != nullptr ? A->dir_len * 2 : 0},
      {(void *)A->top_codes, top_off, A->top_count * 8},
      {(void *)A->bottom_codes, bot_off, m->bottom != nullptr && A->bottom_codes != nullptr ? bottom_count(A) * 8 : 0}};
  Piece pieces[6];
  int np = 0;
  for (const Piece &pc : all)
    if (pc.bytes > 0) pieces[np++] = pc;
  int rc = stage_up((char *)m->mem, pieces, np, g_stream);
  // bottom codes the view does not cache are expanded on the device, from the top codes
  if (rc == 0 && m->bottom != nullptr && A->bottom_codes == nullptr) rc = expand_bottom(m);
  const cudaError_t ce = upload_wait(cudaSuccess);
  free(plain);
  if (rc != 0) return rc;
  if (ce != cudaSuccess) return cuda_fail(ce, "copying the tree to the device");
  return 0;
}

int upload(const k2_view *A, int config, DevMatrix **out) {
  *out = nullptr;
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  if (!view_ok(A)) return fail(K2_DECLINED, "CUDA engine: tree layout not supported by the engine");
  config = resolve_config(A, config);
  if (config == K2_CUDA_CONFIG_ROWS) {
    int rc = rows_check(A);
    if (rc != 0) return rc;
  }
  DevMatrix *m = new (std::nothrow) DevMatrix();
  if (m == nullptr) return fail(kGrbOutOfMemory, "CUDA engine: out of host memory");
  m->config = config;
  m->nrows = A->nrows;
  m->ncols = A->ncols;
  m->n_internal = A->n_internal;
  m->n_leaves = A->n_leaves;
  m->levels = A->levels;
  m->leaf_log = A->leaf_log;
  m->leaf_bits = A->leaf_bits;
  m->dir_log = A->dir_log;
  m->top_level = A->top_level;
  if (A->n_internal > 0) m->level_start.assign(A->level_start, A->level_start + A->levels + 2);
  uint64_t part[5];
  matrix_parts(A, config, part);
  const uint64_t bytes = part[0] + part[1] + part[2] + part[3] + part[4];
  if (g_settings.budget != 0 && bytes > g_settings.budget) {
    delete m;
    return fail(K2_DECLINED, "CUDA engine: the matrix needs %llu device bytes, over the budget of %llu",
                (unsigned long long)bytes, (unsigned long long)g_settings.budget);
  }
  if (bytes > 0) {
    cudaError_t e = dev_alloc(&m->mem, bytes);
    if (e != cudaSuccess) {
      delete m;
      return cuda_fail(e, "allocating the matrix on the device");
    }
    m->mem_bytes = bytes;
    const int rc = config == K2_CUDA_CONFIG_ROWS ? upload_rows(A, m, part) : upload_tree(A, m, part);
    if (rc != 0) {
      dev_free(m->mem, m->mem_bytes);
      delete m;
      return rc;
    }
  }
  *out = m;
  return 0;
}

void release(DevMatrix *m) {
  if (m == nullptr) return;
  if (m->graph != nullptr) cudaGraphExecDestroy(m->graph);
  dev_free(m->mem, m->mem_bytes);
  delete m;
}

int get_plan(DevMatrix *m, const k2_view *A, bool scan, Plan **out) {
  Plan &p = m->plans[scan ? 1 : 0];
  if (!p.valid || p.M != g_settings.tile || p.fuse != (g_settings.fuse_levels && !scan)) {
    int rc = make_plan(A, m->config, g_settings.tile, scan, g_settings.fuse_levels, &p);
    if (rc != 0) return rc;
    m->plan_id[scan ? 1 : 0] = ++g_plan_ids;
  }
  *out = &p;
  return 0;
}

// Make the workspace at least `need` bytes: reallocated to exactly `need` when too small.
int ensure_workspace(uint64_t need) {
  if (need <= g_ws_bytes) return 0;
  if (g_ws != nullptr) {
    cudaStreamSynchronize(g_stream);
    dev_free(g_ws, g_ws_bytes);
    g_ws = nullptr;
    g_ws_bytes = 0;
  }
  cudaError_t e = dev_alloc(&g_ws, need);
  if (e != cudaSuccess) return cuda_fail(e, "allocating the workspace on the device");
  g_ws_bytes = need;
  g_ws_gen++;
  return 0;
}

// ---- per-step timing of a product on host vectors (P->timing: K2_Profile) ---------------------
// Off (P->timing NULL) every call here returns at once and nothing waits. On, the stream is
// waited for at the end of each step, so that a step's time is its own work, and the kernels are
// bracketed by two events for the device's own time. Under g_mu, like every product.
cudaEvent_t g_events[2] = {nullptr, nullptr};

struct StepClock {
  k2_product_timing *t;
  double mark = 0;
  explicit StepClock(const k2_product *P) : t(P->timing) {
    if (t != nullptr) mark = k2_clock_now();
  }
  // The time since the last lap into `step`, once the stream's work (wait) is done. The first
  // lap tells dispatch that the engine times its own steps.
  int lap(double k2_product_timing::*step, bool wait) {
    if (t == nullptr) return 0;
    if (wait) K2CU_TRY("waiting for a step of the product", cudaStreamSynchronize(g_stream));
    const double now = k2_clock_now();
    t->*step += now - mark;
    t->device = true;
    mark = now;
    return 0;
  }
  // Before the kernels: the time until now into `before` (the copies up, waited for), then the
  // first event.
  int kernels_begin(double k2_product_timing::*before) {
    if (t == nullptr) return 0;
    int rc = lap(before, true);
    if (rc != 0) return rc;
    for (cudaEvent_t &e : g_events) {
      if (e == nullptr) K2CU_TRY("creating the profile's events", cudaEventCreate(&e));
    }
    K2CU_TRY("recording the kernels' start", cudaEventRecord(g_events[0], g_stream));
    return 0;
  }
  // After the kernels: their time from the first launch to completion, and the device's own.
  int kernels_end() {
    if (t == nullptr) return 0;
    K2CU_TRY("recording the kernels' end", cudaEventRecord(g_events[1], g_stream));
    K2CU_TRY("waiting for the kernels", cudaEventSynchronize(g_events[1]));
    float ms = 0;
    K2CU_TRY("timing the kernels", cudaEventElapsedTime(&ms, g_events[0], g_events[1]));
    t->kernel_device += 1e-3 * (double)ms;
    return lap(&k2_product_timing::kernel, false);
  }
};

// What the product kernels read of a product (device pointers in P), set field by field.
void vec_args_fill(VecArgs *v, const k2_product *P) {
  v->x = P->x;
  v->y = P->y;
  v->xp = P->x_present;
  v->yp = P->y_present;
  v->ys = P->y_skip;
  v->B = P->batch;
  v->mult = P->mult;
  v->left = P->left;
  v->w = P->w;
  v->index_base = P->index_base;
  v->fast = g_settings.fast_leaf;
}

// y = the monoid's identity and nothing present: where every traversal starts (device pointers).
int init_outputs(const k2_product *P, uint64_t out_len, cudaStream_t s) {
  K2CU_TRY("filling y with the identity", launch_init(P->type, P->monoid, P->y, out_len, s));
  if (P->y_present != nullptr)
    K2CU_TRY("clearing the presence of y", cudaMemsetAsync(P->y_present, 0, out_len, s));
  return 0;
}

// Enqueue the whole product on the stream: init y, then every step of the plan. The vectors of
// P are device pointers.
// With bits (a batch as words of bits, BitsArgs), the leaves update those words, which the
// caller cleared, instead of y.
int enqueue(const DevMatrix *m, const Plan *plan, const k2_product *P, char *scratch,
            cudaStream_t s, const BitsArgs *bits) {
  const uint64_t out_len = (P->left ? m->ncols : m->nrows) * P->batch;
  if (bits == nullptr) {
    int rc = init_outputs(P, out_len, s);
    if (rc != 0) return rc;
  }
  if (m->config == K2_CUDA_CONFIG_ROWS) {
    RowsArgs ra;
    ra.row = m->brow;
    ra.col = m->bcol;
    ra.pat = m->bpat;
    ra.n = m->n_blocks;
    vec_args_fill(&ra.v, P);
    K2CU_TRY("the row-block product", launch_rows(P->type, P->monoid, ra, s));
    return 0;
  }
  uint32_t G = 1;
  while (G < P->batch && G < 32) G <<= 1;
  uint32_t *offsets = plan->scan ? (uint32_t *)(scratch + plan->offsets_off) : nullptr;
  void *temp = plan->scan ? scratch + plan->temp_off : nullptr;
  for (const Step &st : plan->steps) {
    Trav t;
    t.sig = m->sig;
    t.dir = m->dir;
    t.dir_lo = m->dir_lo;
    t.dir_log = m->dir_log;
    t.codes = (st.src == -1 ? m->top
               : st.src == -2 ? m->bottom
                              : (const uint64_t *)(scratch + plan->buf_off[st.src])) +
              st.code_off;
    t.node_begin = st.node_begin;
    t.n = st.n;
    t.offsets = offsets;
    t.child_begin = st.child_begin;
    if (plan->scan)
      K2CU_TRY("the scan of a level's child offsets",
               launch_scan(temp, plan->temp_bytes, m->sig, st.node_begin, st.n, offsets, s));
    if (!st.leaf) {
      ExpandArgs ea;
      ea.t = t;
      ea.out = (uint64_t *)(scratch + plan->buf_off[st.level + st.span]);
      ea.levels = st.span;
      ea.out_begin = st.out_begin;
      K2CU_TRY("expanding a level of the tree", launch_expand(ea, s));
    } else {
      LeafArgs la;
      la.t = t;
      la.leaves = m->leaves;
      la.n_internal = m->n_internal;
      la.leaf_log = m->leaf_log;
      la.leaf_bits = m->leaf_bits;
      la.G = G;
      vec_args_fill(&la.v, P);
      if (bits != nullptr) K2CU_TRY("the product of the leaves", launch_leaf_bits(la, *bits, s));
      else K2CU_TRY("the product of the leaves", launch_leaf(P->type, P->monoid, la, s));
    }
  }
  return 0;
}

// Run the product (device pointers) on the stream; single vectors replay a recorded graph.
int run(DevMatrix *m, const Plan *plan, uint64_t plan_id, const k2_product *P, char *scratch) {
  cudaStream_t s = g_stream;
  if (!(g_settings.graphs && P->batch == 1)) return enqueue(m, plan, P, scratch, s);
  GraphKey key;
  memset(&key, 0, sizeof key);
  key.ws_gen = g_ws_gen;
  key.plan_id = plan_id;
  key.scratch = scratch;
  key.type = P->type;
  key.mon = P->monoid;
  vec_args_fill(&key.v, P);  // field by field: the zeroed padding stays zero
  if (m->graph != nullptr && !(m->graph_key == key)) {
    cudaGraphExecDestroy(m->graph);
    m->graph = nullptr;
  }
  m->graph_key = key;
  return record_and_launch(&m->graph, s, "recording and launching the product",
                           [&]() { return enqueue(m, plan, P, scratch, s); });
}

bool check_product(const k2_view *A, const k2_product *P) {
  return P != nullptr && A != nullptr && P->batch >= 1 && P->batch <= 256 && P->x != nullptr &&
         P->y != nullptr && supported(P->type, P->monoid, P->mult);
}

// The empty matrix: y is the identity everywhere, nothing is present.
void host_identity(const k2_view *A, const k2_product *P) {
  const uint64_t out = (P->left ? A->ncols : A->nrows) * P->batch;
  const uint32_t ts = k2_type_size(P->type);
  uint64_t id = 0;
  k2_identity_bytes(&id, P->type, P->monoid);
  for (uint64_t i = 0; i < out; i++) memcpy((char *)P->y + i * ts, &id, ts);
  if (P->y_present) memset(P->y_present, 0, out);
}

// ---- sparse products: lists in and out, the pruned traversal ---------------------------------

uint64_t g_frontier_max = kFrontierMax;

// Cost model of a single-vector product on the device, in microseconds: the full traversal
// replays its plan (a launch per step) and streams every node; the pruned one launches once per
// level below the top and once for each summary, and visits what the lists leave, each node
// costing more (a directory lookup per node, scattered reads).
constexpr double kLaunchUs = 2.5;
constexpr double kFullNodeUs = 1.0e-5;
constexpr double kPrunedNodeUs = 1.0e-4;

uint64_t level_width(const DevMatrix *m, uint32_t t) { return m->level_start[t + 1] - m->level_start[t]; }

// The present inputs and the allowed outputs of a product whose vectors are on the host.
void host_counts(const DevMatrix *m, const k2_product *P, uint64_t *k_in, uint64_t *k_out) {
  const uint64_t n_in = P->left ? m->nrows : m->ncols, n_out = P->left ? m->ncols : m->nrows;
  *k_in = P->x_list != nullptr ? P->x_count : P->x_present ? k2_flags_count(P->x_present, n_in) : n_in;
  *k_out = P->y_skip == nullptr  ? n_out
           : P->y_allowed_known ? P->y_allowed
                                : n_out - k2_flags_count(P->y_skip, n_out);
}

// k_in, k_out: the present inputs and the allowed outputs (the caller counts them: on the host
// for host vectors, known beforehand for device-resident ones).
void sparse_plan(const k2_view *A, const DevMatrix *m, const Plan *plan, const k2_product *P,
                 uint64_t k_in, uint64_t k_out, SparsePlan *sp) {
  *sp = SparsePlan();
  if (P->batch != 1) return;
  const uint64_t n_in = P->left ? m->nrows : m->ncols, n_out = P->left ? m->ncols : m->nrows;
  sp->in_list = P->x_list != nullptr && P->x_present != nullptr;
  sp->out_list = P->y_list != nullptr && P->y_count != nullptr && P->y_present != nullptr;
  const int mode = g_settings.prune;
  if (mode == K2_CUDA_PRUNE_NEVER || m->config == K2_CUDA_CONFIG_ROWS || m->levels < 2 ||
      m->levels > kPruneMaxLevels || (P->x_present == nullptr && P->y_skip == nullptr))
    return;
  sp->k_in = k_in;
  sp->k_out = k_out;
  bool in = P->x_present != nullptr, out = P->y_skip != nullptr;
  if (mode == K2_CUDA_PRUNE_AUTO) {
    in = in && sp->k_in * 8 <= n_in;  // else few stripes would be empty
    out = out && sp->k_out * 4 <= n_out;
  }
  if (!in && !out) return;
  const double visits = k2_product_visits_bound(A, m->top_level, in ? sp->k_in : n_in,
                                                out ? sp->k_out : n_out);
  const double nodes = (double)m->level_start[m->levels + 1];
  const double full = kLaunchUs * (double)plan->steps.size() + kFullNodeUs * nodes;
  const double pruned = kLaunchUs * (double)(m->levels - m->top_level + 3) + kPrunedNodeUs * visits;
  sp->estimate = visits;
  if (mode == K2_CUDA_PRUNE_AUTO && pruned >= full) return;
  sp->prune_in = in;
  sp->prune_out = out;
  uint64_t widest = 0;
  for (uint32_t t = m->top_level; t < m->levels; t++) widest = std::max(widest, level_width(m, t));
  sp->capacity = std::min(widest, g_frontier_max);
  sp->bitmap_bytes = align_up(((UINT64_C(1) << m->levels) + 7) / 8);
}


void sparse_layout(const DevMatrix *m, const k2_product *P, const SparsePlan &sp, uint64_t base,
                   SparseLayout *L) {
  const uint64_t n_out = P->left ? m->ncols : m->nrows, ts = k2_type_size(P->type);
  uint64_t at = base;
  L->in_list = at;
  if (sp.in_list) at += align_up(P->x_count * (8 + ts));
  L->out_list = at;
  L->out_vals = at + align_up(n_out * 8);
  L->select_temp = L->out_vals + align_up(n_out * ts);
  L->select_bytes = sp.out_list ? select_temp_bytes(n_out) : 0;
  if (sp.out_list) at = L->select_temp + align_up(L->select_bytes);
  L->counters = at;  // one per level, and the output count after them
  at += align_up((m->levels + 1) * 8);
  L->in_bm = at;
  L->out_bm = at + sp.bitmap_bytes;
  L->frontier = L->out_bm + sp.bitmap_bytes;
  if (sp.prune()) at = L->frontier + 4 * align_up(sp.capacity * 8);
  L->bytes = at - base;
}

// The pruned traversal of D (device pointers): summaries, the descent, the leaves.
int enqueue_pruned(const DevMatrix *m, const k2_product *D, const SparsePlan &sp, char *ws,
                   const SparseLayout &L, cudaStream_t s) {
  const uint64_t n_in = D->left ? m->nrows : m->ncols, n_out = D->left ? m->ncols : m->nrows;
  const uint32_t side_log = m->levels + m->leaf_log, deepest = m->levels - 1;
  uint32_t *in_bm = (uint32_t *)(ws + L.in_bm), *out_bm = (uint32_t *)(ws + L.out_bm);
  unsigned long long *cnt = (unsigned long long *)(ws + L.counters);
  K2CU_TRY("clearing the summaries",
           cudaMemsetAsync(cnt, 0, L.frontier - L.counters, s));  // counters and both bitmaps
  if (sp.prune_in) {
    cudaError_t e = sp.in_list ? launch_stripes_from_list(in_bm, (const uint64_t *)(ws + L.in_list),
                                                          D->x_count, side_log, deepest, s)
                               : launch_stripes_from_flags(in_bm, D->x_present, true, n_in,
                                                           side_log, deepest, s);
    K2CU_TRY("summarising the input", e);
  }
  if (sp.prune_out)
    K2CU_TRY("summarising the mask",
             launch_stripes_from_flags(out_bm, D->y_skip, false, n_out, side_log, deepest, s));
  const int rc = init_outputs(D, n_out, s);
  if (rc != 0) return rc;
  uint64_t *buf = (uint64_t *)(ws + L.frontier);
  const uint64_t cap = sp.capacity, stride = align_up(cap * 8) / 8;
  uint64_t *ids[2] = {buf, buf + 2 * stride}, *codes[2] = {buf + stride, buf + 3 * stride};
  PruneArgs a;
  memset(&a, 0, sizeof a);
  a.sig = m->sig;
  a.dir = m->dir;
  a.dir_lo = m->dir_lo;
  a.dir_log = m->dir_log;
  a.left = D->left;
  a.in_bm = sp.prune_in ? in_bm : nullptr;
  a.out_bm = sp.prune_out ? out_bm : nullptr;
  a.top = m->top;
  a.top_level = m->top_level;
  a.top_begin = m->level_start[m->top_level];
  a.top_count = level_width(m, m->top_level);
  a.capacity = cap;
  a.ids_out = ids[0];
  a.codes_out = codes[0];
  a.count_out = &cnt[m->top_level];
  K2CU_TRY("pruning the top level", launch_prune_top(a, s));
  int cur = 0;
  for (uint32_t t = m->top_level; t + 1 < m->levels; t++, cur ^= 1) {
    a.ids_in = ids[cur];
    a.codes_in = codes[cur];
    a.count_in = &cnt[t];
    a.ids_out = ids[cur ^ 1];
    a.codes_out = codes[cur ^ 1];
    a.count_out = &cnt[t + 1];
    K2CU_TRY("a level of the pruned descent", launch_prune_expand(a, t, level_width(m, t), s));
  }
  LeafArgs la;
  la.t.sig = m->sig;
  la.t.dir = m->dir;
  la.t.dir_lo = m->dir_lo;
  la.t.dir_log = m->dir_log;
  la.t.codes = codes[cur];
  la.t.ids = ids[cur];
  la.t.count = &cnt[m->levels - 1];
  la.t.n = std::min(cap, level_width(m, m->levels - 1));
  la.t.node_begin = 0;
  la.t.offsets = nullptr;
  la.t.child_begin = 0;
  la.leaves = m->leaves;
  la.n_internal = m->n_internal;
  la.leaf_log = m->leaf_log;
  la.leaf_bits = m->leaf_bits;
  la.G = 1;
  vec_args_fill(&la.v, D);
  K2CU_TRY("the product of the pruned leaves", launch_leaf(D->type, D->monoid, la, s));
  return 0;
}

// After a pruned traversal (hcnt: the per-level counters copied back): whether a level held more
// nodes than the frontier (the product must then run again in full), and in *expanded the
// internal nodes it expanded.
bool frontier_overflowed(const DevMatrix *m, const SparsePlan &sp, const unsigned long long *hcnt,
                         uint64_t *expanded) {
  bool overflow = false;
  *expanded = 0;
  for (uint32_t t = m->top_level; t < m->levels; t++) {
    overflow |= hcnt[t] > sp.capacity;
    if (t + 1 < m->levels) *expanded += hcnt[t];
  }
  return overflow;
}

// What the burble says of the traversal a product took.
void report_traversal(k2_product_report *r, const DevMatrix *m, const SparsePlan &sp, bool pruned,
                      uint64_t expanded) {
  if (r == nullptr) return;
  r->traversal = !pruned                      ? "full"
                 : sp.prune_in && sp.prune_out ? "pruned by the input and the mask"
                 : sp.prune_in                 ? "pruned by the input"
                                               : "pruned by the mask";
  r->inputs = pruned && sp.prune_in ? sp.k_in : 0;
  r->outputs = pruned && sp.prune_out ? sp.k_out : 0;
  r->expanded = pruned ? expanded : 0;
  r->estimate = sp.estimate;
  r->nodes = m->level_start[m->levels + 1];
}

// The product with its sparse forms: x up as a list, the pruned traversal, y back as a list.
// D: P's product on the device buffers (x, y, presence, skip) already carved from the workspace.
int product_sparse(DevMatrix *m, const Plan *plan, uint64_t plan_id, const k2_product *P,
                   k2_product *D, const SparsePlan &sp, const SparseLayout &L, char *ws,
                   StepClock &clk) {
  cudaStream_t s = g_stream;
  const uint64_t n_in = P->left ? m->nrows : m->ncols, n_out = P->left ? m->ncols : m->nrows;
  const uint64_t ts = k2_type_size(P->type);
  const uint64_t k_in = sp.in_list ? P->x_count : 0;
  // what goes up as whole arrays: x and its presence unless the list carries them, the mask
  // (staged after the list's copy, which stage_up waits for); laid out as in D
  Piece up[3];
  int nup = 0;
  char *const up_base = sp.in_list ? (char *)D->y_skip : (char *)D->x;
  if (!sp.in_list) {
    up[nup++] = {(void *)P->x, 0, n_in * ts};
    if (P->x_present) up[nup++] = {(void *)P->x_present, (uint64_t)((char *)D->x_present - up_base), n_in};
  }
  if (P->y_skip) up[nup++] = {(void *)P->y_skip, (uint64_t)((char *)D->y_skip - up_base), n_out};
  const uint64_t up_total = nup == 0 ? 0 : up[nup - 1].off + up[nup - 1].bytes;
  // one size for the whole call: hcnt must stay where it is until the counters are read
  int rc = ensure_staging(std::max(kCountersBytes + k_in * (8 + ts), std::min(up_total, kStageMax)));
  if (rc != 0) return rc;
  unsigned long long *hcnt = (unsigned long long *)g_host;
  if (sp.in_list) {
    // the list and the values at it, one copy up; the presence rebuilt on the device
    uint64_t *hl = (uint64_t *)((char *)g_host + kCountersBytes);
    char *hv = (char *)(hl + k_in);
    memcpy(hl, P->x_list, k_in * 8);
    for (uint64_t i = 0; i < k_in; i++) memcpy(hv + i * ts, (const char *)P->x + P->x_list[i] * ts, ts);
    K2CU_TRY("copying the input's list to the device",
             cudaMemcpyAsync(ws + L.in_list, hl, k_in * (8 + ts), cudaMemcpyHostToDevice, s));
    K2CU_TRY("clearing the presence of x", cudaMemsetAsync((void *)D->x_present, 0, n_in, s));
    K2CU_TRY("scattering the input",
             launch_scatter_input((const uint64_t *)(ws + L.in_list), ws + L.in_list + k_in * 8, k_in,
                                  (uint32_t)ts, (void *)D->x, (uint8_t *)D->x_present, s));
  }
  rc = stage_up(up_base, up, nup, s);
  if (rc != 0) return rc;
  unsigned long long *cnt = (unsigned long long *)(ws + L.counters);
  const uint64_t ncnt = m->levels + 1;
  // the list of the present outputs and their values, and the counters, back to the host
  auto list_and_count = [&]() -> int {
    if (sp.out_list)
      K2CU_TRY("listing the present outputs",
               launch_list_outputs(ws + L.select_temp, L.select_bytes, D->y_present, n_out,
                                   (uint64_t *)(ws + L.out_list), &cnt[m->levels], D->y,
                                   (uint32_t)ts, ws + L.out_vals, s));
    K2CU_TRY("copying the counters to the host",
             cudaMemcpyAsync(hcnt, cnt, ncnt * 8, cudaMemcpyDeviceToHost, s));
    K2CU_TRY("running the product", cudaStreamSynchronize(s));
    return 0;
  };
  bool pruned = sp.prune();
  rc = clk.kernels_begin(&k2_product_timing::h2d);
  if (rc != 0) return rc;
  if (pruned) {
    rc = enqueue_pruned(m, D, sp, ws, L, s);
  } else {
    K2CU_TRY("clearing the counters", cudaMemsetAsync(cnt, 0, ncnt * 8, s));
    rc = run(m, plan, plan_id, D, ws);
  }
  if (rc == 0) rc = list_and_count();
  if (rc == 0) rc = clk.kernels_end();
  if (rc != 0) return rc;
  uint64_t expanded = 0;
  if (pruned && frontier_overflowed(m, sp, hcnt, &expanded)) {  // the full traversal instead
    pruned = false;
    rc = clk.kernels_begin(&k2_product_timing::kernel);
    if (rc != 0) return rc;
    K2CU_TRY("clearing the counters", cudaMemsetAsync(cnt, 0, ncnt * 8, s));
    rc = run(m, plan, plan_id, D, ws);
    if (rc == 0) rc = list_and_count();
    if (rc == 0) rc = clk.kernels_end();
    if (rc != 0) return rc;
  }
  report_traversal(P->report, m, sp, pruned, expanded);
  const uint64_t k_out = sp.out_list ? hcnt[m->levels] : 0;
  if (sp.out_list && k_out * 4 <= n_out) {
    rc = ensure_staging(kCountersBytes + k_out * (8 + ts));
    if (rc != 0) return rc;
    uint64_t *hl = (uint64_t *)((char *)g_host + kCountersBytes);
    char *hv = (char *)(hl + k_out);
    K2CU_TRY("copying the output's list from the device",
             cudaMemcpyAsync(hl, ws + L.out_list, k_out * 8, cudaMemcpyDeviceToHost, s));
    K2CU_TRY("copying the output's values from the device",
             cudaMemcpyAsync(hv, ws + L.out_vals, k_out * ts, cudaMemcpyDeviceToHost, s));
    K2CU_TRY("running the product", cudaStreamSynchronize(s));
    for (uint64_t i = 0; i < k_out; i++) {
      const uint64_t j = hl[i];
      P->y_list[i] = j;
      memcpy((char *)P->y + j * ts, hv + i * ts, ts);
      P->y_present[j] = 1;
    }
    *P->y_count = k_out;
    return clk.lap(&k2_product_timing::d2h, false);
  }
  Piece down[2] = {{P->y, 0, n_out * ts}, {P->y_present, (uint64_t)((char *)D->y_present - (char *)D->y), n_out}};
  rc = stage_down((const char *)D->y, down, P->y_present ? 2 : 1, s);
  if (rc != 0) return rc;
  if (sp.out_list) *P->y_count = K2_Y_DENSE;
  return clk.lap(&k2_product_timing::d2h, false);
}

int product_host(const k2_view *A, void *device, const k2_product *P) {
  StepClock clk(P);
  if (!check_product(A, P)) return fail(K2_DECLINED, "CUDA engine: product not supported");
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  if (A->n_internal == 0) {
    host_identity(A, P);
    return 0;
  }
  DevMatrix *m = (DevMatrix *)device, *tmp = nullptr;
  if (m == nullptr) {
    int rc = upload(A, K2_CUDA_CONFIG_AUTO, &tmp);
    if (rc != 0) return rc;
    m = tmp;
  }
  struct Cleanup {
    DevMatrix *t;
    ~Cleanup() { release(t); }
  } cleanup{tmp};
  const bool scan = resolve_scan(P->batch);
  Plan *plan;
  int rc = get_plan(m, A, scan, &plan);
  if (rc != 0) return rc;
  const uint64_t vec = vector_bytes(A, P);
  SparsePlan sp;
  if (P->batch == 1 && g_settings.prune != K2_CUDA_PRUNE_NEVER &&
      (P->x_present != nullptr || P->y_skip != nullptr)) {
    uint64_t k_in, k_out;
    host_counts(m, P, &k_in, &k_out);
    sparse_plan(A, m, plan, P, k_in, k_out, &sp);
  } else {
    sparse_plan(A, m, plan, P, 0, 0, &sp);
  }
  SparseLayout L;
  memset(&L, 0, sizeof L);
  if (sp.any()) sparse_layout(m, P, sp, plan->bytes + vec, &L);
  if (g_settings.budget != 0 && m->mem_bytes + plan->bytes + vec + L.bytes > g_settings.budget) {
    sp = SparsePlan();  // the sparse forms are an optimisation: not over the budget
    L.bytes = 0;
  }
  const uint64_t need = plan->bytes + vec + L.bytes;
  if (g_settings.budget != 0 && m->mem_bytes + need > g_settings.budget)
    return fail(K2_DECLINED,
                "CUDA engine: the product needs %llu device bytes (matrix %llu, scratch %llu, vectors "
                "%llu), over the budget of %llu",
                (unsigned long long)(m->mem_bytes + need), (unsigned long long)m->mem_bytes,
                (unsigned long long)plan->bytes, (unsigned long long)vec,
                (unsigned long long)g_settings.budget);
  rc = ensure_workspace(need);
  if (rc != 0) return rc;
  char *scratch = (char *)g_ws;
  char *v = scratch + plan->bytes;
  const uint64_t in = (P->left ? A->nrows : A->ncols) * P->batch;
  const uint64_t out = (P->left ? A->ncols : A->nrows) * P->batch;
  const uint64_t ts = k2_type_size(P->type);
  // the device layout: the inputs (x, its presence, the mask's skip bytes), then the outputs (y,
  // its presence), so that each direction is one staged copy (vector_bytes sums the same parts)
  k2_product D = *P;
  Piece up[3], down[2];
  int nup = 0, ndown = 0;
  uint64_t off = 0;
  auto place = [&](Piece *list, int *count, const void *host, uint64_t bytes, uint64_t base) {
    list[(*count)++] = {(void *)host, off - base, bytes};
    const uint64_t at = off;
    off += align_up(bytes);
    return v + at;
  };
  D.x = place(up, &nup, P->x, in * ts, 0);
  if (P->x_present) D.x_present = (const uint8_t *)place(up, &nup, P->x_present, in, 0);
  if (P->y_skip) D.y_skip = (const uint8_t *)place(up, &nup, P->y_skip, out, 0);
  const uint64_t out_base = off;
  D.y = place(down, &ndown, P->y, out * ts, out_base);
  if (P->y_present) D.y_present = (uint8_t *)place(down, &ndown, P->y_present, out, out_base);
  rc = clk.lap(&k2_product_timing::plan, false);
  if (rc != 0) return rc;
  if (sp.any()) return product_sparse(m, plan, m->plan_id[scan ? 1 : 0], P, &D, sp, L, scratch, clk);
  cudaStream_t s = g_stream;
  rc = stage_up(v, up, nup, s);
  if (rc == 0) rc = clk.kernels_begin(&k2_product_timing::h2d);
  if (rc == 0) rc = run(m, plan, m->plan_id[scan ? 1 : 0], &D, scratch);
  if (rc == 0) rc = clk.kernels_end();
  if (rc == 0) rc = stage_down(v + out_base, down, ndown, s);
  if (rc != 0) return rc;
  // A temporary copy's graph points at it: Cleanup frees both.
  return clk.lap(&k2_product_timing::d2h, false);
}

int product_device(const k2_view *A, void *device, const k2_product *P) {
  if (!check_product(A, P)) return fail(K2_DECLINED, "CUDA engine: product not supported");
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  DevMatrix *m = (DevMatrix *)device;
  if (m == nullptr) {
    return fail(kGrbInvalidValue, "CUDA engine: a product on device vectors needs a resident matrix");
  }
  // the view must be the tree the device holds (full blocks: expanded, k2_matrix_plain_view);
  // another one's node numbers would address past the device's arrays
  if (A->n_full != 0 || A->n_internal != m->n_internal || A->n_leaves != m->n_leaves)
    return fail(kGrbInvalidValue, "CUDA engine: the view is not the tree the device holds "
                "(%llu internal nodes and %llu leaves against %llu and %llu)",
                (unsigned long long)A->n_internal, (unsigned long long)A->n_leaves,
                (unsigned long long)m->n_internal, (unsigned long long)m->n_leaves);
  const bool scan = resolve_scan(P->batch);
  if (A->n_internal == 0) {
    return init_outputs(P, (P->left ? A->ncols : A->nrows) * P->batch, g_stream);
  }
  Plan *plan;
  int rc = get_plan(m, A, scan, &plan);
  if (rc != 0) return rc;
  if (g_settings.budget != 0 && m->mem_bytes + plan->bytes > g_settings.budget)
    return fail(K2_DECLINED, "CUDA engine: the product's scratch is over the budget");
  rc = ensure_workspace(plan->bytes);
  if (rc != 0) return rc;
  return run(m, plan, m->plan_id[scan ? 1 : 0], P, (char *)g_ws);
}

// ---- products on device-resident vectors ------------------------------------------------------

// The workspace of a product on device vectors: `need` bytes within the budget, and with a mask
// its skip bytes (n_out of them, at skip_off, which `need` covers) made from the mask and set in D.
int resident_workspace(const DevMatrix *m, uint64_t need, uint64_t skip_off, uint64_t n_out,
                       const k2_cuda_mask *mask, k2_product *D, cudaStream_t s, char **ws) {
  if (g_settings.budget != 0 && m->mem_bytes + need > g_settings.budget)
    return fail(K2_DECLINED, "CUDA engine: the product needs %llu device bytes, over the budget of %llu",
                (unsigned long long)(m->mem_bytes + need), (unsigned long long)g_settings.budget);
  int rc = ensure_workspace(need);
  if (rc != 0) return rc;
  *ws = (char *)g_ws;
  if (mask != nullptr) {
    D->y_skip = (const uint8_t *)(*ws + skip_off);
    K2CU_TRY("turning the mask into skip bytes",
             launch_mask_skip((uint8_t *)(*ws + skip_off), mask->present, mask->values, mask->type,
                              mask->structural, mask->complement, n_out, s));
  }
  return 0;
}

// A product whose vectors stay on the device (K2_DeviceVector): the mask becomes skip bytes in
// the workspace, the traversal is pruned or full by the same estimate as for host vectors (the
// counts come from the caller, who knows them without reading the device), and the present
// outputs are counted on the device. One wait per product: for the counters, which say whether
// the pruned frontier overflowed and how many outputs are present.
int product_resident(const k2_view *A, void *device, const k2_product *P, const k2_cuda_mask *mask,
                     uint64_t *y_nvals) {
  if (!check_product(A, P) || P->batch != 1 || P->y_present == nullptr)
    return fail(K2_DECLINED, "CUDA engine: product not supported on device vectors");
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  DevMatrix *m = (DevMatrix *)device;
  if (m == nullptr)
    return fail(kGrbInvalidValue, "CUDA engine: a product on device vectors needs a resident matrix");
  cudaStream_t s = g_stream;
  const uint64_t n_in = P->left ? A->nrows : A->ncols, n_out = P->left ? A->ncols : A->nrows;
  int rc = ensure_staging(kCountersBytes);
  if (rc != 0) return rc;
  unsigned long long *hcnt = (unsigned long long *)g_host;
  if (A->n_internal == 0) {
    rc = init_outputs(P, n_out, s);
    if (rc != 0) return rc;
    K2CU_TRY("running the product", cudaStreamSynchronize(s));
    *y_nvals = 0;
    return 0;
  }
  const bool scan = resolve_scan(1);
  Plan *plan;
  rc = get_plan(m, A, scan, &plan);
  if (rc != 0) return rc;
  k2_product D = *P;
  D.x_list = nullptr;
  D.y_list = nullptr;
  D.y_count = nullptr;
  D.y_skip = nullptr;
  uint64_t skip_off = 0;
  // the skip bytes' place is known only after the layout; any non-NULL value plans the same
  if (mask != nullptr) D.y_skip = (const uint8_t *)P->y_present;
  const uint64_t k_in = P->x_present != nullptr ? P->x_count : n_in;
  const uint64_t k_out = mask == nullptr ? n_out : P->y_allowed_known ? P->y_allowed : n_out;
  SparsePlan sp;
  sparse_plan(A, m, plan, &D, k_in, k_out, &sp);
  SparseLayout L;
  memset(&L, 0, sizeof L);
  sparse_layout(m, &D, sp, plan->bytes, &L);  // the counters always; bitmaps, frontier if pruned
  skip_off = plan->bytes + L.bytes;
  const uint64_t need = skip_off + (mask != nullptr ? align_up(n_out) : 0);
  char *ws = nullptr;
  rc = resident_workspace(m, need, skip_off, n_out, mask, &D, s, &ws);
  if (rc != 0) return rc;
  unsigned long long *cnt = (unsigned long long *)(ws + L.counters);
  const uint64_t ncnt = m->levels + 1;
  auto full = [&]() -> int {
    K2CU_TRY("clearing the counters", cudaMemsetAsync(cnt, 0, ncnt * 8, s));
    return enqueue(m, plan, &D, ws, s);
  };
  auto count_and_wait = [&]() -> int {
    K2CU_TRY("counting the present outputs", launch_count_present(D.y_present, n_out, &cnt[m->levels], s));
    K2CU_TRY("copying the counters to the host", cudaMemcpyAsync(hcnt, cnt, ncnt * 8, cudaMemcpyDeviceToHost, s));
    K2CU_TRY("running the product", cudaStreamSynchronize(s));
    return 0;
  };
  bool pruned = sp.prune();
  if (!pruned) {  // nothing to check on the host: no wait, the caller counts when it asks
    rc = full();
    if (rc != 0) return rc;
    report_traversal(P->report, m, sp, false, 0);
    *y_nvals = K2_CUDA_NVALS_UNKNOWN;
    return 0;
  }
  rc = enqueue_pruned(m, &D, sp, ws, L, s);
  if (rc == 0) rc = count_and_wait();
  if (rc != 0) return rc;
  uint64_t expanded = 0;
  if (pruned && frontier_overflowed(m, sp, hcnt, &expanded)) {  // the full traversal instead
    pruned = false;
    rc = full();
    if (rc == 0) rc = count_and_wait();
    if (rc != 0) return rc;
  }
  report_traversal(P->report, m, sp, pruned, expanded);
  *y_nvals = hcnt[m->levels];
  return 0;
}

// Device vectors' memory: a freed block is kept and handed out again for the same size, so an
// algorithm that creates and frees its vectors at every call allocates on the device once (a
// cudaMalloc / cudaFree pair costs more than a whole BFS on a small graph). A block freed while
// a kernel on the stream still reads it is safe to reuse: every later use is on the same stream.
// K2_Device_trim frees the blocks.
struct PoolBlock {
  void *p;
  uint64_t bytes;
};
std::vector<PoolBlock> g_vec_pool;
constexpr size_t kVecPoolMax = 64;  // blocks kept; more are freed

void vec_pool_clear() {
  if (g_vec_pool.empty()) return;
  cudaStreamSynchronize(g_stream);
  for (const PoolBlock &b : g_vec_pool) dev_free(b.p, b.bytes);
  g_vec_pool.clear();
}

// A small device counter for the vector operations that return a count or a sum.
void *g_vec_scratch = nullptr;
constexpr uint64_t kVecScratchBytes = 64;

int vec_scratch(void **p) {
  if (g_vec_scratch == nullptr) {
    cudaError_t e = dev_alloc(&g_vec_scratch, kVecScratchBytes);
    if (e != cudaSuccess) return cuda_fail(e, "allocating the vector counters");
  }
  *p = g_vec_scratch;
  return ensure_staging(kCountersBytes);
}

// A Boolean batch as words of bits (BitsArgs), enqueued: x and the mask packed into words at w
// (x values, x presence, y values, y presence, the mask's skip bits: n_in, n_in, n_out, n_out,
// n_out words), the traversal on the words, y unpacked with its present count into *cnt.
int enqueue_bits(const DevMatrix *m, const Plan *plan, const k2_product *D, const k2_cuda_mask *mask,
                 uint64_t *w, uint64_t n_in, uint64_t n_out, char *ws, unsigned long long *cnt, int mode,
                 cudaStream_t s) {
  BitsArgs ba;
  ba.xv = w;
  ba.xp = w + n_in;
  ba.yv = w + 2 * n_in;
  ba.yp = ba.yv + n_out;
  ba.skip = mask != nullptr ? ba.yp + n_out : nullptr;
  K2CU_TRY("packing x into words",
           launch_pack_bits((const uint8_t *)D->x, D->x_present, n_in, D->batch, (uint64_t *)ba.xv,
                            (uint64_t *)ba.xp, s));
  if (mask != nullptr)
    K2CU_TRY("packing the mask into words",
             launch_mask_bits((uint64_t *)ba.skip, mask->present, mask->values, mask->type, mask->structural,
                              mask->complement, n_out, D->batch, s));
  K2CU_TRY("clearing the output words", cudaMemsetAsync(ba.yv, 0, 16 * n_out, s));
  int rc = enqueue(m, plan, D, ws, s, &ba);
  if (rc != 0) return rc;
  K2CU_TRY("counting the present outputs", cudaMemsetAsync(cnt, 0, 8, s));
  K2CU_TRY("unpacking the output words",
           launch_unpack_bits(ba.yv, ba.yp, mode, n_out, D->batch, (uint8_t *)D->y, D->y_present, cnt, s));
  return 0;
}

// The same, recorded as a CUDA graph on its first use with these pointers and replayed after:
// a level of msBFS is then one launch instead of one per tree level and per vector step.
int run_bits(DevMatrix *m, const Plan *plan, uint64_t plan_id, const k2_product *D, const k2_cuda_mask *mask,
             uint64_t *w, uint64_t n_in, uint64_t n_out, char *ws, unsigned long long *cnt, cudaStream_t s) {
  // the multiply's value: x's (0), true (1) or false (2) for every contribution
  const bool wt = D->w != 0.0;
  const int mode = D->mult == K2_MUL_X             ? 0
                   : D->mult == K2_MUL_X_TIMES_W ? (wt ? 0 : 2)
                   : D->mult == K2_MUL_X_PLUS_W  ? (wt ? 1 : 0)
                                                 : (wt ? 1 : 2);
  if (!g_settings.graphs) return enqueue_bits(m, plan, D, mask, w, n_in, n_out, ws, cnt, mode, s);
  BitsKey key;
  memset(&key, 0, sizeof key);  // the padding too: keys are compared bytewise
  key.ws_gen = g_ws_gen;
  key.plan_id = plan_id;
  key.ws = ws;
  key.counter = cnt;
  key.x = D->x;
  key.xp = D->x_present;
  key.y = D->y;
  key.yp = D->y_present;
  key.n_in = n_in;
  key.n_out = n_out;
  key.mode = mode;
  key.batch = D->batch;
  key.left = D->left;
  if (mask != nullptr) {
    key.masked = true;
    key.mp = mask->present;
    key.mv = mask->values;
    key.mtype = mask->type;
    key.structural = mask->structural;
    key.complement = mask->complement;
  }
  return m->bits_graphs.launch(key, s, "recording and launching the product", [&]() {
    return enqueue_bits(m, plan, D, mask, w, n_in, n_out, ws, cnt, mode, s);
  });
}

// A batch on device vectors (K2_mxm_device): the mask becomes skip bytes per (index, vector)
// pair in the workspace after the plan's scratch, the full traversal runs (batches are not
// pruned), and the present pairs are counted on the device; one wait, for that count.
int product_resident_batch(const k2_view *A, void *device, const k2_product *P, const k2_cuda_mask *mask,
                           uint64_t *y_nvals) {
  if (!check_product(A, P) || P->y_present == nullptr)
    return fail(K2_DECLINED, "CUDA engine: product not supported on device vectors");
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  DevMatrix *m = (DevMatrix *)device;
  if (m == nullptr)
    return fail(kGrbInvalidValue, "CUDA engine: a product on device vectors needs a resident matrix");
  cudaStream_t s = g_stream;
  const uint64_t out_len = (P->left ? A->ncols : A->nrows) * P->batch;
  void *counter = nullptr;
  int rc = vec_scratch(&counter);
  if (rc != 0) return rc;
  unsigned long long *cnt = (unsigned long long *)counter;
  k2_product D = *P;
  D.x_list = nullptr;
  D.y_list = nullptr;
  D.y_count = nullptr;
  D.y_skip = nullptr;
  D.report = nullptr;
  if (A->n_internal == 0) {
    rc = init_outputs(&D, out_len, s);
    if (rc != 0) return rc;
  } else {
    const bool scan = resolve_scan(P->batch);
    Plan *plan;
    rc = get_plan(m, A, scan, &plan);
    if (rc != 0) return rc;
    const uint64_t skip_off = align_up(plan->bytes);
    // a Boolean batch of up to 64 vectors runs as words of bits: x (values, presence), the mask,
    // y (values, presence), one 64-bit word per index each, after the skip bytes
    const bool bits = g_settings.fast_leaf && m->config != K2_CUDA_CONFIG_ROWS &&
                      bits_applies(P->type, P->monoid, P->mult, P->batch);
    const uint64_t n_in = P->left ? A->nrows : A->ncols, n_out = out_len / P->batch;
    // (words of bits take the mask as bits, no skip bytes)
    const uint64_t need = skip_off + (bits          ? 8 * (2 * n_in + 3 * n_out)
                                      : mask != nullptr ? align_up(out_len)
                                                        : 0);
    char *ws = nullptr;
    rc = resident_workspace(m, need, skip_off, out_len, bits ? nullptr : mask, &D, s, &ws);
    if (rc != 0) return rc;
    if (bits) {
      rc = run_bits(m, plan, m->plan_id[scan ? 1 : 0], &D, mask, (uint64_t *)(ws + skip_off), n_in, n_out, ws,
                    cnt, s);
      if (rc != 0) return rc;
      K2CU_TRY("copying the count to the host", cudaMemcpyAsync(g_host, cnt, 8, cudaMemcpyDeviceToHost, s));
      K2CU_TRY("running the product", cudaStreamSynchronize(s));
      *y_nvals = *(unsigned long long *)g_host;
      return 0;
    }
    // enqueue, not run: a recorded graph would be keyed on single vectors' arguments
    rc = enqueue(m, plan, &D, ws, s);
    if (rc != 0) return rc;
  }
  K2CU_TRY("counting the present outputs", cudaMemsetAsync(cnt, 0, 8, s));
  K2CU_TRY("counting the present outputs", launch_count_present(D.y_present, out_len, cnt, s));
  K2CU_TRY("copying the count to the host", cudaMemcpyAsync(g_host, cnt, 8, cudaMemcpyDeviceToHost, s));
  K2CU_TRY("running the product", cudaStreamSynchronize(s));
  *y_nvals = *(unsigned long long *)g_host;
  return 0;
}

}  // namespace k2cu

// ---- the gateway (extern "C") ----------------------------------------------------------------

using namespace k2cu;

extern "C" {

void k2_cuda_settings_get(k2_cuda_settings *s) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  *s = g_settings;
}

int k2_cuda_settings_set(const k2_cuda_settings *s) {
  if (s == nullptr) return kGrbInvalidValue;
  if (s->tile < 16 || s->tile > (UINT64_C(1) << 30))
    return fail(kGrbInvalidValue, "CUDA engine: tile size %llu outside [16, 2^30]",
                (unsigned long long)s->tile);
  if (s->offsets < K2_CUDA_OFFSETS_AUTO || s->offsets > K2_CUDA_OFFSETS_SCAN)
    return fail(kGrbInvalidValue, "CUDA engine: unknown offsets source %d", s->offsets);
  if (s->config < K2_CUDA_CONFIG_AUTO || s->config > K2_CUDA_CONFIG_ROWS)
    return fail(kGrbInvalidValue, "CUDA engine: unknown default configuration %d", s->config);
  if (s->prune < K2_CUDA_PRUNE_AUTO || s->prune > K2_CUDA_PRUNE_ALWAYS)
    return fail(kGrbInvalidValue, "CUDA engine: unknown pruning mode %d", s->prune);
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  g_settings = *s;
  return 0;
}

int k2_cuda_available(void) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  return ensure_init() ? 1 : 0;
}

int k2_cuda_upload(const k2_view *A, int config, void **device) {
  if (A == nullptr || device == nullptr) return kGrbInvalidValue;
  if (config < K2_CUDA_CONFIG_AUTO || config > K2_CUDA_CONFIG_ROWS)
    return fail(kGrbInvalidValue, "CUDA engine: unknown configuration %d", config);
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  DevMatrix *m = nullptr;
  int rc = upload(A, config, &m);
  *device = m;
  return rc;
}

void k2_cuda_release(void *device) {
  if (device == nullptr) return;
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  cudaStreamSynchronize(g_stream);
  release((DevMatrix *)device);
}

int k2_cuda_device_config(const void *device) {
  return device ? ((const DevMatrix *)device)->config : K2_CUDA_CONFIG_TREE;
}

int k2_cuda_resolve_config(const k2_view *A, int config) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  return resolve_config(A, config);
}

int k2_cuda_product(const k2_view *A, void *state, const k2_product *P) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  return product_host(A, state, P);
}

int k2_cuda_product_device(const k2_view *A, void *device, const k2_product *P) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  return product_device(A, device, P);
}

int k2_cuda_product_bytes(const k2_view *A, const void *device, int config, const k2_product *P,
                          k2_cuda_bytes *out) {
  if (A == nullptr || P == nullptr || out == nullptr) return kGrbInvalidValue;
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  memset(out, 0, sizeof *out);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  if (!view_ok(A)) return fail(K2_DECLINED, "CUDA engine: tree layout not supported by the engine");
  if (config == K2_CUDA_CONFIG_AUTO && device != nullptr)
    config = ((const DevMatrix *)device)->config;
  config = resolve_config(A, config);
  if (config < K2_CUDA_CONFIG_TREE || config > K2_CUDA_CONFIG_ROWS)
    return fail(kGrbInvalidValue, "CUDA engine: unknown configuration %d", config);
  if (config == K2_CUDA_CONFIG_ROWS) {
    int rc = rows_check(A);
    if (rc != 0) return rc;
  }
  uint64_t part[5];
  matrix_parts(A, config, part);
  out->matrix = part[0] + part[1] + part[2] + part[3] + part[4];
  if (A->n_internal == 0) {
    out->total = out->matrix;
    return 0;
  }
  // the resident copy's plan when it has this configuration (the one its products will use)
  Plan fresh, *plan = &fresh;
  DevMatrix *m = (DevMatrix *)device;
  const bool scan = resolve_scan(P->batch);
  int rc = m != nullptr && m->config == config
               ? get_plan(m, A, scan, &plan)
               : make_plan(A, config, g_settings.tile, scan, g_settings.fuse_levels, &fresh);
  if (rc != 0) return rc;
  out->scratch = plan->bytes;
  out->vectors = vector_bytes(A, P);
  out->total = out->matrix + out->scratch + out->vectors;
  out->tiles = config == K2_CUDA_CONFIG_ROWS ? 1 : plan->steps.size();
  return 0;
}

uint64_t k2_cuda_allocated_bytes(void) { return g_allocated.load(); }
uint64_t k2_cuda_peak_bytes(void) { return g_peak.load(); }
void k2_cuda_reset_peak(void) { g_peak.store(g_allocated.load()); }
uint64_t k2_cuda_live_allocations(void) { return g_live.load(); }

void k2_cuda_trim(void) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (g_host != nullptr) {  // the pinned staging of the sparse forms (nothing is in flight)
    cudaFreeHost(g_host);
    g_host = nullptr;
    g_host_bytes = 0;
  }
  vec_pool_clear();  // the device vectors' kept blocks
  if (g_vec_scratch != nullptr) {  // the device vectors' counters
    cudaStreamSynchronize(g_stream);
    dev_free(g_vec_scratch, kVecScratchBytes);
    g_vec_scratch = nullptr;
  }
  if (g_ws == nullptr) return;
  cudaStreamSynchronize(g_stream);
  dev_free(g_ws, g_ws_bytes);
  g_ws = nullptr;
  g_ws_bytes = 0;
  g_ws_gen++;
}

void *k2_cuda_stream(void) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  return ensure_init() ? (void *)g_stream : nullptr;
}

void *k2_cuda_malloc(uint64_t bytes) {
  void *p = nullptr;
  if (dev_alloc(&p, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return p;
}

void k2_cuda_free(void *p, uint64_t bytes) { dev_free(p, bytes); }

int k2_cuda_product_resident(const k2_view *A, void *device, const k2_product *P,
                             const k2_cuda_mask *mask, uint64_t *y_nvals) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  return product_resident(A, device, P, mask, y_nvals);
}

void *k2_cuda_vector_alloc(uint64_t bytes) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) {
    fail(K2_DECLINED, "CUDA engine: no CUDA device");
    return nullptr;
  }
  if (bytes == 0) bytes = 1;
  for (size_t i = 0; i < g_vec_pool.size(); i++) {
    if (g_vec_pool[i].bytes != bytes) continue;
    void *p = g_vec_pool[i].p;
    g_vec_pool.erase(g_vec_pool.begin() + (ptrdiff_t)i);
    return p;
  }
  void *p = nullptr;
  cudaError_t e = dev_alloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation && !g_vec_pool.empty()) {  // the kept blocks first
    (void)cudaGetLastError();
    vec_pool_clear();
    e = dev_alloc(&p, bytes);
  }
  if (e != cudaSuccess) {
    cuda_fail(e, "allocating a device vector");
    return nullptr;
  }
  return p;
}

void k2_cuda_vector_free(void *p, uint64_t bytes) {
  if (p == nullptr) return;
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (bytes == 0) bytes = 1;
  if (g_vec_pool.size() < kVecPoolMax) {
    g_vec_pool.push_back({p, bytes});
    return;
  }
  cudaStreamSynchronize(g_stream);  // no product in flight may still use it
  dev_free(p, bytes);
}

int k2_cuda_vector_copy(void *dst, const void *src, uint64_t bytes, int kind) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  if (bytes == 0) return 0;
  const cudaMemcpyKind k = kind == K2_CUDA_COPY_UP     ? cudaMemcpyHostToDevice
                           : kind == K2_CUDA_COPY_DOWN ? cudaMemcpyDeviceToHost
                                                       : cudaMemcpyDeviceToDevice;
  if (k == cudaMemcpyDeviceToDevice) {
    K2CU_TRY("copying a device vector", cudaMemcpyAsync(dst, src, bytes, k, g_stream));
    K2CU_TRY("copying a device vector", cudaStreamSynchronize(g_stream));
    return 0;
  }
  Piece one = {k == cudaMemcpyHostToDevice ? (void *)src : dst, 0, bytes};
  if (k == cudaMemcpyDeviceToHost) return stage_down((const char *)src, &one, 1, g_stream);
  int rc = stage_up((char *)dst, &one, 1, g_stream);
  if (rc == 0) K2CU_TRY("copying a device vector", cudaStreamSynchronize(g_stream));
  return rc;
}

int k2_cuda_vector_fill(void *p, int byte, uint64_t bytes) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  if (bytes == 0) return 0;
  K2CU_TRY("filling a device vector", cudaMemsetAsync(p, byte, bytes, g_stream));
  return 0;
}

int k2_cuda_vector_assign(void *v, uint8_t *vp, const uint8_t *m, const void *w, const uint8_t *wp,
                          const void *scalar, uint32_t ts, uint64_t n) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  uint64_t bits = 0;
  if (scalar != nullptr) memcpy(&bits, scalar, ts);
  K2CU_TRY("assigning to a device vector", launch_assign(v, vp, m, w, wp, bits, ts, n, g_stream));
  return 0;
}

int k2_cuda_vector_ewise(void *z, uint8_t *zp, const void *x, const uint8_t *xp, const void *y,
                         const uint8_t *yp, k2_type t, int op, bool add, uint64_t n) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  K2CU_TRY("an element-wise operation on device vectors",
           launch_ewise(z, zp, x, xp, y, yp, t, op, add, n, g_stream));
  return 0;
}

int k2_cuda_vector_apply(void *z, uint8_t *zp, const void *x, const uint8_t *xp, k2_type t, int op,
                         uint64_t n) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  K2CU_TRY("an operator applied to a device vector", launch_apply(z, zp, x, xp, t, op, n, g_stream));
  return 0;
}

int k2_cuda_vector_count(const uint8_t *p, uint64_t n, uint64_t *count) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  void *d;
  int rc = vec_scratch(&d);
  if (rc != 0) return rc;
  unsigned long long *c = (unsigned long long *)d;
  K2CU_TRY("counting a device vector's entries", cudaMemsetAsync(c, 0, 8, g_stream));
  K2CU_TRY("counting a device vector's entries", launch_count_present(p, n, c, g_stream));
  K2CU_TRY("counting a device vector's entries", cudaMemcpyAsync(g_host, c, 8, cudaMemcpyDeviceToHost, g_stream));
  K2CU_TRY("counting a device vector's entries", cudaStreamSynchronize(g_stream));
  *count = *(unsigned long long *)g_host;
  return 0;
}

int k2_cuda_vector_sum(const void *x, const uint8_t *p, k2_type t, uint64_t n, int64_t *isum,
                       double *fsum) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  void *d;
  int rc = vec_scratch(&d);
  if (rc != 0) return rc;
  K2CU_TRY("summing a device vector", cudaMemsetAsync(d, 0, 16, g_stream));
  K2CU_TRY("summing a device vector",
           launch_sum(x, p, t, n, (unsigned long long *)d, (double *)((char *)d + 8), g_stream));
  K2CU_TRY("summing a device vector", cudaMemcpyAsync(g_host, d, 16, cudaMemcpyDeviceToHost, g_stream));
  K2CU_TRY("summing a device vector", cudaStreamSynchronize(g_stream));
  memcpy(isum, g_host, 8);
  memcpy(fsum, (char *)g_host + 8, 8);
  return 0;
}

int k2_cuda_product_resident_batch(const k2_view *A, void *device, const k2_product *P,
                                   const k2_cuda_mask *mask, uint64_t *y_nvals) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  return product_resident_batch(A, device, P, mask, y_nvals);
}

int k2_cuda_vector_extract(void *w, uint8_t *wp, const void *u, const uint8_t *up, uint64_t nu,
                           const void *I, const uint8_t *Ip, bool index64, uint32_t ts, uint64_t n,
                           uint64_t *bad, uint64_t *w_nvals) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  void *d;
  int rc = vec_scratch(&d);
  if (rc != 0) return rc;
  unsigned long long *c = (unsigned long long *)d;  // [0]: bad indices, [1]: entries of w
  K2CU_TRY("extracting from a device vector", cudaMemsetAsync(c, 0, 16, g_stream));
  K2CU_TRY("extracting from a device vector",
           launch_extract(w, wp, u, up, nu, I, Ip, index64, ts, n, c, c + 1, g_stream));
  K2CU_TRY("extracting from a device vector", cudaMemcpyAsync(g_host, c, 16, cudaMemcpyDeviceToHost, g_stream));
  K2CU_TRY("extracting from a device vector", cudaStreamSynchronize(g_stream));
  const unsigned long long *h = (const unsigned long long *)g_host;
  *bad = h[0];
  *w_nvals = h[1];
  return 0;
}

int k2_cuda_vector_list(const void *x, const uint8_t *xp, uint64_t n, uint32_t ts, uint64_t nvals, uint64_t *list,
                        void *vals) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  if (n == 0 || nvals == 0) return 0;
  // in the workspace: the selection's temporary, then the list, the values and the count (the
  // selection writes it), which come back in one copy
  const uint64_t temp = select_temp_bytes(n);
  if (temp == 0) return fail(kGrbPanic, "CUDA engine: no temporary size for listing %llu entries", (unsigned long long)n);
  const uint64_t at_list = align_up(temp), at_vals = at_list + align_up(nvals * 8),
                 at_cnt = at_vals + align_up(nvals * ts), back = at_cnt + 8 - at_list;
  int rc = ensure_workspace(at_cnt + 8);
  if (rc == 0) rc = ensure_staging(back);
  if (rc != 0) return rc;
  char *ws = (char *)g_ws;
  cudaStream_t s = g_stream;
  K2CU_TRY("listing a device vector's entries",
           launch_list_outputs(ws, temp, xp, n, (uint64_t *)(ws + at_list), (unsigned long long *)(ws + at_cnt), x,
                               ts, ws + at_vals, s));
  const char *h = (const char *)g_host;
  K2CU_TRY("copying the entries to the host", cudaMemcpyAsync(g_host, ws + at_list, back, cudaMemcpyDeviceToHost, s));
  K2CU_TRY("copying the entries to the host", cudaStreamSynchronize(s));
  uint64_t found;
  memcpy(&found, h + (at_cnt - at_list), 8);
  if (found != nvals)
    return fail(kGrbPanic, "CUDA engine: the vector holds %llu entries, not the %llu it counted",
                (unsigned long long)found, (unsigned long long)nvals);
  memcpy(list, h, nvals * 8);
  memcpy(vals, h + (at_vals - at_list), nvals * ts);
  return 0;
}

uint64_t k2_cuda_set_frontier_max(uint64_t nodes) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  const uint64_t was = g_frontier_max;
  g_frontier_max = nodes == 0 ? kFrontierMax : nodes;
  return was;
}

}  // extern "C"
