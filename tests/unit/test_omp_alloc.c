// test_omp_alloc.c: allocation failures in the CPU engines, injected by src/util/k2_alloc.h.
// SPDX-License-Identifier: Apache-2.0
//
// With 2 and 4 OpenMP threads, a failed allocation of a worker thread or of the calling thread
// during a dense product (right, left, batched; plain tree, k²+B with Morton codes, k²+B with the
// decoded bottom level; a small tree on one thread), in strict mode and not, must end the call:
// GrB_OUT_OF_MEMORY with a message and y untouched (always where the scratch failed), or a
// correct y (where a cache of the matrix failed, which the product can do without); and the
// next product is correct (compared with the reference engine). A sweep fails each allocation
// of a first product, one by one. The tree build must also give the same tree from inside a
// caller's parallel region, where its team has one thread.
//
// Every case runs in a forked child under alarm(): a hang kills the child and fails the test
// instead of blocking the suite. The parent never starts OpenMP threads (libgomp's thread pool
// does not survive fork), so the children start from a clean runtime; they report through
// stderr and their exit code, not cmocka.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "k2_oracle.h"
#include "matrix/k2_matrix.h"
#include "util/k2_alloc.h"

#define CHILD_SECONDS 300  // a hang, not a slow machine: a child takes seconds (sanitized: tens)

// Run fn(arg) in a child process; fail if it hangs, dies of a signal or reports a failure.
static void in_child(const char *what, int (*fn)(const void *), const void *arg) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    alarm(CHILD_SECONDS);
    int rc = fn(arg);
    if (rc != 0) _exit(rc);
    exit(0);  // exit, not _exit: the sanitizer build checks the child for leaks
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(st)) {
    print_error("%s: %s\n", what,
                WTERMSIG(st) == SIGALRM ? "no return within the time limit (a hang)"
                                        : strsignal(WTERMSIG(st)));
    fail();
  }
  if (WEXITSTATUS(st) != 0) {
    print_error("%s: failed (exit %d)\n", what, WEXITSTATUS(st));
    fail();
  }
}

// A check inside a child: message on stderr, non-zero return.
#define CHECK(cond, ...)                                            \
  do {                                                              \
    if (!(cond)) {                                                  \
      fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);             \
      fprintf(stderr, __VA_ARGS__);                                 \
      fprintf(stderr, " [%s]\n", K2_error_string());                \
      return 1;                                                     \
    }                                                               \
  } while (0)

// ---- the products ------------------------------------------------------------------------------

typedef struct {
  const char *name;
  bool small;     // a tree small enough for one thread (below the engine's threshold)
  bool bottom_codes;  // k²+B: the Morton codes of the last internal level cached
  bool left;
  uint32_t batch;
  K2_DenseSemiring sr;  // plus-times or min-plus
  bool fp32;            // GrB_FP32, else GrB_FP64
  bool scratch;         // the warm product allocates scratch (false: the decoded bottom level)
} pcase;

static const pcase cases[] = {
    {"plain, right, plus-times", false, false, false, 1, K2_PLUS_TIMES, false, true},
    {"plain, left, plus-times", false, false, true, 1, K2_PLUS_TIMES, false, true},
    {"plain, left, min-plus", false, false, true, 1, K2_MIN_PLUS, false, true},
    {"k2+F codes, right, min-plus", false, true, false, 1, K2_MIN_PLUS, false, true},
    {"k2+F codes, left, min-plus", false, true, true, 1, K2_MIN_PLUS, false, true},
    {"k2+F decoded, right, plus-times", false, true, false, 1, K2_PLUS_TIMES, true, false},
    {"k2+F decoded, left, plus-times", false, true, true, 1, K2_PLUS_TIMES, false, false},
    {"plain, right, batch of 3", false, false, false, 3, K2_PLUS_TIMES, false, true},
    {"k2+F codes, left, batch of 3", false, true, true, 3, K2_MIN_PLUS, false, true},
    {"small k2+F, right, min-plus", true, true, false, 1, K2_MIN_PLUS, false, true},
};
#define NCASES (sizeof cases / sizeof cases[0])

#define N_LARGE (UINT64_C(1) << 17)
#define N_SMALL UINT64_C(2000)

