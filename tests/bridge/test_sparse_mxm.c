// test_sparse_mxm.c: K2_mxm / K2_mxm_right with a B that misses entries (the sparse form)
// against SuiteSparse and the reference engine.
// SPDX-License-Identifier: Apache-2.0
//
// B of 2, 16 or 64 vectors, each with 0, 1, a few, half or all of its entries (false values
// included), masks none, valued, structural, complemented structural (held as a bitmap, which
// the bridge reads in place, or as sparse storage), with and without replace and an
// accumulator, A*B, A'*B and B*A, on LOR_LAND_BOOL (msBFS) and PLUS_TIMES_FP64 (small integers:
// exact sums). Each product runs on the OpenMP engine and on the reference engine, and must
// equal GraphBLAS's on an independently built GrB_Matrix (T = A*B unmasked by GrB_mxm, then
// C<M> = accum (C, T) by GrB_assign: the C API's definition), entry for entry, on the native
// CPU path; where B's entries sit at a few indices the OpenMP engine must have pruned.
#include "k2_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/k2_omp_plan.h"  // k2_omp_pruned_expanded
#include "k2_grb_oracle.h"
#include "k2_oracle.h"

typedef struct {
  GrB_Index i, j;
  double v;
} tuple;

static int tuple_cmp(const void *a, const void *b) {
  const tuple *x = a, *y = b;
  if (x->i != y->i) return x->i < y->i ? -1 : 1;
  return x->j < y->j ? -1 : x->j > y->j;
}

static tuple *tuples(GrB_Matrix C, GrB_Index *n) {
  K2_ASSERT_OK(GrB_Matrix_nvals(n, C));
  GrB_Index *I = malloc((*n + 1) * sizeof *I), *J = malloc((*n + 1) * sizeof *J);
  double *X = malloc((*n + 1) * sizeof *X);
  tuple *t = malloc((*n + 1) * sizeof *t);
  assert_true(I && J && X && t);
  GrB_Index got = *n;
  K2_ASSERT_OK(GrB_Matrix_extractTuples_FP64(I, J, X, &got, C));
  for (GrB_Index k = 0; k < got; k++) t[k] = (tuple){I[k], J[k], X[k]};
  qsort(t, got, sizeof *t, tuple_cmp);
  free(I);
  free(J);
  free(X);
  return t;
}

static bool same_matrix(GrB_Matrix a, GrB_Matrix b, char *why, size_t len) {
  GrB_Index na, nb;
  tuple *ta = tuples(a, &na), *tb = tuples(b, &nb);
  bool ok = na == nb;
  if (!ok) snprintf(why, len, "nvals %llu (k2) vs %llu (GraphBLAS)", (unsigned long long)na, (unsigned long long)nb);
  for (GrB_Index k = 0; ok && k < na; k++) {
    if (ta[k].i != tb[k].i || ta[k].j != tb[k].j || ta[k].v != tb[k].v) {
      snprintf(why, len, "entry %llu: (%llu, %llu) = %g (k2) vs (%llu, %llu) = %g (GraphBLAS)",
               (unsigned long long)k, (unsigned long long)ta[k].i, (unsigned long long)ta[k].j, ta[k].v,
               (unsigned long long)tb[k].i, (unsigned long long)tb[k].j, tb[k].v);
      ok = false;
    }
  }
  free(ta);
  free(tb);
  return ok;
}

enum { M_NONE, M_VALUED, M_STRUCT, M_COMP_BITMAP, M_COMP_SPARSE, M_KINDS };
static const char *mask_name[] = {"none", "valued", "structural", "complemented structural (bitmap)",
                                  "complemented structural (sparse)"};

