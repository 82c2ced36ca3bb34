// test_serialize.c: the .k2 format: round trips, and rejection of every damaged image.
// SPDX-License-Identifier: Apache-2.0
//
// The image layout used here (header offsets, section table) is read from docs/k2-format.md,
// not from the library, so these tests also check that the writer follows the document. The
// library writes version 2 (three sections; version 3, compressed leaves, is tested in
// test_leaf_codes.c); version 1 images (six sections, the directory and
// top codes stored) are written here, by v1_image, as the writers of version 1 made them, and
// must still load.
#define _GNU_SOURCE  // mkdtemp
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "k2_image.h"
#include "k2_test.h"
#include "matrix/k2_matrix.h"

// ---- the sections (the header's layout: k2_image.h) ------------------------------------------
#define NSECT 6     // version 1; version 2 has the first NSECT_V2
#define NSECT_V2 3
enum { S_SIG, S_LEAVES, S_LEVEL_START, S_DIR, S_TOP, S_BOTTOM };

static int nsect(const uint8_t *b) { return (int)k2_img_rd32(b, H_NSECT); }
static uint64_t sec_off(const uint8_t *b, int s) { return k2_img_rd64(b, H_TABLE + 24 * (size_t)s); }
static uint64_t sec_bytes(const uint8_t *b, int s) { return k2_img_rd64(b, H_TABLE + 24 * (size_t)s + 8); }
// Word w of section s.
static uint64_t sec_word(const uint8_t *b, int s, uint64_t w) { return k2_img_rd64(b, sec_off(b, s) + 8 * w); }
static void set_sec_word(uint8_t *b, int s, uint64_t w, uint64_t v) { k2_img_wr64(b, sec_off(b, s) + 8 * w, v); }

// ---- helpers -------------------------------------------------------------------------------

static char tmpdir[256];

static int group_setup(void **state) {
  snprintf(tmpdir, sizeof tmpdir, "%s/k2ser-XXXXXX", K2_BINARY_DIR);
  if (mkdtemp(tmpdir) == NULL) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/k2ser-XXXXXX");
    if (mkdtemp(tmpdir) == NULL) return -1;
  }
  return k2_test_setup(state);
}

static int group_teardown(void **state) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) return -1;
  return k2_test_teardown(state);
}

static const char *tmp_path(const char *name) {
  static char path[400];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  return path;
}

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  if (n) assert_int_equal(fwrite(data, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

// A random nrows x ncols matrix with about nnz entries (duplicates merged).
static K2_Matrix random_matrix(uint64_t nrows, uint64_t ncols, uint64_t nnz, const K2_Format *fmt,
                               uint64_t seed) {
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, nrows, ncols, fmt));
  if (nrows == 0 || ncols == 0) nnz = 0;
  GrB_Index *I = malloc((nnz + 1) * sizeof *I), *J = malloc((nnz + 1) * sizeof *J);
  assert_true(I != NULL && J != NULL);
  k2_rng r = {seed};
  for (uint64_t k = 0; k < nnz; k++) {
    I[k] = k2_rng_below(&r, nrows);
    J[k] = k2_rng_below(&r, ncols);
  }
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, nnz));
  free(I);
  free(J);
  return A;
}

static uint8_t *serialize(K2_Matrix A, GrB_Index *size) {
  K2_ASSERT_OK(K2_Matrix_serializeSize(size, A));
  uint8_t *blob = malloc(*size ? *size : 1);
  assert_non_null(blob);
  GrB_Index cap = *size;
  K2_ASSERT_OK(K2_Matrix_serialize(blob, &cap, A));
  assert_int_equal(cap, *size);
  return blob;
}

// A version 1 image of A (docs/k2-format.md, "Version 1"), as the writers of version 1 made
// them: a plain directory every 2^dir_log nodes, the Morton codes of the deepest level with at
// most 2^top_max_log nodes, the bottom codes when asked for, all stored. Built from A's
// signatures, leaves and level offsets; malloc'd.
static uint8_t *v1_image(K2_Matrix A, uint32_t dir_log, uint32_t top_max_log, bool bottom,
                         GrB_Index *size) {
  K2_ASSERT_OK(K2_Matrix_wait(A));
  const k2_tree *t = &A->tree;
  const uint64_t n = t->n_internal;
  uint64_t dir_len = n ? ((n - 1) >> dir_log) + 1 : 0;
  uint64_t *dir = calloc(dir_len + 1, 8);
  assert_non_null(dir);
  for (uint64_t k = 0, fc = 1, p = 0; k < dir_len; k++) {
    dir[k] = fc;
    for (uint64_t end = (k + 1) << dir_log; p < end && p < n; p++)
      fc += (uint64_t)__builtin_popcount((unsigned)((t->sig[p >> 4] >> (4 * (p & 15))) & 15));
  }
  uint32_t top = 0;
  for (uint32_t l = 0; n > 0 && l < t->levels; l++) {
    if (t->level_start[l + 1] - t->level_start[l] > (UINT64_C(1) << top_max_log)) break;
    top = l;
  }
  uint64_t *top_codes = NULL, *bottom_codes = NULL, top_count = 0, bottom_count = 0;
  if (n > 0) {
    K2_ASSERT_OK(k2_tree_expand_codes(t, top, &top_codes));
    top_count = t->level_start[top + 1] - t->level_start[top];
    if (bottom) {
      K2_ASSERT_OK(k2_tree_expand_codes(t, t->levels - 1, &bottom_codes));
      bottom_count = t->level_start[t->levels] - t->level_start[t->levels - 1];
    }
  }
  const void *data[NSECT] = {t->sig, t->leaves, t->level_start, dir, top_codes, bottom_codes};
  const uint64_t bytes[NSECT] = {8 * ((n + 15) / 16),
                                 8 * ((t->n_leaves * (UINT64_C(1) << (2 * t->leaf_log)) + 63) / 64),
                                 8 * ((uint64_t)t->levels + 2), 8 * dir_len, 8 * top_count,
                                 8 * bottom_count};
  uint64_t off[NSECT], pos = H_BYTES;
  for (int k = 0; k < NSECT; k++) {
    off[k] = (pos + 63) / 64 * 64;
    pos = off[k] + bytes[k];
  }
  uint8_t *b = calloc(pos, 1);
  assert_non_null(b);
  memcpy(b, "K2GRB\0\r\n", 8);
  k2_img_wr32(b, H_VERSION, 1);
  k2_img_wr32(b, H_ENDIAN, 0x01020304);
  k2_img_wr32(b, 16, H_BYTES);
  k2_img_wr32(b, H_FLAGS, bottom ? 1 : 0);
  k2_img_wr64(b, H_FILE_BYTES, pos);
  k2_img_wr64(b, H_NROWS, t->nrows);
  k2_img_wr64(b, H_NCOLS, t->ncols);
  k2_img_wr64(b, H_NVALS, t->nvals);
  k2_img_wr32(b, H_SIDE_LOG, t->side_log);
  k2_img_wr32(b, H_LEVELS, t->levels);
  k2_img_wr32(b, H_LEAF_LOG, t->leaf_log);
  k2_img_wr32(b, H_DIR_LOG, dir_log);
  k2_img_wr32(b, H_TOP_LEVEL, n ? top : 0);
  k2_img_wr32(b, H_TOP_MAX_LOG, top_max_log);
  k2_img_wr64(b, H_N_INTERNAL, n);
  k2_img_wr64(b, H_N_LEAVES, t->n_leaves);
  k2_img_wr64(b, H_DIR_LEN, dir_len);
  k2_img_wr64(b, H_TOP_COUNT, top_count);
  memcpy(b + H_WEIGHT, &A->weight, 8);
  k2_img_wr32(b, H_NSECT, NSECT);
  for (int k = 0; k < NSECT; k++) {
    k2_img_wr64(b, H_TABLE + 24 * (size_t)k, off[k]);
    k2_img_wr64(b, H_TABLE + 24 * (size_t)k + 8, bytes[k]);
    if (bytes[k]) memcpy(b + off[k], data[k], bytes[k]);
  }
  k2_img_rehash(b);
  free(dir);
  free(top_codes);
  free(bottom_codes);
  *size = pos;
  return b;
}

