// test_sparse_products.c: the sparse path of K2_mxv / K2_vxm against SuiteSparse and the
// reference engine.
// SPDX-License-Identifier: Apache-2.0
//
// When u holds few entries (nvals(u) * 8 <= its length) or the mask allows few outputs (allowed *
// 8 <= w's length), the bridge scatters u into the thread's workspace, the OpenMP engine prunes
// the traversal by the input list and the mask and lists the outputs it wrote, and the result goes
// back sparse (packed into w directly when there is no accumulator and no mask, or replace). Every
// product here runs three ways on the same w, mask, accum and descriptor: K2 on the OpenMP engine,
// K2 on the reference engine (every case of the tiny matrix, every other case of the large ones:
// K2GRB_SPARSE_REF_STRIDE), and GraphBLAS on an independently built GrB_Matrix of the same pattern
// (without a mask GrB_mxv / GrB_vxm itself; with one, k2_grb_oracle.h: T = A*u unmasked, then
// w<mask> = accum (w, T), the C API's definition, as SuiteSparse 7.4's own masked kernels hang or
// crash on some of these inputs). Both K2 results must equal the oracle's: same pattern, same
// values, compared exactly. Exact is right here: inputs and w hold small integers (FP: multiples
// of 1/4 in [-2, 2]) and edge weights 1 or 2, so every partial sum of a PLUS product is exactly
// representable in FP32 and FP64 (at most 7000 terms of magnitude <= 4) and the order of the
// additions cannot matter. ANY monoids are checked by validity: a value that differs from the
// oracle's must be one of the contributions (ANY_SECONDI: the index of an in-neighbour present in
// u; with a PLUS accumulator, after taking w's old value off). Each product must also take the
// native CPU path (K2_last_path, K2_last_engine), and where nvals(u) or the allowed outputs are
// few, the OpenMP engine must have run its pruned traversal (k2_omp_pruned_expanded, the engine's
// test hook).
//
// test_representative: every combination of input (0, 1, 3, n/2, n entries; sparse and bitmap),
// mask (none, complement of none, valued, structural, complemented valued and structural; with
// few, half and almost all entries; bitmap and sparse), replace and accumulator, for six
// representative semirings, on three matrices (5000^2 with empty and dense rows and columns,
// 3000 x 7000 with weight 2 and 8x8 leaves, 37^2), as A*u, A'*u and u'*A.
// test_all_semirings: every native semiring on a subset of those combinations, in all four
// directions (A*u, A'*u, u'*A, u'*A'); test_forced_traversals: the same with each traversal
// of the OpenMP engine forced in turn (pruned, full pruned by stripe summaries, full).
// test_bfs_aliased: BFS steps q<!visited, replace> = q*A with q both input and output.
// test_workspace_invariants: after sparse products, failed products (a dimension mismatch,
// every allocation failure of a sparse product in turn) and dense products on the same thread,
// every later result is still right.
// K2GRB_SPARSE_VERBOSE=1 prints every case.
#include "k2_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#include "cpu/k2_omp_plan.h"  // k2_omp_pruned_expanded
#include "k2_grb_oracle.h"
#include "k2_native_semirings.h"
#include "k2_oracle.h"
#include "util/k2_alloc.h"

//----------------------------------------------------------------------------------------------
// semirings
//----------------------------------------------------------------------------------------------

static sr_entry SR[K2_NATIVE_SEMIRINGS_MAX];
static int n_sr = 0;

static const sr_entry *find_sr(const char *name) {
  for (int k = 0; k < n_sr; k++) {
    if (strcmp(SR[k].name, name) == 0) return &SR[k];
  }
  fprintf(stderr, "no semiring %s\n", name);
  fail();
  return NULL;
}

static void setup_semirings(void) {
  if (n_sr == 0) n_sr = k2_native_semirings(SR);
}

static void teardown_semirings(void) {
  k2_native_semirings_free();
  n_sr = 0;
}

//----------------------------------------------------------------------------------------------
// matrices: a K2_Matrix and a GrB_Matrix from one edge list, with CSR and CSC for the ANY check
//----------------------------------------------------------------------------------------------

typedef struct {
  const char *name;
  GrB_Index nr, nc, ne;
  double weight;
  K2_Matrix A;
  GrB_Matrix G;
  GrB_Index *rp, *ci;  // CSR: the columns of row i are ci[rp[i] .. rp[i+1])
  GrB_Index *cp, *ri;  // CSC: the rows of column j are ri[cp[j] .. cp[j+1])
} tmat;

static tmat MATS[3];
static int n_mats = 0;

// Entries: about `per` per row in random columns, with `empty` of the rows left empty (about),
// `dense_rows` rows and `dense_cols` columns of density 0.4.
static void make_matrix(tmat *m, const char *name, uint64_t nr, uint64_t nc, double per,
                        double empty, int dense_rows, int dense_cols, double weight,
                        const K2_Format *fmt, uint64_t seed) {
  k2_rng rng = {seed};
  uint64_t cap = (uint64_t)(per * (double)nr) + (uint64_t)dense_rows * nc + (uint64_t)dense_cols * nr + 16;
  k2_coo_list L;
  k2_coo_alloc(&L, nr, nc, cap);
  uint64_t ne = 0;
  for (uint64_t i = 0; i < nr; i++) {
    if (k2_rng_unit(&rng) < empty) continue;
    uint64_t d = k2_rng_below(&rng, (uint64_t)(2 * per) + 1);
    for (uint64_t k = 0; k < d && ne < cap; k++) {
      L.I[ne] = (uint32_t)i;
      L.J[ne++] = (uint32_t)k2_rng_below(&rng, nc);
    }
  }
  for (int r = 0; r < dense_rows; r++) {
    uint64_t i = k2_rng_below(&rng, nr);
    for (uint64_t j = 0; j < nc && ne < cap; j++) {
      if (k2_rng_unit(&rng) < 0.4) {
        L.I[ne] = (uint32_t)i;
        L.J[ne++] = (uint32_t)j;
      }
    }
  }
  for (int c = 0; c < dense_cols; c++) {
    uint64_t j = k2_rng_below(&rng, nc);
    for (uint64_t i = 0; i < nr && ne < cap; i++) {
      if (k2_rng_unit(&rng) < 0.4) {
        L.I[ne] = (uint32_t)i;
        L.J[ne++] = (uint32_t)j;
      }
    }
  }
  L.nvals = ne;
  k2_coo_canonical(&L);  // row-major, no duplicates
  memset(m, 0, sizeof *m);
  m->name = name;
  m->nr = nr;
  m->nc = nc;
  m->ne = L.nvals;
  m->weight = weight;
  m->A = k2_test_matrix(&L, fmt);
  K2_ASSERT_OK(K2_Matrix_setEdgeWeight(m->A, weight));
  GrB_Index *I = malloc((m->ne + 1) * sizeof(GrB_Index)), *J = malloc((m->ne + 1) * sizeof(GrB_Index));
  m->rp = calloc(nr + 2, sizeof(GrB_Index));
  m->cp = calloc(nc + 2, sizeof(GrB_Index));
  m->ci = malloc((m->ne + 1) * sizeof(GrB_Index));
  m->ri = malloc((m->ne + 1) * sizeof(GrB_Index));
  assert_true(I && J && m->rp && m->cp && m->ci && m->ri);
  for (uint64_t k = 0; k < m->ne; k++) {
    I[k] = L.I[k];
    J[k] = L.J[k];
    m->rp[L.I[k] + 1]++;
    m->cp[L.J[k] + 1]++;
    m->ci[k] = L.J[k];  // sorted row-major: the CSR's columns in order
  }
  for (uint64_t i = 0; i < nr; i++) m->rp[i + 1] += m->rp[i];
  for (uint64_t j = 0; j < nc; j++) m->cp[j + 1] += m->cp[j];
  GrB_Index *next = malloc((nc + 1) * sizeof(GrB_Index));
  assert_non_null(next);
  memcpy(next, m->cp, nc * sizeof(GrB_Index));
  for (uint64_t k = 0; k < m->ne; k++) m->ri[next[L.J[k]]++] = L.I[k];
  free(next);
  m->G = k2_oracle_grb_matrix(nr, nc, I, J, m->ne, weight);
  free(I);
  free(J);
  k2_coo_free(&L);
}