static void test_sparse_batches(void **state) {
  (void)state;
  const GrB_Index n = 2000;
  k2_rng rng = {31};
  k2_coo_list L;
  k2_coo_random(&L, n, n, 24000, &rng);
  K2_Matrix A = k2_test_matrix(&L, NULL);
  GrB_Index *I = malloc(L.nvals * sizeof *I), *J = malloc(L.nvals * sizeof *J);
  assert_true(I && J);
  for (uint64_t k = 0; k < L.nvals; k++) {
    I[k] = L.I[k];
    J[k] = L.J[k];
  }
  GrB_Matrix G = k2_oracle_grb_matrix(n, n, I, J, L.nvals, 1.0);
  const GrB_Index batches[] = {2, 16, 64};
  const GrB_Index counts[] = {0, 1, 6, n / 2, n};
  GrB_Semiring srs[] = {GrB_LOR_LAND_SEMIRING_BOOL, GrB_PLUS_TIMES_SEMIRING_FP64};
  GrB_Type types[] = {GrB_BOOL, GrB_FP64};
  char text[300], why[300];
  long cases = 0, pruned_cases = 0, fails = 0;
  for (size_t bi = 0; bi < 3; bi++) {
    const GrB_Index nb = batches[bi];
    for (size_t ci = 0; ci < 5; ci++)
      for (int dir = 0; dir < 3; dir++)  // A*B, A'*B, B*A
        for (int mk = 0; mk < M_KINDS; mk++)
          for (int si = 0; si < 2; si++) {
            const bool k2_first = dir < 2, tran = dir == 1;
            // B: n x nb (A first) or nb x n (A second); vector b holds counts[(ci + b) % 5]
            // entries for every other b (mixed batches, from a few entries up), counts[ci] for
            // the rest
            GrB_Matrix B = NULL, M = NULL, C1 = NULL, C2 = NULL, C3 = NULL, T = NULL;
            const GrB_Index br = k2_first ? n : nb, bc = k2_first ? nb : n;
            K2_ASSERT_OK(GrB_Matrix_new(&B, types[si], br, bc));
            for (GrB_Index b = 0; b < nb; b++) {
              const GrB_Index cnt = counts[b % 2 && ci >= 2 ? (ci + b) % 5 : ci];
              for (GrB_Index k = 0; k < cnt; k++) {
                const GrB_Index i = cnt == n ? k : k2_rng_below(&rng, n);
                const double v = si == 0 ? (double)(k2_rng_below(&rng, 3) != 0) : (double)k2_rng_below(&rng, 7) - 3;
                K2_ASSERT_OK(GrB_Matrix_setElement_FP64(B, v, k2_first ? i : b, k2_first ? b : i));
              }
            }
            K2_ASSERT_OK(GrB_wait(B, GrB_MATERIALIZE));
            const GrB_Index cr = k2_first ? n : nb, cc = k2_first ? nb : n;
            if (mk != M_NONE) {
              K2_ASSERT_OK(GrB_Matrix_new(&M, mk == M_VALUED ? GrB_BOOL : GrB_INT32, cr, cc));
              const GrB_Index mn = k2_rng_below(&rng, 2) ? cr * cc / 8 : cr * cc * 7 / 8;
              for (GrB_Index k = 0; k < mn; k++) {
                K2_ASSERT_OK(GrB_Matrix_setElement_INT32(M, (int32_t)k2_rng_below(&rng, 2),
                                                         k2_rng_below(&rng, cr), k2_rng_below(&rng, cc)));
              }
              // the bitmap in C's order is the one the bridge reads in place
              if (mk == M_COMP_BITMAP) {
                K2_ASSERT_OK(GxB_Matrix_Option_set(M, GxB_FORMAT, k2_first ? GxB_BY_ROW : GxB_BY_COL));
                K2_ASSERT_OK(GxB_Matrix_Option_set(M, GxB_SPARSITY_CONTROL, GxB_BITMAP));
              } else if (mk == M_COMP_SPARSE) {
                K2_ASSERT_OK(GxB_Matrix_Option_set(M, GxB_SPARSITY_CONTROL, GxB_SPARSE));
              }
              K2_ASSERT_OK(GrB_wait(M, GrB_MATERIALIZE));
            }
            const bool replace = k2_rng_below(&rng, 2), accum = k2_rng_below(&rng, 4) == 0;
            const bool comp = mk == M_COMP_BITMAP || mk == M_COMP_SPARSE, structure = mk != M_VALUED;
            GrB_Descriptor d = NULL;
            K2_ASSERT_OK(GrB_Descriptor_new(&d));
            if (replace) K2_ASSERT_OK(GrB_Descriptor_set(d, GrB_OUTP, GrB_REPLACE));
            if (comp) K2_ASSERT_OK(GrB_Descriptor_set(d, GrB_MASK, GrB_COMP));
            if (structure && mk != M_NONE) K2_ASSERT_OK(GrB_Descriptor_set(d, GrB_MASK, GrB_STRUCTURE));
            GrB_Descriptor da = NULL;  // the assign's: the same without the transpose
            K2_ASSERT_OK(GrB_Descriptor_new(&da));
            if (replace) K2_ASSERT_OK(GrB_Descriptor_set(da, GrB_OUTP, GrB_REPLACE));
            if (comp) K2_ASSERT_OK(GrB_Descriptor_set(da, GrB_MASK, GrB_COMP));
            if (structure && mk != M_NONE) K2_ASSERT_OK(GrB_Descriptor_set(da, GrB_MASK, GrB_STRUCTURE));
            if (tran) K2_ASSERT_OK(GrB_Descriptor_set(d, GrB_INP0, GrB_TRAN));
            GrB_BinaryOp acc = !accum ? NULL : si == 0 ? GrB_LOR : GrB_PLUS_FP64;
            // C starts with a few entries, so that replace, the mask and accum all matter
            K2_ASSERT_OK(GrB_Matrix_new(&C1, types[si], cr, cc));
            for (int k = 0; k < 40; k++) {
              K2_ASSERT_OK(GrB_Matrix_setElement_FP64(C1, 1, k2_rng_below(&rng, cr), k2_rng_below(&rng, cc)));
            }
            K2_ASSERT_OK(GrB_Matrix_dup(&C2, C1));
            K2_ASSERT_OK(GrB_Matrix_dup(&C3, C1));
            snprintf(text, sizeof text, "%s, batch %llu, %llu entries per vector, %s, mask %s, replace %d, accum %d, %s",
                     dir == 0 ? "A*B" : dir == 1 ? "A'*B" : "B*A", (unsigned long long)nb,
                     (unsigned long long)counts[ci], si == 0 ? "LOR_LAND_BOOL" : "PLUS_TIMES_FP64",
                     mask_name[mk], replace, accum, "");
            // the oracle: T unmasked, then C<M> = accum (C, T)
            K2_ASSERT_OK(GrB_Matrix_new(&T, types[si], cr, cc));
            K2_ASSERT_OK(k2_first ? GrB_mxm(T, NULL, NULL, srs[si], G, B, tran ? GrB_DESC_T0 : NULL)
                                  : GrB_mxm(T, NULL, NULL, srs[si], B, G, NULL));
            K2_ASSERT_OK(GrB_Matrix_assign(C3, M, acc, T, GrB_ALL, cr, GrB_ALL, cc, da));
            for (int e = 0; e < 2; e++) {
              GrB_Matrix C = e == 0 ? C1 : C2;
              K2_ASSERT_OK(K2_set_engine(e == 0 ? K2_ENGINE_OPENMP : K2_ENGINE_REFERENCE));
              k2_omp_pruned_expanded = UINT64_MAX;
              GrB_Info info = k2_first ? K2_mxm(C, M, acc, srs[si], A, B, d) : K2_mxm_right(C, M, acc, srs[si], B, A, d);
              const bool pruned = k2_omp_pruned_expanded != UINT64_MAX;
              K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
              if (info != GrB_SUCCESS || K2_last_path() != K2_PATH_NATIVE_CPU) {
                fprintf(stderr, "FAIL %s: %s, path %s\n  %s\n", e ? "reference" : "openmp", K2_info_name(info),
                        K2_path_name(K2_last_path()), text);
                fails++;
                continue;
              }
              if (!same_matrix(C, C3, why, sizeof why)) {
                fprintf(stderr, "FAIL %s: %s\n  %s\n", e ? "reference" : "openmp", why, text);
                fails++;
              }
              // B at a few indices (every vector at most one entry: at most 16 of 2000)
              if (e == 0 && counts[ci] <= 1 && nb <= 16 && mk == M_NONE) {
                if (!pruned) {
                  fprintf(stderr, "FAIL openmp: not pruned\n  %s\n", text);
                  fails++;
                }
              }
              if (e == 0) pruned_cases += pruned;
            }
            cases++;
            GrB_Descriptor_free(&d);
            GrB_Descriptor_free(&da);
            GrB_Matrix_free(&B);
            GrB_Matrix_free(&M);
            GrB_Matrix_free(&C1);
            GrB_Matrix_free(&C2);
            GrB_Matrix_free(&C3);
            GrB_Matrix_free(&T);
          }
  }
  print_message("sparse batches: %ld products on two engines equal to GraphBLAS's (%ld pruned on the "
                "OpenMP engine)\n", cases, pruned_cases);
  assert_int_equal(fails, 0);
  assert_true(pruned_cases > 0);
  free(I);
  free(J);
  GrB_Matrix_free(&G);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  k2_coo_free(&L);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sparse_batches),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