static void assert_same_usage(K2_Matrix A, K2_Matrix B) {
  K2_MemoryUsage a, b;
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&a, A));
  K2_ASSERT_OK(K2_Matrix_memoryUsage(&b, B));
  assert_int_equal(a.tree, b.tree);
  assert_int_equal(a.directory, b.directory);
  assert_int_equal(a.top, b.top);
  assert_int_equal(a.bottom_codes, b.bottom_codes);
  assert_int_equal(a.levels, b.levels);
  assert_int_equal(a.leaf_log, b.leaf_log);
  assert_int_equal(a.internal_nodes, b.internal_nodes);
  assert_int_equal(a.leaves, b.leaves);
}

// B is A: same pattern and weight (isEqual), same accounting, and it serializes to the very
// same bytes (so shape, format options and every array came back).
static void assert_same_matrix(K2_Matrix A, K2_Matrix B, const uint8_t *blob, GrB_Index size) {
  bool eq = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_true(eq);
  GrB_Index na, nb;
  K2_ASSERT_OK(K2_Matrix_nvals(&na, A));
  K2_ASSERT_OK(K2_Matrix_nvals(&nb, B));
  assert_int_equal(na, nb);
  double wa, wb;
  K2_ASSERT_OK(K2_Matrix_getEdgeWeight(&wa, A));
  K2_ASSERT_OK(K2_Matrix_getEdgeWeight(&wb, B));
  assert_memory_equal(&wa, &wb, sizeof wa);
  assert_same_usage(A, B);
  // the derived arrays too: made again on reading, they are the builder's
  const k2_tree *a = &A->tree, *b = &B->tree;
  assert_int_equal(a->dir_log, b->dir_log);
  assert_int_equal(a->dir_len, b->dir_len);
  assert_int_equal(a->top_level, b->top_level);
  assert_int_equal(a->top_count, b->top_count);
  assert_int_equal(a->dir_lo != NULL, b->dir_lo != NULL);
  if (a->dir_len) assert_memory_equal(a->dir, b->dir, k2_dir_words(a->dir_len, a->dir_lo != NULL) * 8);
  if (a->dir_len && a->dir_lo) assert_memory_equal(a->dir_lo, b->dir_lo, a->dir_len * 2);
  if (a->top_count) assert_memory_equal(a->top_codes, b->top_codes, a->top_count * 8);
  assert_int_equal(a->bottom_codes != NULL, b->bottom_codes != NULL);
  if (a->bottom_codes)
    assert_memory_equal(a->bottom_codes, b->bottom_codes,
                        (a->level_start[a->levels] - a->level_start[a->levels - 1]) * 8);
  GrB_Index size2;
  uint8_t *blob2 = serialize(B, &size2);
  assert_int_equal(size, size2);
  assert_memory_equal(blob, blob2, size);
  free(blob2);
}

// Expect a rejection with the given code and (if not NULL) a message containing `what`.
static void expect_reject_blob(const uint8_t *blob, GrB_Index size, GrB_Info code, const char *what) {
  K2_Matrix B = (K2_Matrix)(uintptr_t)0x1;  // must stay untouched
  GrB_Info info = K2_Matrix_deserialize(&B, blob, size);
  if (info != code || (what != NULL && strstr(K2_error_string(), what) == NULL)) {
    print_error("deserialize of %llu bytes: info %d (expected %d), message \"%s\" (expected "
                "\"%s\")\n", (unsigned long long)size, (int)info, (int)code, K2_error_string(),
                what ? what : "");
    fail();
  }
  assert_ptr_equal(B, (K2_Matrix)(uintptr_t)0x1);
}

static void expect_reject_file(const char *path, GrB_Info code, const char *what) {
  K2_Matrix B = NULL;
  GrB_Info info = K2_Matrix_load(&B, path);
  if (info != code || (what != NULL && strstr(K2_error_string(), what) == NULL) ||
      strstr(K2_error_string(), path) == NULL) {
    print_error("load %s: info %d (expected %d), message \"%s\" (expected \"%s\" and the path)\n",
                path, (int)info, (int)code, K2_error_string(), what ? what : "");
    fail();
  }
  assert_null(B);
}

// Lines of /proc/self/maps that name `path` (a matrix loaded from a file that cannot change
// keeps it mapped; any other is read into private memory).
static int mappings_of(const char *path) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (f == NULL) return -1;
  char line[1024];
  int n = 0;
  while (fgets(line, sizeof line, f))
    if (strstr(line, path)) n++;
  fclose(f);
  return n;
}

// ---- round trips -------------------------------------------------------------------------

