// k2_cuda_engine.cuh: the engine's shared state and steps, for its .cu files (residency and
// products in k2_cuda_engine.cu, whole algorithms in k2_cuda_algorithms.cu). Everything here runs
// under g_mu, on g_stream.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_CUDA_ENGINE_CUH
#define K2_CUDA_ENGINE_CUH

#include <cuda_runtime.h>

#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "cuda/k2_cuda_internal.cuh"
#include "cuda/k2_cuda_plan.cuh"

namespace k2cu {

constexpr int kGrbOutOfMemory = -102;
constexpr int kGrbPanic = -101;
constexpr int kGrbInvalidValue = -3;

// ---- engine-wide state (k2_cuda_engine.cu) ----
extern std::recursive_mutex g_mu;  // products, uploads and settings are serialised
extern k2_cuda_settings g_settings;
extern cudaStream_t g_stream;
extern void *g_ws;        // the shared workspace: scratch + vector buffers
extern uint64_t g_ws_gen; // bumped on every reallocation (recorded graphs point into it)
extern void *g_host;      // pinned staging memory (ensure_staging)

// Record the message of a failure and return info; a CUDA error while doing `what` (in words):
// allocation failures decline (the dispatcher falls back to the CPU), anything else is GrB_PANIC.
int fail(int info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cuda_fail(cudaError_t e, const char *what);
#define K2CU_TRY(what, call)                                          \
  do {                                                                \
    cudaError_t k2cu_e_ = (call);                                     \
    if (k2cu_e_ != cudaSuccess) return cuda_fail(k2cu_e_, (what));    \
  } while (0)

// What a recorded graph was recorded for. Compared with memcmp, so it is zeroed (padding too)
// before its fields are set.
struct GraphKey {
  uint64_t ws_gen, plan_id;
  const void *scratch;
  int type, mon;
  VecArgs v;
  bool operator==(const GraphKey &o) const { return memcmp(this, &o, sizeof *this) == 0; }
};

// What a recorded product of a Boolean batch as words of bits depends on: every pointer and
// setting its launches read. An algorithm alternates between a few (a result and its spare), so
// each matrix keeps the last kBitsGraphs of them.
struct BitsKey {
  uint64_t ws_gen, plan_id;
  const void *ws, *counter, *x, *xp, *y, *yp, *mp, *mv;
  uint64_t n_in, n_out;
  int mtype, mode;
  uint32_t batch;
  bool masked, structural, complement, left;
  bool operator==(const BitsKey &o) const { return memcmp(this, &o, sizeof *this) == 0; }
};
constexpr size_t kBitsGraphs = 4;

// Launch *exec on s, recording it first (from what `launches` enqueues) when it is NULL: a
// sequence replayed many times costs one launch instead of one per kernel.
template <typename F>
int record_and_launch(cudaGraphExec_t *exec, cudaStream_t s, const char *what, F &&launches) {
  if (*exec == nullptr) {
    K2CU_TRY(what, cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    const int rc = launches();
    cudaGraph_t graph = nullptr;
    const cudaError_t e = cudaStreamEndCapture(s, &graph);
    if (rc != 0) {
      if (graph != nullptr) cudaGraphDestroy(graph);
      return rc;
    }
    if (e != cudaSuccess) return cuda_fail(e, what);
    const cudaError_t ie = cudaGraphInstantiate(exec, graph, 0);
    cudaGraphDestroy(graph);
    if (ie != cudaSuccess) {
      *exec = nullptr;
      return cuda_fail(ie, what);
    }
  }
  K2CU_TRY(what, cudaGraphLaunch(*exec, s));
  return 0;
}

// Recorded graphs that a whole-algorithm call owns, destroyed when it returns.
template <int N>
struct OwnedGraphs {
  cudaGraphExec_t g[N] = {};
  ~OwnedGraphs() {
    for (cudaGraphExec_t e : g)
      if (e != nullptr) cudaGraphExecDestroy(e);
  }
};


// Recorded graphs by what they were recorded for (K: compared bytewise, zeroed before its fields
// are set), the most recently used last; at most `cap` kept.
template <typename K, size_t cap>
struct GraphCache {
  std::vector<std::pair<K, cudaGraphExec_t>> items;
  GraphCache() = default;
  GraphCache(const GraphCache &) = delete;
  GraphCache &operator=(const GraphCache &) = delete;
  ~GraphCache() {
    for (auto &i : items) cudaGraphExecDestroy(i.second);
  }
  // Launch the graph recorded for key, recording it from `launches` on first use.
  template <typename F>
  int launch(const K &key, cudaStream_t s, const char *what, F &&launches) {
    for (size_t i = 0; i < items.size(); i++) {
      if (memcmp(&items[i].first, &key, sizeof key) != 0) continue;
      std::pair<K, cudaGraphExec_t> hit = items[i];
      items.erase(items.begin() + (ptrdiff_t)i);
      items.push_back(hit);
      K2CU_TRY(what, cudaGraphLaunch(hit.second, s));
      return 0;
    }
    if (items.size() >= cap) {
      cudaGraphExecDestroy(items.front().second);
      items.erase(items.begin());
    }
    cudaGraphExec_t exec = nullptr;
    const int rc = record_and_launch(&exec, s, what, launches);
    if (exec != nullptr) items.push_back({key, exec});
    return rc;
  }
};

// What a recorded level of the single-source BFS reads: the workspace and its layout, the
// results, the traversal (mode: pruned by the frontier 1, the unvisited 2) and the frontier side.
struct BfsKey {
  uint64_t ws_gen, plan_id, capacity;
  const void *ws, *frontier, *level, *lp, *parent, *pp;
  double w;
  uint32_t lts, pts;
  int mode, side;
  bool left, fast;
};

struct DevMatrix {
  int config;
  uint64_t nrows, ncols;
  uint64_t n_internal, n_leaves;
  uint32_t levels, leaf_log, leaf_bits, dir_log, top_level;
  std::vector<uint64_t> level_start;
  void *mem = nullptr;
  uint64_t mem_bytes = 0;
  const uint64_t *sig = nullptr, *leaves = nullptr, *dir = nullptr, *top = nullptr,
                 *bottom = nullptr;
  const uint16_t *dir_lo = nullptr;  // a compact directory's offsets (k2_view.h)
  // ROWS: the blocks of the last internal level (row, column, pattern), nothing else
  uint64_t n_blocks = 0;
  const uint32_t *brow = nullptr, *bcol = nullptr;
  const uint16_t *bpat = nullptr;
  Plan plans[2];  // [scan]
  uint64_t plan_id[2] = {0, 0};
  cudaGraphExec_t graph = nullptr;
  GraphKey graph_key;
  // recorded products of Boolean batches as words of bits (BitsKey), the most recent last
  GraphCache<BitsKey, kBitsGraphs> bits_graphs;
  GraphCache<BfsKey, 16> bfs_graphs;  // levels of single-source BFS runs, kept across calls
  // levels of the bitwise multi-source BFS (BfsKey: frontier F, level/lp the distances and their
  // presence, pts the sources), kept across calls
  GraphCache<BfsKey, 8> levels_graphs;
};

bool ensure_init();
bool resolve_scan(uint32_t batch);
int get_plan(DevMatrix *m, const k2_view *A, bool scan, Plan **out);
// Make the workspace / the pinned staging buffer at least `need` bytes.
int ensure_workspace(uint64_t need);
int ensure_staging(uint64_t need);
// The pinned staging buffer's size: larger copies go through it in chunks of this (pinning
// costs about 1 ms per few MB, once, at initialisation).
constexpr uint64_t kStageMax = UINT64_C(16) << 20;
// y = the monoid's identity and nothing present (device pointers).
int init_outputs(const k2_product *P, uint64_t out_len, cudaStream_t s);
// Enqueue the whole product (device pointers) on the stream: init y, then every step of the
// plan; with bits, the leaves OR into those words (cleared by the caller) instead of y.
int enqueue(const DevMatrix *m, const Plan *plan, const k2_product *P, char *scratch, cudaStream_t s,
            const BitsArgs *bits = nullptr);

// ---- the pruned traversal (k2_cuda_engine.cu) ----
// The frontier buffers hold at most this many nodes per level (a level that holds more is
// counted, not written, and the product runs again with the full traversal).
constexpr uint64_t kFrontierMax = UINT64_C(1) << 21;
extern uint64_t g_frontier_max;  // kFrontierMax; tests lower it (k2_cuda_set_frontier_max)
// Stripe bitmaps have 2^levels bits: deeper trees (sides over 2^30) are not pruned.
constexpr uint32_t kPruneMaxLevels = 29;
// Bytes of pinned staging kept for the counters at its start.
constexpr uint64_t kCountersBytes = 1024;

// How one product moves its vectors and traverses the tree.
struct SparsePlan {
  bool in_list = false;   // x travels as its index list and the values at it
  bool out_list = false;  // y comes back as a list of the present outputs (when few are)
  bool prune_in = false, prune_out = false;
  uint64_t k_in = 0, k_out = 0;
  double estimate = 0;    // nodes the pruned traversal is expected to visit
  uint64_t capacity = 0;  // frontier capacity
  uint64_t bitmap_bytes = 0;
  bool prune() const { return prune_in || prune_out; }
  bool any() const { return in_list || out_list || prune(); }
};
uint64_t level_width(const DevMatrix *m, uint32_t t);
// How to traverse for k_in present inputs and k_out allowed outputs (batch 1 only).
void sparse_plan(const k2_view *A, const DevMatrix *m, const Plan *plan, const k2_product *P,
                 uint64_t k_in, uint64_t k_out, SparsePlan *sp);
// Device bytes of the sparse parts, past the vectors: the input's list and values, the output's
// list, values and selection temporary, the counters, the bitmaps and the frontiers.
struct SparseLayout {
  uint64_t in_list, out_list, out_vals, select_temp, select_bytes, counters, in_bm, out_bm,
      frontier, bytes;
};
void sparse_layout(const DevMatrix *m, const k2_product *P, const SparsePlan &sp, uint64_t base,
                   SparseLayout *L);
// The pruned traversal of D (device pointers): summaries, the descent, the leaves.
int enqueue_pruned(const DevMatrix *m, const k2_product *D, const SparsePlan &sp, char *ws,
                   const SparseLayout &L, cudaStream_t s);

// After a pruned traversal (hcnt: its per-level counters on the host): whether a level held more
// nodes than the frontier, and in *expanded the internal nodes it expanded.
bool frontier_overflowed(const DevMatrix *m, const SparsePlan &sp, const unsigned long long *hcnt,
                         uint64_t *expanded);

}  // namespace k2cu

#endif
