// test_leaf_codes.c: compressed leaves (K2_Format.compress_leaves) against plain leaves.
// SPDX-License-Identifier: Apache-2.0
//
// test_same_pattern: random matrices (4x4 and 8x8 leaves, odd shapes, empty, one pattern),
// compressed and plain: the same tuples, entries, neighbours, equality both ways, copies, edits.
// test_decoder: k2_leafc_plain (what the CUDA engine uploads) gives the plain tree's leaves, and
// the products' cursor (k2_leafc_seek / k2_leafc_next) reads what random access reads.
// test_products: every native semiring, A*u, A'*u and u'*A, dense and sparse u, on the
// reference and OpenMP engines: the compressed tree gives exactly the plain tree's result
// (random entries; skewed 4x4 blocks whose codes take three DAC levels or more, or one).
// test_roundtrip: .k2 images: version 3 with compressed leaves, version 2 without; both read
// back equal; an image of a version above 4 is refused as newer.
// test_corrupt: damaged leaf_codes sections (header words, samples, codes, padding), version
// and flag mismatches: refused with GrB_INVALID_OBJECT, never a crash.
// test_web_sizes: the bits per edge of cnr-2000 and uk-2007-05@100000 (data folder; skipped
// without it) with compressed 4x4 leaves, and a product on each against the plain tree.

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "k2_image.h"
#include "k2_native_semirings.h"
#include "k2_oracle.h"
#include "matrix/k2_matrix.h"

static K2_Matrix build(const k2_coo_list *L, uint32_t leaf_log, bool compress) {
  K2_Format f;
  K2_Format_default(&f);
  f.leaf_log = leaf_log;
  f.compress_leaves = compress;
  return k2_test_matrix(L, &f);
}

static void assert_equal_matrices(K2_Matrix A, K2_Matrix B) {
  bool eq = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_true(eq);
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, B, A));
  assert_true(eq);
}

// Whether a tree with these plain leaves is stored with compressed ones: only where the codes
// take fewer words than the bitmaps.
static bool codes_pay(const k2_tree *plain) {
  uint64_t *codes = NULL, words = 0;
  K2_ASSERT_OK(k2_leafc_encode(&codes, &words, plain->leaves, plain->n_leaves, 1u << (2 * plain->leaf_log)));
  const bool pays = codes != NULL && words < k2_tree_plain_leaf_words(plain->n_leaves, plain->leaf_log);
  free(codes);
  return pays;
}

static void check_same(const k2_coo_list *L, uint32_t leaf_log, k2_rng *rng) {
  K2_Matrix P = build(L, leaf_log, false), C = build(L, leaf_log, true);
  k2_coo_list canon = *L;
  k2_coo_alloc(&canon, L->nrows, L->ncols, L->nvals);
  memcpy(canon.I, L->I, L->nvals * 4);
  memcpy(canon.J, L->J, L->nvals * 4);
  canon.nvals = L->nvals;
  k2_coo_canonical(&canon);
  k2_assert_same_pattern(C, &canon);
  assert_equal_matrices(P, C);
  K2_MemoryUsage u;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&u, C));
  // compressed where that is smaller, else the plain bitmaps: never larger than the plain tree
  const bool pays = codes_pay(&P->tree);
  assert_int_equal(C->tree.leaf_codes != NULL, pays);
  if (pays) assert_true(u.leaf_patterns > 0 && u.leaf_vocabulary > 0);
  assert_true(k2_tree_core_bytes(&C->tree) <= k2_tree_core_bytes(&P->tree));
  // single entries and neighbours
  for (int k = 0; k < 200; k++) {
    uint64_t i = k2_rng_below(rng, L->nrows), j = k2_rng_below(rng, L->ncols);
    if (k % 2 == 0 && canon.nvals > 0) {
      uint64_t e = k2_rng_below(rng, canon.nvals);
      i = canon.I[e];
      j = canon.J[e];
    }
    bool a = false, b = false;
    K2_ASSERT_OK(K2_Matrix_isEntry(&a, P, i, j));
    K2_ASSERT_OK(K2_Matrix_isEntry(&b, C, i, j));
    assert_int_equal(a, b);
    GrB_Index ca = 0, cb = 0;
    K2_ASSERT_OK(K2_Matrix_rowNeighbors(NULL, &ca, P, i));
    K2_ASSERT_OK(K2_Matrix_rowNeighbors(NULL, &cb, C, i));
    assert_int_equal(ca, cb);
    K2_ASSERT_OK(K2_Matrix_colNeighbors(NULL, &ca, P, j));
    K2_ASSERT_OK(K2_Matrix_colNeighbors(NULL, &cb, C, j));
    assert_int_equal(ca, cb);
  }
  // a copy, and edits (the tree is rebuilt compressed)
  K2_Matrix D = NULL;
  K2_ASSERT_OK(K2_Matrix_dup(&D, C));
  assert_equal_matrices(D, P);
  for (int k = 0; k < 50; k++) {
    uint64_t i = k2_rng_below(rng, L->nrows), j = k2_rng_below(rng, L->ncols);
    if (k % 3 == 0) {
      K2_ASSERT_OK(K2_Matrix_removeElement(D, i, j));
      K2_ASSERT_OK(K2_Matrix_removeElement(P, i, j));
    } else {
      K2_ASSERT_OK(K2_Matrix_setElement(D, i, j));
      K2_ASSERT_OK(K2_Matrix_setElement(P, i, j));
    }
  }
  K2_ASSERT_OK(K2_Matrix_wait(D));
  K2_ASSERT_OK(K2_Matrix_wait(P));
  assert_int_equal(D->tree.leaf_codes != NULL, codes_pay(&P->tree));
  assert_equal_matrices(D, P);
  K2_Matrix_free(&D);
  K2_Matrix_free(&P);
  K2_Matrix_free(&C);
  k2_coo_free(&canon);
}

