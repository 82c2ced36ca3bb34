// test_gpu_product.c: the CUDA engine against the reference engine (src/cpu), on the GPU.
// SPDX-License-Identifier: Apache-2.0
//
// Every native (type, monoid, multiply), right and left, batches of 1..256 vectors, the three
// device configurations (tree only, cached bottom codes, row blocks), both offset sources, tiny tiles (many launches), all three leaf sizes, sparse
// x / y presence / masks, on random matrices and on every real graph of the data folder
// (tests/support/k2_real_graphs.c; skipped where absent). Values are dyadic (k/64) so that floating-point sums are
// exact in any order and every comparison is bit-exact; one test checks non-dyadic FP32 sums
// against the 1e-6 relative bound. ANY is checked for validity (between MIN and MAX, same
// presence). Also the device-resident vectors (K2_DeviceVector: products against the reference
// engine, the element-wise operations against GraphBLAS; batches and K2_mxm_device against the
// host's K2_mxm) and BFS, SSSP, PageRank, msBFS and WCC run whole on the device against the
// host's. Compressed leaves (decoded at upload) against the reference engine reading the codes.
// Full blocks (expanded at upload) through K2_mxv / K2_vxm against the reference engine reading
// the marks, in every device configuration.
// Exits 77 (skipped) without a GPU.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k2_grb_oracle.h"
#include "k2_native_semirings.h"
#include "k2_oracle.h"
#include "k2grb_algorithms.h"
#include "k2_real_graphs.h"
#include "k2_test.h"

#include "cuda/k2_cuda_testing.h"
#include "matrix/k2_matrix.h"

static bool g_quick;  // K2GRB_GPU_QUICK=1: fewer combinations (compute-sanitizer runs)

typedef struct {
  K2_Matrix A;
  k2_view v;
  void *device;  // a resident copy this test uploaded (k2_cuda_upload), or NULL
} gmat;

static void gmat_make(gmat *g, const k2_coo_list *L, const K2_Format *fmt) {
  g->device = NULL;
  g->A = k2_test_matrix(L, fmt);
  K2_ASSERT_OK(k2_matrix_wait(g->A));
  k2_tree_view(&g->v, &g->A->tree, g->A->weight);
}

static void gmat_free(gmat *g) {
  k2_cuda_release(g->device);
  g->device = NULL;
  K2_ASSERT_OK(K2_Matrix_free(&g->A));
}

static void gmat_upload(gmat *g, int config) {
  k2_cuda_release(g->device);
  g->device = NULL;
  int rc = k2_cuda_upload(&g->v, config, &g->device);
  if (rc != 0) {
    print_error("k2_cuda_upload: %d: %s\n", rc, K2_error_string());
    fail();
  }
}

static void set_device(uint64_t tile, int offsets) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.tile = tile;
  s.offsets = offsets;
  assert_int_equal(k2_cuda_settings_set(&s), 0);
}

// Two levels per expand step (the library's default), or one.
static void set_fuse(bool fuse) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.fuse_levels = fuse;
  assert_int_equal(k2_cuda_settings_set(&s), 0);
}

// A dyadic random value of a type: k/64 in [-1, 1] (or small integers), BOOL 0/1 (sometimes 2).
static void random_value(k2_type t, void *dst, uint64_t i, k2_rng *rng, bool nonneg) {
  int64_t k = (int64_t)k2_rng_below(rng, 129) - (nonneg ? 0 : 64);
  switch (t) {
    case K2_T_BOOL: ((uint8_t *)dst)[i] = (uint8_t)(k2_rng_below(rng, 5) == 0 ? 2 : k2_rng_below(rng, 2)); break;
    case K2_T_INT32: ((int32_t *)dst)[i] = (int32_t)k; break;
    case K2_T_INT64: ((int64_t *)dst)[i] = k * 1000003; break;
    case K2_T_FP32: ((float *)dst)[i] = (float)k / 64.0f; break;
    default: ((double *)dst)[i] = (double)k / 64.0; break;
  }
}

static double as_double(k2_type t, const void *a, uint64_t i) {
  switch (t) {
    case K2_T_BOOL: return ((const uint8_t *)a)[i];
    case K2_T_INT32: return ((const int32_t *)a)[i];
    case K2_T_INT64: return (double)((const int64_t *)a)[i];
    case K2_T_FP32: return ((const float *)a)[i];
    default: return ((const double *)a)[i];
  }
}

static bool same_value(k2_type t, const void *a, const void *b, uint64_t i) {
  switch (t) {
    case K2_T_BOOL: return ((const uint8_t *)a)[i] == ((const uint8_t *)b)[i];
    case K2_T_INT32: return ((const int32_t *)a)[i] == ((const int32_t *)b)[i];
    case K2_T_INT64: return ((const int64_t *)a)[i] == ((const int64_t *)b)[i];
    case K2_T_FP32: return ((const float *)a)[i] == ((const float *)b)[i];
    default: return ((const double *)a)[i] == ((const double *)b)[i];
  }
}

typedef struct {
  k2_type type;
  k2_monoid monoid;
  k2_mult mult;
  bool left;
  uint32_t batch;
  bool x_present, y_skip;
  double w;
  int64_t base;
} spec;

static const char *type_name[] = {"BOOL", "INT32", "INT64", "FP32", "FP64"};
static const char *mon_name[] = {"PLUS", "MIN", "MAX", "LOR", "ANY"};
static const char *mul_name[] = {"X", "X*W", "X+W", "CONST", "INDEX"};

static bool combo_ok(k2_type t, k2_monoid m, k2_mult u) {
  if (m == K2_MON_LOR && t != K2_T_BOOL) return false;
  if (u == K2_MUL_INDEX && t == K2_T_BOOL) return false;
  return true;
}

// One product's inputs and its reference results (the reference engine, src/cpu), which can be
// checked against the CUDA engine in several configurations.
typedef struct {
  spec s;
  uint64_t in, out;
  uint32_t ts;
  void *x, *yr, *lo, *hi;  // lo / hi: MIN and MAX results, the bounds of a valid ANY
  uint8_t *xp, *ys, *pr;
} ref_case;

static void ref_case_make(ref_case *c, const k2_view *v, const spec *s, k2_rng *rng) {
  memset(c, 0, sizeof *c);
  c->s = *s;
  c->in = (s->left ? v->nrows : v->ncols) * s->batch;
  c->out = (s->left ? v->ncols : v->nrows) * s->batch;
  c->ts = k2_type_size(s->type);
  c->x = malloc(c->in * c->ts + 8);
  c->yr = malloc(c->out * c->ts + 8);
  c->xp = malloc(c->in + 1);
  c->ys = malloc(c->out + 1);
  c->pr = malloc(c->out + 1);
  assert_true(c->x && c->yr && c->xp && c->ys && c->pr);
  for (uint64_t i = 0; i < c->in; i++) {
    random_value(s->type, c->x, i, rng, false);
    c->xp[i] = k2_rng_below(rng, 10) < 7;
  }
  for (uint64_t i = 0; i < c->out; i++) c->ys[i] = k2_rng_below(rng, 10) < 2;
  k2_product P = {.type = s->type, .monoid = s->monoid, .mult = s->mult, .w = s->w,
                  .index_base = s->base, .left = s->left, .batch = s->batch, .x = c->x,
                  .x_present = s->x_present ? c->xp : NULL, .y = c->yr, .y_present = c->pr,
                  .y_skip = s->y_skip ? c->ys : NULL};
  assert_int_equal(k2_ref_product(v, NULL, &P), 0);
  // ANY: any contribution is right; check MIN <= y <= MAX where present.
  if (s->monoid == K2_MON_ANY) {
    c->lo = malloc(c->out * c->ts + 8);
    c->hi = malloc(c->out * c->ts + 8);
    uint8_t *tmp = malloc(c->out + 1);
    assert_true(c->lo && c->hi && tmp);
    P.monoid = K2_MON_MIN;
    P.y = c->lo;
    P.y_present = tmp;
    assert_int_equal(k2_ref_product(v, NULL, &P), 0);
    P.monoid = K2_MON_MAX;
    P.y = c->hi;
    assert_int_equal(k2_ref_product(v, NULL, &P), 0);
    free(tmp);
  }
}

static void ref_case_free(ref_case *c) {
  free(c->x);
  free(c->yr);
  free(c->lo);
  free(c->hi);
  free(c->xp);
  free(c->ys);
  free(c->pr);
  memset(c, 0, sizeof *c);
}

// Run the product on the CUDA engine (device: the configuration) and compare (asserts).
static void ref_case_check(const ref_case *c, const k2_view *v, void *device, const char *what) {
  const spec *s = &c->s;
  void *yg = malloc(c->out * c->ts + 8);
  uint8_t *pg = malloc(c->out + 1);
  assert_true(yg && pg);
  memset(yg, 0xA5, c->out * c->ts);  // the engine must write every entry
  memset(pg, 0xA5, c->out);
  k2_product P = {.type = s->type, .monoid = s->monoid, .mult = s->mult, .w = s->w,
                  .index_base = s->base, .left = s->left, .batch = s->batch, .x = c->x,
                  .x_present = s->x_present ? c->xp : NULL, .y = yg, .y_present = pg,
                  .y_skip = s->y_skip ? c->ys : NULL};
  int rc = k2_cuda_product(v, device, &P);
  if (rc != 0) {
    print_error("%s: k2_cuda_product returned %d: %s\n", what, rc, K2_error_string());
    fail();
  }
  uint64_t bad = 0;
  for (uint64_t i = 0; i < c->out; i++) {
    if (s->y_skip && c->ys[i]) continue;
    bool ok = c->pr[i] == pg[i];
    if (ok && s->monoid == K2_MON_ANY) {
      if (c->pr[i]) {
        double g = as_double(s->type, yg, i);
        if (s->type == K2_T_BOOL) g = g != 0;
        ok = g >= as_double(s->type, c->lo, i) && g <= as_double(s->type, c->hi, i);
      } else {
        ok = same_value(s->type, c->yr, yg, i);
      }
    } else if (ok) {
      ok = same_value(s->type, c->yr, yg, i);
    }
    if (!ok && bad++ < 5)
      print_error("%s: %s %s.%s %s B=%u xp=%d ys=%d: y[%llu] ref %g (present %d) gpu %g (present %d)\n",
                  what, type_name[s->type], mon_name[s->monoid], mul_name[s->mult],
                  s->left ? "left" : "right", s->batch, s->x_present, s->y_skip,
                  (unsigned long long)i, as_double(s->type, c->yr, i), c->pr[i],
                  as_double(s->type, yg, i), pg[i]);
  }
  free(yg);
  free(pg);
  if (bad) {
    print_error("%s: %llu mismatches\n", what, (unsigned long long)bad);
    fail();
  }
}

// Run one product on both engines and compare (asserts no mismatch).
static void compare(const k2_view *v, void *device, const spec *s, k2_rng *rng, const char *what) {
  ref_case c;
  ref_case_make(&c, v, s, rng);
  ref_case_check(&c, v, device, what);
  ref_case_free(&c);
}

static void random_list(k2_coo_list *L, uint64_t nr, uint64_t nc, uint64_t nv, uint64_t seed) {
  k2_rng rng = {seed};
  k2_coo_random(L, nr, nc, nv, &rng);
}

// Every native combination, right and left, single vectors and a small batch.
static void test_all_semirings(void **state) {
  (void)state;
  k2_coo_list L;
  random_list(&L, 300, 211, g_quick ? 1500 : 5000, 11);
  gmat g;
  gmat_make(&g, &L, NULL);
  set_device(UINT64_C(1) << 20, K2_CUDA_OFFSETS_AUTO);
  k2_rng rng = {77};
  const uint32_t batches[] = {1, 4};
  // the traversal kernels and the row-block kernels (the cached bottom codes shares the former)
  for (int config = 0; config <= K2_CUDA_CONFIG_ROWS; config += K2_CUDA_CONFIG_ROWS) {
  gmat_upload(&g, config);
  for (int t = 0; t < K2_T_COUNT; t++)
    for (int m = 0; m < K2_MON_COUNT; m++)
      for (int u = 0; u < K2_MUL_COUNT; u++) {
        if (!combo_ok((k2_type)t, (k2_monoid)m, (k2_mult)u)) continue;
        for (int left = 0; left < 2; left++)
          for (int bi = 0; bi < 2; bi++) {
            spec s = {(k2_type)t, (k2_monoid)m, (k2_mult)u, left, batches[bi],
                      (bi + left) % 2 == 0, bi == 1, u == K2_MUL_X_PLUS_W ? -0.5 : 2.0,
                      left ? 1 : 0};
            compare(&g.v, g.device, &s, &rng, config ? "all_semirings, row blocks" : "all_semirings");
          }
      }
  }
  gmat_free(&g);
  k2_coo_free(&L);
}

// Compressed leaves (K2_Format.compress_leaves), 4x4 and 8x8: the device copy holds the leaves
// decoded; every native combination against the reference engine, which reads the codes.
static void test_compressed_leaves(void **state) {
  (void)state;
  k2_coo_list L;
  // about 1% of the cells, where the codes take fewer words than the bitmaps in both leaf sizes
  // (denser, the 8x8 leaves of 20,000 entries in 700 x 523 stay plain and leafc is NULL)
  if (g_quick) random_list(&L, 700, 523, 4000, 13);
  else random_list(&L, 1500, 1100, 18000, 13);
  set_device(UINT64_C(1) << 20, K2_CUDA_OFFSETS_AUTO);
  k2_rng rng = {78};
  for (uint32_t leaf_log = 2; leaf_log <= 3; leaf_log++) {
    K2_Format fmt;
    K2_Format_default(&fmt);
    fmt.leaf_log = leaf_log;
    fmt.compress_leaves = true;
    gmat g;
    gmat_make(&g, &L, &fmt);
    assert_non_null(g.v.leafc);
    const int configs[2] = {K2_CUDA_CONFIG_TREE, K2_CUDA_CONFIG_BOTTOM};
    for (int ci = 0; ci < 2; ci++) {
      gmat_upload(&g, configs[ci]);
      for (int t = 0; t < K2_T_COUNT; t++)
        for (int m = 0; m < K2_MON_COUNT; m++)
          for (int u = 0; u < K2_MUL_COUNT; u++) {
            if (!combo_ok((k2_type)t, (k2_monoid)m, (k2_mult)u)) continue;
            for (int left = 0; left < 2; left++) {
              spec s = {(k2_type)t, (k2_monoid)m, (k2_mult)u, left, left ? 3 : 1, left == 1,
                        false, u == K2_MUL_X_PLUS_W ? -0.5 : 2.0, left ? 1 : 0};
              char what[80];
              snprintf(what, sizeof what, "compressed leaves, leaf_log %u, config %d", leaf_log,
                       configs[ci]);
              compare(&g.v, g.device, &s, &rng, what);
            }
          }
    }
    gmat_free(&g);
  }
  k2_coo_free(&L);
}

// Full blocks (K2_Format.full_blocks): the device holds the tree expanded to plain nodes of 2x2
// leaves (made by the dispatch from the marks, larger leaves split, compressed ones decoded), in
// every configuration, the row blocks included; every native semiring, both directions, dense and sparse
// inputs, on the CUDA engine against the reference engine reading the marks, for each device
// configuration. Values k/8: exact sums in any order.
static GrB_Vector full_blocks_u(GrB_Type t, uint64_t n, bool sparse) {
  GrB_Vector u = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, t, n));
  for (uint64_t i = 0; i < n; i++) {
    if (sparse && (i * 2654435761u) % 40 != 0) continue;
    K2_ASSERT_OK(GrB_Vector_setElement_FP64(u, (double)((i * 40503u) % 97) / 8.0, i));
  }
  K2_ASSERT_OK(GrB_Vector_wait(u, GrB_MATERIALIZE));
  return u;
}

static GrB_Vector full_blocks_product(K2_Matrix A, GrB_Semiring s, GrB_Type t, GrB_Vector u, int dir,
                                      K2_Engine e, GrB_Index n_out) {
  GrB_Vector w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, t, n_out));
  K2_ASSERT_OK(K2_set_engine(e));
  K2_ASSERT_OK(K2_set_strict(true));  // a decline is an error, not a silent run elsewhere
  if (dir == 0) K2_ASSERT_OK(K2_mxv(w, NULL, NULL, s, A, u, NULL));
  else if (dir == 1) K2_ASSERT_OK(K2_mxv(w, NULL, NULL, s, A, u, GrB_DESC_T0));
  else K2_ASSERT_OK(K2_vxm(w, NULL, NULL, s, u, A, NULL));
  K2_ASSERT_OK(K2_set_strict(false));
  // a dense input whose values the multiply ignores (PLUS_FIRST, PLUS_PAIR) is answered from the
  // degrees the matrix caches, on the host, without an engine (K2_last_engine then names the
  // previous call's); otherwise the engine asked for ran, strict mode ruling out another
  const K2_Path path = K2_last_path();
  if (e == K2_ENGINE_CUDA) {
    assert_true(path == K2_PATH_NATIVE_GPU || path == K2_PATH_NATIVE_CPU);
    if (path == K2_PATH_NATIVE_GPU) assert_int_equal(K2_last_engine(), K2_ENGINE_CUDA);
  } else {
    assert_int_equal(path, K2_PATH_NATIVE_CPU);
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  return w;
}