static void roundtrip(uint64_t nrows, uint64_t ncols, uint64_t nnz, const K2_Format *fmt,
                      uint64_t seed) {
  K2_Matrix A = random_matrix(nrows, ncols, nnz, fmt, seed);
  k2_rng r = {seed ^ 0xabcdef};
  K2_ASSERT_OK(K2_Matrix_setEdgeWeight(A, 0.5 + k2_rng_unit(&r)));
  GrB_Index size;
  uint8_t *blob = serialize(A, &size);
  assert_int_equal(k2_img_rd64(blob, H_FILE_BYTES), size);
  assert_int_equal(k2_img_rd64(blob, H_NROWS), nrows);
  assert_int_equal(k2_img_rd64(blob, H_NCOLS), ncols);
  assert_int_equal(k2_img_rd32(blob, H_FLAGS), fmt->cache_bottom_codes ? 1 : 0);
  assert_int_equal(k2_img_rd32(blob, H_VERSION), 2);
  assert_int_equal(nsect(blob), NSECT_V2);
  for (int s = 0; s < NSECT_V2; s++) assert_int_equal(sec_off(blob, s) % 64, 0);
  // the options, not the arrays derived from them
  assert_int_equal(k2_img_rd32(blob, H_DIR_LOG), fmt->directory_log);
  assert_int_equal(k2_img_rd32(blob, H_TOP_MAX_LOG), fmt->top_max_log);
  assert_int_equal(k2_img_rd32(blob, H_TOP_LEVEL), 0);
  assert_int_equal(k2_img_rd64(blob, H_DIR_LEN), 0);
  assert_int_equal(k2_img_rd64(blob, H_TOP_COUNT), 0);

  // in memory
  K2_Matrix B = NULL;
  K2_ASSERT_OK(K2_Matrix_deserialize(&B, blob, size));
  assert_same_matrix(A, B, blob, size);
  K2_ASSERT_OK(K2_Matrix_free(&B));

  // from an unaligned blob
  uint8_t *odd = malloc(size + 1);
  assert_non_null(odd);
  memcpy(odd + 1, blob, size);
  K2_ASSERT_OK(K2_Matrix_deserialize(&B, odd + 1, size));
  assert_same_matrix(A, B, blob, size);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  free(odd);

  // through a file, mapped; the file is the same bytes as the blob
  const char *path = tmp_path("roundtrip.k2");
  K2_ASSERT_OK(K2_Matrix_save(A, path));
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal((uint64_t)st.st_size, size);
  K2_ASSERT_OK(K2_Matrix_load(&B, path));
  assert_same_matrix(A, B, blob, size);
  // queries on the mapped arrays agree with the original
  for (int k = 0; k < 50 && nrows > 0 && ncols > 0; k++) {
    GrB_Index i = k2_rng_below(&r, nrows), j = k2_rng_below(&r, ncols);
    bool pa, pb;
    K2_ASSERT_OK(K2_Matrix_isEntry(&pa, A, i, j));
    K2_ASSERT_OK(K2_Matrix_isEntry(&pb, B, i, j));
    assert_int_equal(pa, pb);
  }
  K2_ASSERT_OK(K2_Matrix_free(&B));
  assert_int_equal(unlink(path), 0);
  free(blob);
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

static void test_roundtrip_shapes(void **state) {
  (void)state;
  struct {
    uint64_t nrows, ncols, nnz;
  } shapes[] = {
      {0, 0, 0},       {1, 1, 0},          {1, 1, 1},       {1, 1000, 300},
      {1000, 1, 300},  {5, 7, 20},         {100, 100, 0},   {17, 33, 2000},  // nearly dense
      {1000, 1000, 5000}, {1000000, 1700, 20000}, {K2_INDEX_MAX, K2_INDEX_MAX, 200},
  };
  uint64_t seed = 1;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++) {
      for (int bottom = 0; bottom <= 1; bottom++) {
        K2_Format fmt;
        K2_Format_default(&fmt);
        fmt.leaf_log = leaf_log;
        fmt.cache_bottom_codes = bottom;
        roundtrip(shapes[s].nrows, shapes[s].ncols, shapes[s].nnz, &fmt, seed++);
      }
    }
  }
}

// Non-default directory and top-level options come back (byte-identical re-serialization, the
// same derived arrays): a dense compact directory and a top level near the root, a plain
// directory (sampled every 2^11 nodes), one sample only.
static void test_roundtrip_options(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.directory_log = 4;
  fmt.top_max_log = 2;
  fmt.cache_bottom_codes = true;
  roundtrip(3000, 2000, 10000, &fmt, 77);
  fmt.directory_log = 11;
  fmt.top_max_log = 16;
  roundtrip(30000, 20000, 100000, &fmt, 79);
  fmt.directory_log = 30;
  fmt.top_max_log = 30;
  fmt.leaf_log = 2;
  roundtrip(3000, 2000, 10000, &fmt, 78);
}

// A loaded matrix is a full matrix: dup, edits (which replace the loaded tree), free. An ordinary
// file is not kept mapped (file_changed_under_matrix says why).
static void test_loaded_matrix_lifetime(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  K2_Matrix A = random_matrix(500, 400, 3000, &fmt, 5);
  const char *path = tmp_path("lifetime.k2");
  K2_ASSERT_OK(K2_Matrix_save(A, path));
  char saved[400];
  snprintf(saved, sizeof saved, "%s", path);

  K2_Matrix B = NULL, C = NULL;
  K2_ASSERT_OK(K2_Matrix_load(&B, saved));
  assert_int_equal(mappings_of(saved), 0);
  K2_ASSERT_OK(K2_Matrix_dup(&C, B));
  bool eq = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, C));
  assert_true(eq);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  assert_int_equal(mappings_of(saved), 0);

  // edit a loaded matrix: the tree is rebuilt, the mapping dropped
  K2_ASSERT_OK(K2_Matrix_load(&B, saved));
  bool present = true;
  GrB_Index i = 0, j = 0;
  for (; present; j++) K2_ASSERT_OK(K2_Matrix_isEntry(&present, B, i, j));
  j--;
  GrB_Index n0, n1;
  K2_ASSERT_OK(K2_Matrix_nvals(&n0, B));
  K2_ASSERT_OK(K2_Matrix_setElement(B, i, j));
  K2_ASSERT_OK(K2_Matrix_wait(B));
  K2_ASSERT_OK(K2_Matrix_nvals(&n1, B));
  assert_int_equal(n1, n0 + 1);
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, B, i, j));
  assert_true(present);
  assert_int_equal(mappings_of(saved), 0);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  K2_ASSERT_OK(K2_Matrix_load(&B, saved));
  K2_ASSERT_OK(K2_Matrix_removeElement(B, i, j - 1 + (j == 0)));
  K2_ASSERT_OK(K2_Matrix_wait(B));
  assert_int_equal(mappings_of(saved), 0);
  GrB_Index I1[1] = {1}, J1[1] = {2};
  K2_ASSERT_OK(K2_Matrix_build(B, I1, J1, 1));  // rebuilding a loaded matrix replaces its tree
  K2_ASSERT_OK(K2_Matrix_nvals(&n1, B));
  assert_int_equal(n1, 1);
  K2_ASSERT_OK(K2_Matrix_free(&B));

  // the file may go away while a matrix is loaded from it
  K2_ASSERT_OK(K2_Matrix_load(&B, saved));
  assert_int_equal(unlink(saved), 0);
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_true(eq);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  K2_ASSERT_OK(K2_Matrix_free(&C));

  // save over an existing file replaces it
  K2_Matrix D = random_matrix(10, 10, 30, &fmt, 6);
  K2_ASSERT_OK(K2_Matrix_save(A, saved));
  K2_ASSERT_OK(K2_Matrix_save(D, saved));
  K2_ASSERT_OK(K2_Matrix_load(&B, saved));
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, D, B));
  assert_true(eq);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  K2_ASSERT_OK(K2_Matrix_free(&D));
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

