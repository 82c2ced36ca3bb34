// k2_omp_product.c: the OpenMP engine, the fast CPU path.
// SPDX-License-Identifier: Apache-2.0
//
// Ownership instead of atomics: the nodes of a partition level are tasks; a right product
// groups them by row block (a left product by column block), so every output entry is written
// by one thread only. Each task descends its subtree level by level in tiles: in level order the
// children of a contiguous range of nodes are contiguous, so a tile needs one directory lookup
// for its first child and running sums of fan-outs after that; per level one buffer of at most
// K2_OMP_TILE block origins (row, column), so scratch is bounded by the depth, not the size.
// The leaf update is specialized per (type, monoid, multiply) by k2_omp_kernels.inc.
//
// The engine is compiled twice: for the baseline architecture (this file), and for x86-64 with
// AVX2 and BMI2 (k2_omp_product_avx2.c includes this file with K2_OMP_VARIANT set). The
// baseline k2_omp_product runs the AVX2 + BMI2 build when the CPU has both; the plan and its
// tasks are built by the baseline code only.
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/k2_full_apply.h"
#include "cpu/k2_omp_plan.h"
#include "engine/k2_kernels.h"
#include "engine/k2_values.h"
#include "util/k2_alloc.h"
#include "util/k2_error.h"
#include "util/k2_par.h"

#ifdef __BMI2__
#include <immintrin.h>
#endif

#ifndef K2_OMP_VARIANT
#define K2_OMP_ENTRY k2_omp_product
#endif

#define K2_OMP_TILE 2048  // block origins per level buffer (fits L1/L2)

// The threads of a traversal of the whole tree (full, or pruned by stripe summaries): one, with
// no team, below K2_OMP_TEAM_NODES nodes, where a team costs more than it saves. Counted in nodes,
// internal ones included: the traversal visits them all, and trees of graphs without locality
// hold 3-7 internal nodes per leaf. On the 2-core machine, 2 threads, BFS, msBFS, PageRank and WCC
// on trees of 4.3 10^4 (zenios) to 1.4 10^5 nodes (p2p-Gnutella05) took 0.56-0.97 of one thread's
// time; cryg2500's 1.4 10^4 nodes took 1.06 of it.
#define K2_OMP_TEAM_NODES 32768
static inline int k2_omp_team_size(const k2_view *A) {
  return A->n_internal + A->n_leaves < K2_OMP_TEAM_NODES ? 1 : omp_get_max_threads();
}

typedef struct {
  uint64_t node;        // the task's node at the partition level
  uint64_t owner;       // row block (right) or column block (left): the output range it writes
  uint64_t work;        // leaves below it (for balancing)
  uint64_t f_lo, f_hi;  // its descendants on the last internal level (a contiguous range)
  uint64_t origin;      // origin of the node's block, row << 32 | column
} k2_omp_task;

typedef struct {
  uint64_t *origin[64];  // per level: block origins of the current tile (row << 32 | column)
} k2_omp_scratch;

// The leaf action and the traversal, instantiated per (type, monoid, multiply).
#include "cpu/k2_omp_kernels.inc"
// The traversal pruned by the input and the mask.
#include "cpu/k2_omp_pruned.inc"

static pthread_once_t k2_omp_tables_once = PTHREAD_ONCE_INIT;  // per build of this file

#ifndef K2_OMP_VARIANT  // the plan is built by the baseline build only
// ---- tasks ---------------------------------------------------------------------------------

// Number of leaves below each task (one directory lookup per task and level).
static void k2_omp_task_work(const k2_view *A, uint32_t lvl0, k2_omp_task *tasks, uint64_t ntasks) {
#pragma omp parallel for schedule(dynamic, 16) if (ntasks > 64)
  for (uint64_t k = 0; k < ntasks; k++) {
    uint64_t lo = tasks[k].node, hi = lo + 1;
    tasks[k].f_lo = tasks[k].f_hi = 0;
    for (uint32_t lvl = lvl0; lvl < A->levels; lvl++) {
      if (lo == hi) break;  // below full nodes only: nothing (and no node to look up)
      if (lvl + 1 == A->levels) {
        tasks[k].f_lo = lo;
        tasks[k].f_hi = hi;
      }
      uint64_t first = k2_view_first_child(A, lo), n = 0;
      for (uint64_t p = lo; p < hi; p++) n += (uint64_t)__builtin_popcount(k2_view_sig(A, p));
      lo = first;
      hi = first + n;
    }
    tasks[k].work = hi - lo;
  }
}