static void test_full_blocks(void **state) {
  (void)state;
  static sr_entry sr[K2_NATIVE_SEMIRINGS_MAX];
  const int n_sr = k2_native_semirings(sr);
  // 1000 x 900: random edges, an aligned clique (a full node high up), an unaligned one, a
  // complete bipartite piece and a block at the border
  const uint64_t nr = 1000, nc = 900, blocks[][4] = {{0, 0, 128, 128}, {300, 41, 50, 50}, {500, 100, 20, 300},
                                                     {960, 850, 40, 50}};
  uint64_t total = 5000;
  for (int b = 0; b < 4; b++) total += blocks[b][2] * blocks[b][3];
  k2_coo_list L;
  k2_coo_alloc(&L, nr, nc, total);
  k2_rng rng = {31};
  uint64_t k = 0;
  for (; k < 5000; k++) {
    L.I[k] = (uint32_t)k2_rng_below(&rng, nr);
    L.J[k] = (uint32_t)k2_rng_below(&rng, nc);
  }
  for (int b = 0; b < 4; b++)
    for (uint64_t r = 0; r < blocks[b][2]; r++)
      for (uint64_t c = 0; c < blocks[b][3]; c++) {
        L.I[k] = (uint32_t)(blocks[b][0] + r);
        L.J[k++] = (uint32_t)(blocks[b][1] + c);
      }
  L.nvals = k;
  const K2_DeviceConfig configs[3] = {K2_DEVICE_TREE_ONLY, K2_DEVICE_BOTTOM, K2_DEVICE_ROWS};
  // 2x2, 4x4 and 8x8 leaves, then 4x4 and 8x8 compressed
  for (int variant = 0; variant < 5; variant++) {
    const uint32_t leaf_log = (uint32_t)(variant % 3 + 1) + (variant >= 3);
    K2_Format fmt;
    K2_Format_default(&fmt);
    fmt.leaf_log = leaf_log;
    fmt.full_blocks = true;
    fmt.compress_leaves = variant >= 3;
    K2_Matrix A = k2_test_matrix(&L, &fmt);
    assert_true(A->tree.n_full > 0);
    for (int ci = 0; ci < 3; ci++) {
      // every configuration, the row blocks too: the device holds the tree with 2x2 leaves
      K2_ASSERT_OK(K2_Matrix_upload(A, configs[ci]));
      for (int si = 0; si < n_sr; si++) {
        if (g_quick && si % 5 != 0) continue;
        for (int dir = 0; dir < 3; dir++)
          for (int sparse = 0; sparse < 2; sparse++) {
            const GrB_Index n_in = dir == 0 ? nc : nr, n_out = dir == 0 ? nr : nc;
            GrB_Vector u = full_blocks_u(sr[si].type, n_in, sparse);
            GrB_Vector want = full_blocks_product(A, sr[si].s, sr[si].type, u, dir, K2_ENGINE_REFERENCE, n_out);
            GrB_Vector got = full_blocks_product(A, sr[si].s, sr[si].type, u, dir, K2_ENGINE_CUDA, n_out);
            GrB_Index na = 0, nb = 0;
            K2_ASSERT_OK(GrB_Vector_nvals(&na, want));
            K2_ASSERT_OK(GrB_Vector_nvals(&nb, got));
            if (na != nb)
              fail_msg("full blocks, leaf_log %u, config %d, %s, dir %d: %llu entries, reference %llu", leaf_log,
                       (int)configs[ci], sr[si].name, dir, (unsigned long long)nb, (unsigned long long)na);
            GrB_Index *ia = malloc((na + 1) * 8), *ib = malloc((na + 1) * 8);
            double *xa = malloc((na + 1) * 8), *xb = malloc((na + 1) * 8);
            GrB_Index ka = na, kb = nb;
            K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(ia, xa, &ka, want));
            K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(ib, xb, &kb, got));
            for (GrB_Index e = 0; e < na; e++)
              if (ia[e] != ib[e] || (sr[si].any == A_NONE && xa[e] != xb[e]))
                fail_msg("full blocks, leaf_log %u, config %d, %s, dir %d: entry %llu: (%llu, %g), reference "
                         "(%llu, %g)", leaf_log, (int)configs[ci], sr[si].name, dir, (unsigned long long)e,
                         (unsigned long long)ib[e], xb[e], (unsigned long long)ia[e], xa[e]);
            free(ia);
            free(ib);
            free(xa);
            free(xb);
            GrB_Vector_free(&u);
            GrB_Vector_free(&want);
            GrB_Vector_free(&got);
          }
      }
    }
    // the expansion is kept with the matrix (its cache) until the tree changes
    K2_MemoryUsage mu;
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&mu, A));
    assert_true(mu.cache > 0);
    K2_Matrix_free(&A);
  }
  k2_coo_free(&L);
  k2_native_semirings_free();
}

// Configurations x offsets x tile sizes x leaf sizes x top levels, on a few semirings.
static void test_configurations(void **state) {
  (void)state;
  k2_coo_list L;
  random_list(&L, 3001, 2500, g_quick ? 3000 : 20000, 5);
  const spec sems[] = {
      {K2_T_FP32, K2_MON_PLUS, K2_MUL_X_TIMES_W, false, 1, false, false, 0.5, 0},
      {K2_T_INT64, K2_MON_MIN, K2_MUL_X_PLUS_W, false, 1, true, false, 3, 0},
      {K2_T_BOOL, K2_MON_LOR, K2_MUL_X, false, 1, true, true, 1, 0},
      {K2_T_FP64, K2_MON_MAX, K2_MUL_X, false, 1, false, false, 1, 0},
      {K2_T_INT32, K2_MON_PLUS, K2_MUL_INDEX, false, 1, false, true, 1, 1},
  };
  const uint32_t batches[] = {1, 2, 33, 256};
  const uint64_t tiles[] = {16, 100, UINT64_C(1) << 20};
  k2_rng rng = {99};
  for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log += g_quick ? 2 : 1)
    for (uint32_t top = 0; top < 2; top++) {
      K2_Format fmt;
      K2_Format_default(&fmt);
      fmt.leaf_log = leaf_log;
      fmt.top_max_log = top ? 16 : 2;  // 2: start 4 nodes wide, expand on the device
      // 4: a compact directory (16-bit offsets), 11: a plain one (64-bit samples, as version 1
      // files have); the default format's compact S = 256 runs in the other tests
      fmt.directory_log = top ? 11 : 4;
      fmt.cache_bottom_codes = top == 0;
      gmat g;
      gmat_make(&g, &L, &fmt);
      for (int config = 0; config <= K2_CUDA_CONFIG_ROWS; config++) {
        if (config == K2_CUDA_CONFIG_ROWS && leaf_log != 1) {
          // row blocks are 4x4: other leaf sizes are declined with a message, nothing held
          const uint64_t live = k2_cuda_live_allocations();
          void *dev = NULL;
          assert_int_equal(k2_cuda_upload(&g.v, config, &dev), K2_DECLINED);
          assert_null(dev);
          assert_non_null(strstr(K2_error_string(), "2x2 leaves"));
          assert_int_equal(k2_cuda_live_allocations(), live);
          continue;
        }
        gmat_upload(&g, config);
        // off 1 and 3: the directory, levels fused (two per expand step) and not; 2: the scan
        for (int off = 1; off <= 3; off++)
          for (int ti = 0; ti < 3; ti++) {
            if (g_quick && ti == 0) continue;  // M = 16: thousands of launches
            // row blocks have no tiles and no offsets: one setting suffices
            if (config == K2_CUDA_CONFIG_ROWS && (off != 1 || ti != 2)) continue;
            // fusion is a tree-only plan's (the bottom codes start at the last level)
            if (off == 3 && config != K2_CUDA_CONFIG_TREE) continue;
            set_device(tiles[ti], off == 3 ? K2_CUDA_OFFSETS_DIRECTORY : off);
            set_fuse(off != 3);
            for (size_t k = 0; k < (g_quick ? 3 : sizeof sems / sizeof sems[0]); k++)
              for (int left = 0; left < 2; left++)
                for (int bi = 0; bi < 4; bi++) {
                  if (g_quick && (bi == 0 || bi == 3)) continue;
                  // M = 16 means a launch per 16 children: a few products suffice
                  if (ti == 0 && (k > 1 || bi == 1 || bi == 3)) continue;
                  spec s = sems[k];
                  s.left = left;
                  s.batch = batches[bi];
                  char what[128];
                  snprintf(what, sizeof what, "leaf_log %u top_max %u config %d offsets %d (3: directory, unfused) M %llu",
                           leaf_log, fmt.top_max_log, config, off, (unsigned long long)tiles[ti]);
                  compare(&g.v, g.device, &s, &rng, what);
                }
          }
      }
      gmat_free(&g);
    }
  set_device(UINT64_C(1) << 20, K2_CUDA_OFFSETS_AUTO);
  set_fuse(true);  // the library's default
  k2_coo_free(&L);
}

// The specialised plus kernels (one vector, or a batch of 32 to 256; every x present, no presence
// bytes: what K2_mxv / K2_mxm use for a full u) against the reference engine, bit for bit (dyadic values, -0.0 included), and
// against the generic kernel. A banded matrix keeps a block's outputs inside the shared window;
// a random one sends most updates past it; tiny tiles split the levels.
static void plus_case(const k2_view *v, void *device, k2_type t, k2_mult mult, bool left, uint32_t B,
                      k2_rng *rng, const char *what) {
  const uint64_t in = (left ? v->nrows : v->ncols) * B, out = (left ? v->ncols : v->nrows) * B;
  const uint32_t ts = k2_type_size(t);
  void *x = malloc(in * ts + 8), *yr = malloc(out * ts + 8), *yg = malloc(out * ts + 8);
  assert_true(x && yr && yg);
  for (uint64_t i = 0; i < in; i++) {
    random_value(t, x, i, rng, false);
    if (i % 97 == 5) {  // negative zeros: must leave sums as the reference does
      if (t == K2_T_FP32) ((float *)x)[i] = -0.0f;
      else ((double *)x)[i] = -0.0;
    }
  }
  memset(yg, 0xA5, out * ts);
  k2_product P = {.type = t, .monoid = K2_MON_PLUS, .mult = mult, .w = mult == K2_MUL_X ? 1 : 0.5,
                  .left = left, .batch = B, .x = x, .y = yr};
  assert_int_equal(k2_ref_product(v, NULL, &P), 0);
  P.y = yg;
  int rc = k2_cuda_product(v, device, &P);
  if (rc != 0) {
    print_error("%s: k2_cuda_product returned %d: %s\n", what, rc, K2_error_string());
    fail();
  }
  uint64_t bad = 0;
  for (uint64_t i = 0; i < out; i++) {
    bool ok = memcmp((char *)yr + i * ts, (char *)yg + i * ts, ts) == 0;  // bits: -0.0 too
    if (!ok && bad++ < 5)
      print_error("%s: %s %s %s B=%u: y[%llu] ref %g gpu %g\n", what, type_name[t],
                  mul_name[mult], left ? "left" : "right", B, (unsigned long long)i,
                  as_double(t, yr, i),
                  as_double(t, yg, i));
  }
  free(x);
  free(yr);
  free(yg);
  if (bad) {
    print_error("%s: %llu mismatches\n", what, (unsigned long long)bad);
    fail();
  }
}

static void test_plus_kernel(void **state) {
  (void)state;
  k2_coo_list lists[3];
  random_list(&lists[0], 3001, 2500, g_quick ? 3000 : 20000, 23);
  // banded, 40,000 rows: |i - j| <= 3, and one far entry in 50
  {
    k2_coo_list *L = &lists[1];
    const uint64_t n = 40000, m = g_quick ? 20000 : 120000;
    k2_rng r = {31};
    k2_coo_alloc(L, n, n, m);
    for (uint64_t e = 0; e < m; e++) {
      uint64_t i = k2_rng_below(&r, n);
      int64_t j = (int64_t)i + (int64_t)k2_rng_below(&r, 7) - 3;
      if (k2_rng_below(&r, 50) == 0) j = (int64_t)k2_rng_below(&r, n);
      if (j < 0) j = 0;
      if (j >= (int64_t)n) j = (int64_t)n - 1;
      L->I[e] = (uint32_t)i;
      L->J[e] = (uint32_t)j;
    }
  }
  // skewed, 20,000 rows: row 1 and column 7 full, random pairs besides. Row block 0 spans
  // thousands of blocks: its sums cross warps and stretches of the row-block kernels.
  {
    k2_coo_list *L = &lists[2];
    const uint64_t n = 20000, extra = g_quick ? 5000 : 20000, m = 2 * n + extra;
    k2_rng r = {37};
    k2_coo_alloc(L, n, n, m);
    for (uint64_t e = 0; e < n; e++) {
      L->I[2 * e] = 1, L->J[2 * e] = (uint32_t)e;
      L->I[2 * e + 1] = (uint32_t)e, L->J[2 * e + 1] = 7;
    }
    for (uint64_t e = 2 * n; e < m; e++) {
      L->I[e] = (uint32_t)k2_rng_below(&r, n);
      L->J[e] = (uint32_t)k2_rng_below(&r, n);
    }
  }
  const uint64_t tiles[] = {100, UINT64_C(1) << 20};
  k2_rng rng = {4321};
  for (int li = 0; li < 3; li++) {
    gmat g;
    gmat_make(&g, &lists[li], NULL);
    for (int config = 0; config <= K2_CUDA_CONFIG_ROWS; config++) {
      gmat_upload(&g, config);
      for (int ti = 0; ti < 2; ti++)
        for (int fast = 0; fast < 2; fast++) {
          if (config == K2_CUDA_CONFIG_ROWS && ti == 0) continue;  // no tiles
          set_device(tiles[ti], K2_CUDA_OFFSETS_AUTO);
          k2_cuda_settings cs;
          k2_cuda_settings_get(&cs);
          cs.fast_leaf = fast == 1;
          assert_int_equal(k2_cuda_settings_set(&cs), 0);
          for (int t = K2_T_FP32; t <= K2_T_FP64; t++)
            for (int mult = 0; mult < 2; mult++)
              for (int left = 0; left < 2; left++)
                for (int bi = 0; bi < 5; bi++) {
                  // single vectors, then the batch kernel's widths (>= 32, ragged 40, at most 256)
                  const uint32_t widths[] = {1, 32, 40, 128, 256};
                  if (g_quick && bi != 0 && bi != 2) continue;
                  if (bi == 4 && (ti == 0 || li >= 1)) continue;  // 256 x 40,000 x tiny tiles: slow
                  char what[96];
                  snprintf(what, sizeof what, "%s config %d M %llu fast %d",
                           li == 2 ? "skewed" : li ? "banded" : "random", config,
                           (unsigned long long)tiles[ti], fast);
                  plus_case(&g.v, g.device, (k2_type)t, mult ? K2_MUL_X_TIMES_W : K2_MUL_X, left,
                            widths[bi], &rng, what);
                }
        }
    }
    gmat_free(&g);
    k2_coo_free(&lists[li]);
  }
  k2_cuda_settings cs;
  k2_cuda_settings_get(&cs);
  cs.fast_leaf = true;
  assert_int_equal(k2_cuda_settings_set(&cs), 0);
  set_device(UINT64_C(1) << 20, K2_CUDA_OFFSETS_AUTO);
}

// The exact device bytes: predicted before, counted at every cudaMalloc of the engine.
static void test_memory_exact(void **state) {
  (void)state;
  k2_coo_list L;
  random_list(&L, 5000, 4000, 30000, 21);
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.top_max_log = 3;
  gmat g;
  gmat_make(&g, &L, &fmt);
  const uint32_t batches[] = {1, 128};
  for (int config = 0; config <= K2_CUDA_CONFIG_ROWS; config++)
    for (int off = 0; off <= 2; off++)
      for (int bi = 0; bi < 2; bi++)
        for (int left = 0; left < 2; left++) {
          set_device(off == 1 ? 64 : UINT64_C(1) << 20, off);
          k2_cuda_release(g.device);
          g.device = NULL;
          k2_cuda_trim();
          const uint64_t base = k2_cuda_allocated_bytes();
          spec s = {K2_T_FP32, K2_MON_PLUS, K2_MUL_X, left, batches[bi], bi == 0, false, 1, 0};
          k2_product P = {.type = s.type, .batch = s.batch, .left = s.left,
                          .x_present = s.x_present ? (const uint8_t *)&s : NULL,
                          .y_present = (uint8_t *)&s};
          k2_cuda_bytes pred;
          assert_int_equal(k2_cuda_product_bytes(&g.v, g.device, config, &P, &pred), 0);
          gmat_upload(&g, config);
          assert_int_equal(k2_cuda_allocated_bytes() - base, pred.matrix);
          k2_cuda_reset_peak();
          k2_rng rng = {5};
          compare(&g.v, g.device, &s, &rng, "memory");
          if (k2_cuda_peak_bytes() - base != pred.total) {
            print_error("config %d offsets %d B %u: predicted %llu (matrix %llu scratch %llu vectors "
                        "%llu), peak %llu\n", config, off, s.batch, (unsigned long long)pred.total,
                        (unsigned long long)pred.matrix, (unsigned long long)pred.scratch,
                        (unsigned long long)pred.vectors,
                        (unsigned long long)(k2_cuda_peak_bytes() - base));
            fail();
          }
          // the public call says the same
          K2_DeviceBytes pub;
          K2_ASSERT_OK(K2_Matrix_deviceBytes(&pub, g.A, (K2_DeviceConfig)config, GrB_FP32,
                                             s.batch, s.left,
                                             K2_DEVICE_Y_PRESENT | (s.x_present ? K2_DEVICE_X_PRESENT : 0)));
          assert_int_equal(pub.total, pred.total);
        }
  // fused levels: fewer launches and less scratch than one level per launch, on the same tiles
  set_device(64, K2_CUDA_OFFSETS_DIRECTORY);
  k2_product P1 = {.type = K2_T_FP32, .batch = 1};
  k2_cuda_bytes fused, single;
  set_fuse(true);
  assert_int_equal(k2_cuda_product_bytes(&g.v, g.device, K2_CUDA_CONFIG_TREE, &P1, &fused), 0);
  set_fuse(false);
  assert_int_equal(k2_cuda_product_bytes(&g.v, g.device, K2_CUDA_CONFIG_TREE, &P1, &single), 0);
  set_fuse(true);  // the library's default
  print_message("M = 64: fused %llu launches, %llu scratch bytes; one level %llu, %llu\n",
                (unsigned long long)fused.tiles, (unsigned long long)fused.scratch,
                (unsigned long long)single.tiles, (unsigned long long)single.scratch);
  assert_true(fused.tiles < single.tiles);
  assert_true(fused.scratch < single.scratch);
  set_device(UINT64_C(1) << 20, K2_CUDA_OFFSETS_AUTO);
  gmat_free(&g);
  k2_cuda_trim();
  k2_coo_free(&L);
}

