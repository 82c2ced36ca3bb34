// test_cli.c: the k2grb command: every command on real files (results checked against the
// oracles of the algorithm tests or LAGraph's expected values), --json, --out files in the
// LDBC layout, --check, and bad arguments / broken files (non-zero exit, one line on stderr);
// output files that fail midway (a file size limit, /dev/full) or whose writer is interrupted
// (SIGTERM, SIGINT, SIGKILL) leave the old file, never a partial one.
// SPDX-License-Identifier: Apache-2.0
#define _GNU_SOURCE 1  // mkdtemp
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../algorithms/alg_test_util.h"
#include "k2_message_rules.h"

#ifndef K2GRB_CLI
#define K2GRB_CLI "k2grb"
#endif

static char tmpdir[256];

// Run `k2grb ARGS` through the shell; stdout and stderr into files; returns the exit code.
static int run(const char *args) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' %s >'%s/out.txt' 2>'%s/err.txt'", K2GRB_CLI, args, tmpdir, tmpdir);
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
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

// path's contents replaced by text.
static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

// How many times a code's name appears in parentheses ("(GrB_OUT_OF_MEMORY)").
static int count_code_names(const char *s) {
  int n = 0;
  for (const char *p = s; (p = strchr(p, '(')) != NULL; p++) {
    n += strncmp(p + 1, "GrB_", 4) == 0 || strncmp(p + 1, "GxB_", 4) == 0 ||
         strncmp(p + 1, "K2_CONVERGENCE_FAILURE)", 23) == 0;
  }
  return n;
}

// A failing run: non-zero code, exactly one line on stderr naming the command, in words
// (k2_message_rules.h) with the code by name at most once. Returns the line (to free).
static char *expect_error_line(const char *args, int code) {
  int rc = run(args);
  char *err = slurp("err.txt");
  char why[1024] = "";
  size_t len = strlen(err);
  if (len > 0 && err[len - 1] == '\n') err[len - 1] = '\0';
  if (rc != code || count_lines(err) != 0 || strncmp(err, "k2grb", 5) != 0 || len < 2 ||
      !k2_message_ok(err, GrB_SUCCESS, why, sizeof why) || count_code_names(err) > 1) {
    print_error("k2grb %s: exit %d (want %d), stderr: %s %s\n", args, rc, code, err, why);
    fail();
  }
  return err;
}

static void expect_error(const char *args, int code) { free(expect_error_line(args, code)); }

// The same, and the line contains each of the words.
static void expect_error_saying(const char *args, int code, const char *w1, const char *w2) {
  char *err = expect_error_line(args, code);
  if (strstr(err, w1) == NULL || (w2 != NULL && strstr(err, w2) == NULL)) {
    print_error("k2grb %s: '%s' does not say '%s'%s%s\n", args, err, w1, w2 ? " and " : "", w2 ? w2 : "");
    fail();
  }
  free(err);
}

#define NEED(rel, var)                                 \
  char var[1024];                                      \
  do {                                                 \
    const char *p_ = k2_test_data_path(rel);           \
    if (p_ == NULL) {                                  \
      print_message("%s absent: skipped\n", rel);      \
      skip();                                          \
      return;                                          \
    }                                                  \
    snprintf(var, sizeof var, "%s", p_);               \
  } while (0)

static void test_help(void **state) {
  (void)state;
  assert_int_equal(run("--help"), 0);
  char *out = slurp("out.txt");
  const char *cmds[] = {"demo", "convert", "info", "bfs", "msbfs", "pagerank", "sssp", "cc", "bench"};
  for (int i = 0; i < 9; i++) {
    assert_non_null(strstr(out, cmds[i]));
    char args[64];
    snprintf(args, sizeof args, "%s --help", cmds[i]);
    assert_int_equal(run(args), 0);
    char *h = slurp("out.txt");
    assert_non_null(strstr(h, "usage: k2grb"));
    free(h);
  }
  free(out);
}

static void test_bad_arguments(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  char a[4096];
  expect_error("nosuchcommand", 2);
  expect_error("bfs", 2);
  snprintf(a, sizeof a, "bfs '%s'", karate);  // no --source
  expect_error(a, 2);
  snprintf(a, sizeof a, "bfs '%s' --source 34", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "bfs '%s' --source -1", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "bfs '%s' --source", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "bfs '%s' --source 1 --bogus", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "bfs '%s' --source 1 --mode sideways", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "msbfs '%s' --sources 1,x", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "msbfs '%s' --sources 1,99", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "pagerank '%s' --gap --ldbc-iterations 3", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "pagerank '%s' --damping 2", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "info '%s' extra", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "convert '%s'", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "demo --scale 99");
  expect_error(a, 2);
  snprintf(a, sizeof a, "cc '%s' --format nonsense", karate);
  expect_error(a, 2);
}

static void test_bad_files(void **state) {
  (void)state;
  NEED("lagraph/mangled1.mtx", mangled);
  char a[4096];
  expect_error("info /nonexistent/graph.mtx", 1);
  snprintf(a, sizeof a, "bfs '%s' --source 0", mangled);
  expect_error(a, 1);
  const char *garbage = k2_test_data_path("lagraph/garbage.lagraph");
  if (garbage != NULL) {
    snprintf(a, sizeof a, "cc '%s'", garbage);
    expect_error(a, 1);
  }
  // a truncated .k2 file
  NEED("lagraph/karate.mtx", karate);
  snprintf(a, sizeof a, "convert '%s' '%s/k.k2'", karate, tmpdir);
  assert_int_equal(run(a), 0);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "head -c 100 '%s/k.k2' > '%s/cut.k2'", tmpdir, tmpdir);
  assert_int_equal(system(cmd), 0);
  snprintf(a, sizeof a, "pagerank '%s/cut.k2'", tmpdir);
  expect_error(a, 1);
  // --out into a folder that does not exist
  snprintf(a, sizeof a, "cc '%s' --out /nonexistent/dir/x.txt", karate);
  expect_error(a, 1);
}

// A JSON number after "key": in s; NAN when absent.
static double json_number(const char *s, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = strstr(s, pat);
  return p ? strtod(p + strlen(pat), NULL) : NAN;
}

// convert to .k2 and back to Matrix Market; info --json on the tree agrees with the source.
static void test_convert_info(void **state) {
  (void)state;
  NEED("harvard500/harvard500.graph", bv);
  bv[strlen(bv) - strlen(".graph")] = '\0';  // the BVGraph basename
  char a[4096];
  snprintf(a, sizeof a, "convert '%s' '%s/h.k2' --json", bv, tmpdir);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"edges\": 2636"));
  free(out);
  snprintf(a, sizeof a, "info '%s/h.k2' --json", tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"nodes\": 500"));
  assert_non_null(strstr(out, "\"edges\": 2636"));
  assert_non_null(strstr(out, "\"bits_per_edge\""));
  assert_non_null(strstr(out, "\"bytes_csr_bool\""));
  // every part: 114 words of signatures and 90 of leaves (docs/k2-format.md), the directory and
  // the top codes within 5% of them, as loaded from the file
  assert_non_null(strstr(out, "\"bytes_signatures\": 912,"));
  assert_non_null(strstr(out, "\"bytes_leaves\": 720,"));
  assert_non_null(strstr(out, "\"bytes_level_offsets\": 80,"));
  assert_non_null(strstr(out, "\"bytes_tree\": 1712,"));
  assert_non_null(strstr(out, "\"aux_percent\": "));
  assert_non_null(strstr(out, "\"bytes_cache\": 0,"));
  {
    const double dir = json_number(out, "bytes_directory"), top = json_number(out, "bytes_top");
    assert_true(!isnan(dir) && !isnan(top));
    assert_true(20 * (dir + top) <= 912 + 720);
  }
  free(out);
  snprintf(a, sizeof a, "convert '%s/h.k2' '%s/h.mtx'", tmpdir, tmpdir);
  assert_int_equal(run(a), 0);
  snprintf(a, sizeof a, "info '%s/h.mtx' --transpose", tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "2636"));
  free(out);
  // full blocks: written as version 4, read back with its 28 full nodes (bench_sizes counts
  // them too), and the same 2636 edges through Matrix Market
  snprintf(a, sizeof a, "convert '%s' '%s/hf.k2' --full-blocks", bv, tmpdir);
  assert_int_equal(run(a), 0);
  snprintf(a, sizeof a, "info '%s/hf.k2' --json", tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"edges\": 2636"));
  assert_non_null(strstr(out, "\"full_nodes\": 28,"));
  {
    const double tree = json_number(out, "bytes_tree"), saved = json_number(out, "bytes_full_saved");
    assert_true(!isnan(tree) && saved > 0);
    assert_true(tree + saved == 1712);  // the plain tree's bytes above
  }
  free(out);
  snprintf(a, sizeof a, "info '%s' --full-blocks --json", bv);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"full_nodes\": 28,"));
  free(out);
  // the bottom codes kept (k2+B): 8 bytes per node of the last internal level, made again when
  // the file is read (it records the choice), and the ranks agree with SuiteSparse's
  snprintf(a, sizeof a, "convert '%s' '%s/hb.k2' --bottom-codes", bv, tmpdir);
  assert_int_equal(run(a), 0);
  snprintf(a, sizeof a, "info '%s/hb.k2' --json", tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"edges\": 2636"));
  {
    // 8 bytes per node of the last level, which has at least one 2x2 leaf (4 bits) each
    const double bottom = json_number(out, "bytes_bottom_codes"), leaves = json_number(out, "bytes_leaves");
    assert_true(bottom > 0 && fmod(bottom, 8) == 0);
    assert_true(bottom / 8 <= 2 * leaves);
  }
  free(out);
  snprintf(a, sizeof a, "pagerank '%s/hb.k2' --check", tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "check passed           yes"));
  free(out);
  snprintf(a, sizeof a, "convert '%s/hf.k2' '%s/hf.mtx'", tmpdir, tmpdir);
  assert_int_equal(run(a), 0);
  snprintf(a, sizeof a, "info '%s/hf.mtx' --json", tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"edges\": 2636"));
  free(out);
}