static int k2_omp_task_cmp(const void *a, const void *b) {
  const k2_omp_task *x = a, *y = b;
  if (x->owner != y->owner) return x->owner < y->owner ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

// Tasks: the nodes of the deepest level with at most `max_tasks` nodes.
static int k2_omp_make_tasks(const k2_view *A, bool left, k2_omp_task **out, uint64_t *ntasks,
                             uint32_t *task_level, uint64_t max_tasks, uint64_t **above,
                             uint64_t *n_above) {
  uint32_t lvl = 0;
  // (not down to a level that full nodes left empty)
  while (lvl + 1 < A->levels && A->level_start[lvl + 2] - A->level_start[lvl + 1] <= max_tasks &&
         A->level_start[lvl + 2] > A->level_start[lvl + 1])
    lvl++;
  uint64_t n = A->level_start[lvl + 1] - A->level_start[lvl];
  k2_omp_task *t = k2_malloc(n * sizeof *t);
  uint64_t *codes = k2_malloc(n * sizeof(uint64_t));
  uint64_t *next = k2_malloc(n * sizeof(uint64_t));
  if (t == NULL || codes == NULL || next == NULL) {
    free(t);
    free(codes);
    free(next);
    K2_FAIL(GrB_OUT_OF_MEMORY, "OpenMP engine: not enough memory for a plan of %llu tasks",
            (unsigned long long)n);
  }
  // codes of the task level, expanded from the root (the levels above hold fewer nodes)
  uint64_t cnt = 1;
  codes[0] = 0;
  // full nodes above the task level (few: those levels have at most max_tasks nodes), as
  // origin and level: (row << 32 | column) and level in two words
  uint64_t n_full = 0, *full = NULL;
  for (uint32_t l = 0; A->n_full > 0 && l < lvl; l++)
    for (uint64_t p = A->level_start[l]; p < A->level_start[l + 1]; p++) n_full += k2_view_sig(A, p) == 0;
  if (n_full > 0 && (full = k2_malloc(2 * n_full * sizeof(uint64_t))) == NULL) {
    free(t);
    free(codes);
    free(next);
    K2_FAIL(GrB_OUT_OF_MEMORY, "OpenMP engine: not enough memory for a plan of %llu tasks",
            (unsigned long long)n);
  }
  n_full = 0;
  for (uint32_t l = 0; l < lvl; l++) {
    uint64_t first = A->level_start[l], m = 0;
    for (uint64_t i = 0; i < cnt; i++) {
      unsigned s = k2_view_sig(A, first + i);
      if (s == 0) {
        uint64_t br, bc;
        k2_morton_split(codes[i], &br, &bc);
        full[2 * n_full] = ((br << (A->side_log - l)) << 32) | (bc << (A->side_log - l));
        full[2 * n_full++ + 1] = l;
      }
      for (unsigned b = 0; b < 4; b++)
        if (s & (1u << b)) next[m++] = (codes[i] << 2) | b;
    }
    uint64_t *sw = codes;
    codes = next;
    next = sw;
    cnt = m;
  }
  uint32_t shift = A->side_log - lvl;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t br, bc;
    k2_morton_split(codes[i], &br, &bc);
    t[i].node = A->level_start[lvl] + i;
    t[i].origin = ((br << shift) << 32) | (bc << shift);
    t[i].owner = left ? bc : br;
  }
  free(codes);
  free(next);
  k2_omp_task_work(A, lvl, t, n);
  qsort(t, n, sizeof *t, k2_omp_task_cmp);
  *out = t;
  *ntasks = n;
  *task_level = lvl;
  *above = full;
  *n_above = n_full;
  return 0;
}

#endif

// ---- the plan: tasks grouped by owner, then chunks of groups of about equal work ----------------

struct k2_omp_plan {
  k2_omp_task *tasks;
  uint64_t ntasks, nchunks;
  uint64_t *chunk_start;  // nchunks + 1 entries
  // the owner groups (tasks of one output block), ngroups + 1 starts: the pruned traversals'
  // units, whose work follows the input and the mask rather than the tree
  uint64_t *group_start, ngroups;
  uint32_t task_level;
  int nthreads;
  bool left;
  uint64_t *full_above;  // full nodes above the task level: origin, level (two words each)
  uint64_t n_full_above;
};

#ifndef K2_OMP_VARIANT
void k2_omp_plan_free(void *plan) {
  k2_omp_plan *p = plan;
  if (p == NULL) return;
  free(p->tasks);
  free(p->chunk_start);
  free(p->group_start);
  free(p->full_above);
  free(p);
}

uint64_t k2_omp_plan_bytes(const k2_omp_plan *p) {
  return p ? sizeof *p + p->ntasks * sizeof(k2_omp_task) + (p->nchunks + p->ngroups + 2 + 2 * p->n_full_above) * sizeof(uint64_t)
           : 0;
}