// A product over the budget is declined (the dispatcher then runs the CPU), never an error.
static void test_budget(void **state) {
  (void)state;
  k2_coo_list L;
  random_list(&L, 2000, 2000, 20000, 3);
  gmat g;
  gmat_make(&g, &L, NULL);
  gmat_upload(&g, K2_CUDA_CONFIG_TREE);
  k2_cuda_trim();
  float *x = calloc(2000, sizeof(float)), *y = calloc(2000, sizeof(float));
  assert_true(x && y);
  k2_product P = {.type = K2_T_FP32, .monoid = K2_MON_PLUS, .mult = K2_MUL_X, .batch = 1,
                  .x = x, .y = y};
  k2_cuda_bytes pred;
  assert_int_equal(k2_cuda_product_bytes(&g.v, g.device, K2_CUDA_CONFIG_AUTO, &P, &pred), 0);
  k2_cuda_settings s0, s;
  k2_cuda_settings_get(&s0);
  s = s0;
  s.budget = pred.total - 1;
  assert_int_equal(k2_cuda_settings_set(&s), 0);
  const uint64_t before = k2_cuda_allocated_bytes();
  assert_int_equal(k2_cuda_product(&g.v, g.device, &P), K2_DECLINED);
  assert_int_equal(k2_cuda_allocated_bytes(), before);  // nothing allocated
  s.budget = pred.total;
  assert_int_equal(k2_cuda_settings_set(&s), 0);
  assert_int_equal(k2_cuda_product(&g.v, g.device, &P), 0);
  // an upload over the budget is declined too, through the public call as an error
  s.budget = 1000;
  assert_int_equal(k2_cuda_settings_set(&s), 0);
  assert_int_equal(K2_Matrix_upload(g.A, K2_DEVICE_TREE_ONLY), GrB_NOT_IMPLEMENTED);
  assert_int_equal(k2_cuda_settings_set(&s0), 0);
  // bad settings are refused
  s = s0;
  s.tile = 8;
  assert_int_equal(k2_cuda_settings_set(&s), GrB_INVALID_VALUE);
  assert_int_equal(K2_Device_setTileSize(4), GrB_INVALID_VALUE);
  free(x);
  free(y);
  gmat_free(&g);
  k2_coo_free(&L);
}

// Matrices freed or changed free their device copies (the release hook); nothing leaks.
static void test_no_leaks(void **state) {
  (void)state;
  k2_cuda_trim();
  const uint64_t live0 = k2_cuda_live_allocations(), bytes0 = k2_cuda_allocated_bytes();
  for (int round = 0; round < 3; round++) {
    k2_coo_list L;
    random_list(&L, 1000 + round, 900, 8000, 40 + round);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    K2_ASSERT_OK(K2_Matrix_upload(A, round == 1 ? K2_DEVICE_BOTTOM : K2_DEVICE_TREE_ONLY));
    assert_true(k2_cuda_live_allocations() > live0);
    // re-upload in other configs (round 2 ends on the row blocks)
    K2_ASSERT_OK(K2_Matrix_upload(A, K2_DEVICE_BOTTOM));
    if (round == 2) K2_ASSERT_OK(K2_Matrix_upload(A, K2_DEVICE_ROWS));
    k2_view v;
    K2_ASSERT_OK(k2_matrix_wait(A));
    k2_tree_view(&v, &A->tree, A->weight);
    void *device = k2_slot_get(A, K2_SLOT_CUDA);
    double *x = calloc(900 * 3, sizeof(double)), *y = calloc((1000 + round) * 3, sizeof(double));
    assert_true(x && y);
    k2_product P = {.type = K2_T_FP64, .monoid = K2_MON_PLUS, .mult = K2_MUL_X,
                    .batch = round + 1, .x = x, .y = y};
    assert_int_equal(k2_cuda_product(&v, device, &P), 0);
    if (round == 2) {
      // a change drops the device copy
      K2_ASSERT_OK(K2_Matrix_setElement(A, 0, 0));
      K2_ASSERT_OK(K2_Matrix_wait(A));
      assert_null(k2_slot_get(A, K2_SLOT_CUDA));
    }
    K2_ASSERT_OK(K2_Matrix_free(&A));
    free(x);
    free(y);
    k2_coo_free(&L);
  }
  k2_cuda_trim();
  assert_int_equal(k2_cuda_live_allocations(), live0);
  assert_int_equal(k2_cuda_allocated_bytes(), bytes0);
}

// Non-dyadic FP32 sums: relative error <= 1e-6 of the sum of |terms|.
static void test_fp32_rounding(void **state) {
  (void)state;
  k2_coo_list L;
  random_list(&L, 4000, 4000, 60000, 8);
  gmat g;
  gmat_make(&g, &L, NULL);
  k2_rng rng = {1234};
  for (int cl = 0; cl < 4; cl++) {
    const int left = cl & 1;
    gmat_upload(&g, cl < 2 ? K2_CUDA_CONFIG_AUTO : K2_CUDA_CONFIG_ROWS);
    float *x = malloc(4000 * sizeof(float)), *yr = malloc(4000 * sizeof(float)),
          *yg = malloc(4000 * sizeof(float));
    assert_true(x && yr && yg);
    for (int i = 0; i < 4000; i++) x[i] = (float)k2_rng_unit(&rng);  // positive: sum = sum |.|
    k2_product P = {.type = K2_T_FP32, .monoid = K2_MON_PLUS, .mult = K2_MUL_X_TIMES_W, .w = 0.3,
                    .left = left, .batch = 1, .x = x, .y = yr};
    assert_int_equal(k2_ref_product(&g.v, NULL, &P), 0);
    P.y = yg;
    assert_int_equal(k2_cuda_product(&g.v, g.device, &P), 0);
    for (int i = 0; i < 4000; i++)
      if (fabs((double)yr[i] - (double)yg[i]) > 1e-6 * fabs((double)yr[i]) + 1e-30) {
        print_error("y[%d]: ref %.9g gpu %.9g\n", i, yr[i], yg[i]);
        fail();
      }
    free(x);
    free(yr);
    free(yg);
  }
  gmat_free(&g);
  k2_coo_free(&L);
}

// ---- sparse products: an input given as its list, a mask allowing a few outputs, the output
// asked for as a list; the traversal pruned (K2_CUDA_PRUNE_*) or not. Against the reference
// engine on the same flags (which walks the whole tree).

static void set_prune(int mode) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.prune = mode;
  assert_int_equal(k2_cuda_settings_set(&s), 0);
}

// nin present inputs (distinct, random; UINT64_MAX: 70% of them) and, with nallowed !=
// UINT64_MAX, a mask that allows nallowed outputs. The report of the GPU product in *rep.
static void sparse_case(const k2_view *v, void *device, const spec *s0, uint64_t nin,
                        uint64_t nallowed, bool want_list, k2_rng *rng, const char *what,
                        k2_product_report *rep) {
  spec s = *s0;
  s.batch = 1;
  s.x_present = true;
  s.y_skip = nallowed != UINT64_MAX;
  const uint64_t in = s.left ? v->nrows : v->ncols, out = s.left ? v->ncols : v->nrows;
  const uint32_t ts = k2_type_size(s.type);
  void *x = calloc(in + 1, ts), *yr = malloc(out * ts + 8), *yg = malloc(out * ts + 8);
  uint8_t *xp = calloc(in + 1, 1), *ys = malloc(out + 1), *pr = malloc(out + 1), *pg = calloc(out + 1, 1);
  uint64_t *xl = malloc((in + 1) * 8), *yl = malloc((out + 1) * 8);
  assert_true(x && yr && yg && xp && ys && pr && pg && xl && yl);
  uint64_t k = 0;
  if (nin == UINT64_MAX) {
    for (uint64_t i = 0; i < in; i++) xp[i] = k2_rng_below(rng, 10) < 7;
  } else {
    for (uint64_t placed = 0; placed < nin && placed < in;) {
      const uint64_t i = k2_rng_below(rng, in);
      if (!xp[i]) {
        xp[i] = 1;
        placed++;
      }
    }
  }
  for (uint64_t i = 0; i < in; i++)
    if (xp[i]) {
      random_value(s.type, x, i, rng, false);
      xl[k++] = i;
    }
  memset(ys, 1, out);
  uint64_t allowed = out;
  if (s.y_skip) {
    allowed = 0;
    for (uint64_t a = 0; a < nallowed && a < out;) {
      const uint64_t i = k2_rng_below(rng, out);
      if (ys[i]) {
        ys[i] = 0;
        a++;
      }
    }
    for (uint64_t i = 0; i < out; i++) allowed += !ys[i];
  }
  k2_product R = {.type = s.type, .monoid = s.monoid, .mult = s.mult, .w = s.w,
                  .index_base = s.base, .left = s.left, .batch = 1, .x = x, .x_present = xp,
                  .y = yr, .y_present = pr, .y_skip = s.y_skip ? ys : NULL};
  assert_int_equal(k2_ref_product(v, NULL, &R), 0);
  memset(yg, 0xA5, out * ts);
  uint64_t ycount = 0;
  k2_product G = R;
  G.y = yg;
  G.y_present = pg;  // all zero: the contract of a listed output
  G.x_list = xl;
  G.x_count = k;
  G.y_allowed_known = s.y_skip;
  G.y_allowed = allowed;
  G.y_list = want_list ? yl : NULL;
  G.y_count = want_list ? &ycount : NULL;
  memset(rep, 0, sizeof *rep);
  G.report = rep;
  int rc = k2_cuda_product(v, device, &G);
  if (rc != 0) {
    print_error("%s: k2_cuda_product returned %d: %s\n", what, rc, K2_error_string());
    fail();
  }
  // ANY is checked by validity: the MIN and MAX results bound it
  void *lo = NULL, *hi = NULL;
  if (s.monoid == K2_MON_ANY) {
    lo = malloc(out * ts + 8);
    hi = malloc(out * ts + 8);
    uint8_t *tmp = malloc(out + 1);
    assert_true(lo && hi && tmp);
    k2_product B = R;
    B.y_present = tmp;
    B.monoid = K2_MON_MIN;
    B.y = lo;
    assert_int_equal(k2_ref_product(v, NULL, &B), 0);
    B.monoid = K2_MON_MAX;
    B.y = hi;
    assert_int_equal(k2_ref_product(v, NULL, &B), 0);
    free(tmp);
  }
  const bool listed = want_list && ycount != K2_Y_DENSE;
  uint64_t bad = 0, present = 0;
  for (uint64_t i = 0; i < out; i++) {
    if (ys[i] && s.y_skip) continue;
    present += pr[i] != 0;
    if (listed && !pg[i]) {  // unlisted: must be absent in the reference too
      if (pr[i] && bad++ < 5) print_error("%s: y[%llu] present but not listed\n", what, (unsigned long long)i);
      continue;
    }
    bool ok = (pr[i] != 0) == (pg[i] != 0);
    if (ok && pr[i] && s.monoid == K2_MON_ANY) {
      double g = as_double(s.type, yg, i);
      if (s.type == K2_T_BOOL) g = g != 0;
      ok = g >= as_double(s.type, lo, i) && g <= as_double(s.type, hi, i);
    } else if (ok && (pr[i] || !listed)) {
      ok = same_value(s.type, yr, yg, i);
    }
    if (!ok && bad++ < 5)
      print_error("%s: %s %s.%s %s in %llu allowed %llu: y[%llu] ref %g (%d) gpu %g (%d)\n", what,
                  type_name[s.type], mon_name[s.monoid], mul_name[s.mult], s.left ? "left" : "right",
                  (unsigned long long)k, (unsigned long long)allowed, (unsigned long long)i,
                  as_double(s.type, yr, i), pr[i], as_double(s.type, yg, i), pg[i]);
  }
  if (listed) {  // ascending, allowed, and every present output
    if (ycount != present) {
      print_error("%s: %llu listed, %llu present\n", what, (unsigned long long)ycount,
                  (unsigned long long)present);
      bad++;
    }
    for (uint64_t q = 0; q < ycount; q++) {
      if ((q > 0 && yl[q] <= yl[q - 1]) || yl[q] >= out || (s.y_skip && ys[yl[q]]) || !pg[yl[q]]) {
        if (bad++ < 5) print_error("%s: list entry %llu = %llu is wrong\n", what, (unsigned long long)q,
                                   (unsigned long long)yl[q]);
      }
    }
  }
  free(x); free(yr); free(yg); free(xp); free(ys); free(pr); free(pg); free(xl); free(yl);
  free(lo); free(hi);
  if (bad) {
    print_error("%s: %llu mismatches\n", what, (unsigned long long)bad);
    fail();
  }
}

// Every semiring with inputs of 0, 1, a few, a tenth and 70% of the entries and masks allowing
// none, one, a few, a quarter or all outputs; pruned always, by the cost model, never; the
// output as a list or dense; the tree-only and bottom-code copies and a top level near the root.
static void test_pruned(void **state) {
  (void)state;
  k2_coo_list L;
  random_list(&L, 3000, 2500, 40000, 31);
  k2_coo_canonical(&L);
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.top_max_log = 2;  // the descent starts near the root
  gmat g;
  gmat_make(&g, &L, &fmt);
  k2_rng rng = {77};
  const uint64_t ins[] = {0, 1, 5, 250, UINT64_MAX};
  const uint64_t masks[] = {UINT64_MAX, 0, 1, 7, 700, 2999};
  const int modes[] = {K2_CUDA_PRUNE_ALWAYS, K2_CUDA_PRUNE_AUTO, K2_CUDA_PRUNE_NEVER};
  char what[160];
  uint64_t cases = 0, pruned = 0;
  for (int config = 0; config <= K2_CUDA_CONFIG_BOTTOM; config++) {
    gmat_upload(&g, config);
    for (int t = 0; t < K2_T_COUNT; t++)
      for (int m = 0; m < K2_MON_COUNT; m++)
        for (int u = 0; u < K2_MUL_COUNT; u++) {
          if (!combo_ok((k2_type)t, (k2_monoid)m, (k2_mult)u)) continue;
          for (int left = 0; left < 2; left++) {
            spec s = {(k2_type)t, (k2_monoid)m, (k2_mult)u, left, 1, true, false, 0.5, 1};
            if (t == K2_T_BOOL) s.w = 1;
            const int mode = modes[cases % 3];
            const uint64_t nin = ins[(cases / 3) % 5], nal = masks[(cases / 7) % 6];
            set_prune(mode);
            k2_product_report rep;
            snprintf(what, sizeof what, "config %d mode %d", config, mode);
            sparse_case(&g.v, g.device, &s, nin, nal, (cases & 1) == 0, &rng, what, &rep);
            if (mode == K2_CUDA_PRUNE_ALWAYS) assert_non_null(strstr(rep.traversal, "pruned"));
            if (mode == K2_CUDA_PRUNE_NEVER) assert_string_equal(rep.traversal, "full");
            pruned += strstr(rep.traversal, "pruned") != NULL;
            cases++;
          }
        }
  }
  // a frontier too small for a level: the product runs again with the full traversal
  const uint64_t was = k2_cuda_set_frontier_max(4);
  set_prune(K2_CUDA_PRUNE_ALWAYS);
  for (int left = 0; left < 2; left++) {
    spec s = {K2_T_INT64, K2_MON_PLUS, K2_MUL_X, left, 1, true, false, 1, 0};
    k2_product_report rep;
    sparse_case(&g.v, g.device, &s, 40, UINT64_MAX, true, &rng, "frontier overflow", &rep);
    assert_string_equal(rep.traversal, "full");
  }
  k2_cuda_set_frontier_max(was);
  set_prune(K2_CUDA_PRUNE_AUTO);
  print_message("%llu sparse products, %llu pruned: GPU = reference\n", (unsigned long long)cases,
                (unsigned long long)pruned);
  gmat_free(&g);
  k2_coo_free(&L);
}

// One input entry expands exactly the nodes of its stripe below the top level: counted by the
// report, against the count from the entry list.
static void test_pruned_visits(void **state) {
  (void)state;
  const uint64_t n = UINT64_C(1) << 15;
  k2_coo_list L;
  random_list(&L, n, n, UINT64_C(1) << 18, 41);
  k2_coo_canonical(&L);
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.top_max_log = 4;
  gmat g;
  gmat_make(&g, &L, &fmt);
  gmat_upload(&g, K2_CUDA_CONFIG_TREE);
  set_prune(K2_CUDA_PRUNE_ALWAYS);  // (on a tree this small the cost model may keep the full walk)
  k2_rng rng = {5};
  for (int left = 0; left < 2; left++) {
    for (uint64_t idx = 100; idx < 100 + 5 * 997; idx += 997) {
      const uint64_t in = n;
      int64_t *x = calloc(in, sizeof *x), *y = malloc(in * sizeof *y);
      uint8_t *xp = calloc(in, 1), *yp = calloc(in, 1);
      uint64_t *yl = malloc(in * 8), list[1] = {idx}, ycount = 0;
      assert_true(x && y && xp && yp && yl);
      xp[idx] = 1;
      x[idx] = (int64_t)k2_rng_below(&rng, 100) + 1;
      k2_product_report rep;
      memset(&rep, 0, sizeof rep);
      k2_product P = {.type = K2_T_INT64, .monoid = K2_MON_PLUS, .mult = K2_MUL_X, .left = left,
                      .batch = 1, .x = x, .x_present = xp, .y = y, .y_present = yp,
                      .x_list = list, .x_count = 1, .y_list = yl, .y_count = &ycount,
                      .report = &rep};
      assert_int_equal(k2_cuda_product(&g.v, g.device, &P), 0);
      const uint64_t want =
          k2_oracle_stripe_blocks(&L, g.v.side_log, g.v.top_level, g.v.levels - 1, idx, left);
      print_message("%s %llu: %s, %llu internal nodes expanded (the stripe below the top has "
                    "%llu; the tree %llu), %llu outputs listed\n", left ? "row" : "column",
                    (unsigned long long)idx, rep.traversal, (unsigned long long)rep.expanded,
                    (unsigned long long)want, (unsigned long long)g.v.n_internal,
                    (unsigned long long)ycount);
      assert_string_equal(rep.traversal, "pruned by the input");
      assert_int_equal(rep.expanded, want);
      assert_true(rep.expanded * 100 < g.v.n_internal);
      // the outputs: the entries of the line, each x[idx]
      uint64_t deg = 0;
      for (uint64_t e = 0; e < L.nvals; e++) deg += (left ? L.I[e] : L.J[e]) == idx;
      assert_int_equal(ycount, deg);
      for (uint64_t q = 0; q < ycount; q++) assert_int_equal(y[yl[q]], x[idx]);
      free(x); free(y); free(xp); free(yp); free(yl);
    }
  }
  set_prune(K2_CUDA_PRUNE_AUTO);
  gmat_free(&g);
  k2_coo_free(&L);
}