// bfs --out: levels equal a serial BFS; --parents: valid parents; LDBC layout (sorted, 0-based).
static void test_bfs_out(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  alg_graph g;
  assert_true(alg_graph_load(&g, "lagraph/karate.mtx", false));
  int64_t oracle[34];
  alg_oracle_bfs(oracle, 34, g.rowptr, g.col, 30);
  char a[4096];
  snprintf(a, sizeof a, "bfs '%s' --source 30 --check --out '%s/levels.txt'", karate, tmpdir);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "levels identical       yes"));
  assert_non_null(strstr(out, "engine"));
  free(out);
  char *lv = slurp("levels.txt");
  assert_int_equal(count_lines(lv), 34);
  long long prev = -1;
  char *s = lv;
  for (int k = 0; k < 34; k++) {
    long long v, l;
    int used;
    assert_int_equal(sscanf(s, "%lld %lld%n", &v, &l, &used), 2);
    s += used;
    assert_true(v > prev);
    prev = v;
    assert_int_equal(l, oracle[v]);
  }
  free(lv);
  snprintf(a, sizeof a, "bfs '%s' --source 30 --parents --out '%s/parents.txt'", karate, tmpdir);
  assert_int_equal(run(a), 0);
  char *pa = slurp("parents.txt");
  s = pa;
  for (int k = 0; k < 34; k++) {
    long long v, p;
    int used;
    assert_int_equal(sscanf(s, "%lld %lld%n", &v, &p, &used), 2);
    s += used;
    if (v == 30) assert_int_equal(p, 30);
    else assert_true(alg_has_edge(&g, (GrB_Index)p, (GrB_Index)v) && oracle[p] == oracle[v] - 1);
  }
  free(pa);
  // each CPU traversal forced (K2GRB_CPU_TRAVERSAL): the same levels, and the burble names it
  // (push levels all products: the library's own choice searches karate by row queries)
  const char *modes[] = {"depth-first", "stripes", "full"};
  const char *says[] = {"depth first", "pruned by the stripes", "openmp, full"};
  for (int m = 0; m < 3; m++) {
    setenv("K2GRB_CPU_TRAVERSAL", modes[m], 1);
    setenv("K2GRB_BURBLE", "1", 1);
    snprintf(a, sizeof a, "bfs '%s' --source 30 --check --mode push --engine cpu", karate);
    assert_int_equal(run(a), 0);
    char *o = slurp("out.txt"), *e = slurp("err.txt");
    if (strstr(o, "levels identical       yes") == NULL || strstr(e, says[m]) == NULL) {
      print_error("K2GRB_CPU_TRAVERSAL=%s: stdout %s\nstderr %s\n", modes[m], o, e);
      fail();
    }
    free(o);
    free(e);
  }
  unsetenv("K2GRB_CPU_TRAVERSAL");
  unsetenv("K2GRB_BURBLE");
  // a source that reaches at most 8 vertices: row queries, no products, and the report says so;
  // karate's 34 from the same source with a direction asked for: products
  char el[600];
  snprintf(el, sizeof el, "%s/small_reach.el", tmpdir);
  write_text(el, "0 1\n1 2\n2 0\n3 4\n");
  static const char *const small_reach_commands[] = {"bfs", "sssp"};
  for (int c = 0; c < 2; c++) {
    snprintf(a, sizeof a, "%s '%s' --source 0 --check --json", small_reach_commands[c], el);
    assert_int_equal(run(a), 0);
    out = slurp("out.txt");
    if (strstr(out, "\"engine\": \"none (row queries)\"") == NULL || strstr(out, "\"reached\": 3") == NULL ||
        strstr(out, "\"check_passed\": true") == NULL) {
      print_error("%s, small reach: %s\n", small_reach_commands[c], out);
      fail();
    }
    free(out);
  }
  snprintf(a, sizeof a, "bfs '%s' --source 30 --mode push --json", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_null(strstr(out, "row queries"));
  assert_non_null(strstr(out, "\"reached\": 34"));
  free(out);
  alg_graph_free(&g);
}

// pagerank --out equals LAGraph's expected ranks within 1e-4; --json top list; --check.
static void test_pagerank(void **state) {
  (void)state;
  NEED("lagraph/west0067.mtx", west);
  NEED("lagraph/expected/west0067_pagerank.txt", expected);
  char a[4096];
  snprintf(a, sizeof a, "pagerank '%s' --check --json --top 3 --out '%s/pr.txt'", west, tmpdir);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"iterations\": 11"));
  assert_non_null(strstr(out, "\"check_passed\": true"));
  assert_non_null(strstr(out, "\"top\": [{\"vertex\""));
  free(out);
  double want[67], got[67];
  for (int i = 0; i < 67; i++) want[i] = got[i] = NAN;
  assert_int_equal(alg_read_expected(expected, want, 67), 67);
  char path[512];
  snprintf(path, sizeof path, "%s/pr.txt", tmpdir);
  assert_int_equal(alg_read_expected(path, got, 67), 67);
  for (int i = 0; i < 67; i++) assert_true(fabs(got[i] - want[i]) < 1e-4);
  // the LDBC model with a fixed count and the GAP model run too
  snprintf(a, sizeof a, "pagerank '%s' --ldbc-iterations 5 --check", west);
  assert_int_equal(run(a), 0);
  snprintf(a, sizeof a, "pagerank '%s' --gap --check", west);
  assert_int_equal(run(a), 0);
  // two iterations do not converge: an error, the algorithms' own code by name
  snprintf(a, sizeof a, "pagerank '%s' --itermax 2", west);
  expect_error_saying(a, 1, "k2grb pagerank: PageRank: did not converge within the 2 iterations",
                      "(K2_CONVERGENCE_FAILURE)");
}

// sssp, cc, msbfs on an edge list; cc --out equals union-find; msbfs matches per-source BFS.
static void test_sssp_cc_msbfs(void **state) {
  (void)state;
  NEED("snap-email-Eu-core/email-Eu-core.txt", eu);
  alg_graph g;
  assert_true(alg_graph_load(&g, "snap-email-Eu-core/email-Eu-core.txt", false));
  char a[4096], path[512];
  int64_t *oracle = malloc(g.n * sizeof(int64_t));
  double *got = malloc(g.n * sizeof(double));
  snprintf(a, sizeof a, "cc '%s' --check --out '%s/cc.txt'", eu, tmpdir);
  assert_int_equal(run(a), 0);
  alg_oracle_wcc(oracle, &g);
  snprintf(path, sizeof path, "%s/cc.txt", tmpdir);
  assert_int_equal(alg_read_expected(path, got, g.n), g.n);
  for (GrB_Index i = 0; i < g.n; i++) assert_true(got[i] == (double)oracle[i]);
  // wcc is another name of cc: the same labels
  snprintf(a, sizeof a, "wcc '%s' --out '%s/wcc.txt'", eu, tmpdir);
  assert_int_equal(run(a), 0);
  char *cc_text = slurp("cc.txt"), *wcc_text = slurp("wcc.txt");
  assert_string_equal(cc_text, wcc_text);
  free(cc_text);
  free(wcc_text);
  snprintf(a, sizeof a, "sssp '%s' --source 5 --check --out '%s/sssp.txt'", eu, tmpdir);
  assert_int_equal(run(a), 0);
  alg_oracle_bfs(oracle, g.n, g.rowptr, g.col, 5);
  for (GrB_Index i = 0; i < g.n; i++) got[i] = -1;
  snprintf(path, sizeof path, "%s/sssp.txt", tmpdir);
  alg_read_expected(path, got, g.n);
  for (GrB_Index i = 0; i < g.n; i++) assert_true(got[i] == (double)oracle[i]);
  snprintf(a, sizeof a, "msbfs '%s' --sources 5,0,77 --check --out '%s/ms.txt'", eu, tmpdir);
  assert_int_equal(run(a), 0);
  char *ms = slurp("ms.txt"), *s = ms;
  int64_t *o0 = malloc(g.n * sizeof(int64_t)), *o77 = malloc(g.n * sizeof(int64_t));
  alg_oracle_bfs(o0, g.n, g.rowptr, g.col, 0);
  alg_oracle_bfs(o77, g.n, g.rowptr, g.col, 77);
  long long v, d1, d2, d3;
  int used, lines = 0;
  while (sscanf(s, "%lld %lld %lld %lld%n", &v, &d1, &d2, &d3, &used) == 4) {
    s += used;
    lines++;
    assert_int_equal(d1, oracle[v]);
    assert_int_equal(d2, o0[v]);
    assert_int_equal(d3, o77[v]);
  }
  assert_true(lines > 900);
  snprintf(a, sizeof a, "msbfs '%s' --sources 5 --reverse --json", eu);
  assert_int_equal(run(a), 0);
  free(ms), free(o0), free(o77), free(oracle), free(got);
  alg_graph_free(&g);
}