int k2_omp_plan_new(const k2_view *A, bool left, k2_omp_plan **out) {
  k2_omp_plan *p = k2_calloc(1, sizeof *p);
  if (p == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "OpenMP engine: not enough memory for a task plan");
  // small trees: one thread, no team (a parallel region costs more than the product)
  p->nthreads = k2_omp_team_size(A);
  p->left = left;
  if (A->n_internal == 0) {  // an empty tree: nothing to do, an empty plan
    p->chunk_start = k2_calloc(1, sizeof(uint64_t));
    p->group_start = k2_calloc(1, sizeof(uint64_t));
    if (p->chunk_start == NULL || p->group_start == NULL) {
      k2_omp_plan_free(p);
      K2_FAIL(GrB_OUT_OF_MEMORY, "OpenMP engine: not enough memory for a task plan");
    }
    *out = p;
    return 0;
  }
  // at most 128 tasks per thread: each task descends its subtree on its own (a directory
  // lookup per level and task), which with 4096 tasks made 2-thread products slower than one
  // thread's on trees of 10^5 nodes (a renumbered ca-HepPh: 0.36 against 0.23 ms)
  int rc = k2_omp_make_tasks(A, left, &p->tasks, &p->ntasks, &p->task_level,
                             p->nthreads == 1 ? 1 : 128 * (uint64_t)p->nthreads, &p->full_above, &p->n_full_above);
  if (rc != 0) {
    free(p);
    return rc;
  }
  uint64_t total = 0;
  for (uint64_t k = 0; k < p->ntasks; k++) total += p->tasks[k].work;
  uint64_t want = (uint64_t)p->nthreads * 8;
  p->chunk_start = k2_malloc((want + 2) * sizeof(uint64_t));
  p->group_start = k2_malloc((p->ntasks + 1) * sizeof(uint64_t));
  if (p->chunk_start == NULL || p->group_start == NULL) {
    k2_omp_plan_free(p);
    K2_FAIL(GrB_OUT_OF_MEMORY, "OpenMP engine: not enough memory for a task plan");
  }
  uint64_t nc = 0, acc = 0, target = total / want + 1;
  p->chunk_start[nc++] = 0;
  for (uint64_t k = 0; k < p->ntasks; k++) {
    acc += p->tasks[k].work;
    bool group_end = k + 1 == p->ntasks || p->tasks[k + 1].owner != p->tasks[k].owner;
    if (group_end && acc >= target && k + 1 < p->ntasks && nc <= want) {
      p->chunk_start[nc++] = k + 1;
      acc = 0;
    }
  }
  p->chunk_start[nc] = p->ntasks;
  p->nchunks = nc;
  uint64_t ng = 0;
  for (uint64_t k = 0; k < p->ntasks; k++)
    if (k == 0 || p->tasks[k].owner != p->tasks[k - 1].owner) p->group_start[ng++] = k;
  p->group_start[ng] = p->ntasks;
  p->ngroups = ng;
  uint64_t *fit = k2_realloc(p->group_start, (ng + 1) * sizeof(uint64_t));  // (smaller: may keep it)
  if (fit != NULL) p->group_start = fit;
  *out = p;
  return 0;
}

// ---- the decoded bottom level -------------------------------------------------------------------

// Cached bottom codes, or the matrix's request (K2_Matrix_setDecodedLevel), of 4x4 blocks whose
// block numbers fit the entry's 24-bit fields.
static bool k2_omp_blocks_fit(const k2_view *A) {
  return (A->bottom_codes != NULL || A->decoded_level) && A->leaf_log == 1 && A->leafc == NULL &&
         A->side_log <= 26 && A->n_internal > 0 && A->n_full == 0;
}

bool k2_omp_blocks_apply(const k2_view *A, const k2_product *P) {
  if (!k2_omp_blocks_fit(A)) return false;
  pthread_once(&k2_omp_tables_once, k2_block_tables_init);
  return k2_omp_decoded_kernel(P, k2_omp_select(A, P)) != NULL;
}

#endif  // K2_OMP_VARIANT