static void setup_matrices(void) {
  if (n_mats > 0) return;
  K2_Format f1, f2, f3;
  K2_Format_default(&f1);
  K2_Format_default(&f2);
  f2.leaf_log = 3;
  f2.cache_bottom_codes = true;
  K2_Format_default(&f3);
  f3.leaf_log = 2;
  make_matrix(&MATS[0], "square 5000", 5000, 5000, 6, 0.1, 3, 2, 1.0, &f1, 11);
  make_matrix(&MATS[1], "rect 3000x7000 (weight 2, 8x8 leaves)", 3000, 7000, 6, 0.1, 2, 2, 2.0, &f2, 12);
  make_matrix(&MATS[2], "tiny 37 (4x4 leaves)", 37, 37, 4, 0.15, 1, 1, 1.0, &f3, 13);
  n_mats = 3;
}

static void teardown_matrices(void) {
  for (int k = 0; k < n_mats; k++) {
    tmat *m = &MATS[k];
    K2_Matrix_free(&m->A);
    GrB_Matrix_free(&m->G);
    free(m->rp);
    free(m->ci);
    free(m->cp);
    free(m->ri);
  }
  n_mats = 0;
}

//----------------------------------------------------------------------------------------------
// vectors
//----------------------------------------------------------------------------------------------

// A small value exactly representable in t (FP: quarters in [-2, 2]).
static double rand_value(k2_rng *r, GrB_Type t) {
  if (t == GrB_BOOL) return (double)k2_rng_below(r, 2);
  if (t == GrB_FP32 || t == GrB_FP64) return ((double)k2_rng_below(r, 17) - 8.0) / 4.0;
  return (double)k2_rng_below(r, 8) - 3.0;
}

// count distinct random indices of [0, n), ascending, into I.
static void rand_positions(k2_rng *r, GrB_Index n, GrB_Index count, GrB_Index *I) {
  if (count > n) count = n;
  // selection sampling (Knuth's algorithm S): ascending, exactly count of them
  GrB_Index k = 0;
  for (GrB_Index i = 0; i < n && k < count; i++) {
    if (k2_rng_below(r, n - i) < count - k) I[k++] = i;
  }
}

static int sparsity_of(bool bitmap) { return bitmap ? GxB_BITMAP : GxB_SPARSE; }

// A vector of n entries of type t with count entries at random positions. zeros: how the values
// are drawn: -1: rand_value; else 1 for every entry but `zeros` of them (mask values 0).
static GrB_Vector make_vector(k2_rng *r, GrB_Index n, GrB_Index count, GrB_Type t, bool bitmap,
                              long zeros) {
  GrB_Vector v = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&v, t, n));
  if (count > n) count = n;
  GrB_Index *I = malloc((count + 1) * sizeof(GrB_Index));
  double *X = malloc((count + 1) * sizeof(double));
  assert_true(I && X);
  rand_positions(r, n, count, I);
  // the ends of the range (the tree's padding starts past n - 1) one time in three each
  if (count > 0 && k2_rng_below(r, 3) == 0) I[count - 1] = n - 1;
  if (count > 0 && k2_rng_below(r, 3) == 0) I[0] = 0;
  for (GrB_Index k = 0; k < count; k++) X[k] = zeros < 0 ? rand_value(r, t) : 1.0 + (double)k2_rng_below(r, 3);
  for (long z = 0; z < zeros && count > 0; z++) X[k2_rng_below(r, count)] = 0;
  K2_ASSERT_OK(GrB_Vector_build_FP64(v, I, X, count, GrB_FIRST_FP64));
  K2_ASSERT_OK(GxB_Vector_Option_set(v, GxB_SPARSITY_CONTROL, sparsity_of(bitmap)));
  K2_ASSERT_OK(GrB_Vector_wait(v, GrB_MATERIALIZE));
  free(I);
  free(X);
  return v;
}

// Dense copy of a vector's values (as double) and presence (n entries each).
static void vector_dense(GrB_Vector v, GrB_Index n, double *x, bool *p) {
  GrB_Index nv;
  K2_ASSERT_OK(GrB_Vector_nvals(&nv, v));
  GrB_Index *I = malloc((nv + 1) * sizeof(GrB_Index));
  double *X = malloc((nv + 1) * sizeof(double));
  assert_true(I && X);
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(I, X, &nv, v));
  for (GrB_Index i = 0; i < n; i++) {
    p[i] = false;
    x[i] = 0;
  }
  for (GrB_Index k = 0; k < nv; k++) {
    x[I[k]] = X[k];
    p[I[k]] = true;
  }
  free(I);
  free(X);
}

static GrB_UnaryOp identity_of(GrB_Type t) {
  return t == GrB_BOOL ? GrB_IDENTITY_BOOL : t == GrB_INT32 ? GrB_IDENTITY_INT32
       : t == GrB_INT64 ? GrB_IDENTITY_INT64 : t == GrB_FP32 ? GrB_IDENTITY_FP32 : GrB_IDENTITY_FP64;
}

static const char *type_name(GrB_Type t) {
  return t == GrB_BOOL ? "BOOL" : t == GrB_INT32 ? "INT32" : t == GrB_INT64 ? "INT64"
       : t == GrB_FP32 ? "FP32" : "FP64";
}