// --locality-order: on a grid whose ids are shuffled (the order is kept and said so) every
// algorithm command's --check passes and its --out equals the oracle in the file's ids; on a
// grid numbered row by row nothing is kept and the results are the same.
static void test_locality_order(void **state) {
  (void)state;
  const uint32_t side = 40, n = side * side;
  uint32_t *id = malloc(n * sizeof *id), *I = malloc(4 * n * sizeof *I), *J = malloc(4 * n * sizeof *J);
  assert_true(id && I && J);
  char a[4096], path[512];
  for (int shuffled = 1; shuffled >= 0; shuffled--) {
    for (uint32_t v = 0; v < n; v++) id[v] = v;
    uint64_t x = 777;
    for (uint32_t v = n - 1; shuffled && v > 0; v--) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const uint32_t u = (uint32_t)((x >> 33) % (v + 1)), t = id[v];
      id[v] = id[u], id[u] = t;
    }
    GrB_Index m = 0;
    snprintf(path, sizeof path, "%s/grid.txt", tmpdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (uint32_t r = 0; r < side; r++) {
      for (uint32_t c = 0; c < side; c++) {  // edges both ways, a cut every 8 columns
        const uint32_t v = id[r * side + c];
        if (c + 1 < side && (c + 1) % 8 != 0) I[m] = v, J[m++] = id[r * side + c + 1], I[m] = J[m - 1], J[m++] = v;
        if (r + 1 < side) I[m] = v, J[m++] = id[(r + 1) * side + c], I[m] = J[m - 1], J[m++] = v;
      }
    }
    for (GrB_Index k = 0; k < m; k++) fprintf(f, "%u %u\n", I[k], J[k]);
    fclose(f);
    alg_graph g;
    alg_graph_from_pairs(&g, n, I, J, m);
    int64_t *oracle = malloc(n * sizeof(int64_t));
    double *got = malloc(n * sizeof(double));
    snprintf(a, sizeof a, "bfs '%s' --source %u --check --locality-order --out '%s/lv.txt'", path, id[0], tmpdir);
    assert_int_equal(run(a), 0);
    char *report = slurp("out.txt");
    assert_non_null(strstr(report, shuffled ? "locality order         kept: tree" : "locality order         not kept"));
    assert_non_null(strstr(report, "check passed           yes"));
    free(report);
    alg_oracle_bfs(oracle, n, g.rowptr, g.col, id[0]);
    for (GrB_Index i = 0; i < n; i++) got[i] = -1;
    snprintf(a, sizeof a, "%s/lv.txt", tmpdir);
    alg_read_expected(a, got, n);
    for (GrB_Index i = 0; i < n; i++) assert_true(got[i] == (double)oracle[i]);
    snprintf(a, sizeof a, "sssp '%s' --source %u --check --locality-order --out '%s/d.txt'", path, id[0], tmpdir);
    assert_int_equal(run(a), 0);
    for (GrB_Index i = 0; i < n; i++) got[i] = -1;
    snprintf(a, sizeof a, "%s/d.txt", tmpdir);
    alg_read_expected(a, got, n);
    for (GrB_Index i = 0; i < n; i++) assert_true(got[i] == (double)oracle[i]);
    snprintf(a, sizeof a, "cc '%s' --check --locality-order --out '%s/cc.txt'", path, tmpdir);
    assert_int_equal(run(a), 0);
    alg_oracle_wcc(oracle, &g);
    snprintf(a, sizeof a, "%s/cc.txt", tmpdir);
    assert_int_equal(alg_read_expected(a, got, n), n);
    for (GrB_Index i = 0; i < n; i++) assert_true(got[i] == (double)oracle[i]);
    snprintf(a, sizeof a, "msbfs '%s' --sources %u,%u --check --locality-order", path, id[0], id[n - 1]);
    assert_int_equal(run(a), 0);
    snprintf(a, sizeof a, "pagerank '%s' --check --locality-order --json", path);
    assert_int_equal(run(a), 0);
    report = slurp("out.txt");
    assert_non_null(strstr(report, "\"check_passed\": true"));
    assert_non_null(strstr(report, "\"locality_order_seconds\""));
    free(report);
    free(oracle), free(got);
    alg_graph_free(&g);
  }
  free(id), free(I), free(J);
}

// Failures of the library and of an algorithm mid-run: what failed in words, the library's
// message, the code by name once.
static void test_error_lines(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  NEED("lagraph/mangled13.mtx", mangled);
  char a[4096], where[4096];
  snprintf(a, sizeof a, "cc '%s'", mangled);
  snprintf(where, sizeof where, "k2grb cc: cannot read %s: %s:7: ", mangled, mangled);
  expect_error_saying(a, 1, where, "(GrB_INVALID_INDEX)");
  snprintf(a, sizeof a, "info '%s/none.k2'", tmpdir);
  expect_error_saying(a, 1, "cannot open", "(GrB_INVALID_VALUE)");
  // a file that is not a .k2 of k2grb: the reason, and no function name (K2_Matrix_load)
  char bad[512];
  snprintf(bad, sizeof bad, "%s/foreign.k2", tmpdir);
  write_text(bad, "K2TREE, not k2grb's: some other library's header and body");
  snprintf(a, sizeof a, "info '%s'", bad);
  char *bad_err = expect_error_line(a, 1);
  assert_non_null(strstr(bad_err, "not a .k2 image"));
  assert_null(strstr(bad_err, "K2_"));
  free(bad_err);
  // strict mode on the CUDA engine without a device: the first product fails
  bool device = false;
  K2_ASSERT_OK(K2_Device_available(&device));
  if (device) {
    print_message("a CUDA device is present: the products do not fail, that part skipped\n");
    return;
  }
  setenv("K2GRB_STRICT", "1", 1);
  setenv("K2GRB_ENGINE", "cuda", 1);
  snprintf(a, sizeof a, "bfs '%s' --source 0", karate);
  // the algorithm named in words (no function name such as K2_bfs), what failed, strict mode
  expect_error_saying(a, 1, "k2grb bfs: BFS: computing the out-degrees: the CUDA engine declined",
                      "(strict mode)");
  snprintf(a, sizeof a, "sssp '%s' --source 0", karate);
  expect_error_saying(a, 1, "k2grb sssp: shortest paths: relaxing the out-edges of the frontier: ",
                      "(GrB_NOT_IMPLEMENTED)");
  snprintf(a, sizeof a, "cc '%s'", karate);
  expect_error_saying(a, 1, "k2grb cc: connected components: taking the smallest label of the neighbours: ",
                      "(GrB_NOT_IMPLEMENTED)");
  snprintf(a, sizeof a, "msbfs '%s' --sources 0,1", karate);
  expect_error_saying(a, 1, "k2grb msbfs: multi-source BFS: expanding the frontiers along the edges: ",
                      "(GrB_NOT_IMPLEMENTED)");
  snprintf(a, sizeof a, "pagerank '%s' --ldbc-iterations 2", karate);
  expect_error_saying(a, 1, "k2grb pagerank: PageRank (LDBC): computing the out-degrees: ",
                      "(GrB_NOT_IMPLEMENTED)");
  expect_error_saying("demo --scale 8", 1, "k2grb demo: the right product on the tree: the CUDA engine declined",
                      "(GrB_NOT_IMPLEMENTED)");
  // bench: a product that fails is an error, not a time of "inf"
  snprintf(a, sizeof a, "bench '%s' --repeat 1", karate);
  expect_error_saying(a, 1, "the right product on the tree (plus-times FP32) failed: the CUDA engine declined",
                      "(GrB_NOT_IMPLEMENTED)");
  // --engine cuda does the same as K2GRB_ENGINE=cuda; no function name in any of these lines
  unsetenv("K2GRB_ENGINE");
  snprintf(a, sizeof a, "bfs '%s' --source 0 --engine cuda", karate);
  char *err = expect_error_line(a, 1);
  assert_non_null(strstr(err, "k2grb bfs: BFS: "));
  assert_null(strstr(err, "K2_"));
  free(err);
}

// The environment back as it was, whether test_error_lines passed or not.
static int clear_engine_env(void **state) {
  (void)state;
  unsetenv("K2GRB_STRICT");
  unsetenv("K2GRB_ENGINE");
  return 0;
}