// k²+B: with the bottom codes cached, a task's nodes of the last internal level come straight from
// their Morton codes (no descent through the levels above), in tiles of K2_OMP_TILE.
static void k2_omp_bottom(const k2_view *A, const k2_product *P, k2_omp_leaf_fn leaf,
                            k2_omp_blocks_fn blocks, const uint64_t *decoded, k2_omp_scratch *sc,
                            uint64_t lo, uint64_t hi) {
  const uint32_t last = A->levels - 1, shift = A->side_log - last;
  if (blocks != NULL) {  // the decoded bottom level: no Morton decoding, no leaf gathering
    blocks(A, P, decoded + (lo - A->level_start[last]), hi - lo);
    return;
  }
  const uint64_t *codes = A->bottom_codes - A->level_start[last];
  uint64_t *org = sc->origin[last];
  for (uint64_t p = lo; p < hi; p += K2_OMP_TILE) {
    const uint64_t n = hi - p < K2_OMP_TILE ? hi - p : K2_OMP_TILE;
    // row << 32 | column in block units; scaled to cells, neither half overflows its 32 bits
    for (uint64_t i = 0; i < n; i++) org[i] = k2_morton_unshuffle(codes[p + i]) << shift;
    leaf(A, P, org, p, n, k2_view_first_child(A, p) - A->n_internal);
  }
}

// Chunk c of the plan's tasks by the full traversal: from the bottom codes where the tree keeps
// them, else a descent from each task's node.
static void k2_omp_full_chunk(const k2_view *A, const k2_product *P, k2_omp_leaf_fn leaf,
                              k2_omp_blocks_fn blocks, const uint64_t *decoded, k2_omp_scratch *sc,
                              const k2_omp_plan *plan, uint64_t c) {
  const k2_omp_task *tasks = plan->tasks;
  for (uint64_t k = plan->chunk_start[c]; k < plan->chunk_start[c + 1]; k++) {
    if (A->bottom_codes != NULL || blocks != NULL) {
      k2_omp_bottom(A, P, leaf, blocks, decoded, sc, tasks[k].f_lo, tasks[k].f_hi);
      continue;
    }
    sc->origin[plan->task_level][0] = tasks[k].origin;
    k2_omp_descend(A, P, leaf, sc, plan->task_level, tasks[k].node, 1);
  }
}

static void k2_omp_scratch_free(uint64_t **scratch, uint64_t nbuf) {
  if (scratch == NULL) return;
  for (uint64_t i = 0; i < nbuf; i++) free(scratch[i]);
  free(scratch);
}

// Per thread, a tile buffer for each of nlev levels: separate buffers of a tile each, small
// enough for the allocator's fast path. NULL (the error set) where they cannot all be had.
static uint64_t **k2_omp_scratch_new(int nthreads, uint64_t nlev) {
  const uint64_t nbuf = (uint64_t)nthreads * nlev;
  uint64_t **scratch = k2_calloc(nbuf, sizeof *scratch);
  bool ok = scratch != NULL;
  for (uint64_t i = 0; i < nbuf && ok; i++) {
    scratch[i] = k2_malloc((K2_OMP_TILE + 4) * sizeof(uint64_t));
    ok = scratch[i] != NULL;
  }
  if (ok) return scratch;
  k2_omp_scratch_free(scratch, nbuf);
  k2_error_set(GrB_OUT_OF_MEMORY,
               "OpenMP engine: not enough memory for the scratch buffers of %d thread%s (%llu bytes)",
               nthreads, nthreads == 1 ? "" : "s",
               (unsigned long long)(nbuf * (K2_OMP_TILE + 4) * sizeof(uint64_t)));
  return NULL;
}

// The plan's chunks by the full traversal, each thread with the tile buffers of levels lvl0 ..
// lvl0 + nlev - 1 from scratch (nlev of them per thread).
static void k2_omp_run_chunks(const k2_view *A, const k2_product *P, k2_omp_leaf_fn leaf,
                              k2_omp_blocks_fn blocks, const uint64_t *decoded, const k2_omp_plan *plan,
                              uint64_t **scratch, uint32_t lvl0, uint64_t nlev) {
  const uint64_t nc = plan->nchunks;
  // Every thread reaches the loop. A team that cannot be started at all (pthread_create failing
  // under a memory limit) ends the process inside libgomp ("libgomp: Thread creation failed"):
  // OpenMP offers no way to catch that. The team may also be smaller than asked (nested
  // regions): the loop shares the chunks among whoever is there.
  // One thread: no OpenMP construct at all (a region of one thread still costs libgomp a futex
  // call per region and per loop's barrier: a third of a small tree's product).
  if (plan->nthreads > 1) {
#pragma omp parallel num_threads(plan->nthreads)
    {
      k2_omp_scratch sc;
      memset(&sc, 0, sizeof sc);
      for (uint64_t l = 0; l < nlev; l++)
        sc.origin[lvl0 + l] = scratch[(uint64_t)omp_get_thread_num() * nlev + l];
#pragma omp for schedule(dynamic, 1)
      for (uint64_t c = 0; c < nc; c++) k2_omp_full_chunk(A, P, leaf, blocks, decoded, &sc, plan, c);
    }
  } else {
    k2_omp_scratch sc;
    memset(&sc, 0, sizeof sc);
    for (uint64_t l = 0; l < nlev; l++) sc.origin[lvl0 + l] = scratch[l];
    for (uint64_t c = 0; c < nc; c++) k2_omp_full_chunk(A, P, leaf, blocks, decoded, &sc, plan, c);
  }
}

