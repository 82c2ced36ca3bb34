// test_bad_input.c: edge lists and METIS files, good and broken, written into temporary files
// (plain and gzip): the code, the line named in the message, and the caller's K2_Edges left
// untouched on error. Also random binary garbage, gzip streams cut short, and lines longer than
// the readers take (refused early, in bounded memory), and METIS vertex lines longer than that
// (read in pieces).
// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE 1
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "io_test_util.h"

typedef struct {
  const char *text;
  size_t len;
  K2_FileFormat format;
  bool one_based;
  GrB_Info info;
  uint64_t line_or_nvals;  // line named by the message, or nvals on success
  uint64_t n;              // nodes on success
} bad_case;

#define C(text, fmt, one, info, x, n) {text, sizeof(text) - 1, fmt, one, info, x, n}
#define EL K2_FORMAT_EDGE_LIST
#define ME K2_FORMAT_METIS
static const bad_case cases[] = {
    // edge lists that load
    C("# comment\n% other\n0 1\n\n1\t2\n  2 0 0.5 7\n", EL, false, GrB_SUCCESS, 3, 3),
    C("5 7\r\n7 5\r\n", EL, false, GrB_SUCCESS, 2, 8),                    // CRLF
    C("0 1\n1 2", EL, false, GrB_SUCCESS, 2, 3),                          // no final newline
    C("src,dst\n0,1\n1 , 2\n", EL, false, GrB_SUCCESS, 2, 3),             // CSV with header
    C("3,2,d,graph\n1,2\n3,3\n", EL, false, GrB_SUCCESS, 2, 3),           // LightGraphs
    C("5,0,u,graph\n", EL, false, GrB_SUCCESS, 0, 5),
    C("1 2\n4294967296 1\n", EL, true, GrB_SUCCESS, 2, 4294967296),       // 1-based max id
    C("# only comments\n", EL, false, GrB_SUCCESS, 0, 0),
    // edge lists that do not
    C("0 1\n1 x\n", EL, false, GrB_INVALID_VALUE, 2, 0),                  // malformed
    C("0 1\n2\n", EL, false, GrB_INVALID_VALUE, 2, 0),                    // one column
    C("0 1\n1 2 abc\n", EL, false, GrB_INVALID_VALUE, 2, 0),              // third column text
    C("0 1\n-1 2\n", EL, false, GrB_INVALID_VALUE, 2, 0),                 // negative
    C("0 1\n1 2\n4294967296 1\n", EL, false, GrB_INVALID_INDEX, 3, 0),    // > 2^32 - 1
    C("0 1\n99999999999999999999999 1\n", EL, false, GrB_INVALID_INDEX, 2, 0),  // 64-bit overflow
    C("1 2\n0 3\n", EL, true, GrB_INVALID_INDEX, 2, 0),                   // 0 in a 1-based file
    C("3,2,d,graph\n1,2\n2,4\n", EL, false, GrB_INVALID_INDEX, 3, 0),     // id > n of the header
    C("3,2,d,graph\n1,2\n0,1\n", EL, false, GrB_INVALID_INDEX, 3, 0),     // LightGraphs is 1-based
    C("3,2,d,graph\n1,2\n", EL, false, GrB_INVALID_VALUE, 2, 0),          // fewer edges than header
    C("3,1,d,graph\n1,2\n2,3\n", EL, false, GrB_INVALID_VALUE, 3, 0),     // more edges than header
    C("99999999999,1,d,graph\n", EL, false, GrB_INVALID_VALUE, 1, 0),     // n > 2^32
    C("0 1\n1 2\0 3\n", EL, false, GrB_INVALID_VALUE, 2, 0),              // NUL byte
    C("", EL, false, GrB_INVALID_VALUE, 1, 0),                            // empty
    C("{ \"json\": 1 }\n", EL, false, GrB_INVALID_VALUE, 1, 0),
    // METIS that loads: blank line = isolated vertex, trailing blank lines, weights
    C("% c\n3 1\n2\n1\n\n\n", ME, false, GrB_SUCCESS, 2, 3),
    C("3 2 1\n2 5 3 7\n1 5\n1 7\n", ME, false, GrB_SUCCESS, 4, 3),
    C("3 2 11\n9 2 5 3 7\n9 1 5\n9 1 7\n", ME, false, GrB_SUCCESS, 4, 3),
    C("2 2\n1 2\n1\n", ME, false, GrB_SUCCESS, 3, 2),                      // self-loop listed once
    // METIS that does not
    C("3\n2\n1\n\n", ME, false, GrB_INVALID_VALUE, 1, 0),                  // header
    C("3 1 x\n2\n1\n\n", ME, false, GrB_INVALID_VALUE, 1, 0),
    C("3 1\n2\n1 4\n\n", ME, false, GrB_INVALID_INDEX, 3, 0),              // out of range
    C("3 1\n2\n0\n\n", ME, false, GrB_INVALID_INDEX, 3, 0),                // below the base
    C("3 1\n2\n1 q\n\n", ME, false, GrB_INVALID_VALUE, 3, 0),              // malformed
    C("3 2\n2\n1\n\n", ME, false, GrB_INVALID_VALUE, 4, 0),                // 2 entries, need 4
    C("3 1\n2\n1\n", ME, false, GrB_INVALID_VALUE, 3, 0),                  // 2 of 3 lines
    C("2 1\n2\n1\n1\n", ME, false, GrB_INVALID_VALUE, 4, 0),               // too many lines
    C("3 2 1\n2 5 3\n1 5\n1 7\n", ME, false, GrB_INVALID_VALUE, 2, 0),     // weight missing
    C("3 1\n2\n99999999999999999999999\n\n", ME, false, GrB_INVALID_INDEX, 3, 0),
    C("", ME, false, GrB_INVALID_VALUE, 1, 0),
};