// AUTO with a GPU: a product with one input entry is a few paths of the tree and runs on the
// host, and so does any product on a tiny matrix; a full input on a larger one runs on the
// device; all agree with the edge list. Explicitly CUDA, the one-entry product runs on the
// device.
static void test_auto_routing(void **state) {
  (void)state;
  const uint64_t n = UINT64_C(1) << 14;
  k2_coo_list L;
  random_list(&L, n, n, UINT64_C(1) << 15, 12);  // a full traversal of 200+ us on one core
  k2_coo_canonical(&L);
  K2_Matrix A = k2_test_matrix(&L, NULL);
  GrB_Vector u = NULL, w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP64, n));
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP64, n));
  const uint64_t src = 77;
  K2_ASSERT_OK(GrB_Vector_setElement_FP64(u, 2.0, src));
  K2_Engine engines[2] = {K2_ENGINE_AUTO, K2_ENGINE_CUDA};
  for (int e = 0; e < 2; e++) {
    K2_ASSERT_OK(K2_set_engine(engines[e]));
    K2_ASSERT_OK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL));
    assert_int_equal(K2_last_engine(), e == 0 ? K2_ENGINE_OPENMP : K2_ENGINE_CUDA);
    GrB_Index nv = 0, want = 0;
    K2_ASSERT_OK(GrB_Vector_nvals(&nv, w));
    for (uint64_t k = 0; k < L.nvals; k++) want += L.J[k] == src;
    assert_int_equal(nv, want);
    for (uint64_t k = 0; k < L.nvals; k++) {
      if (L.J[k] != src) continue;
      double got = 0;
      K2_ASSERT_OK(GrB_Vector_extractElement_FP64(&got, w, L.I[k]));
      assert_true(got == 2.0);
    }
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  K2_ASSERT_OK(GrB_Vector_assign_FP64(u, NULL, NULL, 1.0, GrB_ALL, n, NULL));
  K2_ASSERT_OK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL));
  assert_int_equal(K2_last_engine(), K2_ENGINE_CUDA);
  GrB_Vector_free(&u);
  GrB_Vector_free(&w);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  k2_coo_free(&L);
  // a tiny matrix: even a full input costs the host less than a call to the device
  random_list(&L, 40, 40, 120, 13);
  k2_coo_canonical(&L);
  A = k2_test_matrix(&L, NULL);
  K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP64, 40));
  K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP64, 40));
  K2_ASSERT_OK(GrB_Vector_assign_FP64(u, NULL, NULL, 1.0, GrB_ALL, 40, NULL));
  K2_ASSERT_OK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL));
  assert_int_equal(K2_last_engine(), K2_ENGINE_OPENMP);
  for (uint64_t i = 0; i < 40; i++) {
    double got = 0, deg = 0;
    for (uint64_t k = 0; k < L.nvals; k++) deg += L.I[k] == i;
    GrB_Info info = GrB_Vector_extractElement_FP64(&got, w, i);
    if (deg == 0) {
      assert_int_equal(info, GrB_NO_VALUE);
    } else {
      K2_ASSERT_OK(info);
      assert_true(got == deg);
    }
  }
  GrB_Vector_free(&u);
  GrB_Vector_free(&w);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  k2_coo_free(&L);
}

// Empty and tiny matrices; replays of a recorded graph see new x values.
static void test_edge_cases(void **state) {
  (void)state;
  k2_rng rng = {3};
  const uint64_t shapes[][3] = {{1, 1, 0}, {1, 1, 1}, {5, 3, 0}, {2, 2, 4}, {1, 1000, 50}, {1000, 1, 50}};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    k2_coo_list L;
    random_list(&L, shapes[k][0], shapes[k][1], shapes[k][2], 17 + k);
    gmat g;
    gmat_make(&g, &L, NULL);
    for (int config = 0; config <= K2_CUDA_CONFIG_ROWS; config++) {
      if (g.v.n_internal) gmat_upload(&g, config);
      for (int left = 0; left < 2; left++) {
        spec s = {K2_T_INT32, K2_MON_MIN, K2_MUL_X, left, 1, true, false, 1, 0};
        compare(&g.v, g.device, &s, &rng, "edge case");
        s.batch = 3;
        compare(&g.v, g.device, &s, &rng, "edge case");
      }
    }
    gmat_free(&g);
    k2_coo_free(&L);
  }
  // the same product repeated with new data replays the recorded graph
  k2_coo_list L;
  random_list(&L, 700, 700, 5000, 4);
  gmat g;
  gmat_make(&g, &L, NULL);
  gmat_upload(&g, K2_CUDA_CONFIG_TREE);
  for (int rep = 0; rep < 4; rep++) {
    spec s = {K2_T_FP64, K2_MON_PLUS, K2_MUL_X, false, 1, false, false, 1, 0};
    compare(&g.v, g.device, &s, &rng, "replay");
  }
  gmat_free(&g);
  k2_coo_free(&L);
}

// ---- real graphs (every graph of the data folder: tests/support/k2_real_graphs.c) --------

static void test_real_graphs(void **state) {
  (void)state;
  const spec sems[] = {
      {K2_T_FP32, K2_MON_PLUS, K2_MUL_X, false, 1, false, false, 1, 0},
      {K2_T_BOOL, K2_MON_LOR, K2_MUL_X, false, 1, true, false, 1, 0},
      {K2_T_INT32, K2_MON_MIN, K2_MUL_X_PLUS_W, false, 1, true, false, 1, 0},
      {K2_T_FP64, K2_MON_MAX, K2_MUL_INDEX, false, 1, false, true, 1, 1},
  };
  const char *dir = k2_real_graph_dir(K2_DATA_DIR);
  int found = 0;
  k2_rng rng = {2024};
  // K2GRB_GPU_SHARD=i/n: only the graphs whose place in the list is i modulo n, so that n
  // processes check the whole list at once (the reference engine's side is host-bound)
  unsigned shard = 0, shards = 1;
  const char *sh = getenv("K2GRB_GPU_SHARD");
  if (sh != NULL && (sscanf(sh, "%u/%u", &shard, &shards) != 2 || shards == 0 || shard >= shards)) {
    print_error("K2GRB_GPU_SHARD=%s: expected i/n with i < n\n", sh);
    fail();
  }
  for (size_t f = 0; f < k2_real_graph_count; f++) {
    const k2_real_graph *rg = &k2_real_graph_list[f];
    if (f % shards != shard) continue;
    K2_Edges E;
    memset(&E, 0, sizeof E);
    GrB_Info info = k2_real_graph_read(&E, dir, rg);
    if (info == GrB_NO_VALUE) continue;
    K2_ASSERT_OK(info);
    found++;
    k2_coo_list L = {E.nrows, E.ncols, E.nvals, E.I, E.J};
    gmat g;
    gmat_make(&g, &L, NULL);
    // the three configurations side by side: one reference result serves all of them
    void *cdev[3] = {NULL, NULL, NULL};
    for (int config = 0; config < 3; config++) {
      int rc = k2_cuda_upload(&g.v, config, &cdev[config]);
      if (rc != 0) {
        print_error("%s: k2_cuda_upload(%d): %d: %s\n", rg->name, config, rc, K2_error_string());
        fail();
      }
    }
    char what[96];
    for (size_t k = 0; k < sizeof sems / sizeof sems[0]; k++)
      for (int left = 0; left < 2; left++)
        for (int b = 0; b < 2; b++) {
          if (g_quick && (b == 1 || k > 1)) continue;
          spec s = sems[k];
          s.left = left;
          s.batch = b ? 128 : 1;
          ref_case c;
          ref_case_make(&c, &g.v, &s, &rng);
          for (int config = 0; config < 3; config++) {
            snprintf(what, sizeof what, "%s config %d", rg->name, config);
            ref_case_check(&c, &g.v, cdev[config], what);
          }
          ref_case_free(&c);
        }
    // the plus kernels (a full x, no presence: what K2_mxv hands over for a full u)
    for (int config = 0; config < 3; config++)
      for (int left = 0; left < 2; left++)
        for (int b = 0; b < 2; b++) {
          if (g_quick && b == 1) continue;
          snprintf(what, sizeof what, "%s config %d plus kernel", rg->name, config);
          plus_case(&g.v, cdev[config], K2_T_FP32, K2_MUL_X, left, b ? 128 : 1, &rng, what);
        }
    for (int config = 0; config < 3; config++) k2_cuda_release(cdev[config]);
    printf("  %s: %llu x %llu, %llu edges: GPU = reference\n", rg->name,
           (unsigned long long)L.nrows, (unsigned long long)L.ncols, (unsigned long long)L.nvals);
    gmat_free(&g);
    K2_Edges_free(&E);
    if (g_quick) break;
  }
  if (found == 0) {
    print_message("data folder %s absent: real graphs skipped\n", dir);
    skip();
  }
  printf("  %d of %zu real graphs of the data folder (shard %u of %u): GPU = reference\n", found,
         k2_real_graph_count, shard, shards);
}

// The default configuration of AUTO uploads (K2_Device_setConfig): a K2_mxv through the bridge,
// CUDA engine in strict mode, uploads the matrix lazily as row blocks and gives the row counts,
// from 2x2 leaves and from 4x4 ones, plain or compressed (the device holds them split into 2x2
// leaves); bad values are refused and leave the setting as it was.
static void test_default_config(void **state) {
  (void)state;
  // AUTO unless K2GRB_DEVICE_CONFIG set it (the suite runs once with rows)
  K2_DeviceConfig c0 = (K2_DeviceConfig)9, c = (K2_DeviceConfig)9;
  K2_ASSERT_OK(K2_Device_getConfig(&c0));
  assert_true(c0 >= K2_DEVICE_AUTO && c0 <= K2_DEVICE_ROWS);
  assert_int_equal(K2_Device_setConfig((K2_DeviceConfig)3), GrB_INVALID_VALUE);
  assert_int_equal(K2_Device_setConfig((K2_DeviceConfig)-2), GrB_INVALID_VALUE);
  assert_int_equal(K2_Device_getConfig(NULL), GrB_NULL_POINTER);
  K2_ASSERT_OK(K2_Device_getConfig(&c));
  assert_int_equal(c, c0);
  K2_ASSERT_OK(K2_Device_setConfig(K2_DEVICE_ROWS));
  K2_ASSERT_OK(K2_Device_getConfig(&c));
  assert_int_equal(c, K2_DEVICE_ROWS);
  k2_coo_list L;
  random_list(&L, 700, 650, 4000, 3);
  k2_coo_canonical(&L);
  float *deg = calloc(L.nrows, sizeof(float));
  assert_non_null(deg);
  for (uint64_t e = 0; e < L.nvals; e++) deg[L.I[e]] += 1.0f;
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  K2_ASSERT_OK(K2_set_strict(true));
  for (int variant = 0; variant < 3; variant++) {  // 2x2 leaves, 4x4, 4x4 compressed
    K2_Format fmt;
    K2_Format_default(&fmt);
    fmt.leaf_log = variant == 0 ? 1 : 2;
    fmt.compress_leaves = variant == 2;
    fmt.cache_bottom_codes = true;
    K2_Matrix A = k2_test_matrix(&L, &fmt);
    GrB_Vector u = NULL, w = NULL;
    K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP32, L.ncols));
    K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP32, L.nrows));
    K2_ASSERT_OK(GrB_Vector_assign_FP32(u, NULL, NULL, 1.0f, GrB_ALL, L.ncols, NULL));
    assert_null(k2_slot_get(A, K2_SLOT_CUDA));
    K2_ASSERT_OK(K2_mxv(w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, NULL));
    assert_int_equal(K2_last_engine(), K2_ENGINE_CUDA);
    assert_non_null(k2_slot_get(A, K2_SLOT_CUDA));
    const int want = K2_CUDA_CONFIG_ROWS;
    assert_int_equal(k2_cuda_device_config(k2_slot_get(A, K2_SLOT_CUDA)), want);
    // deviceBytes with AUTO describes the resident copy; an explicit AUTO upload keeps it
    K2_DeviceBytes auto_b, want_b;
    K2_ASSERT_OK(K2_Matrix_deviceBytes(&auto_b, A, K2_DEVICE_AUTO, GrB_FP32, 1, false, 0));
    K2_ASSERT_OK(K2_Matrix_deviceBytes(&want_b, A, (K2_DeviceConfig)want, GrB_FP32, 1, false, 0));
    assert_int_equal(auto_b.matrix, want_b.matrix);
    const void *before = k2_slot_get(A, K2_SLOT_CUDA);
    K2_ASSERT_OK(K2_Matrix_upload(A, K2_DEVICE_AUTO));
    assert_ptr_equal(k2_slot_get(A, K2_SLOT_CUDA), before);
    for (uint64_t i = 0; i < L.nrows; i++) {
      float got = 0.0f;
      GrB_Info info = GrB_Vector_extractElement_FP32(&got, w, i);
      if (deg[i] == 0.0f) {
        assert_int_equal(info, GrB_NO_VALUE);
      } else {
        K2_ASSERT_OK(info);
        assert_true(got == deg[i]);
      }
    }
    GrB_Vector_free(&u);
    GrB_Vector_free(&w);
    K2_ASSERT_OK(K2_Matrix_free(&A));
  }
  K2_ASSERT_OK(K2_set_strict(false));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  K2_ASSERT_OK(K2_Device_setConfig(c0));
  free(deg);
  k2_coo_free(&L);
}


// ---- device-resident vectors (K2_DeviceVector) and algorithms whole on the device ----------

// A GrB_Vector of type t with k entries at random places (dyadic values; BOOL true or false).
static GrB_Vector dv_random(GrB_Type t, uint64_t n, uint64_t k, k2_rng *rng) {
  GrB_Vector u = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, t, n));
  for (uint64_t e = 0; e < k; e++) {
    const uint64_t i = k == n ? e : k2_rng_below(rng, n);
    const int64_t v = (int64_t)k2_rng_below(rng, 129) - 32;
    if (t == GrB_FP64 || t == GrB_FP32) K2_ASSERT_OK(GrB_Vector_setElement_FP64(u, (double)v / 64.0, i));
    else if (t == GrB_BOOL) K2_ASSERT_OK(GrB_Vector_setElement_BOOL(u, (v & 1) != 0, i));
    else K2_ASSERT_OK(GrB_Vector_setElement_INT64(u, v, i));
  }
  K2_ASSERT_OK(GrB_wait(u, GrB_MATERIALIZE));
  return u;
}

// The entries of u as FP64 (dense image, absent = NaN marker via present[]).
static void dv_dense(GrB_Vector u, uint64_t n, double *x, uint8_t *present) {
  GrB_Index nv = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&nv, u));
  GrB_Index *I = malloc((nv + 1) * sizeof *I);
  double *X = malloc((nv + 1) * sizeof *X);
  assert_non_null(I);
  assert_non_null(X);
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(I, X, &nv, u));
  memset(present, 0, n);
  for (GrB_Index k = 0; k < nv; k++) {
    x[I[k]] = X[k];
    present[I[k]] = 1;
  }
  free(I);
  free(X);
}

// got (from the device) against want (the reference engine): the same entries, the same values;
// for ANY_SECONDI each value is a valid witness (an edge from a present input entry).
static void dv_compare(GrB_Vector got, GrB_Vector want, uint64_t n, bool any_index, K2_Matrix A,
                       GrB_Vector u, bool left, const char *what) {
  GrB_Index un = 0;
  K2_ASSERT_OK(GrB_Vector_size(&un, u));
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *ux = malloc(un * sizeof *ux);
  uint8_t *xp = malloc(n), *yp = malloc(n), *up = malloc(un);
  assert_true(x && y && xp && yp && ux && up);
  dv_dense(got, n, x, xp);
  dv_dense(want, n, y, yp);
  if (any_index) dv_dense(u, un, ux, up);
  for (uint64_t i = 0; i < n; i++) {
    if (xp[i] != yp[i]) fail_msg("%s: entry %llu present %d on the device, %d in the reference", what,
                                 (unsigned long long)i, xp[i], yp[i]);
    if (!xp[i]) continue;
    if (any_index) {
      const uint64_t s = (uint64_t)x[i];
      bool edge = false;
      assert_true(s < un && up[s]);
      K2_ASSERT_OK(K2_Matrix_isEntry(&edge, A, left ? s : i, left ? i : s));
      if (!edge) fail_msg("%s: entry %llu names %llu, not an in-neighbour", what, (unsigned long long)i,
                          (unsigned long long)s);
    } else if (!(x[i] == y[i])) {
      fail_msg("%s: entry %llu is %g on the device, %g in the reference", what, (unsigned long long)i, x[i], y[i]);
    }
  }
  free(x), free(y), free(ux), free(xp), free(yp), free(up);
}