#ifndef K2_OMP_VARIANT  // the decoded level is made by the baseline build only
// One tile of last-level nodes decoded into P->y, the decoded level (a leaf action of the full
// traversal: the nodes' origins in cells come from the levels above, their patterns from their
// leaves).
static void k2_omp_decode_tile(const k2_view *A, const k2_product *P, const uint64_t *org,
                               uint64_t first, uint64_t count, uint64_t q) {
  const uint32_t last = A->levels - 1, shift = A->side_log - last;
  uint64_t *b = (uint64_t *)P->y + (first - A->level_start[last]);
  for (uint64_t i = 0; i < count; i++) {
    const uint32_t S = k2_omp_block4(A, k2_view_sig(A, first + i), &q, true);
    b[i] = k2_omp_decoded_entry(K2_ORIGIN_ROW(org[i]) >> shift, K2_ORIGIN_COL(org[i]) >> shift, S);
  }
}

// The decoded level of a tree without bottom codes into b: the full traversal of the plan's
// chunks with the decode as its leaf action (no codes array: it would cost as much memory again).
static int k2_omp_blocks_descend(const k2_view *A, const k2_omp_plan *cached, uint64_t *b) {
  const k2_omp_plan *plan = cached;
  k2_omp_plan *own = NULL;
  if (plan == NULL) {
    int rc = k2_omp_plan_new(A, false, &own);
    if (rc != 0) return rc;
    plan = own;
  }
  const uint64_t nlev = A->levels - plan->task_level;
  uint64_t **scratch = k2_omp_scratch_new(plan->nthreads, nlev);
  if (scratch == NULL) {
    k2_omp_plan_free(own);
    return GrB_OUT_OF_MEMORY;
  }
  k2_product P;  // the decode's only output
  memset(&P, 0, sizeof P);
  P.y = b;
  k2_omp_run_chunks(A, &P, k2_omp_decode_tile, NULL, NULL, plan, scratch, plan->task_level, nlev);
  k2_omp_scratch_free(scratch, (uint64_t)plan->nthreads * nlev);
  k2_omp_plan_free(own);
  return 0;
}

int k2_omp_blocks_new(const k2_view *A, const k2_omp_plan *plan, uint64_t **blocks, uint64_t *count) {
  if (!k2_omp_blocks_fit(A)) return K2_DECLINED;
  pthread_once(&k2_omp_tables_once, k2_block_tables_init);
  const uint32_t last = A->levels - 1;
  const uint64_t first = A->level_start[last], n = A->level_start[last + 1] - first;
  uint64_t *b = k2_malloc((n ? n : 1) * sizeof(uint64_t));
  if (b == NULL)
    K2_FAIL(GrB_OUT_OF_MEMORY, "OpenMP engine: not enough memory for the decoded bottom level (%llu nodes)",
            (unsigned long long)n);
  if (A->bottom_codes == NULL) {
    const int rc = k2_omp_blocks_descend(A, plan, b);
    if (rc != 0) {
      free(b);
      return rc;
    }
    *blocks = b;
    *count = n;
    return 0;
  }
  // contiguous ranges of the level, each from its first node's first leaf (a directory lookup)
  const int nt = n < 16384 ? 1 : omp_get_max_threads();
#pragma omp parallel num_threads(nt) if (nt > 1)
  {
    const int th = omp_get_thread_num(), nth = omp_get_num_threads();
    const uint64_t lo = n * (uint64_t)th / (uint64_t)nth, hi = n * (uint64_t)(th + 1) / (uint64_t)nth;
    uint64_t q = lo < hi ? k2_view_first_child(A, first + lo) - A->n_internal : 0;
    for (uint64_t i = lo; i < hi; i++) {
      const uint32_t S = k2_omp_block4(A, k2_view_sig(A, first + i), &q, true);
      const uint64_t rc = k2_morton_unshuffle(A->bottom_codes[i]);  // row << 32 | column
      b[i] = k2_omp_decoded_entry(rc >> 32, rc & UINT64_C(0xFFFFFFFF), S);
    }
  }
  *blocks = b;
  *count = n;
  return 0;
}
#endif  // K2_OMP_VARIANT

