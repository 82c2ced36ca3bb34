// test_durable.c: every writer (edge list and Matrix Market, plain and gzip, .k2, K2_OutFile)
// replaces its target whole or not at all: a write that fails midway (a file size limit, in a
// child process), /dev/full, a child killed while it writes (SIGKILL at several points); the
// permissions a write gives (umask, a replaced file's mode and owner, a read-only target,
// symbolic links); temporaries: refused by the readers, stale ones removed by the next write,
// live (locked) ones kept, and K2_OutFile_removeTemporaries. The write tests run twice: with the
// unnamed temporary (O_TMPFILE) and with the named one other file systems get
// (K2GRB_WRITE_NAMED_TEMP=1).
// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "io_test_util.h"

enum { W_EL, W_EL_GZ, W_MTX, W_MTX_GZ, W_K2, W_OUT, NW };
static const char *const wname[NW] = {"g.el", "g.el.gz", "g.mtx", "g.mtx.gz", "g.k2", "result.txt"};

// Graphs: 0 and 1 small and different, 2 large enough that writing it takes a moment.
static K2_Edges graph[3];
static K2_Matrix tree[3];
static char tdir[512];

static int setup(void **state) {
  if (k2_test_setup(state) != 0) return -1;
  K2_RmatParams p;
  for (int g = 0; g < 3; g++) {
    K2_RmatParams_default(&p, g == 2 ? 16 : 9);
    p.seed = (uint64_t)g + 1;
    if (K2_Gen_rmat(&graph[g], &p) != GrB_SUCCESS) return -1;
    if (K2_Matrix_new(&tree[g], graph[g].nrows, graph[g].ncols) != GrB_SUCCESS) return -1;
    if (K2_Matrix_build_32(tree[g], graph[g].I, graph[g].J, graph[g].nvals) != GrB_SUCCESS) return -1;
    if (K2_Matrix_wait(tree[g]) != GrB_SUCCESS) return -1;
  }
  // the folder, as the kernel names it (compared with the links in /proc); others may enter it
  // (the read-only test runs a child as another user)
  const char *any = io_tmp_path("x");
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", any);
  *strrchr(dir, '/') = '\0';
  char *real = realpath(dir, NULL);
  if (real == NULL || strlen(real) >= sizeof tdir) return -1;
  snprintf(tdir, sizeof tdir, "%s", real);
  free(real);
  if (chmod(tdir, 0755) != 0) return -1;
  return 0;
}

static int teardown(void **state) {
  for (int g = 0; g < 3; g++) {
    K2_Matrix_free(&tree[g]);
    K2_Edges_free(&graph[g]);
  }
  io_tmp_cleanup();
  return k2_test_teardown(state);
}

static void path_of(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", tdir, name); }

static GrB_Info do_write(int w, const char *path, int g) {
  const K2_Edges *E = &graph[g];
  switch (w) {
    case W_EL:
    case W_EL_GZ: return K2_Edges_writeEdgeList(E, path);
    case W_MTX:
    case W_MTX_GZ: return K2_Edges_writeMatrixMarket(E, path);
    case W_K2: return K2_Matrix_save(tree[g], path);
    default: {
      K2_OutFile f;
      FILE *s;
      GrB_Info info = K2_OutFile_open(&f, &s, path);
      if (info != GrB_SUCCESS) return info;
      for (GrB_Index e = 0; e < E->nvals; e++) fprintf(s, "%u %u\n", E->I[e], E->J[e]);
      return K2_OutFile_commit(&f);
    }
  }
}

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc((size_t)len + 1);
  assert_non_null(b);
  assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  *n = (size_t)len;
  return b;
}

static bool same_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  return a != NULL && b != NULL && na == nb && memcmp(a, b, na) == 0;
}

static int count_temps(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) n += strstr(e->d_name, ".k2tmp.") != NULL;
  closedir(d);
  return n;
}