static void test_bench_demo(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  NEED("snap-email-Eu-core/email-Eu-core.txt", eu);
  char a[4096];
  snprintf(a, sizeof a, "bench '%s' '%s' --repeat 2 --json", karate, eu);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"fp32_left_suitesparse\""));
  assert_non_null(strstr(out, "email-Eu-core"));
  free(out);
  assert_int_equal(run("demo --scale 12"), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "levels identical, parents valid"));
  assert_non_null(strstr(out, "agreement with SuiteSparse              yes\n"));
  // the products: exact check, both identical, first call and steady state on their own lines
  assert_non_null(strstr(out, "products checked             x = k / 2^10, k <= "));
  assert_non_null(strstr(out, "every partial sum exact in FP32"));
  assert_non_null(strstr(out, "(and every repeat the first)"));
  assert_null(strstr(out, "NOT checked"));
  assert_null(strstr(out, "DIFFER"));
  const char *r = strstr(out, "y = A x (plus-times FP32)");
  assert_non_null(r);
  assert_non_null(strstr(r, "first call\n"));
  const char *best = strstr(r, "best of 5 more; identical\n");
  assert_non_null(best);
  const char *l = strstr(best, "y' = x' A");
  assert_non_null(l);
  assert_non_null(strstr(l, "best of 5 more; identical\n"));
  free(out);
  // another seed and edge factor: still exact agreement
  assert_int_equal(run("demo --scale 10 --edge-factor 40 --seed 7"), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "agreement with SuiteSparse              yes\n"));
  assert_null(strstr(out, "DIFFER"));
  free(out);
}

// A .k2 file of another k²-tree library: one line saying so, naming the file, exit 1.
static void test_foreign_k2(void **state) {
  (void)state;
  NEED("acubelab-k2/cnr80k.k2", cnr);
  char a[4096];
  snprintf(a, sizeof a, "info '%s'", cnr);
  char *line = expect_error_line(a, 1);
  assert_non_null(strstr(line, cnr));
  assert_non_null(strstr(line, "written by another k²-tree library (acubeLab k2"));
  assert_non_null(strstr(line, "not by k2grb: convert it from its edge list"));
  free(line);
}

// ---- durable output ---------------------------------------------------------------------------

static char *slurp_path(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)len + 1);
  assert_non_null(s);
  assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
  s[len] = '\0';
  fclose(f);
  *n = (size_t)len;
  return s;
}

static bool same_file(const char *path, const char *bytes, size_t n) {
  size_t m;
  char *s = slurp_path(path, &m);
  bool same = s != NULL && m == n && memcmp(s, bytes, n) == 0;
  free(s);
  return same;
}

static int temps_in_tmpdir(void) {
  DIR *d = opendir(tmpdir);
  assert_non_null(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) n += strstr(e->d_name, ".k2tmp.") != NULL;
  closedir(d);
  return n;
}

// R-MAT graphs as .k2 files (quick to load): scale 16 (1M edges, about 12 MB of text: writing
// it takes a moment) and 14 (results and files well over 64 KiB).
static const char *rmat_k2(unsigned scale) {
  static char paths[2][512];
  char *path = paths[scale == 16];
  if (path[0] != '\0') return path;
  snprintf(path, sizeof paths[0], "%s/rmat%u.k2", tmpdir, scale);
  K2_RmatParams p;
  K2_RmatParams_default(&p, scale);
  K2_Edges E;
  K2_ASSERT_OK(K2_Gen_rmat(&E, &p));
  K2_Matrix A = NULL;
  K2_ASSERT_OK(K2_Matrix_new(&A, E.nrows, E.ncols));
  K2_ASSERT_OK(K2_Matrix_build_32(A, E.I, E.J, E.nvals));
  K2_ASSERT_OK(K2_Matrix_save(A, path));
  K2_Matrix_free(&A);
  K2_Edges_free(&E);
  return path;
}

// --decoded-level: bfs (levels and parents), sssp, cc, msbfs and pagerank with --check pass on the
// CPU engine over two trials (the first makes the level, the second reads it) and say so.
static void test_decoded_level(void **state) {
  (void)state;
  char a[4096], cmd[1024];
  const char *cmds[] = {"bfs '%s' --source 1 --parents", "sssp '%s' --source 1", "cc '%s'",
                        "msbfs '%s' --sources 1,2,3", "pagerank '%s'"};
  for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
    snprintf(cmd, sizeof cmd, cmds[c], rmat_k2(14));
    snprintf(a, sizeof a, "%s --check --decoded-level --engine cpu --trials 2", cmd);
    assert_int_equal(run(a), 0);
    char *report = slurp("out.txt");
    assert_non_null(strstr(report, "decoded level          asked"));
    assert_non_null(strstr(report, "check passed           yes"));
    free(report);
  }
}

// Under a 64 KiB file size limit every output fails cleanly (one line naming the file and the
// reason) and the old file stays; /dev/full too. The command ignores SIGXFSZ itself.
static void test_out_fails_midway(void **state) {
  (void)state;
  const char *big = rmat_k2(14);
  const char *outs[] = {"cc.txt", "g.el", "g.mtx.gz", "g.k2"};
  for (int k = 0; k < 4; k++) {
    char path[600], a[4096];
    snprintf(path, sizeof path, "%s/%s", tmpdir, outs[k]);
    write_text(path, "the old file\n");
    if (k == 0) snprintf(a, sizeof a, "cc '%s' --out '%s'", big, path);
    else snprintf(a, sizeof a, "convert '%s' '%s'", big, path);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "ulimit -f 128; '%s' %s >'%s/out.txt' 2>'%s/err.txt'", K2GRB_CLI, a,
             tmpdir, tmpdir);
    int st = system(cmd);
    char *err = slurp("err.txt");
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || count_lines(err) != 1 || strstr(err, path) == NULL ||
        strstr(err, "File too large") == NULL) {
      fail_msg("%s: status %d, stderr: %s", a, st, err);
    }
    free(err);
    assert_true(same_file(path, "the old file\n", 13));
    assert_int_equal(temps_in_tmpdir(), 0);
    if (k > 0) {
      snprintf(a, sizeof a, "convert '%s' /dev/full", big);
      if (k == 3) snprintf(a, sizeof a, "cc '%s' --out /dev/full", big);
      expect_error(a, 1);
      err = slurp("err.txt");
      assert_non_null(strstr(err, "/dev/full"));
      free(err);
    }
  }
}

// Run `k2grb convert IN OUT` in a child (SIGINT and SIGTERM at their default, named temporaries
// if `named`); when its temporary of OUT exists (named) or after it opened a file in tmpdir,
// send `sig`. Returns the wait status.
static int convert_and_signal(const char *in, const char *out, bool named, int sig) {
  const char *base = strrchr(out, '/') + 1;
  char prefix[300];
  snprintf(prefix, sizeof prefix, ".%s.k2tmp.", base);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (named) setenv("K2GRB_WRITE_NAMED_TEMP", "1", 1);
    else unsetenv("K2GRB_WRITE_NAMED_TEMP");
    if (freopen("/dev/null", "w", stdout) == NULL || freopen("/dev/null", "w", stderr) == NULL) _exit(90);
    execl(K2GRB_CLI, "k2grb", "convert", in, out, (char *)NULL);
    _exit(91);
  }
  int st = 0;
  for (;;) {
    bool ready = false;
    if (named) {
      DIR *d = opendir(tmpdir);
      for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) ready |= strncmp(e->d_name, prefix, strlen(prefix)) == 0;
      if (d != NULL) closedir(d);
    } else {
      char fddir[64], fd[400], link[1024];
      snprintf(fddir, sizeof fddir, "/proc/%d/fd", (int)pid);
      DIR *d = opendir(fddir);
      for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        snprintf(fd, sizeof fd, "%s/%s", fddir, e->d_name);
        ssize_t n = readlink(fd, link, sizeof link - 1);
        if (n > 0) link[n] = '\0';
        ready |= n > 0 && strstr(link, "(deleted)") != NULL && strncmp(link, tmpdir, strlen(tmpdir)) == 0;
      }
      if (d != NULL) closedir(d);
    }
    if (ready) {
      kill(pid, sig);
      break;
    }
    if (waitpid(pid, &st, WNOHANG) == pid) return st;  // finished first
    struct timespec ts = {0, 200 * 1000};
    nanosleep(&ts, NULL);
  }
  assert_int_equal(waitpid(pid, &st, 0), pid);
  return st;
}

