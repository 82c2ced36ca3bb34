// test_cli_memory.c: `k2grb bfs` under a limit on its address space (RLIMIT_AS), on 1, 2 and 4
// OpenMP threads, over a range of limits: every run ends (no hang, no crash) with success or one
// clear error line. Limits too small to load the shared libraries are counted, not judged; so
// is libgomp ending the process because it could not start a thread ("libgomp: Thread creation
// failed"), which no program can catch.
//
// The sanitizer builds reserve terabytes of address space for their shadow memory, so no limit
// can be set there: the test skips.
// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE 1  // mkdtemp
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "k2_oracle.h"

#ifndef K2GRB_CLI
#define K2GRB_CLI "k2grb"
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define K2_NO_RLIMIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define K2_NO_RLIMIT 1
#endif
#endif

#define RUN_SECONDS 120  // a hang, not a slow machine: a run takes a fraction of a second

static char tmpdir[256];

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return calloc(1, 1);
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = calloc((size_t)len + 1, 1);
  if (fread(s, 1, (size_t)len, f) != (size_t)len) s[0] = '\0';
  fclose(f);
  return s;
}

// `k2grb bfs graph --source 0` with `threads` OpenMP threads and an address-space limit of
// `mb` MiB (0: none); the wait status, stderr in *err (to free).
static int run_bfs(const char *graph, int threads, unsigned mb, char **err) {
  char out_path[512], err_path[512], nthreads[16];
  snprintf(out_path, sizeof out_path, "%s/out.txt", tmpdir);
  snprintf(err_path, sizeof err_path, "%s/err.txt", tmpdir);
  snprintf(nthreads, sizeof nthreads, "%d", threads);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    // only what is safe after fork in a process with threads, then exec
    int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
    if (mb > 0) {
      struct rlimit r = {(rlim_t)mb << 20, (rlim_t)mb << 20};
      if (setrlimit(RLIMIT_AS, &r) != 0) _exit(126);
    }
    if (setenv("OMP_NUM_THREADS", nthreads, 1) != 0) _exit(126);
    // the OpenMP engine under the limit, also where the suite forces the CUDA engine (a CUDA
    // context does not start in a few hundred MiB of address space)
    if (setenv("K2GRB_ENGINE", "openmp", 1) != 0 || unsetenv("K2GRB_STRICT") != 0) _exit(126);
    alarm(RUN_SECONDS);  // kept across exec: a hang ends in SIGALRM
    execl(K2GRB_CLI, K2GRB_CLI, "bfs", graph, "--source", "0", (char *)NULL);
    _exit(126);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  *err = slurp(err_path);
  return st;
}

static void test_bfs_under_memory_limits(void **state) {
  (void)state;
  // a random graph above the OpenMP engine's one-thread threshold, saved as .k2
  k2_rng rng = {5};
  k2_coo_list L;
  k2_coo_random(&L, 1u << 16, 1u << 16, 300000, &rng);
  K2_Matrix A = k2_test_matrix(&L, NULL);
  char graph[512];
  snprintf(graph, sizeof graph, "%s/random.k2", tmpdir);
  K2_ASSERT_OK(K2_Matrix_save(A, graph));
  K2_Matrix_free(&A);
  k2_coo_free(&L);

  char *err = NULL;
  int st = run_bfs(graph, 2, 0, &err);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    print_error("k2grb bfs without a limit: status %d, stderr: %s\n", st, err);
    fail();
  }
  free(err);

  unsigned ok = 0, clean = 0, not_loaded = 0, libgomp = 0;
  for (int threads = 1; threads <= 4; threads *= 2)
    for (unsigned mb = 128; mb <= 384; mb += 16) {
      st = run_bfs(graph, threads, mb, &err);
      if (WIFSIGNALED(st)) {
        print_error("k2grb bfs, %d threads, %u MiB: %s; stderr: %s\n", threads, mb,
                    WTERMSIG(st) == SIGALRM ? "no exit within the time limit (a hang)"
                                            : strsignal(WTERMSIG(st)),
                    err);
        fail();
      }
      const int rc = WEXITSTATUS(st);
      if (rc == 0) {
        ok++;
      } else if (rc == 127 && strstr(err, "error while loading shared libraries") != NULL) {
        not_loaded++;
      } else if (strstr(err, "libgomp: Thread creation failed") != NULL) {
        libgomp++;
      } else if (rc == 1 && strncmp(err, "k2grb", 5) == 0 &&
                 strchr(err, '\n') == err + strlen(err) - 1) {
        clean++;  // one line, naming the tool
      } else {
        print_error("k2grb bfs, %d threads, %u MiB: exit %d without one clear error line; "
                    "stderr: %s\n", threads, mb, rc, err);
        fail();
      }
      free(err);
    }
  print_message("k2grb bfs under limits of 128..384 MiB: %u succeeded, %u clean errors, %u ended "
                "by libgomp, %u could not load\n", ok, clean, libgomp, not_loaded);
  assert_true(ok > 0);  // the largest limits are enough
}

int main(void) {
#ifdef K2_NO_RLIMIT
  printf("sanitizer build: no address-space limit can be set, skipped\n");
  return K2_TEST_SKIP;
#endif
  k2_test_filter_from_env();
  snprintf(tmpdir, sizeof tmpdir, "/tmp/k2grb_cli_memory_XXXXXX");
  if (mkdtemp(tmpdir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bfs_under_memory_limits),
  };
  int rc = cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) rc = rc ? rc : 1;
  return rc;
}