static void check_case(const bad_case *c, size_t k, bool gz) {
  char name[64];
  snprintf(name, sizeof name, "case%zu%s", k, gz ? ".gz" : ".txt");
  char path[600];
  snprintf(path, sizeof path, "%s", io_write_tmp(name, c->text, c->len, gz));
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = c->format;
  opt.one_based = c->one_based;
  K2_Edges E;
  memset(&E, 0x5A, sizeof E);
  K2_Edges before = E;
  GrB_Info info = K2_Edges_read(&E, path, &opt);
  if (info != c->info) {
    fail_msg("case %zu (%s): got %d (%s), want %d", k, gz ? "gz" : "plain", (int)info,
             K2_error_string(), (int)c->info);
  }
  if (info == GrB_SUCCESS) {
    if (E.nvals != c->line_or_nvals || E.nrows != c->n || E.ncols != c->n) {
      fail_msg("case %zu: got %llu x %llu, %llu pairs", k, (unsigned long long)E.nrows,
               (unsigned long long)E.ncols, (unsigned long long)E.nvals);
    }
    K2_Edges_free(&E);
    return;
  }
  assert_memory_equal(&E, &before, sizeof E);
  char where[700];
  snprintf(where, sizeof where, "%s:%llu: ", path, (unsigned long long)c->line_or_nvals);
  if (strstr(K2_error_string(), where) == NULL) {
    fail_msg("case %zu: message '%s' does not name '%s'", k, K2_error_string(), where);
  }
}

static void test_cases(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    check_case(&cases[k], k, false);
    check_case(&cases[k], k, true);
  }
  io_tmp_cleanup();
}

// gzip is found by its magic bytes: a .txt name holding gzip data reads the same.
static void test_gzip_by_magic(void **state) {
  (void)state;
  const char text[] = "0 1\n1 2\n2 0\n";
  K2_Edges E;
  const char *path = io_write_tmp("disguised.txt", text, sizeof text - 1, true);
  K2_ASSERT_OK(K2_Edges_read(&E, path, NULL));
  assert_int_equal(E.nvals, 3);
  assert_int_equal(E.nrows, 3);
  K2_Edges_free(&E);
  io_tmp_cleanup();
}