static void test_same_pattern(void **state) {
  (void)state;
  k2_rng rng = {42};
  const struct {
    uint64_t nr, nc, nv;
  } shapes[] = {{1, 1, 1}, {5, 7, 0}, {37, 37, 400}, {1000, 1000, 20000}, {3000, 700, 5000},
                {4096, 4096, 100000}, {70000, 70000, 300000}};
  for (uint32_t leaf_log = 2; leaf_log <= 3; leaf_log++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      k2_coo_list L;
      k2_coo_random(&L, shapes[s].nr, shapes[s].nc, shapes[s].nv, &rng);
      check_same(&L, leaf_log, &rng);
      k2_coo_free(&L);
    }
  // one pattern only: every leaf full
  k2_coo_list L;
  k2_coo_alloc(&L, 64, 64, 64 * 64);
  for (uint64_t k = 0; k < 64 * 64; k++) {
    L.I[k] = (uint32_t)(k / 64);
    L.J[k] = (uint32_t)(k % 64);
  }
  L.nvals = 64 * 64;
  check_same(&L, 2, &rng);
  check_same(&L, 3, &rng);
  k2_coo_free(&L);
  // compressed 2x2 leaves are refused
  K2_Format f;
  K2_Format_default(&f);
  f.compress_leaves = true;
  K2_Matrix A = NULL;
  assert_int_equal(K2_Matrix_new_format(&A, 10, 10, &f), GrB_INVALID_VALUE);
  assert_null(A);
}

static void test_decoder(void **state) {
  (void)state;
  k2_rng rng = {7};
  for (uint32_t leaf_log = 2; leaf_log <= 3; leaf_log++) {
    k2_coo_list L;
    k2_coo_random(&L, 20000, 20000, 150000, &rng);
    K2_Matrix P = build(&L, leaf_log, false), C = build(&L, leaf_log, true);
    assert_null(C->tree.leaves);
    assert_non_null(C->tree.leaf_codes);
    uint64_t *plain = k2_leafc_plain(&C->tree.lc);
    assert_non_null(plain);
    const uint64_t words = k2_tree_plain_leaf_words(P->tree.n_leaves, leaf_log);
    assert_int_equal(k2_tree_leaf_words(&P->tree), words);
    assert_memory_equal(plain, P->tree.leaves, words * 8);
    free(plain);
    // the cursor of the products: runs from random leaves read what random access reads
    k2_view v;
    k2_tree_view(&v, &P->tree, 1);
    for (int run = 0; run < 200; run++) {
      uint64_t q = run == 0 ? 0 : run == 1 ? v.n_leaves - 1 : k2_rng_below(&rng, v.n_leaves);
      const uint64_t end = run == 0 ? v.n_leaves : q + 2000;
      k2_leafc_cursor cur;
      k2_leafc_seek(&cur, &C->tree.lc, q);
      for (; q < v.n_leaves && q < end; q++)
        assert_int_equal(k2_leafc_next(&cur), k2_view_leaf(&v, q));
    }
    K2_Matrix_free(&P);
    K2_Matrix_free(&C);
    k2_coo_free(&L);
  }
}