// The accumulators: PLUS (LOR on BOOL) or MIN (LAND on BOOL) of the type.
static GrB_BinaryOp accum_of(GrB_Type t, bool plus) {
  if (t == GrB_BOOL) return plus ? GrB_LOR : GrB_LAND;
  if (t == GrB_INT32) return plus ? GrB_PLUS_INT32 : GrB_MIN_INT32;
  if (t == GrB_INT64) return plus ? GrB_PLUS_INT64 : GrB_MIN_INT64;
  if (t == GrB_FP32) return plus ? GrB_PLUS_FP32 : GrB_MIN_FP32;
  return plus ? GrB_PLUS_FP64 : GrB_MIN_FP64;
}

//----------------------------------------------------------------------------------------------
// one product, three ways
//----------------------------------------------------------------------------------------------

// The directions: A*u, A'*u, u'*A, u'*A'.
typedef enum { D_MXV = 0, D_MXV_T, D_VXM, D_VXM_T } direction;
static const char *DIR_NAME[] = {"A*u (mxv)", "A'*u (mxv T0)", "u'*A (vxm)", "u'*A' (vxm T1)"};

static bool dir_vxm(direction d) { return d == D_VXM || d == D_VXM_T; }
static bool dir_tran(direction d) { return d == D_MXV_T || d == D_VXM_T; }
// the engines' left product: y' = x' A (the input runs along A's rows)
static bool dir_left(direction d) { return d == D_VXM || d == D_MXV_T; }

// Mask kinds.
typedef enum { M_NONE = 0, M_COMP_NONE, M_VALUED, M_STRUCT, M_COMP_VALUED, M_COMP_STRUCT } mask_kind;
static const char *MASK_NAME[] = {"none", "complement of none", "valued", "structural",
                                  "complemented valued", "complemented structural"};
typedef enum { MD_FEW = 0, MD_HALF, MD_ALMOST_ALL } mask_density;
static const char *DENS_NAME[] = {"few", "half", "almost all"};

typedef struct {
  const sr_entry *sr;
  tmat *m;
  direction dir;
  GrB_Index ucount;
  bool ubitmap;
  GrB_Type utype;
  mask_kind mk;
  mask_density md;
  bool mbitmap;
  GrB_Type mtype;
  bool replace;
  int accum;  // 0 none, 1 PLUS (LOR), 2 MIN (LAND)
  GrB_Type wtype;
  uint64_t seed;
  bool no_ref;  // skip the reference engine (it walks the whole tree: the costly run)
} pcase;

static void case_text(const pcase *c, char *buf, size_t len) {
  snprintf(buf, len,
           "%s, %s, A %s (%llux%llu, %llu entries, weight %g), u %llu entries %s %s, w %s, "
           "mask %s%s%s%s%s, replace %d, accum %s, seed %llu",
           c->sr->name, DIR_NAME[c->dir], c->m->name, (unsigned long long)c->m->nr,
           (unsigned long long)c->m->nc, (unsigned long long)c->m->ne, c->m->weight,
           (unsigned long long)c->ucount, c->ubitmap ? "bitmap" : "sparse", type_name(c->utype),
           type_name(c->wtype), MASK_NAME[c->mk],
           c->mk >= M_VALUED ? ", " : "", c->mk >= M_VALUED ? DENS_NAME[c->md] : "",
           c->mk >= M_VALUED ? (c->mbitmap ? " bitmap " : " sparse ") : "",
           c->mk >= M_VALUED ? type_name(c->mtype) : "", c->replace,
           c->accum == 0 ? "none" : c->accum == 1 ? "PLUS/LOR" : "MIN/LAND", (unsigned long long)c->seed);
}

// The ANY check: the allowed values at output o.
typedef struct {
  const sr_entry *sr;
  const tmat *m;
  bool vxm, left;
  const double *ux;  // u cast to the semiring's type
  const bool *up;
  double wcast;      // the edge weight cast to the semiring's type
  const double *wx;  // w before the call (with a PLUS accumulator)
  const bool *wp;
  bool accum_plus;
} any_ctx;

static bool contribution_ok(const any_ctx *c, GrB_Index o, double value) {
  const tmat *m = c->m;
  const GrB_Index *lo = c->left ? m->cp : m->rp, *idx = c->left ? m->ri : m->ci;
  for (GrB_Index k = lo[o]; k < lo[o + 1]; k++) {
    GrB_Index s = idx[k];
    if (!c->up[s]) continue;
    double v;
    switch (c->sr->any) {
      case A_FIRST: v = c->vxm ? c->ux[s] : c->wcast; break;  // FIRST reads u in vxm
      case A_SECOND: v = c->vxm ? c->wcast : c->ux[s]; break;
      case A_PAIR: v = 1; break;
      case A_LAND: v = (c->wcast != 0 && c->ux[s] != 0); break;
      case A_INDEX0: v = (double)s; break;
      default: v = (double)s + 1; break;
    }
    if (v == value) return true;
  }
  return false;
}

static bool any_allowed(void *vctx, GrB_Index o, double value) {
  const any_ctx *c = vctx;
  // with PLUS accumulated into an old entry, the product's value is the difference (integers
  // or quarters: exact)
  if (c->accum_plus && c->wp[o]) return contribution_ok(c, o, value - c->wx[o]);
  return contribution_ok(c, o, value);
}

static double cast_to(double v, GrB_Type t) {
  GrB_Scalar s = NULL;
  double out = 0;
  K2_ASSERT_OK(GrB_Scalar_new(&s, t));
  K2_ASSERT_OK(GrB_Scalar_setElement_FP64(s, v));
  K2_ASSERT_OK(GrB_Scalar_extractElement_FP64(&out, s));
  GrB_Scalar_free(&s);
  return out;
}

typedef struct {
  long cases, products, pruned, sparse_expected;
  int fails;
} stats;

static bool verbose(void) {
  static int v = -1;
  if (v < 0) v = getenv("K2GRB_SPARSE_VERBOSE") != NULL;
  return v == 1;
}

// How many outputs the mask lets through (the bridge's rule).
static GrB_Index mask_allowed(GrB_Vector mask, mask_kind mk, GrB_Index n) {
  if (mk == M_NONE) return n;
  if (mk == M_COMP_NONE) return 0;
  GrB_Index nv = 0, nz = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&nv, mask));
  nz = nv;
  if (mk == M_VALUED || mk == M_COMP_VALUED) {
    GrB_Vector t = NULL;
    K2_ASSERT_OK(GrB_Vector_new(&t, GrB_BOOL, n));
    K2_ASSERT_OK(GrB_Vector_select_BOOL(t, NULL, NULL, GrB_VALUENE_BOOL, mask, false, NULL));
    K2_ASSERT_OK(GrB_Vector_nvals(&nz, t));
    GrB_Vector_free(&t);
  }
  bool comp = mk == M_COMP_VALUED || mk == M_COMP_STRUCT;
  return comp ? n - nz : nz;
}