// A gzip file cut short (a good file's compressed bytes, truncated) is an error, never a
// shorter graph: the last complete line before the cut is the one after which it reports.
static void test_gzip_truncated(void **state) {
  (void)state;
  k2_rng rng = {42};
  size_t cap = 400000, n = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  while (n + 32 < cap) n += (size_t)snprintf(text + n, cap - n, "%u %u\n", (unsigned)k2_rng_below(&rng, 100000), (unsigned)k2_rng_below(&rng, 100000));
  char path[600];
  snprintf(path, sizeof path, "%s", io_write_tmp("good.el.gz", text, n, true));
  K2_Edges E;
  K2_ASSERT_OK(K2_Edges_read(&E, path, NULL));
  K2_Edges_free(&E);
  // keep the first half of the compressed bytes
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static unsigned char gz[1 << 20];
  size_t got = fread(gz, 1, sizeof gz, f);
  fclose(f);
  assert_true(got > 1000);
  char cut[600];
  snprintf(cut, sizeof cut, "%s", io_write_tmp("cut.el.gz", gz, got / 2, false));
  memset(&E, 0, sizeof E);
  assert_int_equal(K2_Edges_read(&E, cut, NULL), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), "truncated"));
  assert_non_null(strstr(K2_error_string(), cut));
  assert_null(E.I);
  // only the gzip header
  snprintf(cut, sizeof cut, "%s", io_write_tmp("head.el.gz", gz, 10, false));
  assert_int_equal(K2_Edges_read(&E, cut, NULL), GrB_INVALID_VALUE);
  free(text);
  io_tmp_cleanup();
}

// Random bytes in every text format: refused, never a crash.
static void test_binary_garbage(void **state) {
  (void)state;
  k2_rng rng = {7};
  const K2_FileFormat formats[] = {K2_FORMAT_AUTO, K2_FORMAT_MATRIX_MARKET, K2_FORMAT_EDGE_LIST, K2_FORMAT_METIS};
  unsigned char buf[4096];
  for (int round = 0; round < 20; round++) {
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)k2_rng_next(&rng);
    const char *path = io_write_tmp("garbage.bin", buf, sizeof buf, round % 2 == 1);
    for (int f = 0; f < 4; f++) {
      K2_ReadOptions opt;
      K2_ReadOptions_default(&opt);
      opt.format = formats[f];
      K2_Edges E;
      memset(&E, 0, sizeof E);
      GrB_Info info = K2_Edges_read(&E, path, &opt);
      assert_true(info == GrB_INVALID_VALUE || info == GrB_INVALID_INDEX);
      assert_non_null(strstr(K2_error_string(), path));
      assert_null(E.I);
    }
  }
  io_tmp_cleanup();
}

// ---- long lines ----------------------------------------------------------------------------

#define LINE_MAX_BYTES ((size_t)1 << 20)  // K2_TEXT_LINE_MAX, as docs/io.md gives it

// A gzip file: `head`, then `n` bytes of `fill` (no newline), then `tail`.
static void write_gz_long(const char *path, const char *head, char fill, size_t n, const char *tail) {
  gzFile f = gzopen(path, "wb1");
  assert_non_null(f);
  static char block[1 << 16];
  memset(block, fill, sizeof block);
  if (*head) assert_true(gzputs(f, head) > 0);
  for (size_t done = 0; done < n;) {
    unsigned k = (unsigned)(n - done < sizeof block ? n - done : sizeof block);
    assert_int_equal(gzwrite(f, block, k), (int)k);
    done += k;
  }
  if (*tail) assert_true(gzputs(f, tail) > 0);
  assert_int_equal(gzclose(f), Z_OK);
}

// In a child (its peak memory is its own): reading `path` as `format` must fail with
// "path:line: line longer than 1048576 bytes" and take less than 24 MiB more memory than it had.
static int child_refuses_long_line(const char *path, K2_FileFormat format, unsigned line) {
  struct rusage before, after;
  getrusage(RUSAGE_SELF, &before);
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = format;
  K2_Edges E;
  memset(&E, 0, sizeof E);
  GrB_Info info = K2_Edges_read(&E, path, &opt);
  getrusage(RUSAGE_SELF, &after);
  char want[700];
  snprintf(want, sizeof want, "%s:%u: line longer than %zu bytes", path, line, LINE_MAX_BYTES);
  long grew_kib = after.ru_maxrss - before.ru_maxrss;
  if (info != GrB_INVALID_VALUE || strstr(K2_error_string(), want) == NULL || E.I != NULL) {
    fprintf(stderr, "%s: info %d, message '%s', want '%s'\n", path, (int)info, K2_error_string(), want);
    return 1;
  }
  if (grew_kib > 24 * 1024) {
    fprintf(stderr, "%s: the refused read took %ld KiB\n", path, grew_kib);
    return 2;
  }
  return 0;
}