// T's tiles for the levels from..levels-1, five of K2_OMP_STILE words each, carved out of buf.
static void k2_omp_stiles_init(k2_omp_stiles *T, uint64_t *buf, const k2_view *A, uint32_t from) {
  memset(T, 0, sizeof *T);
  for (uint32_t t = from; t < A->levels; t++) {
    T->node[t] = buf + (uint64_t)(t - from) * 5 * K2_OMP_STILE;
    T->org[t] = T->node[t] + K2_OMP_STILE;
    T->fc[t] = T->org[t] + K2_OMP_STILE;
    T->sg[t] = T->fc[t] + K2_OMP_STILE;
    T->kp[t] = T->sg[t] + K2_OMP_STILE;
  }
}

// Task k's subtree by the stripe-pruned traversal (leaf NULL: its nodes counted only), when its
// stripes hold an input and an allowed output; T's cursors go on from the task before.
static inline void k2_omp_stripes_task(const k2_view *A, const k2_product *P, k2_omp_leaf_fn leaf,
                                       const k2_omp_stripes *is, const k2_omp_stripes *os, k2_omp_stiles *T,
                                       uint32_t tl, const k2_omp_task *task) {
  if (!k2_omp_stripes_node(A, P, is, os, tl, task->origin)) return;
  T->node[tl][0] = task->node;
  T->org[tl][0] = task->origin;
  T->fc[tl][0] = k2_omp_cursor_fc(A, T, tl, task->node);
  T->sg[tl][0] = k2_view_sig(A, task->node);
  k2_omp_stripes_descend(A, P, leaf, is, os, T, tl, 1);
}

// The tasks of group g (one output block, in node order, so are their subtrees on every level:
// the cursors go on from one task to the next and start again with the group).
static void k2_omp_stripes_group(const k2_view *A, const k2_product *P, k2_omp_leaf_fn leaf,
                                 const k2_omp_stripes *is, const k2_omp_stripes *os, k2_omp_stiles *T,
                                 const k2_omp_plan *plan, uint64_t g) {
  for (uint32_t t = 0; t <= A->levels; t++) T->cur_node[t] = UINT64_MAX;
  for (uint64_t k = plan->group_start[g]; k < plan->group_start[g + 1]; k++)
    k2_omp_stripes_task(A, P, leaf, is, os, T, plan->task_level, &plan->tasks[k]);
}

// The full traversal pruned by stripe summaries (k2_omp_stripes_plan) over the plan's tasks, as
// the full traversal shares them among threads (output blocks owned by one thread each): a task
// whose stripes are empty is passed by, the others descend with a tile buffer and cursors of
// the thread's own. 0 or GrB_OUT_OF_MEMORY (y as it was).
static int k2_omp_stripes_run(const k2_view *A, const k2_product *P, k2_omp_leaf_fn leaf,
                              const k2_omp_plan *cached, const k2_omp_stripes *is,
                              const k2_omp_stripes *os) {
  const int want_threads = k2_omp_team_size(A);
  const k2_omp_plan *plan = cached;
  k2_omp_plan *own = NULL;
  if (plan == NULL || plan->left != P->left || plan->nthreads != want_threads) {
    int rc = k2_omp_plan_new(A, P->left, &own);
    if (rc != 0) return rc;
    plan = own;
  }
  const int nthreads = plan->nthreads;
  const uint64_t per_thread = (uint64_t)A->levels * 5 * K2_OMP_STILE;
  uint64_t *buf = k2_malloc((uint64_t)nthreads * per_thread * sizeof(uint64_t));
  if (buf == NULL) {
    k2_omp_plan_free(own);
    K2_FAIL(GrB_OUT_OF_MEMORY, "OpenMP engine: not enough memory for the tiles of %d thread%s", nthreads,
            nthreads == 1 ? "" : "s");
  }
  k2_omp_fill_identity(P, P->left ? A->ncols : A->nrows);
  const uint64_t ng = plan->ngroups;
  uint64_t expanded = 0;
  // (one thread: no OpenMP construct, as in the full traversal)
  if (nthreads > 1) {
#pragma omp parallel num_threads(nthreads) reduction(+ : expanded)
    {
      k2_omp_stiles T;
      k2_omp_stiles_init(&T, buf + (uint64_t)omp_get_thread_num() * per_thread, A, 0);
#pragma omp for schedule(dynamic, 1)
      for (uint64_t g = 0; g < ng; g++) k2_omp_stripes_group(A, P, leaf, is, os, &T, plan, g);
      expanded += T.expanded;
    }
  } else {
    k2_omp_stiles T;
    k2_omp_stiles_init(&T, buf, A, 0);
    for (uint64_t g = 0; g < ng; g++) k2_omp_stripes_group(A, P, leaf, is, os, &T, plan, g);
    expanded += T.expanded;
  }
  k2_omp_pruned_expanded = expanded;
  if (P->report != NULL) {
    P->report->traversal = is != NULL && os != NULL ? "full, pruned by the stripes of the input and the mask"
                           : is != NULL             ? "full, pruned by the stripes of the input"
                                                    : "full, pruned by the stripes of the mask";
    P->report->expanded = expanded;
  }
  free(buf);
  k2_omp_plan_free(own);
  return 0;
}

