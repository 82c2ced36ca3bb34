// k2_cuda_algorithms.cu: algorithms whole on the device (BFS, msBFS, PageRank): their vectors
// stay in the workspace, each level or iteration is one recorded CUDA graph, and the host waits
// once per level or iteration for a count or a norm.
// SPDX-License-Identifier: Apache-2.0
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cuda/k2_cuda_engine.cuh"
#include "util/k2_clock.h"

namespace k2cu {
namespace {
// the levels of the last single-source BFS (k2_cuda_bfs_report), under g_mu
std::vector<k2_cuda_bfs_level> g_bfs_levels;

// PageRank's iterations whole on the device (LAGraph's model with the sinks' presence `sink`,
// GAP's without): per iteration t = r, w = t ./ d, y = w' A (PLUS_FIRST FP32, no presence, so the
// specialised plus kernels apply), r = teleport + y and the change sum |t - r|, recorded once as a
// CUDA graph and replayed; the host waits once per iteration, for the change. r and rp (its
// presence) are device arrays; r starts at 1/n. *touched says whether r was written.
int pagerank_run(const k2_view *A, void *device, const float *d, const uint8_t *sink, float damping, float tol,
                 int itermax, float *r, uint8_t *rp, int *iters, float *rdiff, bool *touched) {
  *touched = false;
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  DevMatrix *m = (DevMatrix *)device;
  if (m == nullptr) return fail(kGrbInvalidValue, "CUDA engine: PageRank on the device needs a resident matrix");
  if (A->nrows != A->ncols) return fail(K2_DECLINED, "CUDA engine: PageRank needs a square matrix");
  if (m->config == K2_CUDA_CONFIG_ROWS)
    return fail(K2_DECLINED, "CUDA engine: PageRank on the device runs on the tree, not on the row blocks");
  const uint64_t n = A->nrows;
  cudaStream_t s = g_stream;
  const bool scan = resolve_scan(1);
  Plan *plan = nullptr;
  if (A->n_internal != 0) {
    int rc = get_plan(m, A, scan, &plan);
    if (rc != 0) return rc;
  }
  // the workspace: the plan's scratch, t, w, y (n floats each), then three doubles (the sinks'
  // rank, a spare integer sum, the change)
  const uint64_t base = plan != nullptr ? align_up(plan->bytes) : 0, vec = align_up(4 * n);
  const uint64_t need = base + 3 * vec + 32;
  if (g_settings.budget != 0 && m->mem_bytes + need > g_settings.budget)
    return fail(K2_DECLINED, "CUDA engine: PageRank needs %llu device bytes, over the budget of %llu",
                (unsigned long long)(m->mem_bytes + need), (unsigned long long)g_settings.budget);
  int rc = ensure_workspace(need);
  if (rc != 0) return rc;
  rc = ensure_staging(32);
  if (rc != 0) return rc;
  char *ws = (char *)g_ws;
  float *t = (float *)(ws + base), *w = (float *)(ws + base + vec), *y = (float *)(ws + base + 2 * vec);
  double *scal = (double *)(ws + base + 3 * vec);
  *touched = true;
  const float r0 = 1.0f / (float)n;
  uint32_t r0_bits;
  memcpy(&r0_bits, &r0, 4);
  K2CU_TRY("setting the first ranks", launch_assign(r, rp, nullptr, nullptr, nullptr, r0_bits, 4, n, s));
  k2_product D;
  memset(&D, 0, sizeof D);
  D.left = true;
  D.batch = 1;
  D.type = K2_T_FP32;
  D.monoid = K2_MON_PLUS;
  D.mult = K2_MUL_X;
  D.x = w;
  D.y = y;
  D.w = A->weight;
  const float scaled = (1 - damping) / (float)n, damping_over_n = damping / (float)n;
  auto iteration = [&]() -> int {
    K2CU_TRY("clearing the sums", cudaMemsetAsync(scal, 0, 32, s));
    K2CU_TRY("keeping the old ranks, dividing by the degrees and summing the sinks' rank",
             launch_pr_prepare(w, t, r, d, sink, n, scal, s));
    if (plan != nullptr) {
      int e = enqueue(m, plan, &D, ws, s);
      if (e != 0) return e;
    } else {
      K2CU_TRY("clearing y", cudaMemsetAsync(y, 0, 4 * n, s));
    }
    K2CU_TRY("adding the teleport",
             launch_pr_update(r, t, y, n, scaled, damping_over_n, sink != nullptr ? scal : nullptr, scal + 2, s));
    K2CU_TRY("copying the change to the host", cudaMemcpyAsync(g_host, scal + 2, 8, cudaMemcpyDeviceToHost, s));
    return 0;
  };
  OwnedGraphs<1> graph;
  float diff = 1;
  int k = 0;
  for (; k < itermax && diff > tol; k++) {
    rc = g_settings.graphs ? record_and_launch(&graph.g[0], s, "recording and launching an iteration", iteration)
                           : iteration();
    if (rc != 0) return rc;
    K2CU_TRY("running an iteration", cudaStreamSynchronize(s));
    diff = (float)*(const double *)g_host;
  }
  *iters = k;
  *rdiff = diff;
  return 0;
}

// The key of a BFS level's recorded graph, its common part: the workspace (generation, address,
// the plan's layout in it), the frontier's address and the direction.
BfsKey bfs_key(const DevMatrix *m, const char *ws, const void *frontier, bool left) {
  BfsKey key;
  memset(&key, 0, sizeof key);  // the padding too: keys are compared bytewise
  key.ws_gen = g_ws_gen;
  key.plan_id = m->plan_id[resolve_scan(1) ? 1 : 0];
  key.ws = ws;
  key.frontier = frontier;
  key.left = left;
  return key;
}

// Where a bitwise BFS writes its levels: the caller's dist and dp (device, INT32 and presence),
// or bytes in the workspace (dist8) that go through the staging buffer to span() every 254
// levels and at the end.
struct LevelsOut {
  int32_t *dist = nullptr;
  uint8_t *dp = nullptr;
  uint8_t *dist8 = nullptr;
  k2_cuda_levels_span span = nullptr;
  void *ctx = nullptr;
};

// A multi-source BFS whole on the device, its frontiers and visited sets as words of bits (one
// bit per source, B <= 64): per level one traversal (the bitwise leaf kernel, the visited words
// as its skip mask, the frontier's summary to pass over the nodes no frontier vertex reaches)
// and one update kernel, recorded as a CUDA graph per frontier side, kept with the matrix and
// replayed; the host waits once per level for the count of new entries. The levels go where
// `out` says; *reached = their entries.
int bfs_levels_run(const k2_view *A, DevMatrix *m, const Plan *plan, char *ws, bool left, const uint64_t *sources,
                   uint32_t B, LevelsOut &out, uint64_t *reached);

// The summary words of the bitwise BFS's frontier: a bit per node of the last internal level.
uint64_t levels_sum_words(const DevMatrix *m, uint64_t n) {
  const uint32_t shift = m->leaf_log + 1;
  return (((n + (UINT64_C(1) << shift) - 1) >> shift) + 31) / 32;
}

// The bitwise BFS's state after the plan's scratch: F, N, V (n words each), the sources, two
// level numbers, two counts and two frontier summaries.
uint64_t levels_state_bytes(const DevMatrix *m, uint64_t n, uint32_t B) {
  return 8 * (3 * n + B) + 8 + 16 + 8 * levels_sum_words(m, n);
}

int bfs_levels(const k2_view *A, void *device, bool left, const uint64_t *sources, uint32_t B, LevelsOut &out,
               uint64_t *reached) {
  *reached = K2_CUDA_NVALS_UNKNOWN;  // dist untouched, unless a later failure says otherwise
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  DevMatrix *m = (DevMatrix *)device;
  if (m == nullptr) return fail(kGrbInvalidValue, "CUDA engine: a BFS on the device needs a resident matrix");
  if (B == 0 || B > 64 || A->nrows != A->ncols)
    return fail(K2_DECLINED, "CUDA engine: the bitwise BFS takes 1 to 64 sources on a square matrix");
  if (m->config == K2_CUDA_CONFIG_ROWS)
    return fail(K2_DECLINED, "CUDA engine: the bitwise BFS runs on the tree, not on the row blocks");
  const uint64_t n = A->nrows;
  // everything that can fail for want of memory comes before the first write to dist
  const bool scan = resolve_scan(1);
  Plan *plan = nullptr;
  if (A->n_internal != 0) {
    int rc = get_plan(m, A, scan, &plan);
    if (rc != 0) return rc;
  }
  // the workspace: the plan's scratch, then the search's state, then the level bytes (if wanted)
  const uint64_t base = plan != nullptr ? align_up(plan->bytes) : 0;
  const uint64_t state = align_up(levels_state_bytes(m, n, B));
  const uint64_t need = base + state + (out.span != nullptr ? n * B : 0);
  if (g_settings.budget != 0 && m->mem_bytes + need > g_settings.budget)
    return fail(K2_DECLINED, "CUDA engine: the BFS needs %llu device bytes, over the budget of %llu",
                (unsigned long long)(m->mem_bytes + need), (unsigned long long)g_settings.budget);
  int rc = ensure_workspace(need);
  if (rc != 0) return rc;
  rc = ensure_staging(std::max<uint64_t>({8 * B, 16, out.span != nullptr ? std::min(n * B, kStageMax) : 0}));
  if (rc != 0) return rc;
  if (out.span != nullptr) out.dist8 = (uint8_t *)g_ws + base + state;
  rc = bfs_levels_run(A, m, plan, (char *)g_ws, left, sources, B, out, reached);
  if (rc != 0) {  // dist was written: leave it empty (as far as the device still allows)
    if (out.dp != nullptr) cudaMemsetAsync(out.dp, 0, n * B, g_stream);
    cudaStreamSynchronize(g_stream);
    *reached = 0;
  }
  return rc;
}

// The level bytes of the span that starts after level `base` to the host (through the pinned
// staging buffer, a chunk at a time), handed to the caller's span(), then cleared on the device
// for the next span.
int levels_flush(const LevelsOut &out, uint64_t bytes, int32_t base, cudaStream_t s) {
  for (uint64_t off = 0; off < bytes;) {
    const uint64_t len = std::min(bytes - off, kStageMax);
    K2CU_TRY("copying the levels to the host", cudaMemcpyAsync(g_host, out.dist8 + off, len, cudaMemcpyDeviceToHost, s));
    K2CU_TRY("copying the levels to the host", cudaStreamSynchronize(s));
    out.span(out.ctx, (const uint8_t *)g_host, off, len, base);
    off += len;
  }
  K2CU_TRY("clearing the levels", cudaMemsetAsync(out.dist8, 0xFF, bytes, s));
  return 0;
}

// bfs_levels after its allocations: from the first write to dist on.
int bfs_levels_run(const k2_view *A, DevMatrix *m, const Plan *plan, char *ws, bool left, const uint64_t *sources,
                   uint32_t B, LevelsOut &out, uint64_t *reached) {
  cudaStream_t s = g_stream;
  const uint64_t n = A->nrows;
  const uint64_t base = plan != nullptr ? align_up(plan->bytes) : 0;
  const uint64_t sum_words = levels_sum_words(m, n);
  const uint32_t sum_shift = m->leaf_log + 1;
  uint64_t *F = (uint64_t *)(ws + base), *N = F + n, *V = N + n, *src = V + n;
  int32_t *level = (int32_t *)(src + B);                      // [2]: by frontier side
  unsigned long long *cnt = (unsigned long long *)(level + 2);  // [2]
  uint32_t *sum = (uint32_t *)(cnt + 2);                        // [2][sum_words]
  if (out.dist8 != nullptr) {
    K2CU_TRY("clearing the levels", cudaMemsetAsync(out.dist8, 0xFF, n * B, s));
  } else {
    K2CU_TRY("clearing the distances", cudaMemsetAsync(out.dp, 0, n * B, s));
  }
  K2CU_TRY("clearing the frontiers, the visited set, the counts and the summaries",
           cudaMemsetAsync(F, 0, levels_state_bytes(m, n, B), s));
  memcpy(g_host, sources, 8 * B);
  K2CU_TRY("copying the sources to the device", cudaMemcpyAsync(src, g_host, 8 * B, cudaMemcpyHostToDevice, s));
  const int32_t one = 1;  // the first level is odd: its slot is 1
  K2CU_TRY("setting the first level", cudaMemcpyAsync(level + 1, &one, 4, cudaMemcpyHostToDevice, s));
  K2CU_TRY("seeding the sources",
           launch_bfs_seed(src, B, F, V, out.dist, out.dp, out.dist8, sum + sum_words, sum_shift, s));
  // the sources' own entries (a repeated source counts once per bit)
  uint64_t total = B;
  int32_t span_base = 0;  // the levels before the current span of level bytes
  if (A->n_internal == 0) {
    K2CU_TRY("running the BFS", cudaStreamSynchronize(s));
    if (out.dist8 != nullptr) {
      int rc = levels_flush(out, n * B, span_base, s);
      if (rc != 0) return rc;
    }
    *reached = total;
    return 0;
  }
  k2_product D;
  memset(&D, 0, sizeof D);
  D.left = left;
  D.batch = 1;
  D.type = K2_T_BOOL;
  D.monoid = K2_MON_LOR;
  D.mult = K2_MUL_X;
  // a level's graph per frontier side, kept with the matrix: the next search with the same
  // distances (the vector pool hands the same blocks back) replays them
  BfsKey key = bfs_key(m, ws, F, left);
  key.level = out.dist8 != nullptr ? (const void *)out.dist8 : (const void *)out.dist;
  key.lp = out.dp;
  key.lts = out.dist8 != nullptr ? 1 : 0;
  key.pts = B;
  for (uint64_t k = 1; k <= n; k++) {
    const int side = (int)(k & 1);  // level k: frontier, counts and summary in slot `side`
    uint64_t *from = side ? F : N, *to = side ? N : F;
    auto launches = [&]() -> int {
      BitsArgs ba;
      ba.xv = from;
      ba.xp = from;
      ba.yv = to;  // every contribution is true: values and presence are one word
      ba.yp = to;  // (cleared: by the update two levels back, or at the start)
      ba.skip = V;
      ba.in_sum = sum + side * sum_words;
      int r = enqueue(m, plan, &D, ws, s, &ba);
      if (r != 0) return r;
      BfsLevelArgs la;
      la.next = to;
      la.visited = V;
      la.frontier = from;
      la.dist = out.dist;
      la.dp = out.dp;
      la.dist8 = out.dist8;
      la.n = n;
      la.B = B;
      la.level = level + side;
      la.level_next = level + (side ^ 1);
      la.count = cnt + side;
      la.count_next = cnt + (side ^ 1);
      la.sum_next = sum + (side ^ 1) * sum_words;
      la.sum_done = sum + side * sum_words;
      la.sum_words = sum_words;
      la.sum_shift = sum_shift;
      K2CU_TRY("recording the new frontier", launch_bfs_update(la, s));
      return 0;
    };
    key.side = side;
    int rc = g_settings.graphs ? m->levels_graphs.launch(key, s, "recording and launching a BFS level", launches)
                               : launches();
    if (rc != 0) return rc;
    K2CU_TRY("copying the count to the host", cudaMemcpyAsync(g_host, cnt + side, 8, cudaMemcpyDeviceToHost, s));
    K2CU_TRY("running the BFS", cudaStreamSynchronize(s));
    const uint64_t c = *(const unsigned long long *)g_host;
    if (c == 0) break;
    total += c;
    if (out.dist8 != nullptr && k % 254 == 0) {  // the span's bytes are full: to the host
      rc = levels_flush(out, n * B, span_base, s);
      if (rc != 0) return rc;
      span_base = (int32_t)k;
    }
  }
  if (out.dist8 != nullptr) {
    int rc = levels_flush(out, n * B, span_base, s);
    if (rc != 0) return rc;
  }
  *reached = total;
  return 0;
}


// A single-source BFS whole on the device: levels and parents (either may be NULL), the frontier,
// the next one and the visited set as bytes. A level is one traversal (LOR for levels alone, ANY
// with the input's index for parents, the visited set as the skip mask), pruned by the frontier,
// by the unvisited outputs or both where the estimate says so (sparse_plan, from the counts the
// host learnt at the last wait), then one kernel that records the new vertices. Each (traversal,
// frontier side) is recorded as a CUDA graph on first use; the host waits once per level.
int bfs_one_run(const k2_view *A, DevMatrix *m, const Plan *plan, char *ws, const SparseLayout &L, bool left,
                uint64_t src, void *level, uint8_t *lp, uint32_t lts, void *parent, uint8_t *pp, uint32_t pts,
                uint64_t capacity, uint64_t max_depth, bool *complete, uint64_t *reached);

int bfs_one(const k2_view *A, void *device, bool left, uint64_t src, void *level, uint8_t *lp, uint32_t lts,
            void *parent, uint8_t *pp, uint32_t pts, uint64_t max_depth, bool *complete, uint64_t *reached) {
  *reached = K2_CUDA_NVALS_UNKNOWN;  // level and parent untouched, unless a later failure says otherwise
  *complete = false;
  if (!ensure_init()) return fail(K2_DECLINED, "CUDA engine: no CUDA device");
  DevMatrix *m = (DevMatrix *)device;
  if (m == nullptr) return fail(kGrbInvalidValue, "CUDA engine: a BFS on the device needs a resident matrix");
  if (A->nrows != A->ncols || src >= A->nrows || (level == nullptr && parent == nullptr))
    return fail(kGrbInvalidValue, "CUDA engine: the BFS needs a square matrix, a vertex and a result");
  if (m->config == K2_CUDA_CONFIG_ROWS)
    return fail(K2_DECLINED, "CUDA engine: the single-source BFS runs on the tree, not on the row blocks");
  const uint64_t n = A->nrows;
  // everything that can fail for want of memory comes before the first write to the results
  const bool scan = resolve_scan(1);
  Plan *plan = nullptr;
  if (A->n_internal != 0) {
    int rc = get_plan(m, A, scan, &plan);
    if (rc != 0) return rc;
  }
  // the workspace: the plan's scratch; the pruned traversal's counters, stripe bitmaps and
  // frontiers (as wide as the widest level, at most g_frontier_max nodes); then F, N, V (n bytes
  // each), the parents found (n x pts), the level number and the count
  const uint64_t base = plan != nullptr ? align_up(plan->bytes) : 0;
  k2_product D;
  memset(&D, 0, sizeof D);
  D.left = left;
  D.batch = 1;
  SparsePlan widest;
  bool may_prune = plan != nullptr && g_settings.prune != K2_CUDA_PRUNE_NEVER && m->levels >= 2 &&
                   m->levels <= kPruneMaxLevels;
  if (may_prune) {
    widest.prune_in = widest.prune_out = true;
    for (uint32_t t = m->top_level; t < m->levels; t++) widest.capacity = std::max(widest.capacity, level_width(m, t));
    widest.capacity = std::min(widest.capacity, g_frontier_max);  // a level that holds more runs again in full
    widest.bitmap_bytes = align_up(((UINT64_C(1) << m->levels) + 7) / 8);
  }
  SparseLayout L;
  memset(&L, 0, sizeof L);
  sparse_layout(m, &D, widest, base, &L);
  const uint64_t cand_bytes = align_up(n * (parent != nullptr ? pts : 1));
  uint64_t need = base + L.bytes + 3 * align_up(n) + cand_bytes + 16;
  if (may_prune && g_settings.budget != 0 && m->mem_bytes + need > g_settings.budget) {
    may_prune = false;  // the full traversal alone needs no frontiers
    widest = SparsePlan();
    sparse_layout(m, &D, widest, base, &L);
    need = base + L.bytes + 3 * align_up(n) + cand_bytes + 16;
  }
  if (g_settings.budget != 0 && m->mem_bytes + need > g_settings.budget)
    return fail(K2_DECLINED, "CUDA engine: the BFS needs %llu device bytes, over the budget of %llu",
                (unsigned long long)(m->mem_bytes + need), (unsigned long long)g_settings.budget);
  int rc = ensure_workspace(need);
  if (rc != 0) return rc;
  rc = ensure_staging(kCountersBytes);
  if (rc != 0) return rc;
  rc = bfs_one_run(A, m, plan, (char *)g_ws, L, left, src, level, lp, lts, parent, pp, pts, widest.capacity,
                   max_depth, complete, reached);
  if (rc != 0) {  // the results were written: leave them empty (as far as the device still allows)
    if (level != nullptr) cudaMemsetAsync(lp, 0, n, g_stream);
    if (parent != nullptr) cudaMemsetAsync(pp, 0, n, g_stream);
    cudaStreamSynchronize(g_stream);
    *reached = 0;
  }
  return rc;
}

// bfs_one after its allocations: from the first write to the results on.
int bfs_one_run(const k2_view *A, DevMatrix *m, const Plan *plan, char *ws, const SparseLayout &L, bool left,
                uint64_t src, void *level, uint8_t *lp, uint32_t lts, void *parent, uint8_t *pp, uint32_t pts,
                uint64_t capacity, uint64_t max_depth, bool *complete, uint64_t *reached) {
  cudaStream_t s = g_stream;
  const uint64_t n = A->nrows;
  uint8_t *F = (uint8_t *)(ws + (plan != nullptr ? align_up(plan->bytes) : 0) + L.bytes);
  uint8_t *N = F + align_up(n), *V = N + align_up(n);
  char *cand = (char *)(V + align_up(n));
  int64_t *k = (int64_t *)(cand + align_up(n * (parent != nullptr ? pts : 1)));
  unsigned long long *cnt = (unsigned long long *)(k + 1);
  unsigned long long *counters = (unsigned long long *)(ws + L.counters);
  g_bfs_levels.clear();
  K2CU_TRY("seeding the source", launch_bfs_one_seed(src, n, F, align_up(n), level, lp, lts, parent, pp, pts, k, s));
  uint64_t total = 1, frontier = 1;
  if (A->n_internal == 0 || max_depth == 0) {
    K2CU_TRY("running the BFS", cudaStreamSynchronize(s));
    *reached = total;
    *complete = A->n_internal == 0;
    return 0;
  }
  k2_product D;
  memset(&D, 0, sizeof D);
  D.left = left;
  D.batch = 1;
  if (parent != nullptr) {
    D.type = pts == 8 ? K2_T_INT64 : K2_T_INT32;
    D.monoid = K2_MON_ANY;
    D.mult = K2_MUL_INDEX;  // the input's index: the vertex the edge leaves
  } else {
    D.type = K2_T_BOOL;
    D.monoid = K2_MON_LOR;
    D.mult = K2_MUL_X;
  }
  D.w = A->weight;
  D.y = cand;
  D.y_skip = V;
  const uint64_t ncnt = m->levels + 1;
  // a level's graph per (traversal, side), kept with the matrix: the next BFS with the same
  // vectors (the vector pool hands the same blocks back) replays them
  BfsKey key = bfs_key(m, ws, F, left);
  key.capacity = capacity;
  key.level = level;
  key.lp = lp;
  key.parent = parent;
  key.pp = pp;
  key.w = D.w;
  key.lts = lts;
  key.pts = pts;
  key.fast = g_settings.fast_leaf;
  bool full_again = false;  // the last pruned traversal overflowed its frontier: this level in full
  *complete = true;
  for (uint64_t lev = 1; lev <= n;) {
    if (lev > max_depth) {  // stopped with a frontier still to expand
      *complete = false;
      break;
    }
    const double start = k2_clock_now();
    const int side = (int)(lev & 1);
    uint8_t *from = side ? F : N, *to = side ? N : F;
    D.x = from;
    D.x_present = from;
    D.y_present = to;
    SparsePlan sp;
    if (capacity != 0 && !full_again) {
      sparse_plan(A, m, plan, &D, frontier, n - total, &sp);
      sp.capacity = capacity;
    }
    const int mode = (sp.prune_in ? 1 : 0) | (sp.prune_out ? 2 : 0);
    auto launches = [&]() -> int {
      int r;
      if (mode != 0) {
        r = enqueue_pruned(m, &D, sp, ws, L, s);
      } else {
        K2CU_TRY("clearing the counters", cudaMemsetAsync(counters, 0, ncnt * 8, s));
        r = enqueue(m, plan, &D, ws, s);
      }
      if (r != 0) return r;
      K2CU_TRY("clearing the count", cudaMemsetAsync(cnt, 0, 8, s));
      K2CU_TRY("recording the new frontier",
               launch_bfs_one_visit(to, V, n, level, lp, lts, parent, pp, pts, cand, k, cnt,
                                    mode != 0 ? counters + m->top_level : nullptr, m->levels - m->top_level,
                                    capacity, s));
      return 0;
    };
    key.mode = mode;
    key.side = side;
    int rc = g_settings.graphs ? m->bfs_graphs.launch(key, s, "recording and launching a BFS level", launches)
                               : launches();
    if (rc != 0) return rc;
    // outside the graph: a copy to pinned memory that was freed and pinned again at the same
    // address (the staging buffer grows) must not replay into the old pages
    K2CU_TRY("copying the counters to the host", cudaMemcpyAsync(g_host, counters, ncnt * 8, cudaMemcpyDeviceToHost, s));
    K2CU_TRY("copying the count to the host",
             cudaMemcpyAsync((char *)g_host + ncnt * 8, cnt, 8, cudaMemcpyDeviceToHost, s));
    K2CU_TRY("running the BFS", cudaStreamSynchronize(s));
    const unsigned long long *h = (const unsigned long long *)g_host;
    uint64_t expanded = 0;
    full_again = mode != 0 && frontier_overflowed(m, sp, h, &expanded);  // nothing was recorded
    k2_cuda_bfs_level rep;
    rep.frontier = frontier;
    rep.found = full_again ? 0 : h[ncnt];
    rep.expanded = expanded;
    rep.seconds = k2_clock_now() - start;
    rep.mode = mode;
    rep.overflow = full_again;
    g_bfs_levels.push_back(rep);
    if (full_again) continue;
    frontier = h[ncnt];
    if (frontier == 0) break;
    total += frontier;
    lev++;
  }
  *reached = total;
  return 0;
}
}  // namespace
}  // namespace k2cu