static void test_device_vectors(void **state) {
  (void)state;
  K2_DeviceMemory m0;
  K2_ASSERT_OK(K2_Device_trim());
  K2_ASSERT_OK(K2_Device_memory(&m0));
  const uint64_t nr = 2500, nc = 3001;
  k2_coo_list L;
  random_list(&L, nr, nc, g_quick ? 8000 : 30000, 41);
  k2_coo_canonical(&L);
  K2_Matrix A = k2_test_matrix(&L, NULL);
  k2_rng rng = {4242};
  struct {
    GrB_Semiring s;
    GrB_Type t;   // w's type (and u's when the multiply reads it)
    bool any_index;
  } sems[] = {
      {GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, false}, {GrB_MIN_PLUS_SEMIRING_INT64, GrB_INT64, false},
      {GxB_ANY_SECONDI_INT32, GrB_INT32, true},        {GxB_ANY_PAIR_BOOL, GrB_BOOL, false},
      {GrB_LOR_LAND_SEMIRING_BOOL, GrB_BOOL, false},   {GxB_PLUS_PAIR_INT64, GrB_INT64, false},
      {GrB_PLUS_TIMES_SEMIRING_FP32, GrB_FP32, false},
  };
  const K2_DevicePruning modes[] = {K2_PRUNING_AUTO, K2_PRUNING_ALWAYS, K2_PRUNING_NEVER};
  int cases = 0;
  char what[160];
  for (size_t si = 0; si < sizeof sems / sizeof sems[0]; si++)
    for (int vxm = 0; vxm < 2; vxm++) {
      const uint64_t n_in = vxm ? nr : nc, n_out = vxm ? nc : nr;
      const uint64_t fills[] = {0, 1, 5, n_in / 2, n_in};
      for (size_t fi = 0; fi < 5; fi++)
        for (int mk = 0; mk < 5; mk++) {  // none, structural complemented, structural, valued, valued complemented
          if (g_quick && (fi == 3 || mk == 4)) continue;
          GrB_Vector u = dv_random(sems[si].t, n_in, fills[fi], &rng);
          GrB_Vector mask = mk == 0 ? NULL : dv_random(GrB_BOOL, n_out, n_out / (mk == 1 ? 3 : 2), &rng);
          GrB_Descriptor desc = mk == 0 ? NULL : mk == 1 ? GrB_DESC_RSC : mk == 2 ? GrB_DESC_RS
                                : mk == 3 ? GrB_DESC_R : GrB_DESC_RC;
          // the reference engine on GrB_Vectors
          GrB_Vector want = NULL;
          K2_ASSERT_OK(GrB_Vector_new(&want, sems[si].t, n_out));
          K2_ASSERT_OK(K2_set_engine(K2_ENGINE_REFERENCE));
          if (vxm) K2_ASSERT_OK(K2_vxm(want, mask, NULL, sems[si].s, u, A, desc));
          else K2_ASSERT_OK(K2_mxv(want, mask, NULL, sems[si].s, A, u, desc));
          K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
          K2_DeviceVector du = NULL, dw = NULL, dm = NULL;
          K2_ASSERT_OK(K2_DeviceVector_new(&du, sems[si].t, n_in));
          K2_ASSERT_OK(K2_DeviceVector_import(du, u));
          K2_ASSERT_OK(K2_DeviceVector_new(&dw, sems[si].t, n_out));
          K2_ASSERT_OK(K2_DeviceVector_assign_INT64(dw, NULL, 7));  // replaced by the product
          if (mask != NULL) {
            K2_ASSERT_OK(K2_DeviceVector_new(&dm, GrB_BOOL, n_out));
            K2_ASSERT_OK(K2_DeviceVector_import(dm, mask));
          }
          for (size_t mo = 0; mo < 3; mo++) {
            K2_ASSERT_OK(K2_Device_setPruning(modes[mo]));
            if (vxm) K2_ASSERT_OK(K2_vxm_device(dw, dm, sems[si].s, du, A, desc));
            else K2_ASSERT_OK(K2_mxv_device(dw, dm, sems[si].s, A, du, desc));
            assert_int_equal(K2_last_engine(), K2_ENGINE_CUDA);
            GrB_Vector got = NULL;
            K2_ASSERT_OK(K2_DeviceVector_export(&got, dw));
            GrB_Index gnv = 0, dnv = 0;
            K2_ASSERT_OK(GrB_Vector_nvals(&gnv, got));
            K2_ASSERT_OK(K2_DeviceVector_nvals(&dnv, dw));
            assert_int_equal(gnv, dnv);
            snprintf(what, sizeof what, "semiring %zu %s, u %llu entries, mask kind %d, pruning %zu", si,
                     vxm ? "vxm" : "mxv", (unsigned long long)fills[fi], mk, mo);
            dv_compare(got, want, n_out, sems[si].any_index, A, u, vxm, what);
            GrB_Vector_free(&got);
            cases++;
          }
          K2_ASSERT_OK(K2_Device_setPruning(K2_PRUNING_AUTO));
          K2_ASSERT_OK(K2_DeviceVector_free(&du));
          K2_ASSERT_OK(K2_DeviceVector_free(&dw));
          K2_ASSERT_OK(K2_DeviceVector_free(&dm));
          GrB_Vector_free(&u);
          GrB_Vector_free(&mask);
          GrB_Vector_free(&want);
        }
    }
  printf("  %d device-vector products = reference\n", cases);

  // w aliased with u and with the mask on a square matrix (BFS's q<!q> = q' A shape)
  k2_coo_list S;
  random_list(&S, 2000, 2000, 16000, 43);
  k2_coo_canonical(&S);
  K2_Matrix B = k2_test_matrix(&S, NULL);
  GrB_Vector u = dv_random(GrB_INT32, 2000, 40, &rng), want = NULL;
  K2_ASSERT_OK(GrB_Vector_dup(&want, u));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_REFERENCE));
  K2_ASSERT_OK(K2_vxm(want, want, NULL, GxB_ANY_SECONDI_INT32, want, B, GrB_DESC_RSC));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  K2_DeviceVector q = NULL;
  K2_ASSERT_OK(K2_DeviceVector_new(&q, GrB_INT32, 2000));
  K2_ASSERT_OK(K2_DeviceVector_import(q, u));
  K2_ASSERT_OK(K2_vxm_device(q, q, GxB_ANY_SECONDI_INT32, q, B, GrB_DESC_RSC));
  GrB_Vector got = NULL;
  K2_ASSERT_OK(K2_DeviceVector_export(&got, q));
  dv_compare(got, want, 2000, true, B, u, true, "aliased q<!q> = q' B");
  GrB_Vector_free(&got);

  // the element-wise operations against GraphBLAS
  K2_DeviceVector a = NULL, m = NULL;
  GrB_Vector ga = dv_random(GrB_INT64, 2000, 300, &rng), gm = dv_random(GrB_BOOL, 2000, 500, &rng);
  K2_ASSERT_OK(K2_DeviceVector_new(&a, GrB_INT64, 2000));
  K2_ASSERT_OK(K2_DeviceVector_new(&m, GrB_BOOL, 2000));
  K2_ASSERT_OK(K2_DeviceVector_import(a, ga));
  K2_ASSERT_OK(K2_DeviceVector_import(m, gm));
  GrB_Index nv = 0, gnv = 0;
  K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, a));
  K2_ASSERT_OK(GrB_Vector_nvals(&gnv, ga));
  assert_int_equal(nv, gnv);
  int64_t dsum = 0, gsum = 0;
  K2_ASSERT_OK(K2_DeviceVector_reduce_INT64(&dsum, a));
  K2_ASSERT_OK(GrB_reduce(&gsum, NULL, GrB_PLUS_MONOID_INT64, ga, NULL));
  assert_int_equal(dsum, gsum);
  // a<s(m)> = 5, then a(17) = -3
  K2_ASSERT_OK(K2_DeviceVector_assign_INT64(a, m, 5));
  K2_ASSERT_OK(GrB_Vector_assign_INT64(ga, gm, NULL, 5, GrB_ALL, 2000, GrB_DESC_S));
  K2_ASSERT_OK(K2_DeviceVector_setElement_INT64(a, -3, 17));
  K2_ASSERT_OK(GrB_Vector_setElement_INT64(ga, -3, 17));
  K2_ASSERT_OK(K2_DeviceVector_export(&got, a));
  dv_compare(got, ga, 2000, false, B, ga, false, "assign and setElement");
  GrB_Vector_free(&got);
  // a<s(m)> = u: where m has an entry, a takes u's, or loses its own where u has none
  K2_DeviceVector du = NULL;
  K2_ASSERT_OK(K2_DeviceVector_new(&du, GrB_INT64, 2000));
  GrB_Vector gu = dv_random(GrB_INT64, 2000, 700, &rng);
  K2_ASSERT_OK(K2_DeviceVector_import(du, gu));
  K2_ASSERT_OK(K2_DeviceVector_assign(a, m, du));
  K2_ASSERT_OK(GrB_Vector_assign(ga, gm, NULL, gu, GrB_ALL, 2000, GrB_DESC_S));
  K2_ASSERT_OK(K2_DeviceVector_export(&got, a));
  dv_compare(got, ga, 2000, false, B, ga, false, "assign of a vector");
  GrB_Vector_free(&got);
  // element-wise operators against GraphBLAS: FP64 vectors of a few entries each
  {
    GrB_Vector gx = dv_random(GrB_FP64, 2000, 600, &rng), gy = dv_random(GrB_FP64, 2000, 900, &rng), gz = NULL;
    K2_DeviceVector x = NULL, y = NULL, z = NULL;
    K2_ASSERT_OK(K2_DeviceVector_new(&x, GrB_FP64, 2000));
    K2_ASSERT_OK(K2_DeviceVector_new(&y, GrB_FP64, 2000));
    K2_ASSERT_OK(K2_DeviceVector_new(&z, GrB_FP64, 2000));
    K2_ASSERT_OK(K2_DeviceVector_import(x, gx));
    K2_ASSERT_OK(K2_DeviceVector_import(y, gy));
    const GrB_BinaryOp bops[] = {GrB_PLUS_FP64, GrB_MINUS_FP64, GrB_TIMES_FP64, GrB_DIV_FP64, GrB_MIN_FP64, GrB_MAX_FP64};
    for (int k = 0; k < 6; k++)
      for (int add = 0; add < 2; add++) {
        K2_ASSERT_OK(GrB_Vector_new(&gz, GrB_FP64, 2000));
        if (add) {
          K2_ASSERT_OK(K2_DeviceVector_eWiseAdd(z, bops[k], x, y));
          K2_ASSERT_OK(GrB_eWiseAdd(gz, NULL, NULL, bops[k], gx, gy, NULL));
        } else {
          K2_ASSERT_OK(K2_DeviceVector_eWiseMult(z, bops[k], x, y));
          K2_ASSERT_OK(GrB_eWiseMult(gz, NULL, NULL, bops[k], gx, gy, NULL));
        }
        K2_ASSERT_OK(K2_DeviceVector_export(&got, z));
        snprintf(what, sizeof what, "eWise%s with operator %d", add ? "Add" : "Mult", k);
        dv_compare(got, gz, 2000, false, B, gz, false, what);
        GrB_Vector_free(&got);
        GrB_Vector_free(&gz);
      }
    // in place: x = |x - y| (the shape of PageRank's change)
    K2_ASSERT_OK(K2_DeviceVector_eWiseAdd(x, GrB_MINUS_FP64, x, y));
    K2_ASSERT_OK(K2_DeviceVector_apply(x, GrB_ABS_FP64, x));
    K2_ASSERT_OK(GrB_eWiseAdd(gx, NULL, NULL, GrB_MINUS_FP64, gx, gy, NULL));
    K2_ASSERT_OK(GrB_apply(gx, NULL, NULL, GrB_ABS_FP64, gx, NULL));
    K2_ASSERT_OK(K2_DeviceVector_export(&got, x));
    dv_compare(got, gx, 2000, false, B, gx, false, "x = |x - y| in place");
    GrB_Vector_free(&got);
    assert_int_equal(K2_DeviceVector_eWiseMult(z, GrB_DIV_INT64, x, y), GrB_NOT_IMPLEMENTED);
    assert_int_equal(K2_DeviceVector_apply(z, GrB_LNOT, x), GrB_NOT_IMPLEMENTED);
    assert_int_equal(K2_DeviceVector_eWiseAdd(z, GrB_PLUS_FP64, x, a), GrB_DOMAIN_MISMATCH);
    K2_ASSERT_OK(K2_DeviceVector_free(&x));
    K2_ASSERT_OK(K2_DeviceVector_free(&y));
    K2_ASSERT_OK(K2_DeviceVector_free(&z));
    GrB_Vector_free(&gx);
    GrB_Vector_free(&gy);
  }
  double fsum = 0;
  K2_ASSERT_OK(K2_DeviceVector_reduce_FP64(&fsum, a));
  K2_ASSERT_OK(GrB_reduce(&gsum, NULL, GrB_PLUS_MONOID_INT64, ga, NULL));
  assert_true(fsum == (double)gsum);
  K2_ASSERT_OK(K2_DeviceVector_clear(a));
  K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, a));
  assert_int_equal(nv, 0);

  // errors: clear codes, the vectors untouched
  K2_DeviceVector bad = NULL;
  assert_int_equal(K2_DeviceVector_new(&bad, GrB_UINT8, 10), GrB_DOMAIN_MISMATCH);
  assert_null(bad);
  assert_int_equal(K2_DeviceVector_new(&bad, GrB_INT32, 0), GrB_INVALID_VALUE);
  assert_int_equal(K2_DeviceVector_new(NULL, GrB_INT32, 5), GrB_NULL_POINTER);
  assert_int_equal(K2_DeviceVector_setElement_INT64(a, 1, 2000), GrB_INVALID_INDEX);
  assert_int_equal(K2_DeviceVector_assign(a, m, q), GrB_DOMAIN_MISMATCH);  // INT64 <- INT32
  K2_ASSERT_OK(K2_DeviceVector_import(q, u));
  GrB_Index before = 0, after = 0;
  K2_ASSERT_OK(K2_DeviceVector_nvals(&before, q));
  assert_int_equal(K2_vxm_device(q, q, GxB_ANY_SECONDI_INT32, q, B, GrB_DESC_SC), GrB_NOT_IMPLEMENTED);
  assert_non_null(strstr(K2_error_string(), "GrB_REPLACE"));
  assert_int_equal(K2_vxm_device(a, NULL, GxB_ANY_SECONDI_INT32, q, B, NULL), GrB_DOMAIN_MISMATCH);
  assert_int_equal(K2_vxm_device(q, NULL, GxB_ANY_SECONDI_INT32, m, B, NULL), GrB_DOMAIN_MISMATCH);
  assert_int_equal(K2_vxm_device(q, NULL, GxB_ANY_SECONDI_INT32, q, A, NULL), GrB_DIMENSION_MISMATCH);
  assert_int_equal(K2_mxv_device(q, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, B, q, NULL), GrB_DOMAIN_MISMATCH);
  K2_ASSERT_OK(K2_DeviceVector_nvals(&after, q));
  assert_int_equal(before, after);
  K2_ASSERT_OK(K2_DeviceVector_export(&got, q));
  dv_compare(got, u, 2000, false, B, u, false, "q untouched by the failed products");
  GrB_Vector_free(&got);

  // import of a full, a bitmap, a sparse and an iso vector (the first two go up as their own
  // arrays, lent and handed back): the device copy equals u, and u is as it was, in its form
  const int forms[4] = {GxB_FULL, GxB_BITMAP, GxB_SPARSE, GxB_FULL};
  for (int f = 0; f < 4; f++) {
    const bool iso = f == 3;
    GrB_Vector v = NULL, v0 = NULL;
    K2_ASSERT_OK(GrB_Vector_new(&v, GrB_FP32, 2000));
    K2_ASSERT_OK(GxB_Vector_Option_set(v, GxB_SPARSITY_CONTROL, forms[f]));
    // a vector filled by setElement stays bitmap under GxB_FULL control: assign all first
    if (forms[f] == GxB_FULL)
      K2_ASSERT_OK(GrB_Vector_assign_FP32(v, NULL, NULL, iso ? 2.5f : 0.0f, GrB_ALL, 2000, NULL));
    for (GrB_Index i = 0; i < 2000 && !iso; i++)
      if (forms[f] == GxB_FULL || i % 3 != 0)
        K2_ASSERT_OK(GrB_Vector_setElement_FP32(v, 0.25f * (float)i - 100.0f, i));
    K2_ASSERT_OK(GrB_Vector_wait(v, GrB_MATERIALIZE));
    int status = 0;
    K2_ASSERT_OK(GxB_Vector_Option_get(v, GxB_SPARSITY_STATUS, &status));
    assert_int_equal(status, forms[f]);
    bool is_iso = false;
    K2_ASSERT_OK(GxB_Vector_iso(&is_iso, v));
    assert_int_equal(is_iso, iso);
    K2_ASSERT_OK(GrB_Vector_dup(&v0, v));
    K2_DeviceVector dv = NULL;
    K2_ASSERT_OK(K2_DeviceVector_new(&dv, GrB_FP32, 2000));
    K2_ASSERT_OK(K2_DeviceVector_import(dv, v));
    K2_ASSERT_OK(K2_DeviceVector_export(&got, dv));
    char why[200];
    snprintf(what, sizeof what, "import of form %d%s", forms[f], iso ? " (iso)" : "");
    if (!k2_same_vector(got, v0, 0, NULL, NULL, why, sizeof why)) fail_msg("%s: device copy: %s", what, why);
    if (!k2_same_vector(v, v0, 0, NULL, NULL, why, sizeof why)) fail_msg("%s: u after: %s", what, why);
    K2_ASSERT_OK(GxB_Vector_Option_get(v, GxB_SPARSITY_STATUS, &status));
    assert_int_equal(status, forms[f]);
    K2_ASSERT_OK(K2_DeviceVector_free(&dv));
    GrB_Vector_free(&got), GrB_Vector_free(&v), GrB_Vector_free(&v0);
  }

  K2_ASSERT_OK(K2_DeviceVector_free(&q));
  K2_ASSERT_OK(K2_DeviceVector_free(&a));
  K2_ASSERT_OK(K2_DeviceVector_free(&m));
  K2_ASSERT_OK(K2_DeviceVector_free(&du));
  K2_ASSERT_OK(K2_DeviceVector_free(NULL));
  GrB_Vector_free(&u), GrB_Vector_free(&want), GrB_Vector_free(&ga), GrB_Vector_free(&gm), GrB_Vector_free(&gu);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  K2_ASSERT_OK(K2_Matrix_free(&B));
  k2_coo_free(&L);
  k2_coo_free(&S);
  // nothing left on the device
  K2_DeviceMemory m1;
  K2_ASSERT_OK(K2_Device_trim());
  K2_ASSERT_OK(K2_Device_memory(&m1));
  assert_int_equal(m1.allocations, m0.allocations);
  assert_int_equal(m1.allocated, m0.allocated);
}

// One product on the host (the OpenMP engine), so that K2_last_engine after a search says
// where the search ran: a search that runs no product leaves the host's engine behind.
static void host_product(K2_Matrix A, uint64_t n, GrB_Index src) {
  GrB_Vector x = NULL, y = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&x, GrB_BOOL, n));
  K2_ASSERT_OK(GrB_Vector_new(&y, GrB_BOOL, n));
  K2_ASSERT_OK(GrB_Vector_setElement_BOOL(x, true, src));
  K2_ASSERT_OK(K2_vxm(y, NULL, NULL, GxB_ANY_PAIR_BOOL, x, A, NULL));
  assert_int_equal(K2_last_engine(), K2_ENGINE_OPENMP);
  GrB_free(&x), GrB_free(&y);
}