// A loaded .k2 file truncated, overwritten in place or replaced by `cp` while the matrix is in
// use: the matrix holds its own copy, so it keeps giving the results of the file as it was
// loaded (a mapping of the file would die of SIGBUS in the first product after a truncation).
static void assert_products_of(K2_Matrix A, K2_Matrix B) {
  GrB_Index n, m;
  K2_ASSERT_OK(K2_Matrix_nrows(&n, A));
  K2_ASSERT_OK(K2_Matrix_ncols(&m, A));
  float *x = malloc(m * sizeof *x), *ya = malloc(n * sizeof *ya), *yb = malloc(n * sizeof *yb);
  assert_true(x != NULL && ya != NULL && yb != NULL);
  for (GrB_Index j = 0; j < m; j++) x[j] = (float)(j % 7);
  K2_ASSERT_OK(K2_dense_mxv(ya, A, x, K2_PLUS_TIMES, GrB_FP32));
  K2_ASSERT_OK(K2_dense_mxv(yb, B, x, K2_PLUS_TIMES, GrB_FP32));
  assert_memory_equal(ya, yb, n * sizeof *ya);
  bool eq = false;
  K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
  assert_true(eq);
  free(x);
  free(ya);
  free(yb);
}

static void test_file_changed_under_matrix(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  K2_Matrix A = random_matrix(3000, 3000, 40000, &fmt, 21);
  K2_Matrix D = random_matrix(3000, 3000, 40000, &fmt, 22);
  GrB_Index dsize;
  uint8_t *dimg = serialize(D, &dsize);
  char path[400];
  snprintf(path, sizeof path, "%s", tmp_path("changing.k2"));
  for (int how = 0; how < 4; how++) {
    K2_ASSERT_OK(K2_Matrix_save(A, path));
    K2_Matrix B = NULL;
    K2_ASSERT_OK(K2_Matrix_load(&B, path));
    if (how == 0) {
      assert_int_equal(truncate(path, 0), 0);
    } else if (how == 1) {
      assert_int_equal(truncate(path, 4096), 0);  // cut in the middle of the sections
    } else if (how == 2) {  // rewritten in place, same inode (as a careless writer would)
      int fd = open(path, O_WRONLY);
      assert_true(fd >= 0);
      assert_int_equal(pwrite(fd, dimg, dsize, 0), (ssize_t)dsize);
      assert_int_equal(ftruncate(fd, (off_t)dsize), 0);
      close(fd);
    } else {  // cp other.k2 over it: truncated, then written
      write_file(path, dimg, dsize);
    }
    assert_products_of(A, B);
    K2_ASSERT_OK(K2_Matrix_free(&B));
  }
  // and the file as it is now is read as what it is
  K2_Matrix B = NULL;
  K2_ASSERT_OK(K2_Matrix_load(&B, path));
  assert_products_of(D, B);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  assert_int_equal(truncate(path, 1000), 0);
  expect_reject_file(path, GrB_INVALID_OBJECT, "truncated");
  free(dimg);
  K2_ASSERT_OK(K2_Matrix_free(&D));
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

// A file that cannot change (a memfd sealed against writing and shrinking) is used in place:
// mapped while the matrix lives, unmapped when it goes.
static void test_sealed_file_in_place(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  K2_Matrix A = random_matrix(2000, 1500, 20000, &fmt, 23);
  GrB_Index size;
  uint8_t *img = serialize(A, &size);
  int fd = memfd_create("k2grb-sealed-test", MFD_ALLOW_SEALING | MFD_CLOEXEC);
  if (fd < 0) {
    print_message("memfd_create: %s: skipped\n", strerror(errno));
    free(img);
    K2_ASSERT_OK(K2_Matrix_free(&A));
    skip();
    return;
  }
  assert_int_equal(write(fd, img, size), (ssize_t)size);
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  // unsealed: copied like any file
  K2_Matrix B = NULL;
  K2_ASSERT_OK(K2_Matrix_load(&B, path));
  assert_int_equal(mappings_of("k2grb-sealed-test"), 0);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL), 0);
  K2_ASSERT_OK(K2_Matrix_load(&B, path));
  assert_true(mappings_of("k2grb-sealed-test") >= 1);
  assert_int_equal(ftruncate(fd, 0), -1);  // the seals hold
  assert_int_equal(errno, EPERM);
  assert_products_of(A, B);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  assert_int_equal(mappings_of("k2grb-sealed-test"), 0);
  close(fd);
  free(img);
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

// ---- a known image, checked against the document ---------------------------------------------

// The 5 x 5 matrix with the single entry (4, 4), 2x2 leaves, S = 16, bottom codes cached.
// Padded side 8, two internal levels: the root's quadrant 3 (rows 4-7, cols 4-7) -> sig 8;
// node 1's quadrant 0 (rows 4-5, cols 4-5) -> sig 1; the leaf's cell (0,0) -> bitmap 1.
static K2_Matrix tiny_matrix(void) {
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.directory_log = 4;
  fmt.cache_bottom_codes = true;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, 5, 5, &fmt));
  GrB_Index I[1] = {4}, J[1] = {4};
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, 1));
  return A;
}

static uint8_t *tiny_image(GrB_Index *size) {
  K2_Matrix A = tiny_matrix();
  uint8_t *blob = serialize(A, size);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  return blob;
}

// The same matrix as version 1 wrote it: S = 16, top level 1 (at most 2^16 nodes), bottom codes.
static uint8_t *tiny_v1_image(GrB_Index *size) {
  K2_Matrix A = tiny_matrix();
  uint8_t *blob = v1_image(A, 4, 16, true, size);
  K2_ASSERT_OK(K2_Matrix_free(&A));
  return blob;
}

static void test_known_image(void **state) {
  (void)state;
  GrB_Index size;
  uint8_t *b = tiny_image(&size);
  assert_memory_equal(b, "K2GRB\0\r\n", 8);
  assert_int_equal(k2_img_rd32(b, H_VERSION), 2);
  assert_int_equal(k2_img_rd32(b, H_ENDIAN), 0x01020304);
  assert_int_equal(k2_img_rd32(b, 16), H_BYTES);
  assert_int_equal(k2_img_rd32(b, H_FLAGS), 1);
  assert_int_equal(k2_img_rd64(b, H_NVALS), 1);
  assert_int_equal(k2_img_rd32(b, H_SIDE_LOG), 3);
  assert_int_equal(k2_img_rd32(b, H_LEVELS), 2);
  assert_int_equal(k2_img_rd32(b, H_LEAF_LOG), 1);
  assert_int_equal(k2_img_rd32(b, H_DIR_LOG), 4);      // the option; 0 would be "sized from the tree"
  assert_int_equal(k2_img_rd32(b, H_TOP_LEVEL), 0);    // reserved in version 2
  assert_int_equal(k2_img_rd32(b, H_TOP_MAX_LOG), 0);  // the default: sized from the tree
  assert_int_equal(k2_img_rd64(b, H_N_INTERNAL), 2);
  assert_int_equal(k2_img_rd64(b, H_N_LEAVES), 1);
  assert_int_equal(k2_img_rd64(b, H_DIR_LEN), 0);      // reserved
  assert_int_equal(k2_img_rd64(b, H_TOP_COUNT), 0);    // reserved
  double w;
  memcpy(&w, b + H_WEIGHT, 8);
  assert_true(w == 1.0);
  assert_int_equal(k2_img_rd32(b, H_NSECT), NSECT_V2);
  for (size_t o = H_TABLE + 24 * NSECT_V2; o < H_SUM; o++) assert_int_equal(b[o], 0);
  assert_int_equal(k2_img_rd64(b, H_SUM), XXH3_64bits(b, H_SUM));
  uint64_t expect_bytes[NSECT_V2] = {8, 8, 32}, pos = H_BYTES;
  for (int s = 0; s < NSECT_V2; s++) {
    assert_int_equal(sec_off(b, s), (pos + 63) / 64 * 64);
    assert_int_equal(sec_bytes(b, s), expect_bytes[s]);
    assert_int_equal(k2_img_rd64(b, H_TABLE + 24 * (size_t)s + 16), XXH3_64bits(b + sec_off(b, s), expect_bytes[s]));
    for (uint64_t o = pos; o < sec_off(b, s); o++) assert_int_equal(b[o], 0);
    pos = sec_off(b, s) + sec_bytes(b, s);
  }
  assert_int_equal(pos, size);
  assert_int_equal(sec_word(b, S_SIG, 0), 0x18);
  assert_int_equal(sec_word(b, S_LEAVES, 0), 0x1);
  uint64_t ls[4] = {0, 1, 2, 3};
  for (int k = 0; k < 4; k++) assert_int_equal(sec_word(b, S_LEVEL_START, (uint64_t)k), ls[k]);
  // read back: the derived arrays are made again, the bottom codes as the flag asks (node 1:
  // block (1,1) -> Morton 0b11); a directory of one sample and the root as the top level
  // are implied, not stored
  K2_Matrix B = NULL;
  K2_ASSERT_OK(K2_Matrix_deserialize(&B, b, size));
  assert_int_equal(B->tree.dir_len, 0);
  assert_int_equal(B->tree.top_count, 0);
  assert_non_null(B->tree.bottom_codes);
  assert_int_equal(B->tree.bottom_codes[0], 3);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  free(b);
}