// Interrupted conversions: the target is the old file (or, had the command finished first, the
// whole new one); SIGINT and SIGTERM remove the named temporary on the way out; after SIGKILL a
// named temporary may stay, and the next write of the target removes it.
static void test_out_interrupted(void **state) {
  (void)state;
  const char *big = rmat_k2(16);
  char out[600], ref[600], small[600];
  snprintf(out, sizeof out, "%s/conv.el", tmpdir);
  snprintf(ref, sizeof ref, "%s/ref.el", tmpdir);
  snprintf(small, sizeof small, "%s/small.el", tmpdir);
  char a[4096];
  snprintf(a, sizeof a, "convert '%s' '%s'", big, ref);
  assert_int_equal(run(a), 0);
  size_t nref, nold;
  char *fresh = slurp_path(ref, &nref);
  write_text(small, "0 1\n1 2\n");
  const struct {
    int sig;
    bool named;
  } runs[] = {{SIGTERM, true}, {SIGINT, true}, {SIGKILL, true}, {SIGKILL, false}, {SIGTERM, false}};
  int interrupted = 0;
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    snprintf(a, sizeof a, "convert '%s' '%s'", small, out);  // the old file
    assert_int_equal(run(a), 0);
    char *old = slurp_path(out, &nold);
    int st = convert_and_signal(big, out, runs[r].named, runs[r].sig);
    bool by_signal = WIFSIGNALED(st) && WTERMSIG(st) == runs[r].sig;
    if (!by_signal && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) fail_msg("run %zu: status %d", r, st);
    interrupted += by_signal;
    bool is_old = same_file(out, old, nold), is_new = same_file(out, fresh, nref);
    if (!is_old && !is_new) fail_msg("run %zu: %s is neither the old file nor the new one", r, out);
    if ((runs[r].sig != SIGKILL || !runs[r].named) && temps_in_tmpdir() != 0) fail_msg("run %zu: a temporary stayed", r);
    free(old);
    snprintf(a, sizeof a, "convert '%s' '%s'", small, out);  // the next write cleans up
    assert_int_equal(run(a), 0);
    assert_int_equal(temps_in_tmpdir(), 0);
  }
  print_message("%d of 5 conversions interrupted mid-write\n", interrupted);
  free(fresh);
  // a temporary is refused by every command
  char tmp[700];
  snprintf(tmp, sizeof tmp, "%s/.conv.el.k2tmp.AbCdEf", tmpdir);
  assert_int_equal(rename(out, tmp), 0);
  snprintf(a, sizeof a, "info '%s'", tmp);
  expect_error(a, 1);
  char *err = slurp("err.txt");
  assert_non_null(strstr(err, "temporary"));
  free(err);
  assert_int_equal(unlink(tmp), 0);
}


// ---- the command line ------------------------------------------------------------------------

// getopt_long: "--opt=value" and "--opt value", options and files in any order, "--" ends the
// options, flags take no value, a missing value is named.
static void test_option_syntax(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  char a[4096];
  snprintf(a, sizeof a, "bfs --source=30 '%s' --json", karate);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"source\": 30"));
  assert_non_null(strstr(out, "\"reached\": 34"));
  free(out);
  snprintf(a, sizeof a, "bfs --json --source 30 -- '%s'", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"source\": 30"));
  free(out);
  // after "--" an option-like word is a file
  snprintf(a, sizeof a, "info -- --json");
  expect_error_saying(a, 1, "cannot", "--json");
  snprintf(a, sizeof a, "bfs '%s' --source 1 -- --json", karate);
  expect_error_saying(a, 2, "unexpected argument '--json'", NULL);
  snprintf(a, sizeof a, "bfs '%s' --source 1 --json=yes", karate);
  expect_error_saying(a, 2, "--json takes no value", NULL);
  snprintf(a, sizeof a, "bfs '%s' --source", karate);
  expect_error_saying(a, 2, "option --source needs a value", NULL);
  snprintf(a, sizeof a, "bfs '%s' --source=", karate);
  expect_error_saying(a, 2, "bad value '' for --source", NULL);
  snprintf(a, sizeof a, "bfs '%s' --source ' 3'", karate);
  expect_error(a, 2);
  snprintf(a, sizeof a, "bfs '%s' -q --source 1", karate);
  expect_error_saying(a, 2, "unknown option '-q'", NULL);
  // a file name that starts with '-': the message names the letter getopt stopped at, not
  // the argument before it, and says how to pass such a name
  expect_error_saying("bfs -weird.mtx --source 1", 2, "unknown option '-w'", "put '--' before it");
  // an option of another command is unknown here
  snprintf(a, sizeof a, "cc '%s' --sources 1", karate);
  expect_error_saying(a, 2, "unknown", "--sources");
  snprintf(a, sizeof a, "demo --scale=99");
  expect_error_saying(a, 2, "bad value '99' for --scale", NULL);
  // msbfs --help describes --out once, and not the LDBC options it does not take
  assert_int_equal(run("msbfs --help"), 0);
  out = slurp("out.txt");
  const char *p = strstr(out, "\n  --out");
  assert_non_null(p);
  assert_null(strstr(p + 1, "\n  --out"));
  assert_null(strstr(out, "--ldbc"));
  free(out);
  // the commands that take --ldbc list it
  const char *ldbc_cmds[] = {"bfs --help", "sssp --help", "cc --help", "pagerank --help"};
  for (size_t k = 0; k < sizeof ldbc_cmds / sizeof ldbc_cmds[0]; k++) {
    assert_int_equal(run(ldbc_cmds[k]), 0);
    out = slurp("out.txt");
    assert_non_null(strstr(out, "\n  --ldbc"));
    free(out);
  }
}

// --sources: 1 to 256 ids, commas between, no empty item, digits only.
static void test_source_lists(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  const char *bad[] = {"0,,3", "0,3,", ",1", "1,+2", "1,-2", "'1, 2'", "''", "1,2x", "99999999999999999999999"};
  char a[4096];
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    snprintf(a, sizeof a, "msbfs '%s' --sources %s", karate, bad[k]);
    expect_error_saying(a, 2, "--sources", NULL);
  }
  snprintf(a, sizeof a, "msbfs '%s' --sources=0,3,33 --json", karate);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"sources\": 3"));
  free(out);
  // 257 sources: too many
  char list[2048] = "0";
  for (int i = 1; i < 257; i++) snprintf(list + strlen(list), sizeof list - strlen(list), ",%d", i % 34);
  snprintf(a, sizeof a, "msbfs '%s' --sources %s", karate, list);
  expect_error_saying(a, 2, "--sources", "256");
}

// --engine, K2GRB_ENGINE (validated; the flag wins), --threads (over OMP_NUM_THREADS), --trials.
static void test_engine_threads_trials(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  char a[4096];
  setenv("K2GRB_ENGINE", "gpu", 1);
  snprintf(a, sizeof a, "cc '%s'", karate);
  expect_error_saying(a, 2, "K2GRB_ENGINE='gpu' is not an engine", "cuda");
  snprintf(a, sizeof a, "cc '%s' --engine cpu --json", karate);  // the flag wins
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"engine\": \"openmp"));
  assert_non_null(strstr(out, "\"engine_requested\": \"cpu\""));
  free(out);
  setenv("K2GRB_ENGINE", "reference", 1);
  snprintf(a, sizeof a, "sssp '%s' --source 0 --json", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"engine\": \"reference"));
  free(out);
  unsetenv("K2GRB_ENGINE");
  snprintf(a, sizeof a, "bfs '%s' --source 0 --engine=reference --json", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"engine\": \"reference"));
  free(out);
  snprintf(a, sizeof a, "bfs '%s' --source 0 --engine gpu", karate);
  expect_error_saying(a, 2, "bad value 'gpu' for --engine", "auto, cpu, cuda or reference");
  snprintf(a, sizeof a, "info '%s' --engine cpu", karate);  // no products: no --engine
  expect_error(a, 2);
  // threads
  setenv("OMP_NUM_THREADS", "3", 1);
  snprintf(a, sizeof a, "pagerank '%s' --json", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_true(json_number(out, "threads") == 3);
  free(out);
  snprintf(a, sizeof a, "pagerank '%s' --json --threads 1", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_true(json_number(out, "threads") == 1);
  free(out);
  unsetenv("OMP_NUM_THREADS");
  snprintf(a, sizeof a, "pagerank '%s' --threads 0", karate);
  expect_error(a, 2);
  // trials: the best is at most the median
  snprintf(a, sizeof a, "bfs '%s' --source 3 --trials 5 --json", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_true(json_number(out, "trials") == 5);
  double best = json_number(out, "seconds"), median = json_number(out, "seconds_median");
  assert_true(best > 0 && best <= median);
  free(out);
  snprintf(a, sizeof a, "cc '%s' --trials 3", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "  trials                 3\n"));
  assert_non_null(strstr(out, "  seconds median "));
  free(out);
  snprintf(a, sizeof a, "msbfs '%s' --sources 1 --trials 0", karate);
  expect_error_saying(a, 2, "--trials", NULL);
  snprintf(a, sizeof a, "convert '%s' '%s/t.k2' --trials 2", karate, tmpdir);  // not an algorithm
  expect_error(a, 2);
  // the CUDA engine without a device: a note, the products on the CPU, exit 0
  bool device = false;
  K2_ASSERT_OK(K2_Device_available(&device));
  if (device) return;
  unsetenv("K2GRB_STRICT");
  snprintf(a, sizeof a, "cc '%s' --engine cuda --json", karate);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  char *err = slurp("err.txt");
  assert_non_null(strstr(out, "\"engine\": \"openmp"));
  assert_non_null(strstr(out, "\"engine_requested\": \"cuda\""));
  assert_non_null(strstr(err, "k2grb cc: note: no CUDA device"));
  assert_non_null(strstr(err, "run on the CPU"));
  assert_int_equal(count_lines(err), 1);
  free(out), free(err);
}

// Every command's report has the same keys, in JSON and as text; --check's verdict is
// check_passed everywhere.
static void test_report_keys(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  char cmds[8][1400];
  snprintf(cmds[0], sizeof cmds[0], "bfs '%s' --source 0 --check", karate);
  snprintf(cmds[1], sizeof cmds[1], "msbfs '%s' --sources 0,5 --check", karate);
  snprintf(cmds[2], sizeof cmds[2], "pagerank '%s' --check", karate);
  snprintf(cmds[3], sizeof cmds[3], "sssp '%s' --source 2 --check", karate);
  snprintf(cmds[4], sizeof cmds[4], "cc '%s' --check", karate);
  snprintf(cmds[5], sizeof cmds[5], "info '%s'", karate);
  snprintf(cmds[6], sizeof cmds[6], "convert '%s' '%s/keys.k2'", karate, tmpdir);
  snprintf(cmds[7], sizeof cmds[7], "bench '%s' --repeat 1", karate);
  const char *keys[] = {"command", "file", "nodes", "edges", "seconds", "engine", "threads", "version", "argv"};
  for (int c = 0; c < 8; c++) {
    char a[4096];
    snprintf(a, sizeof a, "%.1400s --json", cmds[c]);
    assert_int_equal(run(a), 0);
    char *json = slurp("out.txt");
    snprintf(a, sizeof a, "%.1400s", cmds[c]);
    assert_int_equal(run(a), 0);
    char *text = slurp("out.txt");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
      char jk[64], tk[64];
      snprintf(jk, sizeof jk, "\"%s\": ", keys[k]);
      snprintf(tk, sizeof tk, "\n  %s ", keys[k]);
      bool in_text = strstr(text, tk) != NULL || strncmp(text, tk + 1, strlen(tk) - 1) == 0;
      // bench: a table with a row per graph (graph, nodes, edges) and the other keys after it
      if (c == 7 && k <= 3) in_text = strstr(text, k == 0 ? "graph" : k == 1 ? "karate.mtx" : keys[k]) != NULL;
      if (strstr(json, jk) == NULL || !in_text) {
        fail_msg("%s: key %s missing (json: %s) (text: %s)", cmds[c], keys[k], json, text);
      }
    }
    assert_non_null(strstr(json, "\"argv\": [\""));
    if (c < 5) {
      assert_non_null(strstr(json, "\"check_passed\": true"));
      assert_non_null(strstr(text, "  check passed           yes\n"));
    }
    if (c < 7) {  // the same items in both: as many keys as lines
      int nkeys = 0;
      for (const char *p = json; (p = strstr(p, "\": ")) != NULL; p++) nkeys++;
      if (c == 2) nkeys -= 2 * 10;  // pagerank's top list: vertex and rank of 10 vertices
      assert_int_equal(nkeys, count_lines(text));
    }
    free(json), free(text);
  }
}