static void expect_refused_in_child(const char *path, K2_FileFormat format, unsigned line) {
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) _exit(child_refuses_long_line(path, format, line));  // the reader only: no OpenMP
  int st;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_true(WIFEXITED(st));
  assert_int_equal(WEXITSTATUS(st), 0);
}

// 64 MiB of digits without a newline compress to a few kB: every format refuses the line after
// reading about 1 MiB of it, not 64 MiB later (nor with 64 MiB of buffer).
static void test_long_line_gzip(void **state) {
  (void)state;
  char path[600];
  snprintf(path, sizeof path, "%s", io_tmp_path("long.el.gz"));
  write_gz_long(path, "", '7', (size_t)64 << 20, "");
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_true(st.st_size < (1 << 20));
  expect_refused_in_child(path, K2_FORMAT_AUTO, 1);
  expect_refused_in_child(path, K2_FORMAT_MATRIX_MARKET, 1);
  expect_refused_in_child(path, K2_FORMAT_METIS, 1);
  // after good lines, in a METIS vertex line (read in pieces: one token cannot be split)
  snprintf(path, sizeof path, "%s", io_tmp_path("long.graph.gz"));
  write_gz_long(path, "% c\n3 1\n", '7', (size_t)64 << 20, "\n1\n\n");
  expect_refused_in_child(path, K2_FORMAT_AUTO, 3);
  snprintf(path, sizeof path, "%s", io_tmp_path("long.mtx.gz"));
  write_gz_long(path, "%%MatrixMarket matrix coordinate pattern general\n", '%', (size_t)64 << 20, "\n");
  expect_refused_in_child(path, K2_FORMAT_AUTO, 2);
  io_tmp_cleanup();
}

// The limit is exact: a line of 1 MiB is read, one byte more is refused, plain or gzip.
static void test_long_line_limit(void **state) {
  (void)state;
  size_t n = LINE_MAX_BYTES + 16;
  char *text = malloc(n + 16);
  assert_non_null(text);
  for (int extra = 0; extra < 2; extra++) {
    size_t len = LINE_MAX_BYTES + (size_t)extra;  // a comment line of exactly this many bytes
    text[0] = '#';
    memset(text + 1, 'x', len - 1);
    memcpy(text + len, "\r\n0 1\n", 6);  // "\r\n": the '\r' is not part of the line
    for (int gz = 0; gz < 2; gz++) {
      const char *path = io_write_tmp(gz ? "limit.el.gz" : "limit.el", text, len + 6, gz);
      K2_Edges E;
      memset(&E, 0, sizeof E);
      GrB_Info info = K2_Edges_read(&E, path, NULL);
      if (extra == 0) {
        K2_ASSERT_OK(info);
        assert_int_equal(E.nvals, 1);
        K2_Edges_free(&E);
      } else {
        assert_int_equal(info, GrB_INVALID_VALUE);
        assert_non_null(strstr(K2_error_string(), ":1: line longer than 1048576 bytes"));
      }
    }
  }
  free(text);
  io_tmp_cleanup();
}

// A METIS vertex line may be longer than that: a star whose centre lists 300,000 neighbours
// (2 MB; 4 MB with edge weights, split between a neighbour and its weight) reads whole, and
// errors after it name the right lines.
static char *metis_star(uint32_t leaves, bool weights, size_t *len) {
  size_t cap = (size_t)leaves * 24 + 100, n = 0;
  char *t = malloc(cap);
  assert_non_null(t);
  n += (size_t)snprintf(t + n, cap - n, "%u %u%s\n", leaves + 1, leaves, weights ? " 1" : "");
  for (uint32_t v = 2; v <= leaves + 1; v++) {
    n += (size_t)snprintf(t + n, cap - n, weights ? "%u %u " : "%u ", v, v % 10);
  }
  t[n++] = '\n';
  for (uint32_t v = 2; v <= leaves + 1; v++) n += (size_t)snprintf(t + n, cap - n, weights ? "1 4\n" : "1\n");
  *len = n;
  return t;
}