// BFS levels and parents from the device path (the CUDA engine chosen) against the host's.
static void bfs_device_check(K2_Matrix A, uint64_t n, GrB_Index src, K2_BfsMode mode, const char *what) {
  GrB_Vector lh = NULL, ph = NULL, ld = NULL, pd = NULL;
  char msg[K2_MSG_LEN];
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  K2_ASSERT_OK(K2_bfs_mode_k2(&lh, &ph, A, src, mode, msg));
  host_product(A, n, src);  // the engine a search without products leaves behind: the host's
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  K2_ASSERT_OK(K2_set_strict(true));  // the device path alone: no silent fallback
  GrB_Info info = K2_bfs_mode_k2(&ld, &pd, A, src, mode, msg);
  K2_ASSERT_OK(K2_set_strict(false));
  if (info != GrB_SUCCESS) fail_msg("%s: %s", what, msg);
  // a search that reaches at most 8 vertices (the library's choice of direction) runs no
  // product: row queries on the host; any other runs on the device
  GrB_Index reached = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&reached, ld));
  assert_int_equal(K2_last_engine(), mode == K2_BFS_AUTO && reached <= 8 ? K2_ENGINE_OPENMP : K2_ENGINE_CUDA);
  K2_DeviceConfig cfg = K2_DEVICE_AUTO;
  K2_ASSERT_OK(K2_Device_getConfig(&cfg));
  // the levels the burble reports add up to the search (K2_BFS_AUTO on the tree: one call,
  // K2_Device_bfs; the row blocks and the other modes take the steps of k2_bfs_device.c)
  if (K2_last_engine() == K2_ENGINE_CUDA && mode == K2_BFS_AUTO && cfg != K2_DEVICE_ROWS) {
    static k2_cuda_bfs_level lv[4096];
    const uint64_t nl = k2_cuda_bfs_report(lv, 4096);
    assert_true(nl >= 1 && nl <= 4096);
    uint64_t found = 0, frontier = 1;
    for (uint64_t i = 0; i < nl; i++) {
      assert_int_equal(lv[i].frontier, frontier);
      assert_true(lv[i].mode >= 0 && lv[i].mode <= 3 && lv[i].seconds >= 0);
      if (lv[i].overflow) {  // a pruned traversal past its room: the same level again, in full
        assert_true(lv[i].mode != 0 && i + 1 < nl && lv[i + 1].mode == 0);
        continue;
      }
      found += lv[i].found;
      frontier = lv[i].found;
    }
    assert_int_equal(lv[nl - 1].found, 0);  // the last level finds nothing
    assert_int_equal(found + 1, reached);
  }
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  int64_t *a = calloc(n, 8), *b = calloc(n, 8), *p = calloc(n, 8);
  uint8_t *ap = calloc(n, 1), *bp = calloc(n, 1), *pp = calloc(n, 1);
  double *tmp = calloc(n, 8);
  assert_true(a && b && p && ap && bp && pp && tmp);
  dv_dense(lh, n, tmp, ap);
  for (uint64_t i = 0; i < n; i++) a[i] = (int64_t)tmp[i];
  dv_dense(ld, n, tmp, bp);
  for (uint64_t i = 0; i < n; i++) b[i] = (int64_t)tmp[i];
  dv_dense(pd, n, tmp, pp);
  for (uint64_t i = 0; i < n; i++) p[i] = (int64_t)tmp[i];
  for (uint64_t i = 0; i < n; i++) {
    if (ap[i] != bp[i] || (ap[i] && a[i] != b[i]))
      fail_msg("%s: level of %llu: host %lld (%d), device %lld (%d)", what, (unsigned long long)i, (long long)a[i],
               ap[i], (long long)b[i], bp[i]);
    if (pp[i] != bp[i]) fail_msg("%s: vertex %llu has a level but no parent", what, (unsigned long long)i);
    if (!pp[i]) continue;
    if (i == src) {
      assert_int_equal(p[i], (int64_t)src);
      continue;
    }
    bool edge = false;
    assert_true(p[i] >= 0 && (uint64_t)p[i] < n);
    K2_ASSERT_OK(K2_Matrix_isEntry(&edge, A, (GrB_Index)p[i], i));
    if (!edge || !bp[p[i]] || b[p[i]] != b[i] - 1)
      fail_msg("%s: parent %lld of %llu is not valid", what, (long long)p[i], (unsigned long long)i);
  }
  free(a), free(b), free(p), free(ap), free(bp), free(pp), free(tmp);
  GrB_free(&lh), GrB_free(&ph), GrB_free(&ld), GrB_free(&pd);
  // SSSP hops (the same search with MIN_PLUS): identical distances
  {
    GrB_Vector dh = NULL, dd = NULL;
    K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
    K2_ASSERT_OK(K2_sssp_hops_k2(&dh, A, src, msg));
    host_product(A, n, src);
    K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
    K2_ASSERT_OK(K2_set_strict(true));
    info = K2_sssp_hops_k2(&dd, A, src, msg);
    K2_ASSERT_OK(K2_set_strict(false));
    if (info != GrB_SUCCESS) fail_msg("%s, SSSP hops: %s", what, msg);
    // a source that reaches at most 8 vertices is searched by row queries, no product (as BFS)
    GrB_Index sssp_reached = 0;
    K2_ASSERT_OK(GrB_Vector_nvals(&sssp_reached, dh));
    assert_int_equal(K2_last_engine(), sssp_reached <= 8 ? K2_ENGINE_OPENMP : K2_ENGINE_CUDA);
    K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
    char sw[200];
    snprintf(sw, sizeof sw, "%s, SSSP hops", what);
    dv_compare(dd, dh, n, false, A, dh, false, sw);
    GrB_free(&dh), GrB_free(&dd);
  }
  // levels alone and parents alone take the same path
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  info = K2_bfs_mode_k2(&ld, NULL, A, src, mode, msg);
  if (info != GrB_SUCCESS) fail_msg("%s, levels alone: %s", what, msg);
  info = K2_bfs_mode_k2(NULL, &pd, A, src, mode, msg);
  if (info != GrB_SUCCESS) fail_msg("%s, parents alone: %s", what, msg);
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  GrB_Index n1 = 0, n2 = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&n1, ld));
  K2_ASSERT_OK(GrB_Vector_nvals(&n2, pd));
  assert_int_equal(n1, n2);
  GrB_free(&ld), GrB_free(&pd);
}

// fn on every square real graph of the data folder (the first three in quick mode); how many.
static int on_square_real_graphs(void (*fn)(K2_Matrix A, uint64_t n, const char *name)) {
  const char *dir = k2_real_graph_dir(K2_DATA_DIR);
  int found = 0;
  for (size_t f = 0; f < k2_real_graph_count && (!g_quick || found < 3); f++) {
    K2_Edges E;
    memset(&E, 0, sizeof E);
    GrB_Info info = k2_real_graph_read(&E, dir, &k2_real_graph_list[f]);
    if (info == GrB_NO_VALUE) continue;
    K2_ASSERT_OK(info);
    if (E.nrows == E.ncols) {
      found++;
      k2_coo_list L = {E.nrows, E.ncols, E.nvals, E.I, E.J};
      K2_Matrix A = k2_test_matrix(&L, NULL);
      fn(A, E.nrows, k2_real_graph_list[f].name);
      K2_ASSERT_OK(K2_Matrix_free(&A));
    }
    K2_Edges_free(&E);
  }
  return found;
}

static void bfs_real_graph(K2_Matrix A, uint64_t n, const char *name) {
  char what[160];
  snprintf(what, sizeof what, "%s from vertex 0", name);
  bfs_device_check(A, n, 0, K2_BFS_AUTO, what);
}

// Whether two vectors of size n hold the same entries.
static bool dv_same(GrB_Vector a, GrB_Vector b, uint64_t n) {
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  uint8_t *xp = malloc(n), *yp = malloc(n);
  assert_true(x && y && xp && yp);
  dv_dense(a, n, x, xp);
  dv_dense(b, n, y, yp);
  bool same = true;
  for (uint64_t i = 0; i < n; i++) same = same && xp[i] == yp[i] && (!xp[i] || x[i] == y[i]);
  free(x), free(y), free(xp), free(yp);
  return same;
}

static void test_device_bfs(void **state) {
  (void)state;
  const K2_BfsMode modes[] = {K2_BFS_AUTO, K2_BFS_PUSH, K2_BFS_PULL};
  char what[160];
  // random graphs: one large component, and many small ones
  const uint64_t sizes[][2] = {{5000, 40000}, {6000, 4000}};
  for (int g = 0; g < 2; g++) {
    k2_coo_list L;
    random_list(&L, sizes[g][0], sizes[g][0], sizes[g][1], 51 + (uint64_t)g);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    for (int m = 0; m < 3; m++)
      for (GrB_Index src = 0; src < 3; src++) {
        snprintf(what, sizeof what, "random graph %d, mode %d, source %llu", g, m, (unsigned long long)(src * 997));
        bfs_device_check(A, sizes[g][0], src * 997, modes[m], what);
      }
    // the one-call BFS (K2_BFS_AUTO) with every level pruned by both sides, and with none pruned
    const int prunes[] = {K2_CUDA_PRUNE_ALWAYS, K2_CUDA_PRUNE_NEVER};
    for (int q = 0; q < 2; q++) {
      set_prune(prunes[q]);
      snprintf(what, sizeof what, "random graph %d, one call, pruning %d", g, prunes[q]);
      bfs_device_check(A, sizes[g][0], 5, K2_BFS_AUTO, what);
    }
    // every pruned level overflowing a frontier of 4 nodes runs again in full
    set_prune(K2_CUDA_PRUNE_ALWAYS);
    const uint64_t was = k2_cuda_set_frontier_max(4);
    snprintf(what, sizeof what, "random graph %d, one call, frontiers of 4 nodes", g);
    bfs_device_check(A, sizes[g][0], 5, K2_BFS_AUTO, what);
    k2_cuda_set_frontier_max(was);
    set_prune(K2_CUDA_PRUNE_AUTO);
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
  }
  {  // K2_Device_bfs: the in-edges of A are the out-edges of A'; bad arguments leave the results
     // untouched
    k2_coo_list L, T;
    random_list(&L, 300, 300, 900, 57);
    k2_coo_canonical(&L);
    k2_coo_alloc(&T, 300, 300, L.nvals);
    for (uint64_t e = 0; e < L.nvals; e++) T.I[e] = L.J[e], T.J[e] = L.I[e];
    k2_coo_canonical(&T);
    K2_Matrix A = k2_test_matrix(&L, NULL), At = k2_test_matrix(&T, NULL);
    K2_DeviceVector l1 = NULL, l2 = NULL, p64 = NULL, b = NULL, small = NULL;
    K2_ASSERT_OK(K2_DeviceVector_new(&l1, GrB_INT32, 300));
    K2_ASSERT_OK(K2_DeviceVector_new(&l2, GrB_INT32, 300));
    K2_ASSERT_OK(K2_DeviceVector_new(&p64, GrB_INT64, 300));
    K2_ASSERT_OK(K2_DeviceVector_new(&b, GrB_BOOL, 300));
    K2_ASSERT_OK(K2_DeviceVector_new(&small, GrB_INT32, 299));
    K2_ASSERT_OK(K2_Device_bfs(l1, NULL, A, 7, NULL));
    K2_ASSERT_OK(K2_Device_bfs(l2, p64, At, 7, GrB_DESC_T0));
    GrB_Vector v1 = NULL, v2 = NULL;
    K2_ASSERT_OK(K2_DeviceVector_export(&v1, l1));
    K2_ASSERT_OK(K2_DeviceVector_export(&v2, l2));
    assert_true(dv_same(v1, v2, 300));
    GrB_Index nv = 0, nv2 = 0;
    K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, l1));
    assert_true(nv >= 1);
    assert_int_equal(K2_Device_bfs(l1, NULL, A, 300, NULL), GrB_INVALID_INDEX);
    assert_int_equal(K2_Device_bfs(b, NULL, A, 0, NULL), GrB_DOMAIN_MISMATCH);
    assert_int_equal(K2_Device_bfs(l1, small, A, 0, NULL), GrB_DIMENSION_MISMATCH);
    assert_int_equal(K2_Device_bfs(NULL, NULL, A, 0, NULL), GrB_NULL_POINTER);
    assert_int_equal(K2_Device_bfs(l1, l1, A, 0, NULL), GrB_INVALID_VALUE);
    K2_ASSERT_OK(K2_DeviceVector_nvals(&nv2, l1));
    assert_int_equal(nv2, nv);
    GrB_free(&v1), GrB_free(&v2);
    K2_ASSERT_OK(K2_DeviceVector_export(&v1, l1));
    K2_ASSERT_OK(K2_Device_bfs(l2, NULL, At, 7, GrB_DESC_T0));  // unchanged by the failed calls
    K2_ASSERT_OK(K2_DeviceVector_export(&v2, l2));
    assert_true(dv_same(v1, v2, 300));
    GrB_free(&v1), GrB_free(&v2);
    // K2_Device_bfsWithin: the vertices within d edges, with the full search's levels, and
    // complete exactly where the full search ends before level d + 1
    K2_ASSERT_OK(K2_Device_bfs(l1, NULL, A, 7, NULL));
    K2_ASSERT_OK(K2_DeviceVector_export(&v1, l1));
    double *full = malloc(300 * sizeof *full), *part = malloc(300 * sizeof *part);
    uint8_t *fullp = malloc(300), *partp = malloc(300);
    assert_true(full && part && fullp && partp);
    dv_dense(v1, 300, full, fullp);
    double deepest = 0;
    for (int i = 0; i < 300; i++)
      if (fullp[i] && full[i] > deepest) deepest = full[i];
    assert_true(deepest >= 3);  // the depths below stop inside the search and past its end
    for (GrB_Index d = 0; d <= (GrB_Index)deepest + 1; d++) {
      bool complete = true;
      K2_ASSERT_OK(K2_Device_bfsWithin(l2, p64, A, 7, d, &complete, NULL));
      assert_int_equal(complete, (double)d > deepest);
      K2_ASSERT_OK(K2_DeviceVector_export(&v2, l2));
      dv_dense(v2, 300, part, partp);
      GrB_Index within = 0, np = 0;
      for (int i = 0; i < 300; i++) {
        const bool in = fullp[i] && full[i] <= (double)d;
        assert_int_equal(partp[i], in);
        if (in) assert_true(part[i] == full[i]);
        within += in;
      }
      K2_ASSERT_OK(K2_DeviceVector_nvals(&np, p64));
      assert_int_equal(np, within);
      GrB_free(&v2);
    }
    bool complete = false;
    assert_int_equal(K2_Device_bfsWithin(l2, NULL, A, 7, 2, NULL, NULL), GrB_NULL_POINTER);
    assert_int_equal(K2_Device_bfsWithin(l2, NULL, A, 300, 2, &complete, NULL), GrB_INVALID_INDEX);
    free(full), free(part), free(fullp), free(partp);
    GrB_free(&v1);
    K2_DeviceVector_free(&l1), K2_DeviceVector_free(&l2), K2_DeviceVector_free(&p64);
    K2_DeviceVector_free(&b), K2_DeviceVector_free(&small);
    K2_ASSERT_OK(K2_Matrix_free(&A));
    K2_ASSERT_OK(K2_Matrix_free(&At));
    k2_coo_free(&L);
    k2_coo_free(&T);
  }
  // the real graphs, from vertex 0 (the first few in quick mode)
  const int found = on_square_real_graphs(bfs_real_graph);
  printf("  device BFS and SSSP hops = host's on 2 random graphs and %d real graphs\n", found);
}

// PageRank (LAGraph model and GAP's) from the device path against the host's: the same
// iterations (one more or fewer where the change crosses tol in another summation order) and
// ranks within the FP32 spread of two summation orders.
static void pagerank_device_check(K2_Matrix A, uint64_t n, bool gap, const char *what) {
  GrB_Vector rh = NULL, rd = NULL;
  int ih = 0, id = 0;
  char msg[K2_MSG_LEN];
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  GrB_Info info = gap ? K2_pagerank_gap_k2(&rh, &ih, A, 0.85f, 1e-4f, 100, msg)
                      : K2_pagerank_k2(&rh, &ih, A, 0.85f, 1e-4f, 100, msg);
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  K2_ASSERT_OK(K2_set_strict(true));
  GrB_Info dinfo = gap ? K2_pagerank_gap_k2(&rd, &id, A, 0.85f, 1e-4f, 100, msg)
                       : K2_pagerank_k2(&rd, &id, A, 0.85f, 1e-4f, 100, msg);
  K2_ASSERT_OK(K2_set_strict(false));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  if (info == K2_CONVERGENCE_FAILURE) {  // both fail alike
    assert_int_equal(dinfo, K2_CONVERGENCE_FAILURE);
    return;
  }
  K2_ASSERT_OK(info);
  if (dinfo != GrB_SUCCESS) fail_msg("%s: %s", what, msg);
  assert_true(abs(ih - id) <= 1);
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  uint8_t *xp = malloc(n), *yp = malloc(n);
  assert_true(x && y && xp && yp);
  dv_dense(rh, n, x, xp);
  dv_dense(rd, n, y, yp);
  double worst = 0;
  for (uint64_t i = 0; i < n; i++) {
    assert_int_equal(xp[i], yp[i]);
    if (xp[i]) worst = fmax(worst, fabs(x[i] - y[i]));
  }
  const double bound = ih == id ? 2e-5 : 1e-4 + 2e-5;
  if (!(worst <= bound)) fail_msg("%s: ranks differ by %g (iterations %d and %d)", what, worst, ih, id);
  free(x), free(y), free(xp), free(yp);
  GrB_free(&rh), GrB_free(&rd);
}

static void pagerank_real_graph(K2_Matrix A, uint64_t n, const char *name) {
  pagerank_device_check(A, n, false, name);
}