static mode_t mode_of(const char *path) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  return st.st_mode & 07777;
}

// Run the test body with the unnamed temporary, then with the named one.
static void each_mode(void (*body)(void)) {
  unsetenv("K2GRB_WRITE_NAMED_TEMP");
  body();
  setenv("K2GRB_WRITE_NAMED_TEMP", "1", 1);
  body();
  unsetenv("K2GRB_WRITE_NAMED_TEMP");
}

// fn(w, path) in a forked child, which only writes (no OpenMP after fork); its exit code, or
// 128 + the signal that ended it.
static int in_child(int (*fn)(int, const char *), int w, const char *path) {
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) _exit(fn(w, path));
  int st;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

//----------------------------------------------------------------------------------------------
// failures midway
//----------------------------------------------------------------------------------------------

// The large graph under a 64 KiB file size limit: the writer must fail, naming the path.
static int write_limited(int w, const char *path) {
  signal(SIGXFSZ, SIG_IGN);  // a write past the limit then fails with EFBIG
  struct rlimit rl = {64 << 10, 64 << 10};
  if (setrlimit(RLIMIT_FSIZE, &rl) != 0) return 10;
  GrB_Info info = do_write(w, path, 2);
  const char *msg = K2_error_string();
  if (info != GrB_INVALID_VALUE || strstr(msg, path) == NULL || strstr(msg, strerror(EFBIG)) == NULL) {
    fprintf(stderr, "%s: info %d, message '%s'\n", wname[w], (int)info, msg);
    return 11;
  }
  return 0;
}

static void fails_midway(void) {
  for (int w = 0; w < NW; w++) {
    char path[1024];
    path_of(path, sizeof path, wname[w]);
    K2_ASSERT_OK(do_write(w, path, 0));
    size_t n0, n1;
    uint8_t *old = slurp(path, &n0);
    assert_int_equal(in_child(write_limited, w, path), 0);
    uint8_t *now = slurp(path, &n1);
    if (!same_bytes(old, n0, now, n1)) fail_msg("%s: the old file changed (%zu -> %zu bytes)", wname[w], n0, n1);
    assert_int_equal(count_temps(tdir), 0);
    free(old);
    free(now);
    // a new target stays absent
    assert_int_equal(unlink(path), 0);
    assert_int_equal(in_child(write_limited, w, path), 0);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(count_temps(tdir), 0);
  }
}

static void test_fails_midway(void **state) {
  (void)state;
  each_mode(fails_midway);
}

// Devices are written in place: /dev/full fails cleanly, /dev/null takes everything.
static void devices(void) {
  for (int w = 0; w < NW; w++) {
    GrB_Info info = do_write(w, "/dev/full", 0);
    if (info != GrB_INVALID_VALUE || strstr(K2_error_string(), "/dev/full") == NULL ||
        strstr(K2_error_string(), strerror(ENOSPC)) == NULL) {
      fail_msg("%s to /dev/full: %d '%s'", wname[w], (int)info, K2_error_string());
    }
    K2_ASSERT_OK(do_write(w, "/dev/null", 0));
  }
  struct stat st;
  assert_int_equal(stat("/dev/null", &st), 0);
  assert_true(S_ISCHR(st.st_mode));  // never replaced by a file
}

static void test_devices(void **state) {
  (void)state;
  each_mode(devices);
}

//----------------------------------------------------------------------------------------------
// kills
//----------------------------------------------------------------------------------------------