// Run the K2 call on one engine; false (with a message) when it fails or leaves its path.
static bool run_k2(const pcase *c, K2_Engine engine, GrB_Vector w, GrB_Vector mask, GrB_BinaryOp accum,
                   GrB_Vector u, GrB_Descriptor desc, bool expect_pruned, stats *st, const char *text) {
  K2_ASSERT_OK(K2_set_engine(engine));
  k2_omp_pruned_expanded = UINT64_MAX;
  GrB_Info info = dir_vxm(c->dir) ? K2_vxm(w, mask, accum, c->sr->s, u, c->m->A, desc)
                                  : K2_mxv(w, mask, accum, c->sr->s, c->m->A, u, desc);
  K2_Path path = K2_last_path();
  K2_Engine ran = K2_last_engine();
  bool pruned = k2_omp_pruned_expanded != UINT64_MAX;
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  st->products++;
  if (info != GrB_SUCCESS) {
    fprintf(stderr, "FAIL %s: %s returned %s: %s\n  %s\n", K2_engine_name(engine),
            dir_vxm(c->dir) ? "K2_vxm" : "K2_mxv", K2_info_name(info), K2_error_string(), text);
    return false;
  }
  if (path != K2_PATH_NATIVE_CPU || ran != engine) {
    fprintf(stderr, "FAIL %s: path %s on engine %s, expected the native CPU path on %s\n  %s\n",
            K2_engine_name(engine), K2_path_name(path), K2_engine_name(ran), K2_engine_name(engine), text);
    return false;
  }
  if (engine == K2_ENGINE_OPENMP) {
    st->pruned += pruned;
    st->sparse_expected += expect_pruned;
    // (a forced full traversal prunes nothing: k2_omp_traversal_forced)
    if (expect_pruned && !pruned && k2_omp_traversal_forced != 3) {
      fprintf(stderr, "FAIL OpenMP: few inputs or few allowed outputs, but no pruned traversal ran\n  %s\n", text);
      return false;
    }
  }
  return true;
}

// One case: u, mask and w0 given; the three runs and the comparisons. Returns failures.
static int run_case(const pcase *c, GrB_Vector u, GrB_Vector mask, GrB_Vector w0, stats *st) {
  char text[700], why[300];
  case_text(c, text, sizeof text);
  if (verbose()) fprintf(stderr, "case: %s\n", text);
  const tmat *m = c->m;
  const bool vxm = dir_vxm(c->dir), tran = dir_tran(c->dir), left = dir_left(c->dir);
  const GrB_Index ulen = left ? m->nr : m->nc, wlen = left ? m->nc : m->nr;
  const bool comp = c->mk == M_COMP_NONE || c->mk == M_COMP_VALUED || c->mk == M_COMP_STRUCT;
  const bool structure = c->mk == M_STRUCT || c->mk == M_COMP_STRUCT;
  GrB_BinaryOp accum = c->accum ? accum_of(c->wtype, c->accum == 1) : NULL;
  GrB_Descriptor desc = NULL;
  K2_ASSERT_OK(GrB_Descriptor_new(&desc));
  if (c->replace) K2_ASSERT_OK(GrB_Descriptor_set(desc, GrB_OUTP, GrB_REPLACE));
  if (comp || structure) {
    K2_ASSERT_OK(GxB_Desc_set(desc, GrB_MASK, (comp ? GrB_COMP : 0) + (structure ? GrB_STRUCTURE : 0)));
  }
  if (tran) K2_ASSERT_OK(GrB_Descriptor_set(desc, vxm ? GrB_INP1 : GrB_INP0, GrB_TRAN));

  GrB_Index unv = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&unv, u));
  const GrB_Index allowed = mask_allowed(mask, c->mk, wlen);
  // the engine picks the pruned traversal by its cost estimate; with at most 3 inputs or 3
  // allowed outputs on a matrix of 1000 or more rows it must (the estimate is a few stripes)
  const bool expect_pruned = (unv <= 3 && ulen >= 1000) || (allowed <= 3 && wlen >= 1000);

  GrB_Vector w_omp = NULL, w_ref = NULL, w_grb = NULL;
  K2_ASSERT_OK(GrB_Vector_dup(&w_omp, w0));
  K2_ASSERT_OK(GrB_Vector_dup(&w_ref, w0));
  K2_ASSERT_OK(GrB_Vector_dup(&w_grb, w0));
  int fails = 0;
  bool ok_omp = run_k2(c, K2_ENGINE_OPENMP, w_omp, mask, accum, u, desc, expect_pruned, st, text);
  bool ok_ref = c->no_ref || run_k2(c, K2_ENGINE_REFERENCE, w_ref, mask, accum, u, desc, false, st, text);
  fails += !ok_omp + !ok_ref;
  if (mask == NULL) {
    // no mask: GraphBLAS's own call, with the same accum and descriptor
    K2_ASSERT_OK(vxm ? GrB_vxm(w_grb, NULL, accum, c->sr->s, u, m->G, desc)
                     : GrB_mxv(w_grb, NULL, accum, c->sr->s, m->G, u, desc));
  } else {
    // with a mask, T unmasked and then the mask and accumulator (k2_grb_oracle.h says why)
    K2_ASSERT_OK(k2_oracle_grb_product(w_grb, mask, accum, c->sr->s, m->G, u, vxm, tran,
                                       c->replace, comp, structure));
  }

  // the ANY check's context
  double *ux = NULL, *wx = NULL;
  bool *up = NULL, *wp = NULL;
  any_ctx actx;
  memset(&actx, 0, sizeof actx);
  if (c->sr->any != A_NONE) {
    ux = calloc(ulen + 1, sizeof(double));
    up = calloc(ulen + 1, 1);
    wx = calloc(wlen + 1, sizeof(double));
    wp = calloc(wlen + 1, 1);
    assert_true(ux && up && wx && wp);
    GrB_Vector uT = NULL;
    K2_ASSERT_OK(GrB_Vector_new(&uT, c->sr->type, ulen));
    K2_ASSERT_OK(GrB_Vector_apply(uT, NULL, NULL, identity_of(c->sr->type), u, NULL));
    vector_dense(uT, ulen, ux, up);
    GrB_Vector_free(&uT);
    vector_dense(w0, wlen, wx, wp);
    actx = (any_ctx){c->sr, m, vxm, left, ux, up, cast_to(m->weight, c->sr->type), wx, wp,
                     c->accum == 1 && c->wtype != GrB_BOOL};
  }
  k2_value_allowed_fn allow = c->sr->any != A_NONE ? any_allowed : NULL;
  if (ok_omp && !k2_same_vector(w_omp, w_grb, 0, allow, &actx, why, sizeof why)) {
    fprintf(stderr, "FAIL OpenMP engine vs GraphBLAS: %s\n  %s\n", why, text);
    fails++;
  }
  if (ok_ref && !c->no_ref && !k2_same_vector(w_ref, w_grb, 0, allow, &actx, why, sizeof why)) {
    fprintf(stderr, "FAIL reference engine vs GraphBLAS: %s\n  %s\n", why, text);
    fails++;
  }
  free(ux);
  free(up);
  free(wx);
  free(wp);
  GrB_Vector_free(&w_omp);
  GrB_Vector_free(&w_ref);
  GrB_Vector_free(&w_grb);
  GrB_Descriptor_free(&desc);
  st->cases++;
  st->fails += fails;
  return fails;
}