// Every K2_OMP_PROBE_STEP-th task of the plan descended by the stripe-pruned traversal without
// its leaves: the internal nodes expanded, times the step (a plan that k2_omp_plan_sampled
// accepts; -1: out of memory). The count stops once it reaches `enough` (the sample's
// count so far times the step bounds the whole from below): the probe of a traversal that
// would not pay costs a few percent of the one that runs instead.
#define K2_OMP_PROBE_STEP 16
static bool k2_omp_plan_sampled(const k2_omp_plan *plan) {
  return plan != NULL && plan->ntasks >= 4 * K2_OMP_PROBE_STEP;
}

static double k2_omp_stripes_probe(const k2_view *A, const k2_product *P, const k2_omp_plan *plan,
                                   const k2_omp_stripes *is, const k2_omp_stripes *os, double enough) {
  const uint32_t tl = plan->task_level;
  // tiles for the levels below the task level only
  uint64_t *buf = k2_malloc((uint64_t)(A->levels - tl) * 5 * K2_OMP_STILE * sizeof(uint64_t));
  if (buf == NULL) return -1;
  k2_omp_stiles T;
  k2_omp_stiles_init(&T, buf, A, tl);
  double count = -1;
  uint64_t sampled = 0;
  for (uint64_t k = K2_OMP_PROBE_STEP / 2; k < plan->ntasks && count < 0; k += K2_OMP_PROBE_STEP) {
    for (uint32_t t = 0; t <= A->levels; t++) T.cur_node[t] = UINT64_MAX;  // (tasks far apart)
    k2_omp_stripes_task(A, P, NULL, is, os, &T, tl, &plan->tasks[k]);
    sampled++;
    if ((double)T.expanded * K2_OMP_PROBE_STEP >= enough) count = (double)T.expanded * K2_OMP_PROBE_STEP;
  }
  free(buf);
  return count >= 0 ? count : (double)T.expanded * (double)plan->ntasks / (double)sampled;
}

#if !defined(K2_OMP_VARIANT) && defined(K2_OMP_HAVE_AVX2)
int k2_omp_product_avx2(const k2_view *A, void *state, const k2_product *P);

// The AVX2 + BMI2 build where the CPU has both, unless K2GRB_CPU_BASELINE=1 (tests run both).
static int k2_omp_use_avx2 = -1;
static void k2_omp_detect(void) {
  const char *e = getenv("K2GRB_CPU_BASELINE");
  __builtin_cpu_init();
  k2_omp_use_avx2 = !(e != NULL && e[0] == '1') && __builtin_cpu_supports("avx2") &&
                    __builtin_cpu_supports("bmi2");
}
#endif