// Files written by version 1 (every derived array stored) load: the same matrix, the same
// products; the defaults of version 1 (S = 256, top <= 2^16) read back as "sized from the
// tree", other options as they were, and the directory and top codes are those a build with
// the options read makes (the stored ones only checked). Saved again, they are version 2
// images.
static void v1_compat(K2_Matrix A, uint32_t dir_log, uint32_t top_max_log, bool bottom) {
  GrB_Index size, size2;
  uint8_t *b = v1_image(A, dir_log, top_max_log, bottom, &size);
  // A as a build with the options version 1 stores makes it
  K2_Format fmt = A->fmt;
  fmt.directory_log = dir_log == 8 ? 0 : dir_log;
  fmt.top_max_log = top_max_log == 16 ? 0 : top_max_log;
  fmt.cache_bottom_codes = bottom;
  K2_Matrix C = NULL;
  {
    GrB_Index nr, nc, nv;
    K2_ASSERT_OK(K2_Matrix_nrows(&nr, A));
    K2_ASSERT_OK(K2_Matrix_ncols(&nc, A));
    K2_ASSERT_OK(K2_Matrix_nvals(&nv, A));
    GrB_Index *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
    assert_true(I != NULL && J != NULL);
    K2_ASSERT_OK(K2_Matrix_extractTuples(I, J, &nv, A));
    K2_ASSERT_OK(K2_Matrix_new_format(&C, nr, nc, &fmt));
    K2_ASSERT_OK(K2_Matrix_build(C, I, J, nv));
    K2_ASSERT_OK(K2_Matrix_setEdgeWeight(C, A->weight));
    free(I);
    free(J);
  }
  uint8_t *v2 = serialize(C, &size2);
  for (int from_file = 0; from_file < 2; from_file++) {
    K2_Matrix B = NULL;
    if (from_file) {
      const char *path = tmp_path("v1.k2");
      write_file(path, b, size);
      K2_ASSERT_OK(K2_Matrix_load(&B, path));
    } else {
      K2_ASSERT_OK(K2_Matrix_deserialize(&B, b, size));
    }
    bool eq = false;
    K2_ASSERT_OK(K2_Matrix_isEqual(&eq, A, B));
    assert_true(eq);
    assert_products_of(A, B);
    K2_ASSERT_OK(k2_tree_check(&B->tree));
    assert_false(B->tree.borrowed);  // copied out of the image, which is released
    assert_int_equal(B->fmt.directory_log, fmt.directory_log);
    assert_int_equal(B->fmt.top_max_log, fmt.top_max_log);
    assert_int_equal(B->fmt.cache_bottom_codes, bottom);
    // C's derived arrays, byte for byte; C's version 2 image
    assert_same_matrix(C, B, v2, size2);
    K2_ASSERT_OK(K2_Matrix_free(&B));
  }
  assert_int_equal(mappings_of(tmp_path("v1.k2")), 0);  // nothing of the file is kept
  K2_ASSERT_OK(K2_Matrix_free(&C));
  free(v2);
  free(b);
}

static void test_version1_files(void **state) {
  (void)state;
  struct {
    uint64_t nrows, ncols, nnz;
  } shapes[] = {{0, 0, 0}, {1, 1, 0}, {1, 1, 1}, {5, 7, 20}, {1000, 1000, 5000},
                {3000, 2000, 30000}, {100000, 1700, 20000}};
  uint64_t seed = 300;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++) {
      K2_Format fmt;
      K2_Format_default(&fmt);
      fmt.leaf_log = leaf_log;
      for (int bottom = 0; bottom <= 1; bottom++) {
        fmt.cache_bottom_codes = bottom;
        K2_Matrix A = random_matrix(shapes[s].nrows, shapes[s].ncols, shapes[s].nnz, &fmt, seed++);
        v1_compat(A, 8, 16, bottom);  // the defaults of version 1
        v1_compat(A, 4, 2, bottom);
        v1_compat(A, 30, 30, bottom);
        K2_ASSERT_OK(K2_Matrix_free(&A));
      }
    }
  }
}

// ---- damaged images -----------------------------------------------------------------------

// Every byte matters: any single changed byte is rejected, in memory and from a file.
static void flip_every_byte(uint8_t *b, GrB_Index size) {
  uint8_t *c = malloc(size);
  assert_non_null(c);
  const uint8_t masks[3] = {0x01, 0x80, 0xff};
  const char *path = tmp_path("flip.k2");
  uint64_t rejected = 0;
  for (GrB_Index o = 0; o < size; o++) {
    for (int m = 0; m < 3; m++) {
      memcpy(c, b, size);
      c[o] ^= masks[m];
      expect_reject_blob(c, size, GrB_INVALID_OBJECT, NULL);
      rejected++;
      if (m == 0) {
        write_file(path, c, size);
        expect_reject_file(path, GrB_INVALID_OBJECT, NULL);
        rejected++;
      }
    }
  }
  assert_int_equal(mappings_of(path), 0);  // rejected files are unmapped
  print_message("flip: %llu damaged images of %llu bytes (version %u) rejected\n",
                (unsigned long long)rejected, (unsigned long long)size, k2_img_rd32(b, H_VERSION));
  // and the undamaged one still loads
  write_file(path, b, size);
  K2_Matrix B = NULL;
  K2_ASSERT_OK(K2_Matrix_load(&B, path));
  K2_ASSERT_OK(K2_Matrix_free(&B));
  free(c);
}