// The inputs' counts: 0, 1, 3, n/2, n.
static GrB_Index input_count(int k, GrB_Index n) {
  switch (k) {
    case 0: return 0;
    case 1: return n > 0 ? 1 : 0;
    case 2: return n < 3 ? n : 3;
    case 3: return n / 2;
    default: return n;
  }
}

// The mask of case c (NULL for M_NONE and M_COMP_NONE): few (3 entries, one of them 0 in a
// valued mask), half (a quarter of them 0) or almost all (all but max(2, n/16), one 0).
static GrB_Vector make_mask(k2_rng *r, const pcase *c, GrB_Index n) {
  if (c->mk == M_NONE || c->mk == M_COMP_NONE) return NULL;
  GrB_Index count = c->md == MD_FEW ? (n < 3 ? n : 3) : c->md == MD_HALF ? n / 2
                                                       : n - (n / 16 > 2 ? n / 16 : 2);
  long zeros = c->md == MD_HALF ? (long)(count / 4) : 1;
  return make_vector(r, n, count, c->mtype, c->mbitmap, zeros);
}

// w before the call: about a tenth of its entries, held sparse or bitmap.
static GrB_Vector make_w(k2_rng *r, GrB_Type t, GrB_Index n, bool bitmap) {
  return make_vector(r, n, n / 10 + 1, t, bitmap, -1);
}

static GrB_Type mask_type(int k) {
  const GrB_Type t[] = {GrB_BOOL, GrB_INT32, GrB_FP64};
  return t[k % 3];
}

// The reference engine runs on every case of the tiny matrix and on one in ref_stride of the
// others (K2GRB_SPARSE_REF_STRIDE, default 2; 1: every case): it walks the whole tree, and on
// the large matrices it is most of the run time.
static uint64_t ref_stride(void) {
  static uint64_t v = 0;
  if (v == 0) {
    const char *e = getenv("K2GRB_SPARSE_REF_STRIDE");
    v = e && atoi(e) > 0 ? (uint64_t)atoi(e) : 2;
  }
  return v;
}

// Builds the vectors of case c and runs it.
static int run_built_case(pcase *c, stats *st) {
  // (a hash of the seed: the seeds of a loop's large-matrix cases may all share a residue)
  c->no_ref = c->m->nr * c->m->nc > 10000 &&
              ((c->seed * UINT64_C(0x9E3779B97F4A7C15)) >> 40) % ref_stride() != 0;
  k2_rng rng = {c->seed}, *r = &rng;
  const bool left = dir_left(c->dir);
  const GrB_Index ulen = left ? c->m->nr : c->m->nc, wlen = left ? c->m->nc : c->m->nr;
  GrB_Vector u = make_vector(r, ulen, c->ucount, c->utype, c->ubitmap, -1);
  GrB_Vector mask = make_mask(r, c, wlen);
  GrB_Vector w0 = make_w(r, c->wtype, wlen, k2_rng_below(r, 2));
  int f = run_case(c, u, mask, w0, st);
  GrB_Vector_free(&u);
  GrB_Vector_free(&mask);
  GrB_Vector_free(&w0);
  return f;
}

static void report(const char *what, const stats *st, double t0) {
  fprintf(stderr,
          "%s: %ld cases (%ld K2 products), %ld with a pruned OpenMP traversal (%ld expected), "
          "%d failures, %.1f s\n",
          what, st->cases, st->products, st->pruned, st->sparse_expected, st->fails,
          now_s() - t0);
}

//----------------------------------------------------------------------------------------------
// the tests
//----------------------------------------------------------------------------------------------

static int setup_group(void **state) {
  if (k2_test_setup(state) != 0) return -1;
  setup_semirings();
  setup_matrices();
  return 0;
}

static int teardown_group(void **state) {
  teardown_matrices();
  teardown_semirings();
  return k2_test_teardown(state);
}

// Every (input, mask, replace, accum) combination for six representative semirings: on the
// tiny matrix in each of A*u, A'*u and u'*A; on the two large ones, each combination once, the
// matrix and direction taking turns (six of them) from one combination to the next.
static void test_representative(void **state) {
  (void)state;
  const char *names[] = {"ANY_SECONDI_INT32", "ANY_PAIR_BOOL", "PLUS_TIMES_FP64",
                         "MIN_PLUS_INT64",    "LOR_LAND_BOOL", "MAX_FIRST_FP32"};
  stats st;
  memset(&st, 0, sizeof st);
  double t0 = now_s();
  uint64_t seed = 1000;
  for (size_t si = 0; si < sizeof names / sizeof names[0]; si++) {
    const sr_entry *sr = find_sr(names[si]);
    uint64_t turn = si;
    for (int ui = 0; ui < 10; ui++) {
      // masks: none, complement of none, then 4 kinds x 3 densities
      for (int mk = 0; mk < 14; mk++) {
        for (int ra = 0; ra < 4; ra++) {
          for (int run = 0; run < 4; run++) {
            pcase c;
            memset(&c, 0, sizeof c);
            c.sr = sr;
            if (run < 3) {  // tiny matrix, three directions
              c.m = &MATS[2];
              c.dir = (direction)run;
            } else {  // a large matrix, by turns
              c.m = &MATS[turn % 2];
              c.dir = (direction)((turn / 2) % 3);
              turn++;
            }
            GrB_Index ulen = dir_left(c.dir) ? c.m->nr : c.m->nc;
            c.ucount = input_count(ui / 2, ulen);
            c.ubitmap = ui % 2;
            c.utype = sr->type;
            c.mk = mk < 2 ? (mask_kind)mk : (mask_kind)(M_VALUED + (mk - 2) / 3);
            c.md = mk < 2 ? MD_FEW : (mask_density)((mk - 2) % 3);
            c.mbitmap = (ui + mk + ra + run) % 2;
            c.mtype = mask_type(ui + mk + run);
            c.replace = ra & 1;
            c.accum = (ra & 2) ? 1 + (int)((ui + mk + run) % 2) : 0;
            // ANY with values that vary: PLUS only, whose old value the check can take off
            if (sr->any != A_NONE && sr->any != A_PAIR && c.accum) c.accum = 1;
            c.wtype = sr->type;
            c.seed = seed++;
            run_built_case(&c, &st);
            if (st.fails >= 20) goto done;
          }
        }
      }
    }
  }
done:
  report("representative semirings, every combination", &st, t0);
  assert_int_equal(st.fails, 0);
}