// The matrix of a case: random pairs, above (or below) the engine's one-thread threshold of
// 32768 leaves; checked, so that the large cases do run on a team.
static int make_matrix(K2_Matrix *A, const pcase *c) {
  k2_rng rng = {c->small ? 11 : 12};
  uint64_t n = c->small ? N_SMALL : N_LARGE, nv = c->small ? 3000 : 150000;
  uint32_t *I = malloc(nv * sizeof *I), *J = malloc(nv * sizeof *J);
  CHECK(I != NULL && J != NULL, "no memory for the pairs");
  for (uint64_t k = 0; k < nv; k++) {
    I[k] = (uint32_t)k2_rng_below(&rng, n);
    J[k] = (uint32_t)k2_rng_below(&rng, n);
  }
  K2_Format fmt;
  K2_Format_default(&fmt);
  fmt.cache_bottom_codes = c->bottom_codes;
  GrB_Info info = K2_Matrix_new_format(A, n, n, &fmt);
  if (info == GrB_SUCCESS) info = K2_Matrix_build_32(*A, I, J, nv);
  free(I);
  free(J);
  CHECK(info == GrB_SUCCESS, "building the matrix: %d", (int)info);
  const uint64_t leaves = (*A)->tree.n_leaves;
  CHECK(c->small ? leaves < 32768 : leaves >= 32768, "%llu leaves: not the intended path",
        (unsigned long long)leaves);
  return 0;
}


// The dense product of a case into y (x of the right length; values small multiples of 1/8,
// so every sum is exact whatever the order).
static GrB_Info product(void *y, K2_Matrix A, const void *x, const pcase *c) {
  GrB_Type type = c->fp32 ? GrB_FP32 : GrB_FP64;
  if (c->batch > 1) return K2_dense_mxm(y, A, x, c->batch, c->left, c->sr, type);
  if (c->left) return K2_dense_vxm(y, x, A, c->sr, type);
  return K2_dense_mxv(y, A, x, c->sr, type);
}

typedef struct {
  K2_Matrix A;
  void *x, *y, *want, *saved;
  size_t ybytes;
} ctx;

static void ctx_free(ctx *t) {
  K2_Matrix_free(&t->A);
  free(t->x);
  free(t->y);
  free(t->want);
  free(t->saved);
}

// A matrix, x, and the reference engine's y (the expected result).
static int ctx_new(ctx *t, const pcase *c) {
  memset(t, 0, sizeof *t);
  if (make_matrix(&t->A, c) != 0) return 1;
  const uint64_t n = c->small ? N_SMALL : N_LARGE, len = n * c->batch;
  const size_t sz = c->fp32 ? 4 : 8;
  t->ybytes = len * sz;
  t->x = malloc(len * sz);
  t->y = malloc(len * sz);
  t->want = malloc(len * sz);
  t->saved = malloc(len * sz);
  CHECK(t->x && t->y && t->want && t->saved, "no memory for the vectors");
  for (uint64_t i = 0; i < len; i++) {
    double v = (double)((i * 2654435761u) % 97) / 8.0;
    if (c->fp32) ((float *)t->x)[i] = (float)v;
    else ((double *)t->x)[i] = v;
  }
  CHECK(K2_set_engine(K2_ENGINE_REFERENCE) == GrB_SUCCESS, "engine");
  CHECK(product(t->want, t->A, t->x, c) == GrB_SUCCESS, "%s: the reference product failed", c->name);
  CHECK(K2_set_engine(K2_ENGINE_OPENMP) == GrB_SUCCESS, "engine");
  return 0;
}