// ---- products ---------------------------------------------------------------------------------

static sr_entry SR[K2_NATIVE_SEMIRINGS_MAX];
static int n_sr;

// u of type t over n entries: every entry (dense) or about one in 50; values k/8 (exact sums).
static GrB_Vector make_u(GrB_Type t, uint64_t n, bool dense) {
  GrB_Vector u = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&u, t, n));
  for (uint64_t i = 0; i < n; i++) {
    if (!dense && (i * 2654435761u) % 50 != 0) continue;
    double v = (double)((i * 40503u) % 97) / 8.0;
    K2_ASSERT_OK(GrB_Vector_setElement_FP64(u, v, i));
  }
  K2_ASSERT_OK(GrB_Vector_wait(u, GrB_MATERIALIZE));
  return u;
}

// w = A*u (dir 0), A'*u (1) or u'*A (2) on engine e (*ran: the engine that ran it; the
// OpenMP engine passes a few products to the reference engine).
static GrB_Vector product(K2_Matrix A, const sr_entry *s, GrB_Vector u, int dir, K2_Engine e,
                          K2_Engine *ran) {
  GrB_Index nr, nc;
  K2_ASSERT_OK(K2_Matrix_nrows(&nr, A));
  K2_ASSERT_OK(K2_Matrix_ncols(&nc, A));
  GrB_Vector w = NULL;
  K2_ASSERT_OK(GrB_Vector_new(&w, s->type, dir == 0 ? nr : nc));
  K2_ASSERT_OK(K2_set_engine(e));
  if (dir == 0) K2_ASSERT_OK(K2_mxv(w, NULL, NULL, s->s, A, u, NULL));
  else if (dir == 1) K2_ASSERT_OK(K2_mxv(w, NULL, NULL, s->s, A, u, GrB_DESC_T0));
  else K2_ASSERT_OK(K2_vxm(w, NULL, NULL, s->s, u, A, NULL));
  *ran = K2_last_engine();
  K2_ASSERT_OK(K2_set_engine(K2_ENGINE_AUTO));
  return w;
}

static void assert_same_vector(GrB_Vector a, GrB_Vector b, bool values, const char *what) {
  GrB_Index na = 0, nb = 0;
  K2_ASSERT_OK(GrB_Vector_nvals(&na, a));
  K2_ASSERT_OK(GrB_Vector_nvals(&nb, b));
  if (na != nb) {
    print_error("%s: %llu entries plain, %llu compressed\n", what, (unsigned long long)na,
                (unsigned long long)nb);
    fail();
  }
  GrB_Index *ia = malloc((na + 1) * 8), *ib = malloc((na + 1) * 8);
  double *xa = malloc((na + 1) * 8), *xb = malloc((na + 1) * 8);
  GrB_Index ka = na, kb = nb;
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(ia, xa, &ka, a));
  K2_ASSERT_OK(GrB_Vector_extractTuples_FP64(ib, xb, &kb, b));
  for (GrB_Index k = 0; k < na; k++) {
    if (ia[k] != ib[k] || (values && xa[k] != xb[k])) {
      print_error("%s: entry %llu: plain (%llu, %g), compressed (%llu, %g)\n", what,
                  (unsigned long long)k, (unsigned long long)ia[k], xa[k],
                  (unsigned long long)ib[k], xb[k]);
      fail();
    }
  }
  free(ia);
  free(ib);
  free(xa);
  free(xb);
}

// Under AddressSanitizer the web graphs' products (3 million edges, the reference engine among
// them) take minutes per semiring: there they run PLUS_TIMES_FP64 alone, other builds all three.
#if defined(__SANITIZE_ADDRESS__)
#define K2_WEB_SEMIRINGS_ONE true
#else
#define K2_WEB_SEMIRINGS_ONE false
#endif