// Every native semiring on six (input, mask, replace, accum) combinations, four directions.
static void all_semirings(const char *name) {
  struct {
    int ui;  // input_count index
    bool ubitmap;
    mask_kind mk;
    mask_density md;
    bool mbitmap, replace;
    int accum;
    bool wfp64;  // w of type FP64 (a typecast on the way out)
  } combos[] = {
      {1, false, M_NONE, MD_FEW, false, false, 0, false},
      {2, true, M_VALUED, MD_FEW, true, true, 0, false},
      {3, false, M_COMP_STRUCT, MD_ALMOST_ALL, false, false, 1, false},
      {4, true, M_STRUCT, MD_FEW, false, false, 0, true},
      {0, false, M_COMP_VALUED, MD_ALMOST_ALL, true, true, 2, false},
      {2, false, M_VALUED, MD_HALF, false, false, 1, true},
      {4, false, M_COMP_VALUED, MD_ALMOST_ALL, false, true, 0, false},
      {2, false, M_NONE, MD_FEW, false, false, 0, true},
  };
  const int ncombos = (int)(sizeof combos / sizeof combos[0]);
  stats st;
  memset(&st, 0, sizeof st);
  double t0 = now_s();
  uint64_t seed = 500000;
  for (int si = 0; si < n_sr; si++) {
    const sr_entry *sr = &SR[si];
    for (int k = 0; k < ncombos; k++) {
      for (int mi = 0; mi < n_mats; mi++) {
        for (int dd = 0; dd < 2; dd++) {
          // two of the four directions, by turns: every semiring meets all four
          const int d = (2 * (k + mi) + dd + si) % 4;
          pcase c;
          memset(&c, 0, sizeof c);
          c.sr = sr;
          c.m = &MATS[mi];
          c.dir = (direction)d;
          GrB_Index ulen = dir_left(c.dir) ? c.m->nr : c.m->nc;
          c.ucount = input_count(combos[k].ui, ulen);
          c.ubitmap = combos[k].ubitmap;
          // u of another type now and then: GraphBLAS's typecast into the semiring's type
          c.utype = (si + k + d) % 5 == 0 && sr->type != GrB_FP64 ? GrB_FP64 : sr->type;
          c.mk = combos[k].mk;
          c.md = combos[k].md;
          c.mbitmap = combos[k].mbitmap;
          c.mtype = mask_type(si + k);
          c.replace = combos[k].replace;
          // ANY: no accumulator but PLUS, whose old value the check can take off
          c.accum = sr->any != A_NONE && combos[k].accum == 2 ? 1 : combos[k].accum;
          c.wtype = combos[k].wfp64 && sr->any == A_NONE ? GrB_FP64 : sr->type;
          c.seed = seed++;
          run_built_case(&c, &st);
          if (st.fails >= 20) goto done;
        }
      }
    }
  }
done:
  report(name, &st, t0);
  assert_int_equal(st.fails, 0);
}

static void test_all_semirings(void **state) {
  (void)state;
  all_semirings("every native semiring");
}

// The same cases with each of the OpenMP engine's traversals of a single vector forced
// (k2_omp_traversal_forced): pruned (depth first, the mask as stripe summaries), the full
// traversal pruned by stripe summaries, and the full traversal.
static void test_forced_traversals(void **state) {
  (void)state;
  const char *names[] = {"", "every native semiring, pruned traversal forced",
                         "every native semiring, stripe-pruned full traversal forced",
                         "every native semiring, full traversal forced"};
  for (int forced = 1; forced <= 3; forced++) {
    k2_omp_traversal_forced = forced;
    all_semirings(names[forced]);
  }
  k2_omp_traversal_forced = 0;
}