// Bytes the child has written so far into a temporary in tdir (-1: none open): its descriptors
// in /proc, a named temporary or an unnamed one ("tdir/#123 (deleted)").
static long long child_temp_bytes(pid_t pid) {
  char fddir[64];
  snprintf(fddir, sizeof fddir, "/proc/%d/fd", (int)pid);
  DIR *d = opendir(fddir);
  if (d == NULL) return -1;
  long long bytes = -1;
  size_t dlen = strlen(tdir);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    char fd[320], link[PATH_MAX];
    snprintf(fd, sizeof fd, "%s/%s", fddir, e->d_name);
    ssize_t n = readlink(fd, link, sizeof link - 1);
    if (n <= 0) continue;
    link[n] = '\0';
    if (strncmp(link, tdir, dlen) != 0 || link[dlen] != '/') continue;
    struct stat st;
    if (stat(fd, &st) == 0 && (long long)st.st_size > bytes) bytes = (long long)st.st_size;
  }
  closedir(d);
  return bytes;
}

static int write_large(int w, const char *path) { return do_write(w, path, 2) == GrB_SUCCESS ? 0 : 1; }

static int kills_mid, kills_total;

static void killed(void) {
  const int ws[] = {W_EL, W_MTX_GZ, W_K2, W_OUT};
  const double at[] = {0, 0.5};  // fraction of the file written when the child is killed
  for (size_t k = 0; k < sizeof ws / sizeof ws[0]; k++) {
    int w = ws[k];
    char path[1024], ref[1024], name[64];
    path_of(path, sizeof path, wname[w]);
    snprintf(name, sizeof name, "ref-%s", wname[w]);
    path_of(ref, sizeof ref, name);
    K2_ASSERT_OK(do_write(w, ref, 2));
    size_t nn, n0, n1;
    uint8_t *fresh = slurp(ref, &nn);
    for (size_t a = 0; a < sizeof at / sizeof at[0]; a++) {
      K2_ASSERT_OK(do_write(w, path, 0));
      uint8_t *old = slurp(path, &n0);
      fflush(NULL);
      pid_t pid = fork();
      assert_true(pid >= 0);
      if (pid == 0) _exit(write_large(w, path));
      int st = 0;
      bool done = false, kill_sent = false;
      long long seen = -1;
      while (!done) {
        seen = child_temp_bytes(pid);
        if (seen >= 0 && (double)seen >= at[a] * (double)nn) {
          kill(pid, SIGKILL);
          kill_sent = true;
          break;
        }
        done = waitpid(pid, &st, WNOHANG) == pid;
        struct timespec ts = {0, 100 * 1000};
        if (!done) nanosleep(&ts, NULL);
      }
      if (!done) assert_int_equal(waitpid(pid, &st, 0), pid);
      uint8_t *now = slurp(path, &n1);
      bool is_old = same_bytes(now, n1, old, n0), is_new = same_bytes(now, n1, fresh, nn);
      if (!is_old && !is_new) {
        fail_msg("%s killed at %lld of %zu bytes: the target has %zu bytes, neither the old file "
                 "nor the new one", wname[w], seen, nn, now ? n1 : 0);
      }
      if (kill_sent && WIFSIGNALED(st)) {
        kills_total++;
        kills_mid += is_old;
      }
      free(old);
      free(now);
      // the next write leaves no temporary behind (a named one of the killed child included)
      K2_ASSERT_OK(do_write(w, path, 1));
      assert_int_equal(count_temps(tdir), 0);
    }
    free(fresh);
  }
}

static void test_killed(void **state) {
  (void)state;
  kills_mid = kills_total = 0;
  each_mode(killed);
  print_message("%d of %d children killed mid-write; every target was the old or the new file\n",
                kills_mid, kills_total);
}

//----------------------------------------------------------------------------------------------
// permissions
//----------------------------------------------------------------------------------------------

// A read-only file is refused, with a message naming it.
static int write_refused(int w, const char *path) {
  GrB_Info info = do_write(w, path, 1);
  if (info != GrB_INVALID_VALUE || strstr(K2_error_string(), path) == NULL ||
      strstr(K2_error_string(), "not writable") == NULL) {
    fprintf(stderr, "%s: info %d, message '%s'\n", wname[w], (int)info, K2_error_string());
    return 21;
  }
  return 0;
}