static void compare_products(K2_Matrix P, K2_Matrix C, const char *name, bool all_semirings) {
  const K2_Engine engines[2] = {K2_ENGINE_REFERENCE, K2_ENGINE_OPENMP};
  GrB_Index nr, nc;
  K2_ASSERT_OK(K2_Matrix_nrows(&nr, P));
  K2_ASSERT_OK(K2_Matrix_ncols(&nc, P));
  for (int si = 0; si < n_sr; si++) {
    const bool plus_times = strcmp(SR[si].name, "PLUS_TIMES_FP64") == 0;
    const bool web_three = !K2_WEB_SEMIRINGS_ONE && (strcmp(SR[si].name, "MIN_PLUS_INT64") == 0 ||
                                                     strcmp(SR[si].name, "LOR_LAND_BOOL") == 0);
    if (!all_semirings && !plus_times && !web_three) continue;
    for (int dir = 0; dir < 3; dir++)
      for (int dense = 0; dense < 2; dense++) {
        GrB_Vector u = make_u(SR[si].type, dir == 0 ? nc : nr, dense), ref = NULL;
        for (int e = 0; e < 2; e++) {
          K2_Engine rp, rc;
          GrB_Vector wp = product(P, &SR[si], u, dir, engines[e], &rp);
          GrB_Vector wc = product(C, &SR[si], u, dir, engines[e], &rc);
          assert_int_equal(rp, rc);  // compressed leaves are declined by no CPU engine
          char what[200];
          snprintf(what, sizeof what, "%s: %s, %s, dir %d, %s u", name, SR[si].name,
                   K2_engine_name(engines[e]), dir, dense ? "dense" : "sparse");
          assert_same_vector(wp, wc, SR[si].any == A_NONE, what);
          // the OpenMP engine's block kernels (4x4 and 8x8 leaves, in place or compressed)
          // against the reference engine: u's values are eighths, so every sum is exact
          if (e == 0) {
            ref = wp;
            wp = NULL;
          } else {
            strncat(what, ", against the reference engine", sizeof what - strlen(what) - 1);
            assert_same_vector(ref, wc, SR[si].any == A_NONE, what);
            assert_same_vector(ref, wp, SR[si].any == A_NONE, what);
          }
          GrB_Vector_free(&wp);
          GrB_Vector_free(&wc);
        }
        GrB_Vector_free(&ref);
        GrB_Vector_free(&u);
      }
  }
}

// nb 4x4 blocks of a side x side matrix at random places, each with one of npat random patterns
// drawn log-uniformly (pattern k about as often as 1/k): skewed as a web graph's leaves are, so
// their codes reach several DAC levels; one pattern gives a single level.
static void skewed_blocks(k2_coo_list *L, uint64_t side, uint64_t nb, uint64_t npat, k2_rng *rng) {
  uint16_t pat[4096];
  assert_true(npat <= 4096);
  for (uint64_t k = 0; k < npat; k++) pat[k] = (uint16_t)(k2_rng_below(rng, 65535) + 1);
  k2_coo_alloc(L, side, side, 16 * nb);
  uint64_t n = 0;
  for (uint64_t b = 0; b < nb; b++) {
    const uint64_t r = 4 * k2_rng_below(rng, side / 4), c = 4 * k2_rng_below(rng, side / 4);
    const uint16_t p = pat[(uint64_t)pow((double)npat, k2_rng_unit(rng)) - 1];
    for (uint32_t i = 0; i < 16; i++)
      if ((p >> i) & 1) {
        L->I[n] = (uint32_t)(r + i / 4);
        L->J[n++] = (uint32_t)(c + i % 4);
      }
  }
  L->nvals = n;
}

static void test_products(void **state) {
  (void)state;
  n_sr = k2_native_semirings(SR);
  k2_rng rng = {99};
  const struct {
    uint64_t nr, nc, nv;
    uint32_t leaf_log;
    uint64_t npat;  // > 0: skewed_blocks of nv blocks and npat patterns instead of random entries
  } cases[] = {{600, 900, 9000, 2, 0},      {1500, 1500, 40000, 3, 0}, {40000, 40000, 200000, 2, 0},
               {8000, 8000, 12000, 2, 4000}, {5000, 5000, 3000, 2, 1}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    k2_coo_list L;
    if (cases[c].npat > 0) skewed_blocks(&L, cases[c].nr, cases[c].nv, cases[c].npat, &rng);
    else k2_coo_random(&L, cases[c].nr, cases[c].nc, cases[c].nv, &rng);
    K2_Matrix P = build(&L, cases[c].leaf_log, false), C = build(&L, cases[c].leaf_log, true);
    K2_ASSERT_OK(K2_Matrix_setEdgeWeight(P, 2));
    K2_ASSERT_OK(K2_Matrix_setEdgeWeight(C, 2));
    char name[96];
    snprintf(name, sizeof name, "%s %llux%llu leaf_log %u, %u DAC levels",
             cases[c].npat > 0 ? "skewed" : "random", (unsigned long long)cases[c].nr,
             (unsigned long long)cases[c].nc, cases[c].leaf_log, C->tree.lc.levels);
    // the skewed cases: codes over three levels or more, and a single level
    if (cases[c].npat > 1) assert_true(C->tree.lc.levels >= 3);
    if (cases[c].npat == 1) assert_int_equal(C->tree.lc.levels, 1);
    // the skewed cases test the decoding, the same for every semiring: three of them
    compare_products(P, C, name, cases[c].npat == 0);
    K2_Matrix_free(&P);
    K2_Matrix_free(&C);
    k2_coo_free(&L);
  }
  k2_native_semirings_free();
}