// BFS steps in the aliased form: q<!visited, replace> = q*A (K2_vxm (q, visited, NULL, s, q, A,
// GrB_DESC_RSC)), then visited<q> = true. Each step runs on the OpenMP and the reference
// engines and on GraphBLAS from the same q; the OpenMP engine's q goes on.
static void test_bfs_aliased(void **state) {
  (void)state;
  const char *names[] = {"ANY_SECONDI_INT32", "ANY_PAIR_BOOL", "LOR_LAND_BOOL", "MIN_PLUS_INT64",
                         "ANY_FIRSTJ1_INT64", "PLUS_PAIR_FP64"};
  stats st;
  memset(&st, 0, sizeof st);
  double t0 = now_s();
  char why[300], text[400];
  for (size_t si = 0; si < sizeof names / sizeof names[0]; si++) {
    const sr_entry *sr = find_sr(names[si]);
    for (int mi = 0; mi < n_mats; mi++) {
      tmat *m = &MATS[mi];
      if (m->nr != m->nc) continue;  // q is input and output
      const GrB_Index n = m->nr;
      for (int variant = 0; variant < 4; variant++) {
        const bool vbitmap = variant & 1, mxv_form = variant & 2;
        k2_rng rng = {77 + si * 10 + (uint64_t)mi * 3 + (uint64_t)variant};
        GrB_Vector q = NULL, visited = NULL;
        K2_ASSERT_OK(GrB_Vector_new(&q, sr->type, n));
        K2_ASSERT_OK(GrB_Vector_new(&visited, GrB_BOOL, n));
        K2_ASSERT_OK(GxB_Vector_Option_set(visited, GxB_SPARSITY_CONTROL, sparsity_of(vbitmap)));
        // sources: one, or three
        int nsrc = variant == 3 ? 3 : 1;
        for (int k = 0; k < nsrc; k++) {
          GrB_Index src = k2_rng_below(&rng, n);
          K2_ASSERT_OK(GrB_Vector_setElement_FP64(q, sr->type == GrB_BOOL ? 1 : (double)(k + 1), src));
          K2_ASSERT_OK(GrB_Vector_setElement_BOOL(visited, true, src));
        }
        K2_ASSERT_OK(GrB_Vector_wait(q, GrB_MATERIALIZE));
        K2_ASSERT_OK(GrB_Vector_wait(visited, GrB_MATERIALIZE));
        for (int level = 0; level < 200; level++) {
          GrB_Index qn = 0;
          K2_ASSERT_OK(GrB_Vector_nvals(&qn, q));
          if (qn == 0) break;
          // the ANY check from this q
          double *ux = calloc(n + 1, sizeof(double));
          bool *up = calloc(n + 1, 1);
          assert_true(ux && up);
          vector_dense(q, n, ux, up);
          // both forms are left products (q' A, and A' q)
          any_ctx actx = {sr, m, !mxv_form, true, ux, up, cast_to(m->weight, sr->type), NULL,
                          NULL, false};
          GrB_Vector qr = NULL, qg = NULL;
          K2_ASSERT_OK(GrB_Vector_dup(&qr, q));
          K2_ASSERT_OK(GrB_Vector_dup(&qg, q));
          snprintf(text, sizeof text, "BFS %s, %s, A %s, level %d, frontier %llu, visited %s, %d sources",
                   sr->name, mxv_form ? "K2_mxv (q, visited, NULL, s, A, q, RSC + T0)"
                                      : "K2_vxm (q, visited, NULL, s, q, A, RSC)",
                   m->name, level, (unsigned long long)qn, vbitmap ? "bitmap" : "sparse", nsrc);
          if (verbose()) fprintf(stderr, "case: %s\n", text);
          GrB_Vector outs[2] = {q, qr};
          K2_Engine engines[2] = {K2_ENGINE_OPENMP, K2_ENGINE_REFERENCE};
          bool ok[2];
          for (int e = 0; e < 2; e++) {
            K2_ASSERT_OK(K2_set_engine(engines[e]));
            k2_omp_pruned_expanded = UINT64_MAX;
            GrB_Vector o = outs[e];
            GrB_Info info = mxv_form ? K2_mxv(o, visited, NULL, sr->s, m->A, o, GrB_DESC_RSCT0)
                                     : K2_vxm(o, visited, NULL, sr->s, o, m->A, GrB_DESC_RSC);
            K2_Path path = K2_last_path();
            bool pruned = k2_omp_pruned_expanded != UINT64_MAX;
            K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
            st.products++;
            ok[e] = info == GrB_SUCCESS && path == K2_PATH_NATIVE_CPU;
            if (!ok[e]) {
              fprintf(stderr, "FAIL %s: %s, path %s: %s\n  %s\n", K2_engine_name(engines[e]),
                      K2_info_name(info), K2_path_name(path), K2_error_string(), text);
              st.fails++;
            }
            if (e == 0 && qn <= 3 && n >= 1000) {
              st.sparse_expected++;
              st.pruned += pruned;
              if (!pruned) {
                fprintf(stderr, "FAIL OpenMP: a frontier of %llu, but no pruned traversal ran\n  %s\n",
                        (unsigned long long)qn, text);
                st.fails++;
              }
            }
          }
          K2_ASSERT_OK(k2_oracle_grb_product(qg, visited, NULL, sr->s, m->G, qg, !mxv_form, mxv_form,
                                             true, true, true));
          k2_value_allowed_fn allow = sr->any != A_NONE ? any_allowed : NULL;
          for (int e = 0; e < 2; e++) {
            if (ok[e] && !k2_same_vector(outs[e], qg, 0, allow, &actx, why, sizeof why)) {
              fprintf(stderr, "FAIL %s vs GraphBLAS: %s\n  %s\n", K2_engine_name(engines[e]), why, text);
              st.fails++;
            }
          }
          st.cases++;
          free(ux);
          free(up);
          GrB_Vector_free(&qr);
          GrB_Vector_free(&qg);
          if (st.fails >= 20) break;
          // visited<q, struct> = true
          K2_ASSERT_OK(GrB_Vector_assign_BOOL(visited, q, NULL, true, GrB_ALL, n, GrB_DESC_S));
        }
        GrB_Vector_free(&q);
        GrB_Vector_free(&visited);
      }
    }
  }
  report("aliased BFS steps", &st, t0);
  assert_int_equal(st.fails, 0);
}

// A plain product w = A*u (or u'*A) on the OpenMP engine against GraphBLAS; failures counted.
static int check_plain(const sr_entry *sr, tmat *m, direction d, GrB_Index ucount, bool ubitmap,
                       uint64_t seed, const char *when, stats *st) {
  pcase c;
  memset(&c, 0, sizeof c);
  c.sr = sr;
  c.m = m;
  c.dir = d;
  c.ucount = ucount;
  c.ubitmap = ubitmap;
  c.utype = sr->type;
  c.mk = M_NONE;
  c.wtype = sr->type;
  c.seed = seed;
  int f = run_built_case(&c, st);
  if (f) fprintf(stderr, "  (%s)\n", when);
  return f;
}