// The same as another user (in a child of a test run by root, who may write any file);
// K2_TEST_SKIP where root cannot become another user (a user namespace without that id).
static int write_as_nobody(int w, const char *path) {
  if (setgid(65534) != 0 || setuid(65534) != 0) return K2_TEST_SKIP;
  return write_refused(w, path);
}

static void permissions(void) {
  for (int w = 0; w < NW; w++) {
    char path[1024];
    path_of(path, sizeof path, wname[w]);
    unlink(path);
    // a new file: 0666 & ~umask
    mode_t mask = umask(077);
    GrB_Info info = do_write(w, path, 0);
    umask(mask);
    K2_ASSERT_OK(info);
    assert_int_equal(mode_of(path), 0600);
    assert_int_equal(unlink(path), 0);
    mask = umask(022);
    info = do_write(w, path, 0);
    umask(mask);
    K2_ASSERT_OK(info);
    assert_int_equal(mode_of(path), 0644);
    // a replaced file keeps its mode, whatever the umask
    const mode_t modes[] = {0600, 0640, 0604};
    for (int m = 0; m < 3; m++) {
      assert_int_equal(chmod(path, modes[m]), 0);
      K2_ASSERT_OK(do_write(w, path, m % 2));
      assert_int_equal(mode_of(path), modes[m]);
    }
    // a read-only file: refused and untouched (root may write it: then it keeps its mode, and a
    // child running as another user checks the refusal)
    assert_int_equal(chmod(path, 0444), 0);
    size_t n0, n1;
    uint8_t *old = slurp(path, &n0);
    if (geteuid() != 0) {
      assert_int_equal(write_refused(w, path), 0);
    } else {
      int rc = in_child(write_as_nobody, w, path);
      if (rc == K2_TEST_SKIP && w == 0) print_message("cannot run as uid 65534: refusal not checked\n");
      if (rc != K2_TEST_SKIP) assert_int_equal(rc, 0);
    }
    uint8_t *now = slurp(path, &n1);
    assert_true(same_bytes(old, n0, now, n1));
    assert_int_equal(count_temps(tdir), 0);
    if (geteuid() == 0) {
      K2_ASSERT_OK(do_write(w, path, 1));
      assert_int_equal(mode_of(path), 0444);
      // and the owner and group of a file written by someone else (where root may give it)
      if (chown(path, 65534, 65534) == 0) {
        K2_ASSERT_OK(do_write(w, path, 0));
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_uid, 65534);
        assert_int_equal(st.st_gid, 65534);
        assert_int_equal(st.st_mode & 07777, 0444);
      }
    }
    free(old);
    free(now);
    assert_int_equal(chmod(path, 0644), 0);
  }
}

static void test_permissions(void **state) {
  (void)state;
  each_mode(permissions);
}