// Output names are matched whatever their case: .MTX is Matrix Market, .K2 a tree.
static void test_suffix_case(void **state) {
  (void)state;
  NEED("lagraph/karate.mtx", karate);
  char a[4096];
  snprintf(a, sizeof a, "convert '%s' '%s/OUT.MTX' --json", karate, tmpdir);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"output_format\": \"matrix-market\""));
  free(out);
  char *m = slurp("OUT.MTX");
  assert_int_equal(strncmp(m, "%%MatrixMarket", 14), 0);
  free(m);
  snprintf(a, sizeof a, "convert '%s' '%s/OUT.K2' --json", karate, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"output_format\": \"k2\""));
  free(out);
  snprintf(a, sizeof a, "info '%s/OUT.K2' --json", tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"edges\": 156"));
  free(out);
  snprintf(a, sizeof a, "convert '%s' '%s/out.Mtx.GZ' --json", karate, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"output_format\": \"matrix-market\""));
  free(out);
  char *gz = slurp("out.Mtx.GZ");
  assert_true((unsigned char)gz[0] == 0x1f && (unsigned char)gz[1] == 0x8b);  // gzip
  free(gz);
}

static int clear_cli_env(void **state) {
  (void)state;
  unsetenv("K2GRB_ENGINE");
  unsetenv("OMP_NUM_THREADS");
  return 0;
}