// After sparse products, a failed one and dense ones on the same thread, the workspace's arrays
// still hold their invariants (presence bytes all zero between calls): every later result right.
static void test_workspace_invariants(void **state) {
  (void)state;
  stats st;
  memset(&st, 0, sizeof st);
  double t0 = now_s();
  const sr_entry *plus = find_sr("PLUS_TIMES_FP64"), *lor = find_sr("LOR_LAND_BOOL"),
                 *anyi = find_sr("ANY_SECONDI_INT64"), *minp = find_sr("MIN_PLUS_INT32");
  tmat *sq = &MATS[0], *rect = &MATS[1], *tiny = &MATS[2];
  uint64_t seed = 900000;
  int f = 0;
  // 1. sparse products of every size, interleaved with dense ones, on the three matrices
  const sr_entry *srs[] = {plus, lor, anyi, minp};
  for (int round = 0; round < 3; round++) {
    for (int k = 0; k < 4; k++) {
      f += check_plain(srs[k], sq, D_MXV, 3, k % 2, seed++, "sparse, square", &st);
      f += check_plain(srs[k], rect, D_VXM, 1, false, seed++, "sparse, rect, vxm (long output)", &st);
      f += check_plain(srs[k], rect, D_MXV, 3, true, seed++, "sparse, rect, mxv (long input)", &st);
      f += check_plain(srs[k], sq, D_MXV, sq->nc, k % 2, seed++, "dense after sparse", &st);
      f += check_plain(srs[k], tiny, D_VXM, 2, false, seed++, "sparse, tiny", &st);
      f += check_plain(srs[k], rect, D_VXM_T, rect->nc, false, seed++, "dense, rect", &st);
      f += check_plain(srs[k], sq, D_VXM, 0, false, seed++, "empty input", &st);
    }
  }
  // 2. failed products between them: a dimension mismatch, a domain mismatch
  {
    GrB_Vector u = NULL, w = NULL, ubad = NULL;
    K2_ASSERT_OK(GrB_Vector_new(&u, GrB_FP64, sq->nc));
    K2_ASSERT_OK(GrB_Vector_setElement_FP64(u, 1.5, 17));
    K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP64, sq->nr + 1));  // wrong size
    K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
    GrB_Info info = K2_mxv(w, NULL, NULL, plus->s, sq->A, u, NULL);
    if (info != GrB_DIMENSION_MISMATCH) {
      fprintf(stderr, "FAIL: w of the wrong size gave %s, expected GrB_DIMENSION_MISMATCH\n", K2_info_name(info));
      f++;
    }
    K2_ASSERT_OK(GrB_Vector_new(&ubad, GrB_FP64, sq->nc + 3));
    K2_ASSERT_OK(GrB_Vector_setElement_FP64(ubad, 1.5, 2));
    GrB_Vector_free(&w);
    K2_ASSERT_OK(GrB_Vector_new(&w, GrB_FP64, sq->nr));
    info = K2_mxv(w, NULL, NULL, plus->s, sq->A, ubad, NULL);
    if (info != GrB_DIMENSION_MISMATCH) {
      fprintf(stderr, "FAIL: u of the wrong size gave %s, expected GrB_DIMENSION_MISMATCH\n", K2_info_name(info));
      f++;
    }
    K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
    f += check_plain(plus, sq, D_MXV, 3, false, seed++, "sparse after a failed product", &st);
    f += check_plain(plus, sq, D_MXV, sq->nc, true, seed++, "dense after a failed product", &st);
    f += check_plain(lor, rect, D_VXM, 2, false, seed++, "sparse after a failed product", &st);
    GrB_Vector_free(&u);
    GrB_Vector_free(&w);
    GrB_Vector_free(&ubad);
  }
  // 3. every allocation of a sparse product failing in turn (k2_alloc's hook): each failure is
  // an error that leaves w as it was, or a success with the right answer; then sparse and dense
  // products are right again
  {
    const direction dirs[] = {D_MXV, D_VXM};
    for (int di = 0; di < 2; di++) {
      for (int masked = 0; masked < 2; masked++) {
        k2_rng rng = {seed++};
        const direction d = dirs[di];
        tmat *m = rect;
        const GrB_Index ulen = dir_left(d) ? m->nr : m->nc, wlen = dir_left(d) ? m->nc : m->nr;
        GrB_Vector u = make_vector(&rng, ulen, 3, GrB_FP64, false, -1);
        GrB_Vector w0 = make_w(&rng, GrB_FP64, wlen, false);
        GrB_Vector mask = masked ? make_vector(&rng, wlen, wlen / 2, GrB_BOOL, true, 0) : NULL;
        GrB_Vector expect = NULL;
        K2_ASSERT_OK(GrB_Vector_dup(&expect, w0));
        K2_ASSERT_OK(k2_oracle_grb_product(expect, mask, NULL, plus->s, m->G, u, d == D_VXM, false,
                                           false, false, false));
        // count the allocations of one such product (the workspace already holds its arrays
        // after the first; a fresh thread's first product allocates them: also counted here)
        K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
        GrB_Vector w = NULL;
        K2_ASSERT_OK(GrB_Vector_dup(&w, w0));
        k2_alloc_count_start();
        K2_ASSERT_OK(d == D_VXM ? K2_vxm(w, mask, NULL, plus->s, u, m->A, NULL)
                                : K2_mxv(w, mask, NULL, plus->s, m->A, u, NULL));
        uint64_t calls = k2_alloc_count();
        k2_alloc_disarm();
        GrB_Vector_free(&w);
        long failed = 0;
        for (uint64_t nth = 1; nth <= calls + 1; nth++) {
          K2_ASSERT_OK(GrB_Vector_dup(&w, w0));
          k2_alloc_fail_nth(nth);
          GrB_Info info = d == D_VXM ? K2_vxm(w, mask, NULL, plus->s, u, m->A, NULL)
                                     : K2_mxv(w, mask, NULL, plus->s, m->A, u, NULL);
          k2_alloc_disarm();
          char why[300];
          if (info == GrB_SUCCESS) {
            if (!k2_same_vector(w, expect, 0, NULL, NULL, why, sizeof why)) {
              fprintf(stderr, "FAIL: allocation %llu of %llu failed, the product succeeded but: %s (%s, mask %d)\n",
                      (unsigned long long)nth, (unsigned long long)calls, why, DIR_NAME[d], masked);
              f++;
            }
          } else {
            failed++;
            if (info != GrB_OUT_OF_MEMORY) {
              fprintf(stderr, "FAIL: allocation %llu failed: %s, expected GrB_OUT_OF_MEMORY\n",
                      (unsigned long long)nth, K2_info_name(info));
              f++;
            }
            if (!k2_same_vector(w, w0, 0, NULL, NULL, why, sizeof why)) {
              fprintf(stderr, "FAIL: allocation %llu failed and w changed: %s (%s)\n",
                      (unsigned long long)nth, why, DIR_NAME[d]);
              f++;
            }
          }
          GrB_Vector_free(&w);
          // the next products on this thread are right
          K2_ASSERT_OK(GrB_Vector_dup(&w, w0));
          K2_ASSERT_OK(d == D_VXM ? K2_vxm(w, mask, NULL, plus->s, u, m->A, NULL)
                                  : K2_mxv(w, mask, NULL, plus->s, m->A, u, NULL));
          if (!k2_same_vector(w, expect, 0, NULL, NULL, why, sizeof why)) {
            fprintf(stderr, "FAIL: after allocation %llu failed, the same product: %s (%s, mask %d)\n",
                    (unsigned long long)nth, why, DIR_NAME[d], masked);
            f++;
          }
          GrB_Vector_free(&w);
          K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
          if (nth % 4 == 1) {
            f += check_plain(plus, m, d, m->nr, false, seed++, "dense after an allocation failure", &st);
            f += check_plain(lor, sq, D_VXM, 1, true, seed++, "sparse after an allocation failure", &st);
          }
          K2_ASSERT_OK(K2_set_engine(K2_ENGINE_OPENMP));
        }
        K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
        fprintf(stderr, "allocation failures: %s, mask %d: %llu allocations, %ld failed products\n",
                DIR_NAME[d], masked, (unsigned long long)calls, failed);
        GrB_Vector_free(&u);
        GrB_Vector_free(&w0);
        GrB_Vector_free(&mask);
        GrB_Vector_free(&expect);
      }
    }
  }
  // 4. and once more, every kind on every matrix
  for (int k = 0; k < 4; k++) {
    f += check_plain(srs[k], sq, D_VXM, 3, false, seed++, "final sparse", &st);
    f += check_plain(srs[k], rect, D_MXV_T, rect->nr, true, seed++, "final dense", &st);
    f += check_plain(srs[k], tiny, D_MXV, 1, true, seed++, "final sparse, tiny", &st);
  }
  report("workspace invariants", &st, t0);
  assert_int_equal(f, 0);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_workspace_invariants),
      cmocka_unit_test(test_bfs_aliased),
      cmocka_unit_test(test_all_semirings),
      cmocka_unit_test(test_forced_traversals),
      cmocka_unit_test(test_representative),
  };
  return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