// ---- images -----------------------------------------------------------------------------------

static void test_roundtrip(void **state) {
  (void)state;
  k2_rng rng = {5};
  k2_coo_list L;
  k2_coo_random(&L, 5000, 5000, 60000, &rng);
  for (uint32_t leaf_log = 2; leaf_log <= 3; leaf_log++) {
    K2_Matrix P = build(&L, leaf_log, false), C = build(&L, leaf_log, true);
    GrB_Index sp, sc;
    uint8_t *bp = k2_img_of(P, &sp), *bc = k2_img_of(C, &sc);
    assert_int_equal(k2_img_rd32(bp, H_VERSION), 2);
    assert_int_equal(k2_img_rd32(bc, H_VERSION), 3);
    assert_true(sc < sp);
    K2_Matrix R = NULL;
    K2_ASSERT_OK(K2_Matrix_deserialize(&R, bc, sc));
    assert_non_null(R->tree.leaf_codes);
    assert_equal_matrices(R, P);
    // and written again: the same bytes
    GrB_Index sr;
    uint8_t *br = k2_img_of(R, &sr);
    assert_int_equal(sr, sc);
    assert_memory_equal(br, bc, sc);
    free(br);
    K2_Matrix_free(&R);
    // a version this library does not know
    k2_img_wr32(bc, H_VERSION, 5);
    k2_img_rehash(bc);
    assert_int_equal(K2_Matrix_deserialize(&R, bc, sc), GrB_INVALID_OBJECT);
    assert_non_null(strstr(K2_error_string(), "newer"));
    free(bp);
    free(bc);
    K2_Matrix_free(&P);
    K2_Matrix_free(&C);
  }
  k2_coo_free(&L);
}

// Deserializing b must fail with GrB_INVALID_OBJECT (strict) or at most succeed (a change that
// leaves a valid tree), never crash.
static void expect_refused(const uint8_t *b, GrB_Index size, bool strict, const char *what) {
  K2_Matrix R = NULL;
  GrB_Info info = K2_Matrix_deserialize(&R, b, size);
  if (info == GrB_SUCCESS && !strict) {
    K2_Matrix_free(&R);
    return;
  }
  if (info != GrB_INVALID_OBJECT) {
    print_error("%s: deserialize returned %d (%s)\n", what, (int)info, K2_error_string());
    fail();
  }
  assert_null(R);
}