// The progress bar: K2GRB_PROGRESS=always shows it at once even off a terminal, with the bytes
// read against the file's size while a text file is read; never: nothing; the default: only on
// a terminal (these runs have none), so stderr stays empty.
static void test_progress(void **state) {
  (void)state;
  char path[600], a[4096];
  snprintf(path, sizeof path, "%s/progress.el", tmpdir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  uint64_t x = 88172645463325252ull;
  for (int k = 0; k < 12000000; k++) {  // about 166 MB: read in well over 0.1 s (55 MB were not always)
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    fprintf(f, "%u %u\n", (unsigned)(x & 0xfffff), (unsigned)((x >> 20) & 0xfffff));
  }
  fclose(f);
  setenv("K2GRB_PROGRESS", "always", 1);
  snprintf(a, sizeof a, "info '%s'", path);
  assert_int_equal(run(a), 0);
  char *err = slurp("err.txt");
  assert_non_null(strstr(err, "] reading "));
  assert_non_null(strstr(err, "progress.el"));
  assert_non_null(strstr(err, "% ("));
  assert_non_null(strstr(err, " of 166."));  // the file's size in MB
  assert_non_null(strstr(err, "building tree"));
  free(err);
  setenv("K2GRB_PROGRESS", "never", 1);
  assert_int_equal(run(a), 0);
  err = slurp("err.txt");
  assert_string_equal(err, "");
  free(err);
  unsetenv("K2GRB_PROGRESS");
  assert_int_equal(run(a), 0);
  err = slurp("err.txt");
  assert_string_equal(err, "");
  free(err);
  unlink(path);
}

static int clear_progress_env(void **state) {
  (void)state;
  unsetenv("K2GRB_PROGRESS");
  return 0;
}

// --remap: sources and result files under the file's own ids; --one-based: counted from 1.
static void test_remap_one_based(void **state) {
  (void)state;
  char el[600], el1[600], a[4096];
  snprintf(el, sizeof el, "%s/sparse.el", tmpdir);
  snprintf(el1, sizeof el1, "%s/one.el", tmpdir);
  write_text(el, "10 20\n20 30\n30 10\n100 10\n");
  write_text(el1, "1 2\n2 3\n");
  snprintf(a, sizeof a, "bfs '%s' --remap --source 10 --json --out '%s/r.txt'", el, tmpdir);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"nodes\": 4"));
  assert_non_null(strstr(out, "\"source\": 10"));
  free(out);
  out = slurp("r.txt");
  assert_string_equal(out, "10 0\n20 1\n30 2\n");
  free(out);
  snprintf(a, sizeof a, "bfs '%s' --remap --source=10 --parents --out '%s/r.txt'", el, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("r.txt");
  assert_string_equal(out, "10 10\n20 10\n30 20\n");
  free(out);
  snprintf(a, sizeof a, "cc '%s' --remap --out '%s/r.txt'", el, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("r.txt");
  assert_string_equal(out, "10 10\n20 10\n30 10\n100 10\n");
  free(out);
  snprintf(a, sizeof a, "sssp '%s' --remap --source 100 --out '%s/r.txt'", el, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("r.txt");
  assert_string_equal(out, "10 1\n20 2\n30 3\n100 0\n");
  free(out);
  snprintf(a, sizeof a, "msbfs '%s' --remap --sources 10,100 --out '%s/r.txt'", el, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("r.txt");
  assert_string_equal(out, "10 0 1\n20 1 2\n30 2 3\n100 -1 0\n");
  free(out);
  snprintf(a, sizeof a, "pagerank '%s' --remap --top 1 --json --out '%s/r.txt'", el, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("r.txt");
  assert_int_equal(strncmp(out, "10 ", 3), 0);
  assert_non_null(strstr(out, "\n100 "));
  free(out);
  snprintf(a, sizeof a, "bfs '%s' --remap --source 11", el);
  expect_error_saying(a, 2, "source 11 is not an id of the file", NULL);
  snprintf(a, sizeof a, "bfs '%s' --remap --source 3", el);  // a vertex of the tree, not an id
  expect_error(a, 2);
  // without --remap the ids are the file's too (0-based): 4 is a vertex, with no edge
  snprintf(a, sizeof a, "bfs '%s' --source 4 --json", el);
  assert_int_equal(run(a), 0);
  out = slurp("out.txt");
  assert_non_null(strstr(out, "\"nodes\": 101"));
  assert_non_null(strstr(out, "\"reached\": 1"));
  free(out);
  // one-based: the source and the result counted from 1
  snprintf(a, sizeof a, "bfs '%s' --one-based --source 1 --out '%s/r.txt'", el1, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("r.txt");
  assert_string_equal(out, "1 0\n2 1\n3 2\n");
  free(out);
  snprintf(a, sizeof a, "bfs '%s' --one-based --source 1 --parents --out '%s/r.txt'", el1, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("r.txt");
  assert_string_equal(out, "1 1\n2 1\n3 2\n");
  free(out);
  snprintf(a, sizeof a, "bfs '%s' --one-based --source 0", el1);
  expect_error_saying(a, 2, "ids 1 to 3", NULL);
  snprintf(a, sizeof a, "bfs '%s' --one-based --source 4", el1);
  expect_error(a, 2);
}

// One "vertex value" line of an LDBC result: the id and the value's text.
typedef struct {
  unsigned long long id;
  char val[64];
} ldbc_line;

// The lines of an LDBC result file (at most cap); -1 when a line is malformed or absent file.
static int ldbc_read(const char *path, ldbc_line *l, int cap) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  int n = 0;
  char buf[256];
  while (fgets(buf, sizeof buf, f) != NULL) {
    if (n == cap || sscanf(buf, "%llu %63s", &l[n].id, l[n].val) != 2) {
      fclose(f);
      return -1;
    }
    n++;
  }
  fclose(f);
  return n;
}

// PageRank: the same vertices in the same order, each value within rel of LDBC's. Returns the
// largest relative difference (INFINITY on a different vertex or line count).
static double ldbc_max_rel(const char *got, const char *want) {
  static ldbc_line a[4096], b[4096];
  int na = ldbc_read(got, a, 4096), nb = ldbc_read(want, b, 4096);
  if (na < 1 || na != nb) return INFINITY;
  double m = 0;
  for (int i = 0; i < na; i++) {
    if (a[i].id != b[i].id) return INFINITY;
    double x = strtod(a[i].val, NULL), y = strtod(b[i].val, NULL);
    m = fmax(m, fabs(x - y) / fmax(fabs(y), 1e-300));
  }
  return m;
}

// --ldbc on every LDBC Graphalytics example graph with an expected output: BFS and WCC equal
// LDBC's files byte for byte, PageRank within LDBC's relative epsilon (1e-4); the hop-count
// SSSP (the tree has no weights) has LDBC's vertices, LDBC's unreached ones (`infinity`) and,
// elsewhere, the BFS levels from the same source.
static void test_ldbc(void **state) {
  (void)state;
  NEED("ldbc-graphalytics-examples/example-directed.e", first);
  char dir[1024], a[4096], path[1200], want[1200], got[1200];
  snprintf(dir, sizeof dir, "%s", first);
  *strrchr(dir, '/') = '\0';
  DIR *d = opendir(dir);
  assert_non_null(d);
  static const char *algos[] = {"BFS", "WCC", "PR", "SSSP"}, *cmds[] = {"bfs", "cc", "pagerank", "sssp"};
  int compared[4] = {0, 0, 0, 0};
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 3 || strcmp(e->d_name + len - 2, ".e") != 0) continue;
    char g[1100];
    snprintf(g, sizeof g, "%s/%.*s", dir, (int)(len - 2), e->d_name);
    for (int k = 0; k < 4; k++) {
      snprintf(want, sizeof want, "%s-%s", g, algos[k]);
      if (access(want, R_OK) != 0) continue;
      snprintf(got, sizeof got, "%s/ldbc-%s.txt", tmpdir, algos[k]);
      snprintf(a, sizeof a, "%s '%s.e' --ldbc --out '%s'", cmds[k], g, got);
      if (run(a) != 0) {
        char *err = slurp("err.txt");
        print_error("k2grb %s: %s\n", a, err);
        free(err);
        fail();
      }
      size_t nw = 0;
      char *w = slurp_path(want, &nw);
      assert_non_null(w);
      if (k < 2) {  // BFS, WCC: exactly LDBC's file
        if (!same_file(got, w, nw)) {
          print_error("%s differs from %s\n", got, want);
          fail();
        }
      } else if (k == 2) {  // PageRank: LDBC's validation epsilon
        double m = ldbc_max_rel(got, want);
        print_message("%s: largest relative difference %.3g\n", want, m);
        assert_true(m <= 1e-4);
        // the 2-iteration examples: the same arithmetic, to rounding
        if (strstr(g, "/example-") != NULL) assert_true(m <= 1e-12);
      } else {  // SSSP in hops: the LDBC ids and unreached vertices, the BFS levels elsewhere
        static ldbc_line s[4096], l[4096], x[4096];
        int ns = ldbc_read(got, s, 4096), nx = ldbc_read(want, x, 4096);
        assert_true(ns > 0 && ns == nx);
        unsigned long long src = 0;
        int zeros = 0;
        for (int i = 0; i < nx; i++) {
          if (strtod(x[i].val, NULL) == 0 && strcmp(x[i].val, "infinity") != 0) src = x[i].id, zeros++;
        }
        assert_int_equal(zeros, 1);  // LDBC's source
        char lv[1200];
        snprintf(lv, sizeof lv, "%s/ldbc-levels.txt", tmpdir);
        snprintf(a, sizeof a, "bfs '%s.e' --ldbc --source %llu --out '%s'", g, src, lv);
        assert_int_equal(run(a), 0);
        assert_int_equal(ldbc_read(lv, l, 4096), ns);
        for (int i = 0; i < ns; i++) {
          assert_true(s[i].id == x[i].id && s[i].id == l[i].id);
          bool inf = strcmp(s[i].val, "infinity") == 0;
          assert_int_equal(inf, strcmp(x[i].val, "infinity") == 0);
          if (inf) assert_string_equal(l[i].val, "9223372036854775807");
          else assert_true(strtod(s[i].val, NULL) == strtod(l[i].val, NULL));
        }
        // the weights are said to be ignored
        snprintf(a, sizeof a, "sssp '%s.e' --ldbc --out '%s'", g, got);
        assert_int_equal(run(a), 0);
        char *err = slurp("err.txt");
        assert_non_null(strstr(err, "are ignored: the distances are hop counts"));
        free(err);
      }
      free(w);
      compared[k]++;
    }
  }
  closedir(d);
  print_message("LDBC outputs compared: BFS %d, WCC %d, PR %d, SSSP %d\n", compared[0], compared[1], compared[2],
                compared[3]);
  for (int k = 0; k < 4; k++) assert_true(compared[k] >= 2);

  // every vertex of the vertex file, isolated ones too; another vertex file with --vertices
  snprintf(path, sizeof path, "%s/more.v", tmpdir);
  write_text(path, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n4000000000\n");
  snprintf(a, sizeof a, "bfs '%s' --ldbc --vertices '%s' --json --out '%s/b.txt'", first, path, tmpdir);
  assert_int_equal(run(a), 0);
  char *out = slurp("out.txt");
  assert_non_null(strstr(out, "\"nodes\": 11"));
  assert_non_null(strstr(out, "\"source\": 1"));  // from the .properties
  free(out);
  out = slurp("b.txt");
  assert_int_equal(count_lines(out), 11);
  assert_non_null(strstr(out, "\n4000000000 9223372036854775807\n"));
  assert_int_equal(strncmp(out, "1 0\n2 9223372036854775807\n3 1\n", 30), 0);
  free(out);
  snprintf(a, sizeof a, "cc '%s' --ldbc --vertices '%s' --out '%s/b.txt'", first, path, tmpdir);
  assert_int_equal(run(a), 0);
  out = slurp("b.txt");
  assert_non_null(strstr(out, "\n10 1\n4000000000 4000000000\n"));
  free(out);
  // an edge whose end is not a vertex: an error naming it
  write_text(path, "1\n2\n3\n");
  snprintf(a, sizeof a, "cc '%s' --ldbc --vertices '%s' --out '%s/b.txt'", first, path, tmpdir);
  expect_error_saying(a, 1, "is not in the vertex file", NULL);
  write_text(path, "1\nx2\n");
  expect_error_saying(a, 1, "line 2 is not a vertex id", NULL);
  snprintf(a, sizeof a, "cc '%s' --ldbc --vertices '%s/none.v' --out '%s/b.txt'", first, tmpdir, tmpdir);
  expect_error_saying(a, 1, "cannot read the vertex file", NULL);
  // bad combinations
  snprintf(a, sizeof a, "bfs '%s' --ldbc", first);
  expect_error_saying(a, 2, "--ldbc", "--out");
  snprintf(a, sizeof a, "bfs '%s' --ldbc --remap --out -", first);
  expect_error_saying(a, 2, "--ldbc", "--remap");
  snprintf(a, sizeof a, "bfs '%s' --ldbc --parents --out -", first);
  expect_error(a, 2);
  snprintf(a, sizeof a, "pagerank '%s' --ldbc --gap --out -", first);
  expect_error(a, 2);
  snprintf(a, sizeof a, "cc '%s/g.k2' --ldbc --vertices x.v --out -", tmpdir);
  expect_error_saying(a, 2, "--ldbc reads an edge file", NULL);
  snprintf(a, sizeof a, "cc '%s' --vertices x.v --out -", first);
  expect_error_saying(a, 2, "--vertices goes with --ldbc", NULL);
  snprintf(path, sizeof path, "%s/g.el", tmpdir);
  write_text(path, "1 2\n");
  snprintf(a, sizeof a, "cc '%s' --ldbc --out -", path);
  expect_error_saying(a, 2, "--vertices", NULL);
  snprintf(want, sizeof want, "%s/example-directed.v", dir);
  snprintf(a, sizeof a, "pagerank '%s' --ldbc --vertices '%s' --out -", path, want);  // no .properties
  expect_error_saying(a, 2, "--ldbc-iterations", NULL);
}

// A strict JSON reader, enough to say whether a report parses: skips one value at *p (and the
// white space around it); false on any syntax error.
static void json_space(const char **p) {
  while (**p == ' ' || **p == '\n' || **p == '\t' || **p == '\r') (*p)++;
}

static bool json_value(const char **p, int depth);

static bool json_str(const char **p) {
  if (**p != '"') return false;
  for ((*p)++; **p != '"'; (*p)++) {
    if ((unsigned char)**p < 0x20) return false;  // also the end of the text
    if (**p == '\\') {
      (*p)++;
      if (**p == 'u') {
        for (int k = 1; k <= 4; k++) if (!isxdigit((unsigned char)(*p)[k])) return false;
        *p += 4;
      } else if (strchr("\"\\/bfnrt", **p) == NULL || **p == '\0') {
        return false;
      }
    }
  }
  (*p)++;
  return true;
}

static bool json_num(const char **p) {
  const char *s = *p;
  if (**p == '-') (*p)++;
  if (!isdigit((unsigned char)**p)) return false;
  if (**p == '0' && isdigit((unsigned char)(*p)[1])) return false;  // no leading zeros
  while (isdigit((unsigned char)**p)) (*p)++;
  if (**p == '.') {
    (*p)++;
    if (!isdigit((unsigned char)**p)) return false;
    while (isdigit((unsigned char)**p)) (*p)++;
  }
  if (**p == 'e' || **p == 'E') {
    (*p)++;
    if (**p == '+' || **p == '-') (*p)++;
    if (!isdigit((unsigned char)**p)) return false;
    while (isdigit((unsigned char)**p)) (*p)++;
  }
  return *p > s;
}

static bool json_value(const char **p, int depth) {
  if (depth > 32) return false;
  json_space(p);
  bool ok;
  if (**p == '{' || **p == '[') {
    char close = **p == '{' ? '}' : ']';
    bool object = close == '}';
    (*p)++;
    json_space(p);
    ok = true;
    if (**p != close) {
      for (;;) {
        if (object) {
          json_space(p);
          if (!json_str(p)) return false;
          json_space(p);
          if (*(*p)++ != ':') return false;
        }
        if (!json_value(p, depth + 1)) return false;
        if (**p != ',') break;
        (*p)++;
      }
    }
    if (**p != close) return false;
    (*p)++;
  } else if (**p == '"') {
    ok = json_str(p);
  } else if (strncmp(*p, "true", 4) == 0 || strncmp(*p, "null", 4) == 0) {
    ok = true, *p += 4;
  } else if (strncmp(*p, "false", 5) == 0) {
    ok = true, *p += 5;
  } else {
    ok = json_num(p);
  }
  json_space(p);
  return ok;
}

// The whole text is one JSON object.
static bool json_parses(const char *s) {
  const char *p = s;
  json_space(&p);
  return *p == '{' && json_value(&p, 0) && *p == '\0';
}

static int count_of(const char *s, const char *w) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, w)) != NULL; p += strlen(w)) n++;
  return n;
}