static void test_flip_every_byte(void **state) {
  (void)state;
  GrB_Index size;
  uint8_t *b = tiny_image(&size);
  flip_every_byte(b, size);
  free(b);
  b = tiny_v1_image(&size);
  flip_every_byte(b, size);
  free(b);
}

// A larger image: a flipped bit in every section and in the header of a realistic file.
static void flip_sections_random(const uint8_t *b, GrB_Index size) {
  uint8_t *c = malloc(size);
  assert_non_null(c);
  k2_rng r = {99};
  for (int s = -1; s < nsect(b); s++) {
    uint64_t lo = s < 0 ? 0 : sec_off(b, s), n = s < 0 ? H_BYTES : sec_bytes(b, s);
    for (int k = 0; k < 40 && n > 0; k++) {
      memcpy(c, b, size);
      c[lo + k2_rng_below(&r, n)] ^= (uint8_t)(1u << k2_rng_below(&r, 8));
      expect_reject_blob(c, size, GrB_INVALID_OBJECT, NULL);
    }
  }
  free(c);
}

static void test_flip_sections_random(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = true;
  K2_Matrix A = random_matrix(3000, 2500, 20000, &fmt, 9);
  GrB_Index size;
  uint8_t *b = serialize(A, &size);
  flip_sections_random(b, size);
  free(b);
  b = v1_image(A, 8, 16, true, &size);
  flip_sections_random(b, size);
  free(b);
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

// Every truncation (and an extension) is rejected; at section boundaries also as files.
static void truncations(const uint8_t *b, GrB_Index size, const uint8_t *c, GrB_Index big) {
  for (GrB_Index n = 0; n < size; n++) expect_reject_blob(b, n, GrB_INVALID_OBJECT, NULL);
  const char *path = tmp_path("trunc.k2");
  uint64_t cuts[2 + 2 * NSECT];
  int ncuts = 0;
  cuts[ncuts++] = H_BYTES;
  cuts[ncuts++] = H_BYTES - 1;
  for (int s = 0; s < nsect(b); s++) {
    cuts[ncuts++] = sec_off(b, s);
    cuts[ncuts++] = sec_off(b, s) + sec_bytes(b, s);
  }
  for (int k = 0; k < ncuts; k++) {
    if (cuts[k] >= size) continue;  // the end of the last section is the whole file
    write_file(path, b, (size_t)cuts[k]);
    expect_reject_file(path, GrB_INVALID_OBJECT, cuts[k] >= H_BYTES ? "truncated" : NULL);
  }
  // the same at every section boundary of a larger image
  for (int s = 0; s < nsect(c); s++) {
    uint64_t ends[3] = {sec_off(c, s), sec_off(c, s) + sec_bytes(c, s) / 2, sec_off(c, s) + sec_bytes(c, s)};
    for (int e = 0; e < 3; e++) {
      if (ends[e] >= big) continue;
      expect_reject_blob(c, ends[e], GrB_INVALID_OBJECT, "truncated");
      write_file(path, c, (size_t)ends[e]);
      expect_reject_file(path, GrB_INVALID_OBJECT, "truncated");
    }
  }
  // one byte too many
  uint8_t *d = malloc(size + 1);
  assert_non_null(d);
  memcpy(d, b, size);
  d[size] = 0;
  expect_reject_blob(d, size + 1, GrB_INVALID_OBJECT, "trailing");
  write_file(path, d, size + 1);
  expect_reject_file(path, GrB_INVALID_OBJECT, "trailing");
  free(d);
}

static void test_truncation(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = true;
  K2_Matrix A = random_matrix(2000, 3000, 10000, &fmt, 10);
  GrB_Index size, big;
  uint8_t *b = tiny_image(&size), *c = serialize(A, &big);
  truncations(b, size, c, big);
  free(b);
  free(c);
  b = tiny_v1_image(&size);
  c = v1_image(A, 8, 16, true, &big);
  truncations(b, size, c, big);
  free(b);
  free(c);
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

static void test_magic_version_endian(void **state) {
  (void)state;
  GrB_Index size;
  uint8_t *b = tiny_image(&size);
  uint8_t *c = malloc(size);
  assert_non_null(c);
  const char *path = tmp_path("hdr.k2");

  memcpy(c, b, size);
  c[0] = 'X';
  k2_img_rehash(c);
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "magic");

  // a later version: said to be newer, with the versions this library reads (the message of
  // a version 1 reader for a version 2 file is "unsupported format version 2"); a version 2
  // image labelled version 1 has too few sections
  const struct {
    uint32_t version;
    const char *message;
  } versions[] = {{5, "format version 5 (offset 8) is newer"},
                  {3, "version 3 image without the compressed-leaves flag"},
                  {4, "version 4 image without the full-blocks flag"},
                  {0, "unsupported format version 0"},
                  {0x01000000, "unsupported format version"},
                  {1, "3 sections at offset 120, version 1 has 6"}};
  for (size_t k = 0; k < sizeof versions / sizeof versions[0]; k++) {
    memcpy(c, b, size);
    k2_img_wr32(c, H_VERSION, versions[k].version);
    k2_img_rehash(c);
    expect_reject_blob(c, size, GrB_INVALID_OBJECT, versions[k].message);
    if (k == 0) {
      write_file(path, c, size);
      expect_reject_file(path, GrB_INVALID_OBJECT, "reads versions 1 to 4");
    }
  }

  memcpy(c, b, size);
  k2_img_wr32(c, H_ENDIAN, 0x04030201);
  k2_img_rehash(c);
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "big-endian");

  memcpy(c, b, size);
  k2_img_wr32(c, H_ENDIAN, 0x01020305);
  k2_img_rehash(c);
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "endianness");

  memcpy(c, b, size);
  k2_img_wr32(c, H_FLAGS, 3);
  k2_img_rehash(c);
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "flags");

  memcpy(c, b, size);
  c[300] = 1;  // reserved
  k2_img_rehash(c);
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "reserved");

  memcpy(c, b, size);
  c[H_SUM] ^= 1;
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "header checksum");

  memcpy(c, b, size);
  c[sec_off(c, S_LEAVES)] ^= 2;
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "section leaves");

  memcpy(c, b, size);
  c[sec_off(c, S_LEAVES) - 1] = 7;  // padding before the leaves
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "padding byte");
  free(c);
  free(b);
}