// One product of the OpenMP engine, its outcome checked: a correct y, or (allowed when
// may_fail) GrB_OUT_OF_MEMORY with a message and y as it was.
static int run_checked(ctx *t, const pcase *c, bool may_fail, GrB_Info *out, const char *when) {
  memset(t->y, 0xA5, t->ybytes);  // not a value any product writes
  memcpy(t->saved, t->y, t->ybytes);
  GrB_Info info = product(t->y, t->A, t->x, c);
  *out = info;
  if (info == GrB_SUCCESS) {
    CHECK(memcmp(t->y, t->want, t->ybytes) == 0, "%s, %s: y differs from the reference engine's",
          c->name, when);
    CHECK(K2_last_engine() == K2_ENGINE_OPENMP, "%s, %s: ran on %s", c->name, when,
          K2_engine_name(K2_last_engine()));
    return 0;
  }
  CHECK(may_fail, "%s, %s: returned %d", c->name, when, (int)info);
  CHECK(info == GrB_OUT_OF_MEMORY, "%s, %s: returned %d, not GrB_OUT_OF_MEMORY", c->name, when,
        (int)info);
  CHECK(strstr(K2_error_string(), "memory") != NULL, "%s, %s: message does not say why",
        c->name, when);
  CHECK(memcmp(t->y, t->saved, t->ybytes) == 0, "%s, %s: y was written by a failed product",
        c->name, when);
  return 0;
}

static int child_start(int threads, bool strict) {
  if (K2_init() != GrB_SUCCESS) return 1;
  omp_set_num_threads(threads);
  return K2_set_strict(strict) == GrB_SUCCESS ? 0 : 1;
}

static int child_end(void) { return K2_finalize() == GrB_SUCCESS ? 0 : 1; }

// ---- one injected failure in a warm product ----------------------------------------------------

typedef struct {
  int threads;
  bool worker;  // fail a worker thread's next allocation; else the calling thread's first
} inject_arg;

static int child_inject(const void *argp) {
  const inject_arg *a = argp;
  if (child_start(a->threads, false) != 0) return 1;
  for (size_t ci = 0; ci < NCASES; ci++) {
    const pcase *c = &cases[ci];
    ctx t;
    if (ctx_new(&t, c) != 0) return 1;
    for (int strict = 1; strict >= 0; strict--) {
      CHECK(K2_set_strict(strict) == GrB_SUCCESS, "strict mode");
      GrB_Info info;
      // warm: the matrix's plan and decoded bottom level are cached, what is left is the scratch
      if (run_checked(&t, c, false, &info, "before the injection") != 0) return 1;
      if (a->worker) k2_alloc_fail_other_thread();
      else k2_alloc_fail_nth(1);
      int rc = run_checked(&t, c, true, &info, a->worker ? "a worker's allocation failed"
                                                         : "the caller's allocation failed");
      const uint64_t fired = k2_alloc_failures();
      k2_alloc_disarm();
      if (rc != 0) return 1;
      if (!a->worker) {
        // the calling thread's first allocation is the scratch: it failed, so did the product
        CHECK(fired == (c->scratch ? 1u : 0u), "%s: %llu failures injected", c->name,
              (unsigned long long)fired);
        if (fired) CHECK(info == GrB_OUT_OF_MEMORY, "%s: succeeded without its scratch", c->name);
      }
      CHECK(fired || info == GrB_SUCCESS, "%s: failed with nothing failing", c->name);
      if (run_checked(&t, c, false, &info, "after the injection") != 0) return 1;
    }
    ctx_free(&t);
  }
  return child_end();
}

static void inject_case(int threads, bool worker) {
  char what[128];
  snprintf(what, sizeof what, "%d threads, %s allocation failing", threads,
           worker ? "a worker's" : "the caller's");
  inject_arg a = {threads, worker};
  in_child(what, child_inject, &a);
}

static void test_worker_fails_2(void **state) {
  (void)state;
  inject_case(2, true);
}

static void test_worker_fails_4(void **state) {
  (void)state;
  inject_case(4, true);
}

static void test_caller_fails_2(void **state) {
  (void)state;
  inject_case(2, false);
}

static void test_caller_fails_4(void **state) {
  (void)state;
  inject_case(4, false);
}

// ---- every allocation of a first product, one at a time ------------------------------------------

typedef struct {
  int threads;
  size_t ci;
} sweep_arg;