static void test_corrupt(void **state) {
  (void)state;
  k2_rng rng = {11};
  k2_coo_list L;
  k2_coo_random(&L, 70000, 70000, 120000, &rng);  // more than 2^16 leaves: two rank superblocks
  K2_Matrix C = build(&L, 2, true);
  GrB_Index size;
  uint8_t *good = k2_img_of(C, &size), *b = malloc(size);
  const size_t e1 = H_TABLE + 24;  // section 1, leaf_codes
  const uint64_t off = k2_img_rd64(good, e1), words = k2_img_rd64(good, e1 + 8) / 8;
  const uint64_t L_levels = k2_img_rd64(good, off + 8);
  char what[120];
  // every header word, several ways
  const uint64_t deltas[] = {1, 2, 255, UINT64_C(1) << 32, UINT64_C(1) << 63, ~UINT64_C(0)};
  for (uint64_t w = 0; w < 3 + L_levels; w++)
    for (size_t d = 0; d < sizeof deltas / sizeof deltas[0]; d++) {
      memcpy(b, good, size);
      k2_img_wr64(b, off + 8 * w, k2_img_rd64(b, off + 8 * w) ^ deltas[d]);
      k2_img_rehash(b);
      snprintf(what, sizeof what, "header word %llu ^ %llx", (unsigned long long)w,
               (unsigned long long)deltas[d]);
      expect_refused(b, size, true, what);
    }
  // single bits everywhere else (codes, continuation bits, samples, vocabulary, padding); a load
  // and check of the image takes 80 ms under AddressSanitizer, whose build flips fewer
#if defined(__SANITIZE_ADDRESS__)
  const int flips = 400;
#else
  const int flips = 3000;
#endif
  for (int k = 0; k < flips; k++) {
    memcpy(b, good, size);
    uint64_t w = 3 + L_levels + k2_rng_below(&rng, words - 3 - L_levels);
    if (k < 64) w = words - 1 - (uint64_t)k % 8;  // the tail: padding
    k2_img_wr64(b, off + 8 * w, k2_img_rd64(b, off + 8 * w) ^ (UINT64_C(1) << k2_rng_below(&rng, 64)));
    k2_img_rehash(b);
    snprintf(what, sizeof what, "a bit of word %llu", (unsigned long long)w);
    expect_refused(b, size, false, what);
  }
  // a section of the wrong length (the header's counts need more)
  memcpy(b, good, size);
  k2_img_wr64(b, e1 + 8, k2_img_rd64(b, e1 + 8) - 8);
  k2_img_rehash(b);
  expect_refused(b, size, true, "a shorter section");
  // version 3 without the flag, version 2 with it, 2x2 leaves with it
  const struct {
    size_t at;
    uint32_t value;
    const char *what;
  } fields[] = {{H_FLAGS, 0, "version 3 without the flag"},
                {H_VERSION, 2, "version 2 with the flag"},
                {H_LEAF_LOG, 1, "2x2 leaves with the flag"}};
  for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
    memcpy(b, good, size);
    k2_img_wr32(b, fields[f].at, fields[f].value);
    k2_img_rehash(b);
    expect_refused(b, size, true, fields[f].what);
  }
  free(b);
  free(good);
  K2_Matrix_free(&C);
  k2_coo_free(&L);
}

// ---- the web graphs ---------------------------------------------------------------------------

static void test_web_sizes(void **state) {
  (void)state;
  const struct {
    const char *base;
    double max_bits;
  } g[] = {{"cnr-2000/cnr-2000", 2.9}, {"uk-2007-05@100000/uk-2007-05@100000", 2.1}};
  n_sr = k2_native_semirings(SR);
  for (size_t k = 0; k < 2; k++) {
    char graph[300], path[300];
    snprintf(graph, sizeof graph, "%s.graph", g[k].base);
    const char *found = k2_test_data_path(graph);
    if (found == NULL) {
      print_message("no data folder: %s skipped\n", g[k].base);
      skip();
    }
    snprintf(path, sizeof path, "%.*s", (int)(strlen(found) - strlen(".graph")), found);
    K2_ReadOptions ro;
    K2_ReadOptions_default(&ro);
    ro.format = K2_FORMAT_BVGRAPH;
    K2_Edges E;
    K2_ASSERT_OK(K2_Edges_read(&E, path, &ro));
    k2_coo_list L = {E.nrows, E.ncols, E.nvals, E.I, E.J};
    K2_Matrix P = build(&L, 2, false), C = build(&L, 2, true);
    K2_MemoryUsage u;
    K2_ASSERT_OK(K2_Matrix_memoryUsage(&u, C));
    GrB_Index nv;
    K2_ASSERT_OK(K2_Matrix_nvals(&nv, C));
    const double bits = 8.0 * (double)(u.tree + u.directory + u.top) / (double)nv;
    print_message("%s: %.3f bits per edge compressed\n", g[k].base, bits);
    assert_true(bits <= g[k].max_bits);
    compare_products(P, C, g[k].base, false);
    K2_Matrix_free(&P);
    K2_Matrix_free(&C);
    K2_Edges_free(&E);
  }
  k2_native_semirings_free();
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_pattern), cmocka_unit_test(test_decoder),
      cmocka_unit_test(test_products),     cmocka_unit_test(test_roundtrip),
      cmocka_unit_test(test_corrupt),      cmocka_unit_test(test_web_sizes),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