static void test_device_pagerank(void **state) {
  (void)state;
  char what[160];
  const uint64_t sizes[][2] = {{5000, 40000}, {6000, 9000}};  // the second has many sinks
  for (int g = 0; g < 2; g++) {
    k2_coo_list L;
    random_list(&L, sizes[g][0], sizes[g][0], sizes[g][1], 61 + (uint64_t)g);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    for (int gap = 0; gap < 2; gap++) {
      snprintf(what, sizeof what, "random graph %d, %s model", g, gap ? "GAP" : "LAGraph");
      pagerank_device_check(A, sizes[g][0], gap, what);
    }
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
  }
  {  // K2_Device_pagerank (the device PageRank's iterations) refuses bad arguments, rank untouched
    k2_coo_list L;
    random_list(&L, 100, 100, 400, 65);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    K2_DeviceVector r = NULL, d = NULL, half = NULL, i64 = NULL;
    K2_ASSERT_OK(K2_DeviceVector_new(&r, GrB_FP32, 100));
    K2_ASSERT_OK(K2_DeviceVector_new(&d, GrB_FP32, 100));
    K2_ASSERT_OK(K2_DeviceVector_new(&half, GrB_FP32, 100));
    K2_ASSERT_OK(K2_DeviceVector_new(&i64, GrB_INT64, 100));
    K2_ASSERT_OK(K2_DeviceVector_assign_FP64(d, NULL, 1.0 / 0.85));
    K2_ASSERT_OK(K2_DeviceVector_setElement_FP64(half, 1.0, 3));
    int it = 0;
    float diff = 0;
    K2_ASSERT_OK(K2_Device_pagerank(r, A, d, NULL, 0.85f, 1e-4f, 100, &it, &diff));
    assert_true(it >= 1 && it <= 100);
    GrB_Index nv = 0;
    K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, r));
    assert_int_equal(nv, 100);
    assert_int_equal(K2_Device_pagerank(r, A, half, NULL, 0.85f, 1e-4f, 100, &it, &diff), GrB_INVALID_VALUE);
    assert_int_equal(K2_Device_pagerank(r, A, i64, NULL, 0.85f, 1e-4f, 100, &it, &diff), GrB_DOMAIN_MISMATCH);
    assert_int_equal(K2_Device_pagerank(r, A, d, NULL, 1.5f, 1e-4f, 100, &it, &diff), GrB_INVALID_VALUE);
    assert_int_equal(K2_Device_pagerank(r, A, d, NULL, 0.85f, 1e-4f, 100, NULL, &diff), GrB_NULL_POINTER);
    K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, r));
    assert_int_equal(nv, 100);
    K2_ASSERT_OK(K2_DeviceVector_free(&r));
    K2_ASSERT_OK(K2_DeviceVector_free(&d));
    K2_ASSERT_OK(K2_DeviceVector_free(&half));
    K2_ASSERT_OK(K2_DeviceVector_free(&i64));
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
  }
  const int found = on_square_real_graphs(pagerank_real_graph);
  printf("  device PageRank = host PageRank on 2 random graphs (both models) and %d real graphs\n", found);
}

// ---- batches of device vectors, msBFS and WCC whole on the device ---------------------------------

// The entries of an nr x nc INT64-castable matrix as a dense row-major image.
static void dm_dense(GrB_Matrix M, uint64_t nr, uint64_t nc, int64_t *x, uint8_t *present) {
  GrB_Index r = 0, c = 0, nv = 0;
  K2_ASSERT_OK(GrB_Matrix_nrows(&r, M));
  K2_ASSERT_OK(GrB_Matrix_ncols(&c, M));
  assert_int_equal(r, nr);
  assert_int_equal(c, nc);
  K2_ASSERT_OK(GrB_Matrix_nvals(&nv, M));
  GrB_Index *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
  int64_t *X = malloc((nv + 1) * sizeof *X);
  assert_true(I && J && X);
  K2_ASSERT_OK(GrB_Matrix_extractTuples_INT64(I, J, X, &nv, M));
  memset(present, 0, nr * nc);
  for (GrB_Index k = 0; k < nv; k++) {
    x[I[k] * nc + J[k]] = X[k];
    present[I[k] * nc + J[k]] = 1;
  }
  free(I), free(J), free(X);
}

// got and want: the same entries with the same values.
static void dm_compare(GrB_Matrix got, GrB_Matrix want, uint64_t nr, uint64_t nc, const char *what) {
  int64_t *x = malloc(nr * nc * sizeof *x), *y = malloc(nr * nc * sizeof *y);
  uint8_t *xp = malloc(nr * nc), *yp = malloc(nr * nc);
  assert_true(x && y && xp && yp);
  dm_dense(got, nr, nc, x, xp);
  dm_dense(want, nr, nc, y, yp);
  for (uint64_t k = 0; k < nr * nc; k++) {
    if (xp[k] != yp[k])
      fail_msg("%s: entry (%llu, %llu) present %d on the device, %d on the host", what,
               (unsigned long long)(k / nc), (unsigned long long)(k % nc), xp[k], yp[k]);
    if (xp[k] && x[k] != y[k])
      fail_msg("%s: entry (%llu, %llu) is %lld on the device, %lld on the host", what,
               (unsigned long long)(k / nc), (unsigned long long)(k % nc), (long long)x[k], (long long)y[k]);
  }
  free(x), free(y), free(xp), free(yp);
}

// A random nr x nc matrix of type t with about k entries (small integer values).
static GrB_Matrix dm_random(GrB_Type t, uint64_t nr, uint64_t nc, uint64_t k, k2_rng *rng) {
  GrB_Matrix M = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&M, t, nr, nc));
  for (uint64_t e = 0; e < k; e++) {
    const int64_t v = (int64_t)k2_rng_below(rng, 65) - 16;
    K2_ASSERT_OK(GrB_Matrix_setElement_INT64(M, t == GrB_BOOL ? (v & 1) : v, k2_rng_below(rng, nr),
                                             k2_rng_below(rng, nc)));
  }
  K2_ASSERT_OK(GrB_wait(M, GrB_MATERIALIZE));
  return M;
}

// An ANY_SECOND result is any one contribution: valid when the entries are where the host has
// them (C) and each value is one some contribution gives: true only where LOR_SECOND is true,
// false only where LAND_SECOND is false (both on the host, under the same mask).
static void dm_check_any(GrB_Matrix got, GrB_Matrix C, GrB_Matrix M, K2_Matrix A, GrB_Matrix U, GrB_Descriptor desc,
                         uint64_t nr, uint64_t nc, const char *what) {
  GrB_Matrix Cor = NULL, Cand = NULL;
  K2_ASSERT_OK(GrB_Matrix_new(&Cor, GrB_BOOL, nr, nc));
  K2_ASSERT_OK(GrB_Matrix_new(&Cand, GrB_BOOL, nr, nc));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  K2_ASSERT_OK(K2_mxm(Cor, M, NULL, GxB_LOR_SECOND_BOOL, A, U, desc));
  K2_ASSERT_OK(K2_mxm(Cand, M, NULL, GxB_LAND_SECOND_BOOL, A, U, desc));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  const uint64_t N = nr * nc;
  int64_t *g = malloc(N * sizeof *g), *w = malloc(N * sizeof *w), *o = malloc(N * sizeof *o),
          *a = malloc(N * sizeof *a);
  uint8_t *gp = malloc(N), *wp = malloc(N), *op = malloc(N), *ap = malloc(N);
  assert_true(g && w && o && a && gp && wp && op && ap);
  dm_dense(got, nr, nc, g, gp);
  dm_dense(C, nr, nc, w, wp);
  dm_dense(Cor, nr, nc, o, op);
  dm_dense(Cand, nr, nc, a, ap);
  for (uint64_t k = 0; k < N; k++) {
    if (gp[k] != wp[k])
      fail_msg("%s: entry (%llu, %llu) present %d on the device, %d on the host", what,
               (unsigned long long)(k / nc), (unsigned long long)(k % nc), gp[k], wp[k]);
    if (gp[k] && ((g[k] && !o[k]) || (!g[k] && a[k])))
      fail_msg("%s: entry (%llu, %llu) is %lld on the device, which no contribution gives", what,
               (unsigned long long)(k / nc), (unsigned long long)(k % nc), (long long)g[k]);
  }
  free(g), free(w), free(o), free(a), free(gp), free(wp), free(op), free(ap);
  GrB_free(&Cor), GrB_free(&Cand);
}

// Boolean batches: up to 64 vectors run as words of bits (one bit per vector), wider ones byte
// by byte; every one against K2_mxm on the host, with present-but-false inputs and
// masks of every kind, so that a value and its presence are told apart.
static void test_device_bool_batches(void **state) {
  (void)state;
  k2_rng rng = {91};
  const uint64_t n = 3000, widths[] = {2, 16, 33, 64, 65};
  k2_coo_list L;
  random_list(&L, n, n, 20000, 93);
  k2_coo_canonical(&L);
  K2_Matrix A = k2_test_matrix(&L, NULL);
  const GrB_Semiring semirings[] = {GrB_LOR_LAND_SEMIRING_BOOL, GxB_ANY_PAIR_BOOL, GxB_LOR_FIRST_BOOL,
                                    GxB_LOR_SECOND_BOOL,        GxB_LOR_PAIR_BOOL, GxB_ANY_SECOND_BOOL};
  // (a mask on device vectors needs GrB_REPLACE)
  const GrB_Descriptor descs[] = {NULL, GrB_DESC_T0, GrB_DESC_RS, GrB_DESC_RSC, GrB_DESC_RSCT0, GrB_DESC_RC};
  const size_t ns = sizeof semirings / sizeof semirings[0], nd = sizeof descs / sizeof descs[0];
  char what[160];
  for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
    const uint64_t B = widths[w];
    GrB_Matrix U = dm_random(GrB_BOOL, n, B, n * B / 8, &rng), M = dm_random(GrB_BOOL, n, B, n * B / 3, &rng);
    K2_DeviceVector du = NULL, dm = NULL, dc = NULL;
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&du, GrB_BOOL, n, B));
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&dm, GrB_BOOL, n, B));
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&dc, GrB_BOOL, n, B));
    K2_ASSERT_OK(K2_DeviceVector_importMatrix(du, U));
    K2_ASSERT_OK(K2_DeviceVector_importMatrix(dm, M));
    for (size_t si = 0; si < ns; si++)
      for (size_t d = 0; d < nd; d++) {
        const bool masked = d >= 2;
        GrB_Matrix C = NULL, Cd = NULL;
        K2_ASSERT_OK(GrB_Matrix_new(&C, GrB_BOOL, n, B));
        K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
        K2_ASSERT_OK(K2_mxm(C, masked ? M : NULL, NULL, semirings[si], A, U, descs[d]));
        K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
        K2_ASSERT_OK(K2_mxm_device(dc, masked ? dm : NULL, semirings[si], A, du, descs[d]));
        GrB_Index nv = 0, want = 0;
        K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, dc));
        K2_ASSERT_OK(GrB_Matrix_nvals(&want, C));
        snprintf(what, sizeof what, "BOOL width %llu, semiring %zu, descriptor %zu", (unsigned long long)B, si, d);
        if (nv != want) fail_msg("%s: %llu entries on the device, %llu on the host", what, (unsigned long long)nv,
                                 (unsigned long long)want);
        K2_ASSERT_OK(K2_DeviceVector_exportMatrix(&Cd, dc));
        if (semirings[si] == GxB_ANY_SECOND_BOOL) {
          dm_check_any(Cd, C, masked ? M : NULL, A, U, descs[d], n, B, what);
        } else {
          dm_compare(Cd, C, n, B, what);
        }
        GrB_free(&C), GrB_free(&Cd);
      }
    K2_ASSERT_OK(K2_DeviceVector_free(&du));
    K2_ASSERT_OK(K2_DeviceVector_free(&dm));
    K2_ASSERT_OK(K2_DeviceVector_free(&dc));
    GrB_free(&U), GrB_free(&M);
  }
  print_message("  Boolean batches of 2 to 65 vectors: %zu semirings x %zu descriptors equal the host's (ANY: valid)\n", ns, nd);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  k2_coo_free(&L);
}

// Batches: import / export, K2_mxm_device against K2_mxm on the host (masks, both directions),
// extraction by a vector of indices, and the calls that refuse a batch.
static void test_device_batches(void **state) {
  (void)state;
  k2_rng rng = {77};
  const uint64_t n = 3000, widths[] = {1, 3, 32, 256};
  k2_coo_list L;
  random_list(&L, n, n, 20000, 71);
  k2_coo_canonical(&L);
  K2_Matrix A = k2_test_matrix(&L, NULL);
  const GrB_Semiring semirings[] = {GrB_PLUS_TIMES_SEMIRING_INT64, GrB_MIN_PLUS_SEMIRING_INT64};
  const GrB_Descriptor descs[] = {NULL, GrB_DESC_T0, GrB_DESC_RSC, GrB_DESC_RSCT0, GrB_DESC_RT0};
  char what[160];
  for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
    const uint64_t B = widths[w];
    GrB_Matrix U = dm_random(GrB_INT64, n, B, n * B / 4, &rng), M = dm_random(GrB_BOOL, n, B, n * B / 3, &rng);
    K2_DeviceVector du = NULL, dm = NULL, dc = NULL;
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&du, GrB_INT64, n, B));
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&dm, GrB_BOOL, n, B));
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&dc, GrB_INT64, n, B));
    GrB_Index got = 0;
    K2_ASSERT_OK(K2_DeviceVector_width(&got, du));
    assert_int_equal(got, B);
    K2_ASSERT_OK(K2_DeviceVector_size(&got, du));
    assert_int_equal(got, n);
    K2_ASSERT_OK(K2_DeviceVector_importMatrix(du, U));
    K2_ASSERT_OK(K2_DeviceVector_importMatrix(dm, M));
    GrB_Matrix back = NULL;
    K2_ASSERT_OK(K2_DeviceVector_exportMatrix(&back, du));
    snprintf(what, sizeof what, "width %llu, import and export", (unsigned long long)B);
    dm_compare(back, U, n, B, what);
    GrB_free(&back);
    for (size_t si = 0; si < 2; si++)
      for (size_t d = 0; d < sizeof descs / sizeof descs[0]; d++) {
        const bool masked = d >= 2;
        GrB_Matrix C = NULL, Cd = NULL;
        K2_ASSERT_OK(GrB_Matrix_new(&C, GrB_INT64, n, B));
        K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
        K2_ASSERT_OK(K2_mxm(C, masked ? M : NULL, NULL, semirings[si], A, U, descs[d]));
        K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
        K2_ASSERT_OK(K2_mxm_device(dc, masked ? dm : NULL, semirings[si], A, du, descs[d]));
        GrB_Index nv = 0, want = 0;
        K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, dc));
        K2_ASSERT_OK(GrB_Matrix_nvals(&want, C));
        assert_int_equal(nv, want);
        K2_ASSERT_OK(K2_DeviceVector_exportMatrix(&Cd, dc));
        snprintf(what, sizeof what, "width %llu, semiring %zu, descriptor %zu", (unsigned long long)B, si, d);
        dm_compare(Cd, C, n, B, what);
        GrB_free(&C), GrB_free(&Cd);
      }
    // the output may be the input: C = A' C
    K2_ASSERT_OK(K2_mxm_device(du, NULL, GrB_PLUS_TIMES_SEMIRING_INT64, A, du, GrB_DESC_T0));
    if (B > 1) {  // a batch is not one vector
      assert_int_equal(K2_mxv_device(dc, NULL, GrB_PLUS_TIMES_SEMIRING_INT64, A, du, NULL), GrB_DIMENSION_MISMATCH);
      assert_int_equal(K2_DeviceVector_setElement_INT64(dc, 1, 0), GrB_DIMENSION_MISMATCH);
      assert_int_equal(K2_mxm_device(dc, NULL, GrB_PLUS_TIMES_SEMIRING_INT64, A, du, GrB_DESC_T1),
                       GrB_NOT_IMPLEMENTED);
    }
    K2_ASSERT_OK(K2_DeviceVector_free(&du));
    K2_ASSERT_OK(K2_DeviceVector_free(&dm));
    K2_ASSERT_OK(K2_DeviceVector_free(&dc));
    GrB_free(&U), GrB_free(&M);
  }
  K2_ASSERT_OK(K2_Matrix_free(&A));
  k2_coo_free(&L);

  // extract: w(k) = u(I(k)), against the same on the host; I of both index types
  const uint64_t nu = 500, nw = 800;
  GrB_Vector u = dv_random(GrB_INT64, nu, 300, &rng);
  for (int wide = 0; wide < 2; wide++) {
    GrB_Vector I = NULL, want = NULL, got = NULL;
    K2_ASSERT_OK(GrB_Vector_new(&I, wide ? GrB_INT64 : GrB_INT32, nw));
    K2_ASSERT_OK(GrB_Vector_new(&want, GrB_INT64, nw));
    for (uint64_t k = 0; k < nw; k++) {
      if (k2_rng_below(&rng, 4) == 0) continue;
      const uint64_t j = k2_rng_below(&rng, nu);
      K2_ASSERT_OK(GrB_Vector_setElement_INT64(I, (int64_t)j, k));
      int64_t x = 0;
      if (GrB_Vector_extractElement_INT64(&x, u, j) == GrB_SUCCESS)
        K2_ASSERT_OK(GrB_Vector_setElement_INT64(want, x, k));
    }
    K2_DeviceVector du = NULL, dI = NULL, dw = NULL;
    K2_ASSERT_OK(K2_DeviceVector_new(&du, GrB_INT64, nu));
    K2_ASSERT_OK(K2_DeviceVector_new(&dI, wide ? GrB_INT64 : GrB_INT32, nw));
    K2_ASSERT_OK(K2_DeviceVector_new(&dw, GrB_INT64, nw));
    K2_ASSERT_OK(K2_DeviceVector_import(du, u));
    K2_ASSERT_OK(K2_DeviceVector_import(dI, I));
    K2_ASSERT_OK(K2_DeviceVector_extract(dw, du, dI));
    GrB_Index nv = 0, wnv = 0;
    K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, dw));
    K2_ASSERT_OK(GrB_Vector_nvals(&wnv, want));
    assert_int_equal(nv, wnv);
    K2_ASSERT_OK(K2_DeviceVector_export(&got, dw));
    dv_compare(got, want, nw, false, NULL, want, false, wide ? "extract, INT64 indices" : "extract, INT32 indices");
    GrB_free(&got);
    // an index out of range: an error, and w as it was
    K2_ASSERT_OK(K2_DeviceVector_setElement_INT64(dI, (int64_t)nu, 3));
    assert_int_equal(K2_DeviceVector_extract(dw, du, dI), GrB_INDEX_OUT_OF_BOUNDS);
    K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, dw));
    assert_int_equal(nv, wnv);
    K2_ASSERT_OK(K2_DeviceVector_export(&got, dw));
    dv_compare(got, want, nw, false, NULL, want, false, "extract, w after an error");
    K2_ASSERT_OK(K2_DeviceVector_free(&du));
    K2_ASSERT_OK(K2_DeviceVector_free(&dI));
    K2_ASSERT_OK(K2_DeviceVector_free(&dw));
    GrB_free(&I), GrB_free(&want), GrB_free(&got);
  }
  GrB_free(&u);
}