using namespace k2cu;

extern "C" {

int k2_cuda_pagerank(const k2_view *A, void *device, const float *d, const uint8_t *sink, float damping, float tol,
                     int itermax, float *rank, uint8_t *rank_present, int *iters, float *rdiff, bool *touched) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  int rc = pagerank_run(A, device, d, sink, damping, tol, itermax, rank, rank_present, iters, rdiff, touched);
  if (rc != 0 && *touched) {  // r was written: leave it empty (as far as the device still allows)
    cudaMemsetAsync(rank_present, 0, A->nrows, g_stream);
    cudaStreamSynchronize(g_stream);
  }
  return rc;
}

int k2_cuda_bfs_levels(const k2_view *A, void *device, bool left, const uint64_t *sources, uint32_t nsources,
                       int32_t *dist, uint8_t *dist_present, uint64_t *reached) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  LevelsOut out;
  out.dist = dist;
  out.dp = dist_present;
  return bfs_levels(A, device, left, sources, nsources, out, reached);
}

int k2_cuda_bfs_levels_bytes(const k2_view *A, void *device, bool left, const uint64_t *sources, uint32_t nsources,
                             k2_cuda_levels_span span, void *ctx, uint64_t *reached) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  if (span == nullptr) {
    *reached = K2_CUDA_NVALS_UNKNOWN;
    return fail(kGrbInvalidValue, "CUDA engine: the BFS's level bytes need a span function");
  }
  LevelsOut out;
  out.span = span;
  out.ctx = ctx;
  return bfs_levels(A, device, left, sources, nsources, out, reached);
}


int k2_cuda_bfs_one(const k2_view *A, void *device, bool left, uint64_t source, void *level, uint8_t *level_present,
                    uint32_t level_bytes, void *parent, uint8_t *parent_present, uint32_t parent_bytes,
                    uint64_t max_depth, bool *complete, uint64_t *reached) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  return bfs_one(A, device, left, source, level, level_present, level_bytes, parent, parent_present, parent_bytes,
                 max_depth, complete, reached);
}

uint64_t k2_cuda_bfs_report(k2_cuda_bfs_level *out, uint64_t cap) {
  std::lock_guard<std::recursive_mutex> lock(g_mu);
  const uint64_t count = g_bfs_levels.size();
  if (out != nullptr) std::copy_n(g_bfs_levels.begin(), std::min(cap, count), out);
  return count;
}
}  // extern "C"
