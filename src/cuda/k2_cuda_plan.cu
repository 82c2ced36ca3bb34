// k2_cuda_plan.cu: the tile planner, and a host replay of a plan for tests.
// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cstdlib>

#include "cuda/k2_cuda_plan.cuh"
#include "matrix/k2_rows.h"

namespace k2cu {

namespace {

constexpr int kGrbPanic = -101;
constexpr int kGrbInvalidValue = -3;

unsigned host_fan(const uint64_t *sig, uint64_t p) {
  return (unsigned)__builtin_popcount((unsigned)((sig[p >> 4] >> ((p & 15) * 4)) & 15u));
}

// The end j of the longest run of nodes [i, j), j <= end, whose children number at most
// `room`; *kids receives their count. Whole signature words (16 nodes) at a time where they
// fit: a plan visits every internal node of the tree, on the host, before the first product.
uint64_t fit_run(const uint64_t *sig, uint64_t i, uint64_t end, uint64_t room, uint64_t *kids) {
  uint64_t j = i, cnt = 0;
  while (j < end) {
    if ((j & 15) == 0 && j + 16 <= end) {
      const unsigned w = (unsigned)__builtin_popcountll(sig[j >> 4]);
      if (cnt + w <= room) {
        cnt += w;
        j += 16;
        continue;
      }
    }
    const unsigned f = host_fan(sig, j);
    if (cnt + f > room) break;
    cnt += f;
    j++;
  }
  *kids = cnt;
  return j;
}

struct Planner {
  const k2_view *A;
  Plan *plan;
  bool whole;            // take runs of whole subtrees where they fill half a tile (below)
  uint64_t fc_next[65];  // next first child at each level, walking left to right

  // The descendants at level e >= d of the nodes [i, j) of level d: [i', j'), the first
  // children of i and j applied e - d times (level order: a level's end is the next level's
  // first node, so this holds up to a level's last node).
  uint64_t span_at(uint32_t d, uint64_t i, uint64_t j, uint32_t e) const {
    for (; d < e; d++) {
      i = k2_view_first_child(A, i);
      j = k2_view_first_child(A, j);
    }
    return j - i;
  }