// A symbolic link is followed: the link stays, its final target gets the content (a dangling
// link creates the file it names, as cp does); the temporary lives in the target's folder.
static void symlinks(void) {
  char sub[1024];
  path_of(sub, sizeof sub, "sub");
  mkdir(sub, 0755);
  for (int w = 0; w < NW; w++) {
    char real[1200], link[1024], chain[1024], rel[128], name[128];
    snprintf(rel, sizeof rel, "real-%s", wname[w]);
    snprintf(real, sizeof real, "%s/%s", sub, rel);
    snprintf(name, sizeof name, "link-%s", wname[w]);
    path_of(link, sizeof link, name);
    snprintf(name, sizeof name, "chain-%s", wname[w]);
    path_of(chain, sizeof chain, name);
    unlink(real);
    unlink(link);
    unlink(chain);
    K2_ASSERT_OK(do_write(w, real, 0));
    char target[256];
    snprintf(target, sizeof target, "sub/%s", rel);  // relative to the link's folder
    assert_int_equal(symlink(target, link), 0);
    snprintf(target, sizeof target, "link-%s", wname[w]);
    assert_int_equal(symlink(target, chain), 0);  // a link to a link
    for (int g = 1; g >= 0; g--) {
      K2_ASSERT_OK(do_write(w, g ? link : chain, g));
      struct stat st;
      assert_int_equal(lstat(link, &st), 0);
      assert_true(S_ISLNK(st.st_mode));
      assert_int_equal(lstat(chain, &st), 0);
      assert_true(S_ISLNK(st.st_mode));
      char ref[1024];
      snprintf(name, sizeof name, "ref-%s", wname[w]);  // the same suffix: the same format
      path_of(ref, sizeof ref, name);
      K2_ASSERT_OK(do_write(w, ref, g));
      size_t na, nb;
      uint8_t *a = slurp(real, &na), *b = slurp(ref, &nb);
      assert_true(same_bytes(a, na, b, nb));
      free(a);
      free(b);
      assert_int_equal(unlink(ref), 0);
    }
    // dangling: the named file is created
    assert_int_equal(unlink(real), 0);
    K2_ASSERT_OK(do_write(w, link, 0));
    struct stat st;
    assert_int_equal(lstat(real, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(count_temps(tdir), 0);
    assert_int_equal(count_temps(sub), 0);
  }
  // a loop is an error naming the path
  char loop[1024];
  path_of(loop, sizeof loop, "loop.el");
  unlink(loop);
  assert_int_equal(symlink("loop.el", loop), 0);
  assert_int_equal(do_write(W_EL, loop, 0), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), loop));
  assert_int_equal(unlink(loop), 0);
}

static void test_symlinks(void **state) {
  (void)state;
  each_mode(symlinks);
}

//----------------------------------------------------------------------------------------------
// temporaries
//----------------------------------------------------------------------------------------------

// The readers refuse a writer's temporary (left by a killed write) in every format.
static void test_temporaries_refused(void **state) {
  (void)state;
  char tmp[1024];
  path_of(tmp, sizeof tmp, ".g.el.k2tmp.AbC123");
  K2_ASSERT_OK(do_write(W_EL, tmp, 0));  // a valid edge list under that name
  K2_Edges E;
  memset(&E, 0, sizeof E);
  assert_int_equal(K2_Edges_read(&E, tmp, NULL), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), tmp));
  assert_non_null(strstr(K2_error_string(), "temporary"));
  assert_null(E.I);
  K2_Matrix A = NULL;
  assert_int_equal(K2_Matrix_read(&A, tmp, NULL), GrB_INVALID_VALUE);
  assert_null(A);
  assert_int_equal(unlink(tmp), 0);
  path_of(tmp, sizeof tmp, ".g.k2.k2tmp.x9Y8z7");
  K2_ASSERT_OK(do_write(W_K2, tmp, 0));
  assert_int_equal(K2_Matrix_load(&A, tmp), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), "temporary"));
  assert_null(A);
  assert_int_equal(unlink(tmp), 0);
  // an ordinary name that merely contains the tag is read
  path_of(tmp, sizeof tmp, "g.k2tmp.el");
  K2_ASSERT_OK(do_write(W_EL, tmp, 0));
  K2_ASSERT_OK(K2_Edges_read(&E, tmp, NULL));
  K2_Edges_free(&E);
  assert_int_equal(unlink(tmp), 0);
}