// The demo's two sections: R-MAT (worst case) then the web-like graph (best case), each checked
// against SuiteSparse; --graph picks them; --json gives the same figures as one object.
static void test_demo_graphs(void **state) {
  (void)state;
  bool device = false;
  K2_ASSERT_OK(K2_Device_available(&device));
  assert_int_equal(run("demo --scale 10 --graph both"), 0);
  char *text = slurp("out.txt");
  const char *rmat = strstr(text, "k2grb demo: R-MAT scale 10, edge factor 16, seed 1 (generated in ");
  const char *web = strstr(text, "k2grb demo: web-like graph, ");
  assert_non_null(rmat);
  assert_non_null(web);
  assert_true(rmat < web);
  assert_int_equal(count_of(text, "agreement with SuiteSparse              yes\n"), 2);
  assert_int_equal(count_of(text, "best of 5 more; identical\n"), 4);
  assert_int_equal(count_of(text, "levels identical, parents valid"), 2);
  assert_non_null(strstr(text, "  check passed           yes\n"));
  if (device) {
    assert_non_null(strstr(text, "k2grb demo: CUDA device initialised in "));
    assert_int_equal(count_of(text, "tree upload to the GPU"), 2);
  } else {
    assert_non_null(strstr(text, "k2grb demo: the products run on the CPU (no CUDA device"));
    assert_null(strstr(text, "upload"));
  }
  // the web-like graph has about as many edges as the R-MAT one asked for (2^10 * 16)
  const char *e = strstr(web, "edges (distinct)");
  assert_non_null(e);
  long edges = strtol(e + strlen("edges (distinct)"), NULL, 10);
  assert_true(edges > 16384 * 8 / 10 && edges < 16384 * 12 / 10);
  // --json: one object that parses, a section per graph, the keys of every command
  assert_int_equal(run("demo --scale 10 --json"), 0);
  char *json = slurp("out.txt");
  assert_true(json_parses(json));
  const char *keys[] = {"\"command\": \"demo\"", "\"device\": {\"gpu\": ", "\"graphs\": [", "\"graph\": \"rmat\"",
                        "\"graph\": \"web\"", "\"nodes\": ", "\"edges\": ", "\"bytes_k2\": ", "\"bits_per_edge\": ",
                        "\"bytes_csr_fp32\": ", "\"bytes_csr_bool\": ", "\"upload_seconds\": ", "\"products\": {",
                        "\"right\": {", "\"left\": {", "\"first_seconds\": ", "\"best_seconds\": ", "\"bfs\": {",
                        "\"pagerank\": {", "\"max_abs_diff\": ", "\"seconds\": ", "\"engine\": ", "\"threads\": ",
                        "\"version\": ", "\"argv\": [\"", "\"engine_requested\": \"auto\""};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    if (strstr(json, keys[k]) == NULL) fail_msg("demo --json: no %s in %s", keys[k], json);
  }
  assert_int_equal(count_of(json, "\"check_passed\": true"), 3);  // each graph and the whole run
  assert_int_equal(count_of(json, "\"verdict\": \"identical\""), 4);
  // the same figures as the text: the graphs are generated alike
  const char *r = strstr(json, "\"graph\": \"rmat\""), *w = strstr(json, "\"graph\": \"web\"");
  assert_true(r != NULL && w != NULL && r < w);
  assert_true(json_number(w, "edges") == (double)edges);
  const char *n = strstr(rmat, "edges (distinct)");
  assert_true(json_number(r, "edges") == (double)strtol(n + strlen("edges (distinct)"), NULL, 10));
  assert_true(json_number(r, "nodes") == 1024);
  free(json);
  free(text);
  // one graph or the other
  assert_int_equal(run("demo --scale 10 --graph web"), 0);
  text = slurp("out.txt");
  assert_null(strstr(text, "R-MAT"));
  assert_non_null(strstr(text, "web-like graph"));
  free(text);
  assert_int_equal(run("demo --scale=9 --graph=rmat --json"), 0);
  json = slurp("out.txt");
  assert_true(json_parses(json));
  assert_null(strstr(json, "\"graph\": \"web\""));
  assert_non_null(strstr(json, "\"graph\": \"rmat\""));
  free(json);
  expect_error_saying("demo --graph bogus", 2, "bad value 'bogus' for --graph", "rmat, web or both");
  expect_error_saying("demo --graph", 2, "option --graph needs a value", NULL);
}

static int setup(void **state) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/k2grb_cli_test_XXXXXX");
  if (mkdtemp(tmpdir) == NULL) return -1;
  return k2_test_setup(state);
}

static int teardown(void **state) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) return -1;
  return k2_test_teardown(state);
}

int main(void) {
  k2_test_filter_from_env();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_help),          cmocka_unit_test(test_bad_arguments),
      cmocka_unit_test(test_bad_files),     cmocka_unit_test(test_convert_info),
      cmocka_unit_test(test_bfs_out),       cmocka_unit_test(test_pagerank),
      cmocka_unit_test(test_sssp_cc_msbfs), cmocka_unit_test_teardown(test_error_lines, clear_engine_env),
      cmocka_unit_test(test_bench_demo), cmocka_unit_test(test_out_fails_midway),
      cmocka_unit_test(test_out_interrupted), cmocka_unit_test(test_option_syntax),
      cmocka_unit_test(test_source_lists), cmocka_unit_test_teardown(test_engine_threads_trials, clear_cli_env),
      cmocka_unit_test(test_report_keys), cmocka_unit_test(test_suffix_case),
      cmocka_unit_test_teardown(test_progress, clear_progress_env), cmocka_unit_test(test_remap_one_based),
      cmocka_unit_test(test_ldbc), cmocka_unit_test(test_foreign_k2), cmocka_unit_test(test_demo_graphs),
      cmocka_unit_test(test_locality_order), cmocka_unit_test(test_decoded_level)};
  return cmocka_run_group_tests(tests, setup, teardown);
}