  // The end j of the longest run [i, j) of [i, end) whose whole subtrees fit in one tile: at
  // most M codes at every stored level. Every internal node has a child, so the last internal
  // level holds the most; i when node i's subtree alone does not fit. Galloping, then
  // bisection: a few dozen first-child lookups per run.
  uint64_t whole_end(uint32_t d, uint64_t i, uint64_t end) const {
    const uint64_t M = plan->M;
    const uint32_t last = A->levels - 1;
    if (span_at(d, i, end, last) <= M) return end;
    uint64_t lo = i, hi = end, g = 1;  // [i, lo) fits, [i, hi) does not
    while (i + g < end && span_at(d, i, i + g, last) <= M) {
      lo = i + g;
      g *= 2;
    }
    if (i + g < end) hi = i + g;
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (span_at(d, i, mid, last) <= M) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  // A run of whole subtrees costs one step per level down to its leaves, and no remainder.
  // Cutting each level greedily by its own children leaves a ragged remainder at every level,
  // which compounds with depth where a level has few more nodes than the one above (the lower
  // levels of R-MAT: on R-MAT scale 20 permuted, 310 steps at M = 2^20 against 158). Where
  // levels grow fourfold (a band), whole subtrees are small at the upper levels: taken only
  // when the run's nodes at fill_level (the level its step writes) fill half a tile, else i.
  uint64_t whole_run(uint32_t d, uint64_t i, uint64_t end, uint32_t fill_level) const {
    if (!whole) return i;
    const uint64_t j = whole_end(d, i, end);
    return j > i && span_at(d, i, j, fill_level) >= plan->M / 2 ? j : i;
  }

  void descend(uint32_t d, uint64_t a, uint64_t n, int src, uint64_t base) {
    const uint32_t last = A->levels - 1;
    if (d == last) {
      uint64_t kids = 0;
      (void)fit_run(A->sig, a, a + n, UINT64_MAX, &kids);
      plan->steps.push_back(Step{true, d, 0, src, a, n, a - base, fc_next[d], 0});
      fc_next[d] += kids;
      plan->max_n = std::max(plan->max_n, n);
      return;
    }
    if (plan->fuse && d + 2 <= last) {
      descend_two(d, a, n, src, base);
      return;
    }
    uint64_t i = a;
    while (i < a + n) {
      uint64_t cnt = 0, j = whole_run(d, i, a + n, d + 1);
      if (j > i) cnt = k2_view_first_child(A, j) - fc_next[d];
      else j = fit_run(A->sig, i, a + n, plan->M, &cnt);
      const uint64_t c0 = fc_next[d];
      plan->steps.push_back(Step{false, d, 1, src, i, j - i, i - base, c0, c0});
      plan->max_n = std::max(plan->max_n, j - i);
      plan->buf_codes[d + 1] = std::max(plan->buf_codes[d + 1], cnt);
      fc_next[d] += cnt;
      descend(d + 1, c0, cnt, (int)(d + 1), c0);
      i = j;
    }
  }

  // Ranges of [a, a + n) at level d whose grandchildren (level d + 2) number at most M, each
  // expanded two levels in one step. Level d + 1 is never descended on its own, so its walking
  // first child (fc_next[d + 1]) advances here.
  void descend_two(uint32_t d, uint64_t a, uint64_t n, int src, uint64_t base) {
    uint64_t kids = 0;
    (void)fit_run(A->sig, a, a + n, UINT64_MAX, &kids);
    const uint64_t c_end = fc_next[d] + kids;  // the children of [a, a + n) end here
    uint64_t i = a;
    while (i < a + n) {
      const uint64_t c0 = fc_next[d], g0 = fc_next[d + 1];
      uint64_t grand = 0, cnt = 0, j = whole_run(d, i, a + n, d + 2);
      if (j > i) {
        const uint64_t cj = k2_view_first_child(A, j);
        cnt = cj - c0;
        grand = k2_view_first_child(A, cj) - g0;
      } else {
        // node i's subtree is too big for a tile: the longest run of children whose children
        // fit, then the parents whose children lie in it (M >= 16: at least four children
        // fit, so at least one parent)
        const uint64_t cj = fit_run(A->sig, c0, c_end, plan->M, &grand);
        j = fit_run(A->sig, i, a + n, cj - c0, &cnt);
        if (c0 + cnt != cj) (void)fit_run(A->sig, c0, c0 + cnt, UINT64_MAX, &grand);
      }
      plan->steps.push_back(Step{false, d, 2, src, i, j - i, i - base, c0, g0});
      plan->max_n = std::max(plan->max_n, j - i);
      plan->buf_codes[d + 2] = std::max(plan->buf_codes[d + 2], grand);
      fc_next[d] += cnt;
      fc_next[d + 1] += grand;
      descend(d + 2, g0, grand, (int)(d + 2), g0);
      i = j;
    }
  }
};

// A tree-only plan from the top level down, cut greedily or in runs of whole subtrees.
void plan_tree(const k2_view *A, Plan *plan, bool whole) {
  Planner pl;
  pl.A = A;
  pl.plan = plan;
  pl.whole = whole;
  // fc_next[d] starts at the first child of the first node of level d
  for (uint32_t d = 0; d <= A->levels; d++) pl.fc_next[d] = A->level_start[d + 1];
  const uint64_t a = A->level_start[A->top_level];
  pl.descend(A->top_level, a, A->top_count, -1, a);
}

// The bytes of a plan's level buffers (each aligned, as make_plan lays them out).
uint64_t level_buffer_bytes(const Plan &plan) {
  uint64_t bytes = 0;
  for (uint32_t d = 0; d < 65; d++) bytes += align_up(plan.buf_codes[d] * 8);
  return bytes;
}

}  // namespace

int make_plan(const k2_view *A, int config, uint64_t M, bool scan, bool fuse, Plan *plan,
              k2_cuda_plan_rule rule) {
  *plan = Plan();
  plan->config = config;
  plan->M = M;
  plan->scan = scan;
  plan->fuse = fuse && !scan;  // the scan gives offsets for one level only
  if (A->n_internal > 0 && config != K2_CUDA_CONFIG_ROWS) {  // ROWS: one launch, no scratch
    const uint32_t last = A->levels - 1;
    if (config == K2_CUDA_CONFIG_BOTTOM) {
      const uint64_t a = A->level_start[last], n = A->level_start[last + 1] - a;
      const uint64_t chunk = scan ? M : n;
      uint64_t fc = A->level_start[last + 1];
      for (uint64_t i = a; i < a + n; i += chunk) {
        const uint64_t m = std::min(chunk, a + n - i);
        plan->steps.push_back(Step{true, last, 0, -2, i, m, i - a, fc, 0});
        plan->max_n = std::max(plan->max_n, m);
        if (scan) {
          uint64_t kids = 0;
          (void)fit_run(A->sig, i, i + m, UINT64_MAX, &kids);
          fc += kids;
        }
      }
    } else if (rule != K2_CUDA_PLAN_BEST) {
      plan_tree(A, plan, rule == K2_CUDA_PLAN_WHOLE);
    } else {
      // both cuts; the plan of fewer launches (then less scratch) is kept, so neither kind of
      // tree gets a worse plan than the greedy cut gave it
      Plan whole = *plan;
      plan_tree(A, plan, false);
      plan_tree(A, &whole, true);
      const size_t ws = whole.steps.size(), gs = plan->steps.size();
      if (ws < gs || (ws == gs && level_buffer_bytes(whole) < level_buffer_bytes(*plan)))
        *plan = std::move(whole);
    }
  }
  uint64_t off = 0;
  for (uint32_t d = 0; d < 65; d++) {
    if (plan->buf_codes[d] == 0) continue;
    plan->buf_off[d] = off;
    off += align_up(plan->buf_codes[d] * 8);
  }
  if (scan && plan->max_n > 0) {
    plan->offsets_off = off;
    off += align_up(plan->max_n * 4);
    // CUB's temporary grows with the number of items: the widest step bounds every step.
    size_t t = scan_temp_bytes(plan->max_n);
    if (t == 0) {
      (void)cudaGetLastError();
      return k2_cuda_fail(kGrbPanic, "CUDA engine: sizing the scratch of the offset scan failed");
    }
    plan->temp_bytes = t;
    plan->temp_off = off;
    off += align_up(t);
  }
  plan->bytes = off;
  plan->valid = true;
  return 0;
}


namespace {

// The replay: every expand step of a tree-only plan run on the host with the kernels' index
// arithmetic (expand_kernel, expand2_kernel: blocks of kBlock nodes, first children from the
// directory), writing codes into buffers of the plan's sizes (each at most M codes); the leaf
// steps record the codes they would visit. Returns a message, or NULL when each node of the
// last internal level is reached exactly once with its Morton code (k2_bottom_codes_expand's).
const char *replay(const k2_view *A, const Plan &plan) {
  std::vector<std::vector<uint64_t>> buf(65);
  for (int d = 0; d < 65; d++) {
    if (plan.buf_codes[d] > plan.M) return "a level's buffer holds more than M codes";
    buf[d].assign(plan.buf_codes[d], ~UINT64_C(0));
  }
  const uint32_t last = A->levels - 1;
  const uint64_t first_last = A->level_start[last];
  const uint64_t count_last = A->level_start[last + 1] - first_last;
  std::vector<uint64_t> got(count_last, ~UINT64_C(0));
  std::vector<uint32_t> seen(count_last, 0);
  for (const Step &st : plan.steps) {
    if (st.src >= 0 && st.code_off + st.n > buf[st.src].size()) return "a step reads past its buffer";
    const uint64_t *codes = (st.src == -1 ? A->top_codes : buf[st.src].data()) + st.code_off;
    if (st.leaf) {
      for (uint64_t i = 0; i < st.n; i++) {
        const uint64_t k = st.node_begin + i - first_last;
        if (k >= count_last) return "a leaf step outside the last internal level";
        got[k] = codes[i];
        seen[k]++;
      }
      continue;
    }
    std::vector<uint64_t> &out = buf[st.level + st.span];
    for (uint64_t first = 0; first < st.n; first += kBlock) {
      const uint64_t here = std::min<uint64_t>(kBlock, st.n - first);
      if (st.span == 1) {
        for (uint64_t t = 0; t < here; t++) {
          const uint64_t p = st.node_begin + first + t;
          const unsigned s = k2_view_sig(A, p);
          uint64_t pos = k2_view_first_child(A, p) - st.out_begin;
          for (unsigned b = 0; b < 4; b++) {
            if (!(s & (1u << b))) continue;
            if (pos >= out.size()) return "an expand step writes past its buffer";
            out[pos++] = (codes[first + t] << 2) | b;
          }
        }
        continue;
      }
      const uint64_t base = k2_view_first_child(A, st.node_begin + first);
      uint64_t kid[4 * kBlock], nk = 0;
      for (uint64_t t = 0; t < here; t++) {
        const uint64_t p = st.node_begin + first + t;
        const unsigned s = k2_view_sig(A, p);
        uint64_t pos = k2_view_first_child(A, p) - base;
        for (unsigned b = 0; b < 4; b++)
          if (s & (1u << b)) kid[pos++] = (codes[first + t] << 2) | b;
        if (t == here - 1) nk = pos;
      }
      uint64_t pos = k2_view_first_child(A, base) - st.out_begin;
      for (uint64_t k = 0; k < nk; k++) {
        const unsigned s = k2_view_sig(A, base + k);
        for (unsigned b = 0; b < 4; b++) {
          if (!(s & (1u << b))) continue;
          if (pos >= out.size()) return "a fused expand step writes past its buffer";
          out[pos++] = (kid[k] << 2) | b;
        }
      }
    }
  }
  uint64_t *want = nullptr;
  if (k2_bottom_codes_expand(A, &want) != 0) return "no memory for the reference codes";
  const char *bad = nullptr;
  for (uint64_t k = 0; k < count_last && bad == nullptr; k++) {
    if (seen[k] != 1) bad = "a node of the last internal level is visited other than once";
    else if (got[k] != want[k]) bad = "a node of the last internal level gets a wrong code";
  }
  free(want);
  return bad;
}

}  // namespace
}  // namespace k2cu

extern "C" int k2_cuda_plan_replay(const k2_view *A, uint64_t M, bool fuse,
                                   k2_cuda_plan_rule rule, uint64_t *steps,
                                   uint64_t *scratch) {
  if (A == nullptr || M < 16) {
    return k2_cuda_fail(k2cu::kGrbInvalidValue, "CUDA plan replay: A is NULL or M is below 16");
  }
  k2cu::Plan plan;
  int rc = k2cu::make_plan(A, K2_CUDA_CONFIG_TREE, M, false, fuse, &plan, rule);
  if (rc != 0) return rc;
  if (steps != nullptr) *steps = plan.steps.size();
  if (scratch != nullptr) *scratch = plan.bytes;
  if (A->n_internal == 0) return 0;
  const char *bad = k2cu::replay(A, plan);
  return bad == nullptr ? 0 : k2_cuda_fail(k2cu::kGrbPanic, bad);
}