static void test_foreign_files(void **state) {
  (void)state;
  const char *text = "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1\n";
  const char *p = tmp_path("text.k2");
  write_file(p, text, strlen(text));
  expect_reject_file(p, GrB_INVALID_OBJECT, "magic");
  p = tmp_path("empty.k2");
  write_file(p, "", 0);
  expect_reject_file(p, GrB_INVALID_OBJECT, "empty");
  uint8_t zeros[4096] = {0};
  p = tmp_path("zeros.k2");
  write_file(p, zeros, sizeof zeros);
  expect_reject_file(p, GrB_INVALID_OBJECT, "magic");
  // just the magic, then nothing
  p = tmp_path("magic.k2");
  write_file(p, "K2GRB\0\r\n", 8);
  expect_reject_file(p, GrB_INVALID_OBJECT, "truncated");
  // random bytes behind a correct magic
  uint8_t junk[1000];
  k2_rng r = {3};
  for (size_t k = 0; k < sizeof junk; k++) junk[k] = (uint8_t)k2_rng_next(&r);
  memcpy(junk, "K2GRB\0\r\n", 8);
  p = tmp_path("junk.k2");
  write_file(p, junk, sizeof junk);
  expect_reject_file(p, GrB_INVALID_OBJECT, NULL);
  expect_reject_blob(junk, sizeof junk, GrB_INVALID_OBJECT, NULL);
  // not regular files, missing files
  expect_reject_file("/dev/null", GrB_INVALID_OBJECT, "regular");
  expect_reject_file(tmpdir, GrB_INVALID_OBJECT, "regular");
  expect_reject_file(tmp_path("no-such-file.k2"), GrB_INVALID_VALUE, "cannot open");
  // blobs
  expect_reject_blob((const uint8_t *)text, strlen(text), GrB_INVALID_OBJECT, "magic");
  expect_reject_blob(zeros, 0, GrB_INVALID_OBJECT, "empty");
}