// msBFS from the device path against the host's (OpenMP): identical distance matrices.
static void msbfs_device_check(K2_Matrix A, const GrB_Index *src, GrB_Index ns, bool reverse, const char *what) {
  GrB_Matrix dh = NULL, dd = NULL;
  char msg[K2_MSG_LEN];
  GrB_Index n = 0;
  K2_ASSERT_OK(K2_Matrix_nrows(&n, A));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  GrB_Info info = K2_msbfs_k2(&dh, A, src, ns, reverse, msg);
  if (info != GrB_SUCCESS) fail_msg("%s, host: %s", what, msg);
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  K2_ASSERT_OK(K2_set_strict(true));
  info = K2_msbfs_k2(&dd, A, src, ns, reverse, msg);
  K2_ASSERT_OK(K2_set_strict(false));
  if (info != GrB_SUCCESS) fail_msg("%s: %s", what, msg);
  assert_int_equal(K2_last_engine(), K2_ENGINE_CUDA);
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  GrB_Type t = NULL;
  K2_ASSERT_OK(GxB_Matrix_type(&t, dd));
  assert_true(t == GrB_INT32);
  dm_compare(dd, dh, n, ns, what);
  GrB_free(&dh), GrB_free(&dd);
}

// WCC from the device path against the host's: identical labels in as many rounds.
static void wcc_device_check(K2_Matrix A, const char *what) {
  GrB_Vector ch = NULL, cd = NULL;
  int rh = 0, rd = 0;
  char msg[K2_MSG_LEN];
  GrB_Index n = 0;
  K2_ASSERT_OK(K2_Matrix_nrows(&n, A));
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
  GrB_Info info = K2_wcc_k2(&ch, &rh, A, msg);
  if (info != GrB_SUCCESS) fail_msg("%s, host: %s", what, msg);
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_CUDA));
  K2_ASSERT_OK(K2_set_strict(true));
  info = K2_wcc_k2(&cd, &rd, A, msg);
  K2_ASSERT_OK(K2_set_strict(false));
  if (info != GrB_SUCCESS) fail_msg("%s: %s", what, msg);
  assert_int_equal(K2_last_engine(), K2_ENGINE_CUDA);
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  if (rh != rd) fail_msg("%s: %d rounds on the device, %d on the host", what, rd, rh);
  GrB_Index nv = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&nv, cd));
  assert_int_equal(nv, n);
  dv_compare(cd, ch, n, false, A, ch, false, what);
  GrB_free(&ch), GrB_free(&cd);
}

// ns sources spread over the vertices, one of them twice.
static void msbfs_sources(GrB_Index *src, GrB_Index ns, uint64_t n) {
  for (GrB_Index b = 0; b < ns; b++) src[b] = (b * 7919 + 3) % n;
  if (ns > 2) src[ns - 1] = src[0];
}

static void msbfs_real_graph(K2_Matrix A, uint64_t n, const char *name) {
  GrB_Index src[64];
  char what[160];
  msbfs_sources(src, 64, n);
  snprintf(what, sizeof what, "%s, 64 sources", name);
  msbfs_device_check(A, src, 64, false, what);
  snprintf(what, sizeof what, "%s, 64 sources, reverse", name);
  msbfs_device_check(A, src, 64, true, what);
}

static void test_device_msbfs(void **state) {
  (void)state;
  const GrB_Index widths[] = {1, 17, 64, K2_MSBFS_MAX};
  const uint64_t sizes[][2] = {{5000, 40000}, {6000, 4000}};
  GrB_Index src[K2_MSBFS_MAX];
  char what[160];
  for (int g = 0; g < 2; g++) {
    k2_coo_list L;
    random_list(&L, sizes[g][0], sizes[g][0], sizes[g][1], 81 + (uint64_t)g);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
      for (int reverse = 0; reverse < 2; reverse++) {
        msbfs_sources(src, widths[w], sizes[g][0]);
        snprintf(what, sizeof what, "random graph %d, %llu sources%s", g, (unsigned long long)widths[w],
                 reverse ? ", reverse" : "");
        msbfs_device_check(A, src, widths[w], reverse != 0, what);
      }
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
  }
  {  // larger leaves (the frontier's summary has a bit per 2^(leaf_log + 1) vertices), both device
     // configurations, and each search twice (the second replays the levels kept with the matrix)
    k2_coo_list L;
    random_list(&L, 3000, 3000, 9000, 83);
    k2_coo_canonical(&L);
    for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++) {
      K2_Format fmt;
      K2_Format_default(&fmt);
      fmt.leaf_log = leaf_log;
      K2_Matrix A = k2_test_matrix(&L, &fmt);
      for (int config = K2_DEVICE_TREE_ONLY; config <= K2_DEVICE_BOTTOM; config++) {
        K2_ASSERT_OK(K2_Matrix_upload(A, (K2_DeviceConfig)config));
        msbfs_sources(src, 17, 3000);
        for (int again = 0; again < 2; again++) {
          snprintf(what, sizeof what, "%ux%u leaves, configuration %d, 17 sources, run %d", 1u << leaf_log,
                   1u << leaf_log, config, again + 1);
          msbfs_device_check(A, src, 17, false, what);
        }
      }
      K2_ASSERT_OK(K2_Matrix_free(&A));
    }
    k2_coo_free(&L);
  }
  {  // a search of more than 254 levels: the level bytes come back in spans of 254 (a path of
     // 1100 vertices closed into a cycle, with a shortcut and two back edges), against the host
     // and against K2_Device_bfsLevels' INT32 batch
    const uint64_t n = 1100;
    k2_coo_list L;
    k2_coo_alloc(&L, n, n, n + 3);
    uint64_t e = 0;
    for (uint64_t i = 0; i < n; i++) L.I[e] = (uint32_t)i, L.J[e++] = (uint32_t)((i + 1) % n);
    const uint32_t extra[][2] = {{100, 150}, {3, 2}, {700, 5}};
    for (size_t x = 0; x < sizeof extra / sizeof extra[0]; x++) L.I[e] = extra[x][0], L.J[e++] = extra[x][1];
    L.nvals = e;
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    const GrB_Index deep[5] = {1, 0, 299, 509, 1};
    for (int reverse = 0; reverse < 2; reverse++) {
      snprintf(what, sizeof what, "a cycle of %llu vertices, 5 sources%s", (unsigned long long)n,
               reverse ? ", reverse" : "");
      msbfs_device_check(A, deep, 5, reverse != 0, what);
    }
    K2_DeviceVector d = NULL;
    GrB_Matrix viaBatch = NULL, viaBytes = NULL;
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&d, GrB_INT32, n, 1));
    K2_ASSERT_OK(K2_Device_bfsLevels(d, A, deep, 1, GrB_DESC_T0));
    K2_ASSERT_OK(K2_DeviceVector_exportMatrix(&viaBatch, d));
    K2_ASSERT_OK(K2_Device_bfsLevelsMatrix(&viaBytes, A, deep, 1, GrB_DESC_T0));
    dm_compare(viaBytes, viaBatch, n, 1, "the cycle from vertex 1: level bytes against the INT32 batch");
    // from 1 along the out-edges: 100 at 99, then 150 at 100 (the shortcut), 1099 at 1049, 0 at
    // 1050 (the fifth span); 101 .. 149 only by 100 -> 101
    const struct { GrB_Index v; int32_t level; } expect[] = {{1, 0}, {100, 99}, {150, 100}, {149, 148},
                                                             {404, 354}, {1099, 1049}, {0, 1050}};
    for (size_t x = 0; x < sizeof expect / sizeof expect[0]; x++) {
      int32_t got = -1;
      K2_ASSERT_OK(GrB_Matrix_extractElement_INT32(&got, viaBytes, expect[x].v, 0));
      if (got != expect[x].level)
        fail_msg("the cycle from vertex 1: vertex %llu at level %d, expected %d", (unsigned long long)expect[x].v,
                 got, expect[x].level);
    }
    GrB_free(&viaBatch), GrB_free(&viaBytes);
    K2_ASSERT_OK(K2_DeviceVector_free(&d));
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
  }
  if (!g_quick) {  // more level bytes than the staging buffer holds (16 MiB): they come back in
                   // two chunks; compared with the INT32 batch by GraphBLAS (same pattern, no
                   // entry different). A million vertices: too slow under the race checker.
    const uint64_t n = (UINT64_C(1) << 20) + 4096;
    const GrB_Index ns = 17;
    k2_coo_list L;
    random_list(&L, n, n, 3 * n, 87);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    msbfs_sources(src, ns, n);
    K2_DeviceVector d = NULL;
    GrB_Matrix viaBatch = NULL, viaBytes = NULL, diff = NULL;
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&d, GrB_INT32, n, ns));
    K2_ASSERT_OK(K2_Device_bfsLevels(d, A, src, ns, NULL));
    K2_ASSERT_OK(K2_DeviceVector_exportMatrix(&viaBatch, d));
    K2_ASSERT_OK(K2_DeviceVector_free(&d));
    K2_ASSERT_OK(K2_Device_bfsLevelsMatrix(&viaBytes, A, src, ns, NULL));
    K2_ASSERT_OK(GrB_Matrix_new(&diff, GrB_BOOL, n, ns));
    K2_ASSERT_OK(GrB_Matrix_eWiseAdd_BinaryOp(diff, NULL, NULL, GrB_NE_INT32, viaBytes, viaBatch, NULL));
    GrB_Index n1 = 0, n2 = 0, nu = 0;
    bool any = true;
    K2_ASSERT_OK(GrB_Matrix_nvals(&n1, viaBytes));
    K2_ASSERT_OK(GrB_Matrix_nvals(&n2, viaBatch));
    K2_ASSERT_OK(GrB_Matrix_nvals(&nu, diff));
    K2_ASSERT_OK(GrB_Matrix_reduce_BOOL(&any, NULL, GrB_LOR_MONOID_BOOL, diff, NULL));
    if (n1 != n2 || nu != n1 || any)
      fail_msg("%llu x %llu levels in two chunks: %llu entries from the bytes, %llu from the batch, %llu in the "
               "union, %s", (unsigned long long)n, (unsigned long long)ns, (unsigned long long)n1,
               (unsigned long long)n2, (unsigned long long)nu, any ? "some differ" : "none differ");
    assert_true(n1 > n * ns / 2);  // the random graph's giant component: most pairs reached
    GrB_free(&viaBatch), GrB_free(&viaBytes), GrB_free(&diff);
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
  }
  {  // K2_Device_bfsLevels (msBFS's path up to 64 sources) refuses bad arguments, dist untouched
    k2_coo_list L;
    random_list(&L, 100, 100, 400, 85);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    K2_DeviceVector d = NULL, b = NULL;
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&d, GrB_INT32, 100, 2));
    K2_ASSERT_OK(K2_DeviceVector_newBatch(&b, GrB_BOOL, 100, 2));
    const GrB_Index s2[2] = {0, 99}, out[2] = {0, 100};
    K2_ASSERT_OK(K2_Device_bfsLevels(d, A, s2, 2, GrB_DESC_T0));
    GrB_Index nv = 0, nv2 = 0;
    K2_ASSERT_OK(K2_DeviceVector_nvals(&nv, d));
    assert_true(nv >= 2);
    assert_int_equal(K2_Device_bfsLevels(d, A, out, 2, NULL), GrB_INVALID_INDEX);
    assert_int_equal(K2_Device_bfsLevels(b, A, s2, 2, NULL), GrB_DIMENSION_MISMATCH);
    assert_int_equal(K2_Device_bfsLevels(d, A, s2, 1, NULL), GrB_DIMENSION_MISMATCH);
    assert_int_equal(K2_Device_bfsLevels(d, A, s2, 0, NULL), GrB_NOT_IMPLEMENTED);
    assert_int_equal(K2_Device_bfsLevels(d, A, NULL, 2, NULL), GrB_NULL_POINTER);
    K2_ASSERT_OK(K2_DeviceVector_nvals(&nv2, d));
    assert_int_equal(nv2, nv);
    // and K2_Device_bfsLevelsMatrix: the same result as the batch, *dist untouched on errors
    GrB_Matrix viaBatch = NULL, viaBytes = NULL, keep = (GrB_Matrix)&nv;  // a sentinel, never read
    K2_ASSERT_OK(K2_DeviceVector_exportMatrix(&viaBatch, d));
    K2_ASSERT_OK(K2_Device_bfsLevelsMatrix(&viaBytes, A, s2, 2, GrB_DESC_T0));
    dm_compare(viaBytes, viaBatch, 100, 2, "100 vertices, 2 sources: level bytes against the INT32 batch");
    GrB_free(&viaBatch), GrB_free(&viaBytes);
    viaBytes = keep;
    assert_int_equal(K2_Device_bfsLevelsMatrix(&viaBytes, A, out, 2, NULL), GrB_INVALID_INDEX);
    assert_int_equal(K2_Device_bfsLevelsMatrix(&viaBytes, A, s2, 0, NULL), GrB_NOT_IMPLEMENTED);
    assert_int_equal(K2_Device_bfsLevelsMatrix(&viaBytes, A, NULL, 2, NULL), GrB_NULL_POINTER);
    assert_int_equal(K2_Device_bfsLevelsMatrix(&viaBytes, NULL, s2, 2, NULL), GrB_NULL_POINTER);
    assert_true(viaBytes == keep);
    assert_int_equal(K2_Device_bfsLevelsMatrix(NULL, A, s2, 2, NULL), GrB_NULL_POINTER);
    K2_ASSERT_OK(K2_DeviceVector_free(&d));
    K2_ASSERT_OK(K2_DeviceVector_free(&b));
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
  }
  const int found = on_square_real_graphs(msbfs_real_graph);
  printf("  device msBFS = host msBFS on 2 random graphs (1 to %d sources) and %d real graphs\n",
         K2_MSBFS_MAX, found);
}

static void wcc_real_graph(K2_Matrix A, uint64_t n, const char *name) {
  (void)n;
  wcc_device_check(A, name);
}

static void test_device_wcc(void **state) {
  (void)state;
  char what[160];
  // one large component, many small ones, and a long path with shuffled ids (many rounds)
  const uint64_t sizes[][2] = {{5000, 40000}, {6000, 4000}};
  for (int g = 0; g < 2; g++) {
    k2_coo_list L;
    random_list(&L, sizes[g][0], sizes[g][0], sizes[g][1], 91 + (uint64_t)g);
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    snprintf(what, sizeof what, "random graph %d", g);
    wcc_device_check(A, what);
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
  }
  {
    const uint64_t n = 4000;
    k2_rng rng = {93};
    uint32_t *perm = malloc(n * sizeof *perm);
    assert_non_null(perm);
    for (uint64_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
    for (uint64_t i = n - 1; i > 0; i--) {
      const uint64_t j = k2_rng_below(&rng, i + 1);
      const uint32_t x = perm[i];
      perm[i] = perm[j];
      perm[j] = x;
    }
    k2_coo_list L;
    k2_coo_alloc(&L, n, n, n - 1);
    for (uint64_t k = 0; k + 1 < n; k++) {  // two paths: the edge at n/2 is left out
      L.I[k] = perm[k];
      L.J[k] = perm[k == n / 2 ? k : k + 1];
    }
    k2_coo_canonical(&L);
    K2_Matrix A = k2_test_matrix(&L, NULL);
    wcc_device_check(A, "two shuffled paths");
    K2_ASSERT_OK(K2_Matrix_free(&A));
    k2_coo_free(&L);
    free(perm);
  }
  const int found = on_square_real_graphs(wcc_real_graph);
  printf("  device WCC = host WCC (labels and rounds) on 3 generated graphs and %d real graphs\n", found);
}

int main(void) {
  if (!k2_cuda_available()) {
    printf("no CUDA device: GPU tests skipped\n");
    return K2_TEST_SKIP;
  }
  const char *q = getenv("K2GRB_GPU_QUICK");
  g_quick = q != NULL && q[0] == '1';
  // K2GRB_GPU_FILTER=test_plus_kernel: run only the matching tests (e.g. under racecheck)
  const char *filter = getenv("K2GRB_GPU_FILTER");
  if (filter != NULL && filter[0] != '\0') cmocka_set_test_filter(filter);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_all_semirings), cmocka_unit_test(test_configurations),
      cmocka_unit_test(test_memory_exact),  cmocka_unit_test(test_budget),
      cmocka_unit_test(test_no_leaks),      cmocka_unit_test(test_fp32_rounding),
      cmocka_unit_test(test_edge_cases),    cmocka_unit_test(test_real_graphs),
      cmocka_unit_test(test_plus_kernel),   cmocka_unit_test(test_default_config),
      cmocka_unit_test(test_pruned),        cmocka_unit_test(test_pruned_visits),
      cmocka_unit_test(test_auto_routing),  cmocka_unit_test(test_device_vectors),
      cmocka_unit_test(test_device_bfs),    cmocka_unit_test(test_device_pagerank),
      cmocka_unit_test(test_device_batches),
      cmocka_unit_test(test_device_bool_batches), cmocka_unit_test(test_device_msbfs),
      cmocka_unit_test(test_device_wcc),    cmocka_unit_test(test_compressed_leaves),
      cmocka_unit_test(test_full_blocks),
  };
  int failed = cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
  k2_cuda_trim();  // the engine's workspace, so that a leak check sees nothing left
  return failed;
}