// The first product on a copy of the matrix (a copy has no cached plan or decoded bottom level),
// with allocation n failing (0: none, counting them), checked; then a product with nothing
// failing. *fired: the failures injected.
static int first_product(ctx *t, const pcase *c, uint64_t n, uint64_t *fired, const char *when) {
  K2_Matrix A = t->A, B = NULL;
  CHECK(K2_Matrix_dup(&B, A) == GrB_SUCCESS, "copying the matrix");
  t->A = B;
  if (n == 0) k2_alloc_count_start();
  else k2_alloc_fail_nth(n);
  GrB_Info info;
  int rc = run_checked(t, c, n > 0, &info, when);
  *fired = k2_alloc_failures();
  k2_alloc_disarm();
  if (rc == 0 && *fired == 0 && info != GrB_SUCCESS) {
    fprintf(stderr, "  %s, %s: failed with nothing failing\n", c->name, when);
    rc = 1;
  }
  if (rc == 0) rc = run_checked(t, c, false, &info, "the product after");
  t->A = A;
  K2_Matrix_free(&B);
  return rc;
}

static int child_sweep(const void *argp) {
  const sweep_arg *a = argp;
  const pcase *c = &cases[a->ci];
  if (child_start(a->threads, true) != 0) return 1;
  ctx t;
  if (ctx_new(&t, c) != 0) return 1;
  // how many allocations the first product makes (plan, decoded bottom level, scratch)
  uint64_t fired;
  if (first_product(&t, c, 0, &fired, "counting") != 0) return 1;
  const uint64_t total = k2_alloc_count();
  CHECK(total >= 2, "%s: %llu allocations: the sweep would test nothing", c->name,
        (unsigned long long)total);
  printf("  %s, %d threads: %llu allocations in a first product\n", c->name, a->threads,
         (unsigned long long)total);
  for (uint64_t n = 1; n <= total + 1; n++) {
    char when[64];
    snprintf(when, sizeof when, "allocation %llu of %llu failing", (unsigned long long)n,
             (unsigned long long)total);
    if (first_product(&t, c, n, &fired, when) != 0) return 1;
    CHECK(fired == (n <= total), "%s, %s: %llu failures injected", c->name, when,
          (unsigned long long)fired);
  }
  ctx_free(&t);
  return child_end();
}

static void test_sweep(void **state) {
  (void)state;
  const size_t swept[] = {0, 6, 8, 9};  // plain right; decoded left; batch k2+F left; small
  for (int threads = 2; threads <= 4; threads += 2)
    for (size_t s = 0; s < sizeof swept / sizeof swept[0]; s++) {
      char what[128];
      snprintf(what, sizeof what, "sweep, %s, %d threads", cases[swept[s]].name, threads);
      sweep_arg a = {threads, swept[s]};
      in_child(what, child_sweep, &a);
    }
}

// ---- the tree build inside a caller's parallel region ------------------------------------------

// A parallel region nested in an active one runs on a team of one thread while
// omp_get_max_threads() still says 2: the build must not count on the team it asked for.
static int child_nested_build(const void *argp) {
  (void)argp;
  if (child_start(2, false) != 0) return 1;
  const pcase *c = &cases[0];
  ctx t;
  if (ctx_new(&t, c) != 0) return 1;  // built outside any region: the expected tree
  K2_Matrix B = NULL;
  GrB_Info info = GrB_SUCCESS;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    info = make_matrix(&B, c) == 0 ? GrB_SUCCESS : GrB_PANIC;
  }
  CHECK(info == GrB_SUCCESS, "the build inside a parallel region failed");
  GrB_Index na = 0, nb = 0;
  CHECK(K2_Matrix_nvals(&na, t.A) == GrB_SUCCESS && K2_Matrix_nvals(&nb, B) == GrB_SUCCESS, "nvals");
  CHECK(na == nb, "%llu entries, %llu outside a region", (unsigned long long)nb, (unsigned long long)na);
  K2_Matrix A0 = t.A;
  t.A = B;  // the same product on the tree built inside the region
  if (run_checked(&t, c, false, &info, "tree built inside a parallel region") != 0) return 1;
  t.A = A0;
  K2_Matrix_free(&B);
  ctx_free(&t);
  return child_end();
}

static void test_nested_build(void **state) {
  (void)state;
  in_child("a build inside a parallel region", child_nested_build, NULL);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_worker_fails_2), cmocka_unit_test(test_worker_fails_4),
      cmocka_unit_test(test_caller_fails_2), cmocka_unit_test(test_caller_fails_4),
      cmocka_unit_test(test_sweep),          cmocka_unit_test(test_nested_build),
  };
  // no group setup: the children initialise the library (see the header)
  return cmocka_run_group_tests(tests, NULL, NULL);
}