static void test_null_and_space(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  K2_Matrix A = random_matrix(50, 50, 100, &fmt, 4), B = NULL;
  GrB_Index size;
  uint8_t *b = serialize(A, &size);
  assert_int_equal(K2_Matrix_deserialize(NULL, b, size), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_deserialize(&B, NULL, size), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_load(NULL, "x"), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_load(&B, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_save(A, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_save(NULL, "x"), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_serializeSize(NULL, A), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_serializeSize(&size, NULL), GrB_NULL_POINTER);
  GrB_Index cap = size - 1;
  uint8_t *small = malloc(size);
  assert_non_null(small);
  memset(small, 0xaa, size);
  assert_int_equal(K2_Matrix_serialize(small, &cap, A), GrB_INSUFFICIENT_SPACE);
  assert_int_equal(cap, size - 1);
  assert_int_equal(small[0], 0xaa);
  cap = size;
  assert_int_equal(K2_Matrix_serialize(NULL, &cap, A), GrB_NULL_POINTER);
  assert_int_equal(K2_Matrix_serialize(small, NULL, A), GrB_NULL_POINTER);
  // a bigger capacity is fine; the size comes back
  uint8_t *big = malloc(size + 100);
  assert_non_null(big);
  cap = size + 100;
  K2_ASSERT_OK(K2_Matrix_serialize(big, &cap, A));
  assert_int_equal(cap, size);
  assert_memory_equal(big, b, size);
  // saving where no file can be created
  assert_int_equal(K2_Matrix_save(A, "/nonexistent-dir/x.k2"), GrB_INVALID_VALUE);
  // pending edits are part of the image
  K2_ASSERT_OK(K2_Matrix_setElement(A, 49, 49));
  K2_ASSERT_OK(K2_Matrix_serializeSize(&size, A));
  free(b);
  b = serialize(A, &size);
  K2_ASSERT_OK(K2_Matrix_deserialize(&B, b, size));
  bool present = false;
  K2_ASSERT_OK(K2_Matrix_isEntry(&present, B, 49, 49));
  assert_true(present);
  K2_ASSERT_OK(K2_Matrix_free(&B));
  free(big);
  free(small);
  free(b);
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

// ---- broken trees with valid checksums: k2_tree_check must catch them ------------------------

typedef struct {
  const char *name;
  int section;      // -1: header field
  uint64_t offset;  // word in the section, or header byte offset
  uint64_t value;   // new word (header: u64 unless size32)
  bool size32;
  const char *message;  // expected in the error message
} k2_corruption;

static void corrupt_each(const uint8_t *b, GrB_Index size, const k2_corruption *cases, size_t n) {
  uint8_t *c = malloc(size);
  assert_non_null(c);
  for (size_t k = 0; k < n; k++) {
    const k2_corruption *x = &cases[k];
    memcpy(c, b, size);
    if (x->section >= 0) set_sec_word(c, x->section, x->offset, x->value);
    else if (x->size32) k2_img_wr32(c, x->offset, (uint32_t)x->value);
    else k2_img_wr64(c, x->offset, x->value);
    k2_img_rehash(c);
    K2_Matrix B = NULL;
    GrB_Info info = K2_Matrix_deserialize(&B, c, size);
    if (info != GrB_INVALID_OBJECT || strstr(K2_error_string(), x->message) == NULL) {
      print_error("case \"%s\" (version %u): info %d, message \"%s\", expected \"%s\"\n", x->name,
                  k2_img_rd32(b, H_VERSION), (int)info, K2_error_string(), x->message);
      fail();
    }
    assert_null(B);
  }
  free(c);
}

static void test_broken_structure(void **state) {
  (void)state;
  // the arrays both versions store, and the header fields of version 2
  const k2_corruption cases[] = {
      // node 1 -> quadrant 1: columns 6-7 of a 5-column matrix
      {"child in the padding", S_SIG, 0, 0x28, false, "padding"},
      // the leaf's entry (4,5) lies beyond column 4
      {"entry outside", S_LEAVES, 0, 0x2, false, "outside"},
      {"empty signature", S_SIG, 0, 0x08, false, "empty signature"},
      {"extra child", S_SIG, 0, 0x98, false, "children"},
      {"signature padding", S_SIG, 0, 0x118, false, "padding bits after the last signature"},
      {"leaf padding", S_LEAVES, 0, 0x11, false, "padding bits after the last leaf"},
      {"empty leaf", S_LEAVES, 0, 0x0, false, "leaf 0 is empty"},
      {"extra entry", S_LEAVES, 0, 0x9, false, "nvals"},
      {"level_start end", S_LEVEL_START, 3, 4, false, "level_start[3]"},
      {"level_start root", S_LEVEL_START, 1, 2, false, "level_start[1] = 2, not 1"},
      {"level_start first", S_LEVEL_START, 0, 1, false, "level_start[0]"},
      {"nvals", -1, H_NVALS, 2, false, "nvals"},
      {"nvals above nrows*ncols", -1, H_NVALS, 26, false, "nvals"},
      {"levels", -1, H_LEVELS, 3, true, "levels"},
      {"side_log", -1, H_SIDE_LOG, 4, true, "side_log"},
      {"leaf_log", -1, H_LEAF_LOG, 4, true, "leaf_log"},
      {"dir_log", -1, H_DIR_LOG, 31, true, "dir_log"},
      {"dir_log below 4", -1, H_DIR_LOG, 3, true, "is not in 0 or 4..30"},
      {"top_max_log", -1, H_TOP_MAX_LOG, 31, true, "top_max_log"},
      {"shape", -1, H_NROWS, (UINT64_C(1) << 32) + 1, false, "exceeds 2^32"},
      {"n_leaves", -1, H_N_LEAVES, 17, false, "section leaves has"},
      {"n_internal", -1, H_N_INTERNAL, UINT64_MAX - 3, false, "overflow"},
      {"top level", -1, H_TOP_LEVEL, 1, true, "reserved header field at offset 72"},
      {"dir_len", -1, H_DIR_LEN, 1, false, "reserved header field at offset 96"},
      {"top_count", -1, H_TOP_COUNT, 1, false, "reserved header field at offset 104"},
      {"a fourth section", -1, H_TABLE + 3 * 24, 448, false, "reserved header byte 200"},
      {"file bytes", -1, H_FILE_BYTES, 10000, false, "header says"},
      {"section count", -1, H_NSECT, 6, true, "sections"},
      {"section offset", -1, H_TABLE + 24, 448, false, "section leaves starts at"},
  };
  GrB_Index size;
  uint8_t *b = tiny_image(&size);
  corrupt_each(b, size, cases, sizeof cases / sizeof cases[0]);
  // and the same through a file
  uint8_t *c = malloc(size);
  assert_non_null(c);
  memcpy(c, b, size);
  set_sec_word(c, S_SIG, 0, 0x28);
  k2_img_rehash(c);
  const char *path = tmp_path("broken.k2");
  write_file(path, c, size);
  expect_reject_file(path, GrB_INVALID_OBJECT, "structurally invalid");
  free(c);
  free(b);
}

// Version 1 images are checked as before: their stored directory, top and bottom codes too.
static void test_broken_structure_v1(void **state) {
  (void)state;
  const k2_corruption cases[] = {
      {"child in the padding", S_SIG, 0, 0x28, false, "padding"},
      {"extra entry", S_LEAVES, 0, 0x9, false, "nvals"},
      {"directory", S_DIR, 0, 2, false, "directory entry 0"},
      {"top code", S_TOP, 0, 2, false, "top code 0"},
      {"bottom code", S_BOTTOM, 0, 1, false, "bottom code 0"},
      {"top level", -1, H_TOP_LEVEL, 0, true, "top code"},
      {"dir_log", -1, H_DIR_LOG, 31, true, "dir_log"},
      {"dir_log 0", -1, H_DIR_LOG, 0, true, "is not in 4..30"},
      {"top_max_log", -1, H_TOP_MAX_LOG, 31, true, "top_max_log"},
      {"dir_len", -1, H_DIR_LEN, UINT64_C(1) << 60, false, "section dir has"},
      {"top_count", -1, H_TOP_COUNT, 0, false, "section top_codes has"},
      {"flag off with bottom codes", -1, H_FLAGS, 0, true, "bottom-codes flag is off"},
      {"section count", -1, H_NSECT, 5, true, "sections"},
      {"section offset", -1, H_TABLE + 24, 448, false, "section leaves starts at"},
  };
  GrB_Index size;
  uint8_t *b = tiny_v1_image(&size);
  corrupt_each(b, size, cases, sizeof cases / sizeof cases[0]);
  uint8_t *c = malloc(size);
  assert_non_null(c);
  // the top level and its code changed together: consistent tree, but not the level that
  // top_max_log picks
  memcpy(c, b, size);
  k2_img_wr32(c, H_TOP_LEVEL, 0);
  set_sec_word(c, S_TOP, 0, 0);
  k2_img_rehash(c);
  expect_reject_blob(c, size, GrB_INVALID_OBJECT, "top level 0");
  free(c);
  free(b);
  // a version 1 image without a directory or top codes: its writers always stored them
  K2_Matrix A = tiny_matrix();
  b = v1_image(A, 4, 16, false, &size);
  c = malloc(size);
  assert_non_null(c);
  memcpy(c, b, size);
  k2_img_wr64(c, H_DIR_LEN, 0);
  k2_img_wr64(c, H_TABLE + 24 * S_DIR + 8, 0);
  // the sections after it move up to the next 64-byte boundary: rebuild the tail
  uint64_t pos = sec_off(c, S_DIR);
  for (int s = S_TOP; s < NSECT; s++) {
    uint64_t off = (pos + 63) / 64 * 64;
    memmove(c + off, b + sec_off(b, s), sec_bytes(b, s));
    k2_img_wr64(c, H_TABLE + 24 * (size_t)s, off);
    pos = off + sec_bytes(b, s);
  }
  memset(c + pos, 0, size - pos);
  k2_img_wr64(c, H_FILE_BYTES, pos);
  for (uint64_t o = sec_off(c, S_DIR); o < sec_off(c, S_TOP); o++) c[o] = 0;
  k2_img_rehash(c);
  expect_reject_blob(c, pos, GrB_INVALID_OBJECT, "no directory: a version 1 image stores it");
  free(c);
  free(b);
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

// k2_tree_check accepts every tree the builder makes, and catches a moved subtree in a large
// one (two sibling subtrees swapped keeps every count and popcount right).
static void test_check_large(void **state) {
  (void)state;
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = true;
  for (uint32_t leaf_log = 1; leaf_log <= 3; leaf_log++) {
    fmt.leaf_log = leaf_log;
    K2_Matrix A = random_matrix(1001, 999, 30000, &fmt, 20 + leaf_log);
    K2_ASSERT_OK(K2_Matrix_wait(A));
    K2_ASSERT_OK(k2_tree_check(&A->tree));
    K2_ASSERT_OK(K2_Matrix_free(&A));
  }
  // a non-square matrix whose root has quadrants in the padding: move an entry's subtree there
  fmt.leaf_log = 1;
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new_format(&A, 1000, 10, &fmt));
  GrB_Index I[3] = {0, 500, 999}, J[3] = {0, 5, 9};
  K2_ASSERT_OK(K2_Matrix_build(A, I, J, 3));
  GrB_Index size;
  uint8_t *b = serialize(A, &size);
  // the root's signature (nibble 0) has only quadrants 0 and 2 (columns 0..511); turning
  // quadrant 2 into 3 keeps the counts but puts that subtree in columns 512..1023
  uint64_t w = sec_word(b, S_SIG, 0);
  assert_int_equal(w & 15, 5);
  set_sec_word(b, S_SIG, 0, (w & ~UINT64_C(15)) | 9);
  k2_img_rehash(b);
  expect_reject_blob(b, size, GrB_INVALID_OBJECT, "padding");
  free(b);
  K2_ASSERT_OK(K2_Matrix_free(&A));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_image),
      cmocka_unit_test(test_roundtrip_shapes),
      cmocka_unit_test(test_roundtrip_options),
      cmocka_unit_test(test_loaded_matrix_lifetime),
      cmocka_unit_test(test_file_changed_under_matrix),
      cmocka_unit_test(test_sealed_file_in_place),
      cmocka_unit_test(test_flip_every_byte),
      cmocka_unit_test(test_flip_sections_random),
      cmocka_unit_test(test_truncation),
      cmocka_unit_test(test_magic_version_endian),
      cmocka_unit_test(test_foreign_files),
      cmocka_unit_test(test_null_and_space),
      cmocka_unit_test(test_broken_structure),
      cmocka_unit_test(test_broken_structure_v1),
      cmocka_unit_test(test_version1_files),
      cmocka_unit_test(test_check_large),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