// Stale temporaries of a target (unlocked: their writer died) go at its next write; a live
// one (locked) and those of other targets stay.
static void stale(void) {
  char path[1024], st1[1024], live[1024], other[1024];
  path_of(path, sizeof path, "g.el");
  path_of(st1, sizeof st1, ".g.el.k2tmp.stale1");
  path_of(live, sizeof live, ".g.el.k2tmp.live01");
  path_of(other, sizeof other, ".h.el.k2tmp.stale2");
  io_write_tmp(".g.el.k2tmp.stale1", "0 1\n", 4, false);
  io_write_tmp(".h.el.k2tmp.stale2", "0 1\n", 4, false);
  io_write_tmp(".g.el.k2tmp.live01", "0 1\n", 4, false);
  int fd = open(live, O_RDWR);
  assert_true(fd >= 0);
  assert_int_equal(flock(fd, LOCK_EX), 0);  // as a writer holds it
  K2_ASSERT_OK(do_write(W_EL, path, 0));
  assert_int_equal(access(st1, F_OK), -1);
  assert_int_equal(access(live, F_OK), 0);
  assert_int_equal(access(other, F_OK), 0);
  close(fd);  // the writer dies
  K2_ASSERT_OK(do_write(W_EL, path, 1));
  assert_int_equal(access(live, F_OK), -1);
  assert_int_equal(unlink(other), 0);
  assert_int_equal(count_temps(tdir), 0);
}

static void test_stale_temporaries(void **state) {
  (void)state;
  each_mode(stale);
}

// K2_OutFile: the target is untouched until the commit; discard keeps the old file;
// K2_OutFile_removeTemporaries (what a signal handler calls) removes a named temporary.
static void outfile(void) {
  char path[1024];
  path_of(path, sizeof path, "result.txt");
  io_write_tmp("result.txt", "old\n", 4, false);
  K2_OutFile f = NULL;
  FILE *s = NULL;
  K2_ASSERT_OK(K2_OutFile_open(&f, &s, path));
  assert_true(fprintf(s, "new\n") == 4);
  fflush(s);
  size_t n;
  uint8_t *b = slurp(path, &n);
  assert_true(same_bytes(b, n, (const uint8_t *)"old\n", 4));
  free(b);
  K2_ASSERT_OK(K2_OutFile_discard(&f));
  assert_null(f);
  b = slurp(path, &n);
  assert_true(same_bytes(b, n, (const uint8_t *)"old\n", 4));
  free(b);
  assert_int_equal(count_temps(tdir), 0);

  bool named = getenv("K2GRB_WRITE_NAMED_TEMP") != NULL;
  K2_ASSERT_OK(K2_OutFile_open(&f, &s, path));
  fprintf(s, "new\n");
  assert_int_equal(count_temps(tdir), named ? 1 : 0);  // an unnamed one is never visible
  K2_OutFile_removeTemporaries();
  assert_int_equal(count_temps(tdir), 0);
  K2_ASSERT_OK(K2_OutFile_discard(&f));

  K2_ASSERT_OK(K2_OutFile_open(&f, &s, path));
  fprintf(s, "new\n");
  K2_ASSERT_OK(K2_OutFile_commit(&f));
  assert_null(f);
  b = slurp(path, &n);
  assert_true(same_bytes(b, n, (const uint8_t *)"new\n", 4));
  free(b);
  assert_int_equal(count_temps(tdir), 0);

  assert_int_equal(K2_OutFile_open(NULL, &s, path), GrB_NULL_POINTER);
  assert_int_equal(K2_OutFile_open(&f, NULL, path), GrB_NULL_POINTER);
  assert_int_equal(K2_OutFile_open(&f, &s, NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_OutFile_commit(&f), GrB_NULL_POINTER);
  assert_int_equal(K2_OutFile_discard(NULL), GrB_NULL_POINTER);
  // a folder that does not exist: the message names the path
  assert_int_equal(K2_OutFile_open(&f, &s, "/nonexistent/k2grb/r.txt"), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), "/nonexistent/k2grb/r.txt"));
  assert_null(f);
}

static void test_outfile(void **state) {
  (void)state;
  each_mode(outfile);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fails_midway),      cmocka_unit_test(test_devices),
      cmocka_unit_test(test_killed),            cmocka_unit_test(test_permissions),
      cmocka_unit_test(test_symlinks),          cmocka_unit_test(test_temporaries_refused),
      cmocka_unit_test(test_stale_temporaries), cmocka_unit_test(test_outfile),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