int K2_OMP_ENTRY(const k2_view *A, void *state, const k2_product *P) {
#if !defined(K2_OMP_VARIANT) && defined(K2_OMP_HAVE_AVX2)
  static pthread_once_t detect = PTHREAD_ONCE_INIT;
  pthread_once(&detect, k2_omp_detect);
  if (k2_omp_use_avx2) return k2_omp_product_avx2(A, state, P);
#endif
  // the matrix's plans and decoded blocks (k2_omp_engine.c), where it has them
  const k2_omp_state *st = state;
  const k2_omp_plan *cached = st ? __atomic_load_n(&st->plan[P->left ? 1 : 0], __ATOMIC_ACQUIRE) : NULL;
  const uint64_t *decoded = st ? __atomic_load_n(&st->blocks, __ATOMIC_ACQUIRE) : NULL;
  // full blocks: the descent meets every full node below the task level, the plan lists those
  // above it; the paths from the bottom codes would meet none, so they are not taken
  k2_view without_bottom;
  if (A->n_full > 0 && A->bottom_codes != NULL) {
    without_bottom = *A;
    without_bottom.bottom_codes = NULL;
    A = &without_bottom;
  }
  if (A->n_full > 0) decoded = NULL;
  pthread_once(&k2_omp_tables_once, k2_block_tables_init);
  if (!k2_product_supported(P)) return K2_DECLINED;
  uint64_t ny = (P->left ? A->ncols : A->nrows) * P->batch;
  if (A->n_internal == 0) {
    k2_omp_fill_identity(P, ny);
    return 0;
  }
  k2_omp_leaf_fn leaf = k2_omp_select(A, P);
  if (leaf == NULL) return K2_DECLINED;
  // a few present inputs or a few allowed outputs: the traversal pruned by both
  {
    bool pruned = false;
    uint64_t *in = NULL, *out = NULL, nin = 0, nout = 0;
    unsigned owned = 0;
    double visits = 0, cost = -1, lb = 0;
    k2_omp_stripes os = {0};
    int rc = k2_omp_pruned_plan(A, P, &pruned, &in, &nin, &out, &nout, &owned, &os, &visits, &cost, &lb);
    if (rc != 0) return rc;
    // the full traversal pruned by stripe summaries, where it costs less than the plan's choice
    k2_omp_stripes sis, sos;
    const k2_omp_plan *pp = cached != NULL && cached->left == P->left ? cached : NULL;
    if (k2_omp_stripes_plan(A, P, cost, lb, pp, &sis, &sos)) {
      if (owned & 1) free(in);
      if (owned & 2) free(out);
      free(os.bits);
      rc = k2_omp_stripes_run(A, P, leaf, cached, sis.bits ? &sis : NULL, sos.bits ? &sos : NULL);
      free(sis.bits);
      free(sos.bits);
      return rc;
    }
    if (pruned) {
      rc = k2_omp_pruned(A, P, leaf, in, nin, out, nout, os.bits != NULL ? &os : NULL,
                         k2_omp_pruned_use_dfs(A, P), visits);
      if (owned & 1) free(in);
      if (owned & 2) free(out);
      free(os.bits);
      return rc;
    }
  }
  if (P->report != NULL) P->report->traversal = "full";
  const k2_omp_blocks_fn blocks = k2_omp_select_blocks(A, decoded, P);
  const int want_threads = k2_omp_team_size(A);
  const uint32_t last = A->levels - 1;

  // Whatever can fail comes first, before y is written and before a team starts: a thread
  // cannot leave a parallel region early (the others would wait for it at the loop's barrier),
  // so the scratch of every thread is allocated here and the region holds nothing that fails.
  // One thread and the bottom codes cached (or the level decoded): ownership does not matter, so
  // the whole last level is one range, with no plan (a small tree has thousands of tasks of a few
  // blocks each).
  const bool from_bottom = A->bottom_codes != NULL || blocks != NULL;
  const bool one_range = want_threads == 1 && from_bottom;
  // the matrix's cached plan when it fits (same direction and thread count), else a fresh one
  const k2_omp_plan *plan = one_range ? NULL : cached;
  k2_omp_plan *own = NULL;
  if (!one_range && (plan == NULL || plan->left != P->left || plan->nthreads != want_threads)) {
    int rc = k2_omp_plan_new(A, P->left, &own);
    if (rc != 0) return rc;
    plan = own;
  }
  const int nthreads = one_range ? 1 : plan->nthreads;
  // per thread, a tile buffer for each level it expands: from the task level down (the
  // descent), the last internal level alone (the bottom codes), or none (decoded bottom level);
  // separate buffers of a tile each, small enough for the allocator's fast path
  const uint32_t lvl0 = from_bottom ? last : plan->task_level;
  const uint64_t nlev = blocks != NULL ? 0 : A->levels - lvl0, nbuf = (uint64_t)nthreads * nlev;
  uint64_t **scratch = NULL;
  if (nbuf > 0 && (scratch = k2_omp_scratch_new(nthreads, nlev)) == NULL) {
    k2_omp_plan_free(own);
    return GrB_OUT_OF_MEMORY;
  }
  k2_omp_fill_identity(P, ny);

  if (one_range) {
    k2_omp_scratch sc;
    memset(&sc, 0, sizeof sc);
    if (scratch != NULL) sc.origin[last] = scratch[0];
    k2_omp_bottom(A, P, leaf, blocks, decoded, &sc, A->level_start[last], A->level_start[last + 1]);
    k2_omp_scratch_free(scratch, nbuf);
    return 0;
  }

  k2_omp_run_chunks(A, P, leaf, blocks, decoded, plan, scratch, lvl0, nlev);
  // the full nodes above the task level span several tasks' outputs: after them, one at a time
  for (uint64_t k = 0; k < plan->n_full_above; k++) {
    const uint64_t o = plan->full_above[2 * k];
    k2_full_apply(P, K2_ORIGIN_ROW(o), K2_ORIGIN_COL(o),
                  UINT64_C(1) << (A->side_log - (uint32_t)plan->full_above[2 * k + 1]), NULL, 0, NULL, 0);
  }
  k2_omp_scratch_free(scratch, nbuf);
  k2_omp_plan_free(own);
  return 0;
}