static void test_metis_long_lines(void **state) {
  (void)state;
  const uint32_t leaves = 300000;
  for (int weights = 0; weights < 2; weights++) {
    size_t len;
    char *t = metis_star(leaves, weights, &len);
    for (int gz = 0; gz < 2; gz++) {
      const char *path = io_write_tmp(gz ? "star.graph.gz" : "star.graph", t, len, gz);
      K2_Edges E;
      K2_ASSERT_OK(K2_Edges_read(&E, path, NULL));
      assert_int_equal(E.nvals, 2 * (uint64_t)leaves);
      assert_int_equal(E.nrows, leaves + 1);
      uint64_t centre = 0;
      for (uint64_t e = 0; e < E.nvals; e++) centre += E.I[e] == 0;
      assert_int_equal(centre, leaves);
      K2_Edges_free(&E);
    }
    // a neighbour out of range on line 6 (four lines after the long one)
    char *bad = strstr(t, "\n1");  // the end of the long line, line 2
    for (int k = 0; k < 3; k++) bad = strchr(bad + 1, '\n');  // the ends of lines 3, 4, 5
    bad[1] = '0';  // "1" -> "0"
    const char *path = io_write_tmp("bad-star.graph", t, len, false);
    K2_Edges E;
    memset(&E, 0, sizeof E);
    assert_int_equal(K2_Edges_read(&E, path, NULL), GrB_INVALID_INDEX);
    assert_non_null(strstr(K2_error_string(), ":6: neighbour 0"));
    assert_null(E.I);
    // a NUL byte near the end of the long line: line 2
    bad = strstr(t, "\n1");
    bad[-3] = '\0';
    path = io_write_tmp("nul-star.graph", t, len, false);
    assert_int_equal(K2_Edges_read(&E, path, NULL), GrB_INVALID_VALUE);
    assert_non_null(strstr(K2_error_string(), ":2: "));
    free(t);
  }
  // edge weights: a weight missing at the very end of the long line
  size_t len;
  char *t = metis_star(leaves, true, &len);
  char *end = strstr(t, "\n1");   // " ... 300001 1 \n1 4"
  end[-2] = ' ';                   // drop the last weight: "... 300001   \n"
  const char *path = io_write_tmp("noweight.graph", t, len, false);
  K2_Edges E;
  assert_int_equal(K2_Edges_read(&E, path, NULL), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), ":2: malformed line: missing edge weight"));
  free(t);
  io_tmp_cleanup();
}

static void test_missing_and_null(void **state) {
  (void)state;
  K2_Edges E;
  memset(&E, 0, sizeof E);
  assert_int_equal(K2_Edges_read(&E, "/nonexistent/k2grb/file.txt", NULL), GrB_INVALID_VALUE);
  assert_non_null(strstr(K2_error_string(), "/nonexistent/k2grb/file.txt"));
  assert_int_equal(K2_Edges_read(NULL, "x", NULL), GrB_NULL_POINTER);
  assert_int_equal(K2_Edges_read(&E, NULL, NULL), GrB_NULL_POINTER);
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = (K2_FileFormat)99;
  assert_int_equal(K2_Edges_read(&E, "x", &opt), GrB_INVALID_VALUE);
  K2_Edges_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cases),
      cmocka_unit_test(test_gzip_by_magic),
      cmocka_unit_test(test_gzip_truncated),
      cmocka_unit_test(test_binary_garbage),
      cmocka_unit_test(test_missing_and_null),
      cmocka_unit_test(test_long_line_gzip),
      cmocka_unit_test(test_long_line_limit),
      cmocka_unit_test(test_metis_long_lines),
  };
  return cmocka_run_group_tests(tests, k2_test_setup, k2_test_teardown);
}
