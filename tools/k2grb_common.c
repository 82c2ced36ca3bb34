// k2grb_common.c: what the k2grb subcommands share: option parsing, loading any graph file
// into a tree with a progress line, result files, messages.
// SPDX-License-Identifier: Apache-2.0
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "k2grb_algorithms.h"
#include "k2grb_cli.h"

double k2_cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int k2_cli_error(const k2_cli_opts *o, int code, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  // one line: cut the message at its first newline
  char *nl = strchr(line, '\n');
  if (nl != NULL) *nl = '\0';
  fprintf(stderr, "k2grb %s: %s\n", o != NULL && o->cmd != NULL ? o->cmd : "", line);
  return code;
}

int k2_cli_fail(const k2_cli_opts *o, int code, GrB_Info info, const char *message, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  bool has_message = message != NULL && message[0] != '\0';
  return k2_cli_error(o, code, "%s%s%s (%s)", what, has_message ? ": " : "", has_message ? message : "",
                      k2_cli_info_name(info));
}

const char *k2_cli_info_name(GrB_Info info) {
  return info == K2_CONVERGENCE_FAILURE ? "K2_CONVERGENCE_FAILURE" : K2_info_name(info);
}

const char *k2_cli_engine(void) {
  static _Thread_local char text[64];
  snprintf(text, sizeof text, "%s (%s)", K2_engine_name(K2_last_engine()), K2_path_name(K2_last_path()));
  return text;
}

//==============================================================================================
// options
//==============================================================================================

static bool k2_cli_allowed(const char *allowed, const char *opt) {
  size_t len = strlen(opt);
  for (const char *p = allowed; (p = strstr(p, opt)) != NULL; p += len) {
    if ((p == allowed || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return true;
  }
  return false;
}

static bool k2_cli_ull(const char *s, unsigned long long *v) {
  if (s == NULL || *s == '\0' || *s == '-') return false;
  char *end;
  errno = 0;
  *v = strtoull(s, &end, 10);
  return errno == 0 && *end == '\0';
}

static bool k2_cli_int(const char *s, int lo, int hi, int *v) {
  unsigned long long x;
  if (!k2_cli_ull(s, &x) || x < (unsigned long long)lo || x > (unsigned long long)hi) return false;
  *v = (int)x;
  return true;
}

static bool k2_cli_double(const char *s, double lo, double hi, double *v) {
  if (s == NULL || *s == '\0') return false;
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return errno == 0 && *end == '\0' && *v >= lo && *v <= hi;
}

int k2_cli_parse(k2_cli_opts *o, const char *cmd, const char *allowed, int min_files, int max_files,
                 const char *usage, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  o->cmd = cmd;
  o->top = 10;
  o->damping = 0.85;
  o->tol = 1e-4;
  o->itermax = 100;
  o->repeat = 5;
  o->mode = "auto";
  o->scale = 20;
  o->edge_factor = 16;
  o->seed = 1;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    }
    if (a[0] != '-' || strcmp(a, "-") == 0) {
      if (o->nfiles >= max_files || o->nfiles >= K2_CLI_MAX_FILES) {
        return k2_cli_error(o, K2_CLI_USAGE, "unexpected argument '%s' (see --help)", a);
      }
      o->files[o->nfiles++] = a;
      continue;
    }
    if (!k2_cli_allowed(allowed, a)) return k2_cli_error(o, K2_CLI_USAGE, "unknown option '%s' (see --help)", a);
    // flags
    bool *flag = strcmp(a, "--json") == 0        ? &o->json
                 : strcmp(a, "--parents") == 0    ? &o->parents
                 : strcmp(a, "--symmetrize") == 0 ? &o->symmetrize
                 : strcmp(a, "--transpose") == 0  ? &o->transpose
                 : strcmp(a, "--one-based") == 0  ? &o->one_based
                 : strcmp(a, "--remap") == 0      ? &o->remap
                 : strcmp(a, "--check") == 0      ? &o->check
                 : strcmp(a, "--reverse") == 0    ? &o->reverse
                 : strcmp(a, "--gap") == 0        ? &o->gap
                                                  : NULL;
    if (flag != NULL) {
      *flag = true;
      continue;
    }
    // options with a value
    if (i + 1 >= argc) return k2_cli_error(o, K2_CLI_USAGE, "option %s needs a value", a);
    const char *v = argv[++i];
    bool ok = true;
    if (strcmp(a, "--out") == 0) {
      o->out = v;
    } else if (strcmp(a, "--source") == 0) {
      ok = k2_cli_ull(v, &o->source);
      o->has_source = true;
    } else if (strcmp(a, "--sources") == 0) {
      o->nsources = 0;
      char *copy = strdup(v), *save = NULL;
      for (char *t = strtok_r(copy, ",", &save); t != NULL && ok; t = strtok_r(NULL, ",", &save)) {
        if (o->nsources >= K2_CLI_MAX_SOURCES) {
          free(copy);
          return k2_cli_error(o, K2_CLI_USAGE, "at most %d sources", K2_CLI_MAX_SOURCES);
        }
        ok = k2_cli_ull(t, &o->sources[o->nsources++]);
      }
      free(copy);
      ok = ok && o->nsources > 0;
    } else if (strcmp(a, "--top") == 0) {
      ok = k2_cli_int(v, 0, 1 << 30, &o->top);
    } else if (strcmp(a, "--ldbc-iterations") == 0) {
      ok = k2_cli_int(v, 1, 1 << 20, &o->ldbc_iterations);
    } else if (strcmp(a, "--itermax") == 0) {
      ok = k2_cli_int(v, 1, 1 << 20, &o->itermax);
    } else if (strcmp(a, "--repeat") == 0) {
      ok = k2_cli_int(v, 1, 1000, &o->repeat);
    } else if (strcmp(a, "--damping") == 0) {
      ok = k2_cli_double(v, 1e-9, 1 - 1e-9, &o->damping);
    } else if (strcmp(a, "--tol") == 0) {
      ok = k2_cli_double(v, 0, 1, &o->tol);
    } else if (strcmp(a, "--mode") == 0) {
      o->mode = v;
      ok = strcmp(v, "auto") == 0 || strcmp(v, "push") == 0 || strcmp(v, "pull") == 0;
    } else if (strcmp(a, "--scale") == 0) {
      int s;
      ok = k2_cli_int(v, 1, 30, &s);
      o->scale = (unsigned)s;
    } else if (strcmp(a, "--edge-factor") == 0) {
      ok = k2_cli_double(v, 0.01, 1024, &o->edge_factor);
    } else if (strcmp(a, "--seed") == 0) {
      ok = k2_cli_ull(v, &o->seed);
    } else if (strcmp(a, "--format") == 0) {
      o->format = strcmp(v, "auto") == 0      ? K2_FORMAT_AUTO
                  : strcmp(v, "mtx") == 0     ? K2_FORMAT_MATRIX_MARKET
                  : strcmp(v, "edges") == 0   ? K2_FORMAT_EDGE_LIST
                  : strcmp(v, "metis") == 0   ? K2_FORMAT_METIS
                  : strcmp(v, "bvgraph") == 0 ? K2_FORMAT_BVGRAPH
                  : strcmp(v, "k2") == 0      ? K2_FORMAT_K2
                                              : (K2_FileFormat)-1;
      ok = (int)o->format >= 0;
    } else {
      ok = false;
    }
    if (!ok) return k2_cli_error(o, K2_CLI_USAGE, "bad value '%s' for %s", v, a);
  }
  if (o->nfiles < min_files) return k2_cli_error(o, K2_CLI_USAGE, "missing FILE argument (see --help)");
  return -1;
}

//==============================================================================================
// loading, with a progress line on a terminal
//==============================================================================================

typedef struct {
  pthread_t thread;
  atomic_int phase;    // 0 reading, 1 building, 2 done
  atomic_bool stop;
  const char *path;
  double t0;
  bool shown;
} k2_cli_progress;

// An activity bar (the readers report no fraction): appears after 0.5 s, redrawn 10x a
// second, erased at the end.
static void *k2_cli_progress_run(void *arg) {
  k2_cli_progress *p = arg;
  int tick = 0;
  while (!atomic_load(&p->stop)) {
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    double t = k2_cli_now() - p->t0;
    if (t < 0.5 || atomic_load(&p->stop)) continue;
    char bar[21];
    for (int i = 0; i < 20; i++) bar[i] = (abs(i - (tick % 38 < 19 ? tick % 38 : 38 - tick % 38)) <= 1) ? '#' : '.';
    bar[20] = '\0';
    tick++;
    fprintf(stderr, "\r[%s] %s %s  %.1f s ", bar, atomic_load(&p->phase) == 0 ? "reading" : "building tree",
            p->path, t);
    fflush(stderr);
    p->shown = true;
  }
  if (p->shown) fprintf(stderr, "\r\033[K");
  return NULL;
}

static bool k2_cli_ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

int k2_cli_load(const k2_cli_opts *o, const char *path, K2_Matrix *A, double *seconds) {
  *A = NULL;
  k2_cli_progress p = {.path = path, .t0 = k2_cli_now()};
  atomic_init(&p.phase, 0);
  atomic_init(&p.stop, false);
  bool ticker = isatty(STDERR_FILENO) && pthread_create(&p.thread, NULL, k2_cli_progress_run, &p) == 0;
  GrB_Info info;
  const char *what = "read";
  bool plain_k2 = (o->format == K2_FORMAT_K2 || (o->format == K2_FORMAT_AUTO && k2_cli_ends_with(path, ".k2"))) &&
                  !o->symmetrize && !o->transpose;
  if (plain_k2) {
    info = K2_Matrix_load(A, path);
  } else {
    K2_ReadOptions ro;
    K2_ReadOptions_default(&ro);
    ro.format = o->format;
    ro.symmetrize = o->symmetrize;
    ro.transpose = o->transpose;
    ro.one_based = o->one_based;
    ro.remap_ids = o->remap;
    K2_Edges E;
    info = K2_Edges_read(&E, path, &ro);
    if (info == GrB_SUCCESS) {
      atomic_store(&p.phase, 1);
      what = "build the tree of";
      GrB_Index n = E.nrows > E.ncols ? E.nrows : E.ncols;  // graphs are square
      info = K2_Matrix_new(A, n, n);
      if (info == GrB_SUCCESS) info = K2_Matrix_build_32(*A, E.I, E.J, E.nvals);
      if (info != GrB_SUCCESS) K2_Matrix_free(A);
      K2_Edges_free(&E);
    }
  }
  if (ticker) {
    atomic_store(&p.stop, true);
    pthread_join(p.thread, NULL);
  }
  *seconds = k2_cli_now() - p.t0;
  if (info != GrB_SUCCESS) {
    return k2_cli_fail(o, K2_CLI_FAIL, info, K2_error_string(), "cannot %s %s", what, path);
  }
  return 0;
}

//==============================================================================================
// results
//==============================================================================================

int k2_cli_out_open(const k2_cli_opts *o, k2_cli_out *out) {
  out->file = NULL;
  out->f = stdout;
  if (strcmp(o->out, "-") == 0) return 0;
  if (K2_OutFile_open(&out->file, &out->f, o->out) != GrB_SUCCESS) {
    return k2_cli_error(o, K2_CLI_FAIL, "cannot write %s", K2_error_string());
  }
  return 0;
}

int k2_cli_out_close(const k2_cli_opts *o, k2_cli_out *out, int rc) {
  if (out->file == NULL) {  // stdout
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
      rc = k2_cli_error(o, K2_CLI_FAIL, "error writing the result to stdout");
    }
    return rc;
  }
  if (rc != 0) {
    K2_OutFile_discard(&out->file);
    return rc;
  }
  if (K2_OutFile_commit(&out->file) != GrB_SUCCESS) {
    return k2_cli_error(o, K2_CLI_FAIL, "cannot write %s", K2_error_string());
  }
  return 0;
}

int k2_cli_write_vector(const k2_cli_opts *o, GrB_Vector v, const char *fp_format) {
  k2_cli_out out;
  int rc = k2_cli_out_open(o, &out);
  if (rc != 0) return rc;
  FILE *f = out.f;
  GrB_Index nv = 0;
  GrB_Vector_nvals(&nv, v);
  GrB_Index *I = malloc((nv + 1) * sizeof(GrB_Index));
  int64_t *X = fp_format ? NULL : malloc((nv + 1) * sizeof(int64_t));
  double *D = fp_format ? malloc((nv + 1) * sizeof(double)) : NULL;
  GrB_Info info = GrB_OUT_OF_MEMORY;
  if (I != NULL && (X != NULL || D != NULL)) {
    GrB_Index n = nv;
    info = fp_format ? GrB_Vector_extractTuples_FP64(I, D, &n, v) : GrB_Vector_extractTuples_INT64(I, X, &n, v);
    for (GrB_Index k = 0; info == GrB_SUCCESS && k < n; k++) {
      if (fp_format) {
        fprintf(f, "%llu ", (unsigned long long)I[k]);
        fprintf(f, fp_format, D[k]);
        fputc('\n', f);
      } else {
        fprintf(f, "%llu %lld\n", (unsigned long long)I[k], (long long)X[k]);
      }
    }
  }
  free(I);
  free(X);
  free(D);
  if (info != GrB_SUCCESS) rc = k2_cli_fail(o, K2_CLI_FAIL, info, NULL, "cannot extract the result");
  return k2_cli_out_close(o, &out, rc);
}

void k2_cli_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned)*s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

//==============================================================================================
// reports
//==============================================================================================

static k2_cli_item *k2_cli_rep_add(k2_cli_report *r, const char *key) {
  if (r->n >= 64) return NULL;
  k2_cli_item *it = &r->item[r->n++];
  snprintf(it->key, sizeof it->key, "%s", key);
  it->json = NULL;
  return it;
}

void k2_cli_rep_str(k2_cli_report *r, const char *key, const char *fmt, ...) {
  k2_cli_item *it = k2_cli_rep_add(r, key);
  if (it == NULL) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(it->text, sizeof it->text, fmt, ap);
  va_end(ap);
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (m != NULL) {
    k2_cli_json_string(m, it->text);
    fclose(m);
  }
  it->json = buf;
}

void k2_cli_rep_num(k2_cli_report *r, const char *key, const char *fmt, ...) {
  k2_cli_item *it = k2_cli_rep_add(r, key);
  if (it == NULL) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(it->text, sizeof it->text, fmt, ap);
  va_end(ap);
  it->json = strdup(it->text);
}

void k2_cli_rep_raw(k2_cli_report *r, const char *key, const char *text, const char *json) {
  k2_cli_item *it = k2_cli_rep_add(r, key);
  if (it == NULL) return;
  snprintf(it->text, sizeof it->text, "%s", text);
  it->json = strdup(json);
}

void k2_cli_rep_print(const k2_cli_opts *o, k2_cli_report *r) {
  // with the result itself on stdout (--out -) the summary goes to stderr
  FILE *f = (o->out != NULL && strcmp(o->out, "-") == 0) ? stderr : stdout;
  if (o->json) {
    fprintf(f, "{");
    for (int i = 0; i < r->n; i++) {
      fprintf(f, "%s", i ? ", " : "");
      k2_cli_json_string(f, r->item[i].key);
      fprintf(f, ": %s", r->item[i].json ? r->item[i].json : "null");
    }
    fprintf(f, "}\n");
  } else {
    for (int i = 0; i < r->n; i++) {
      char key[48];
      snprintf(key, sizeof key, "%s", r->item[i].key);
      for (char *c = key; *c; c++) if (*c == '_') *c = ' ';
      fprintf(f, "  %-22s %s\n", key, r->item[i].text);
    }
  }
  for (int i = 0; i < r->n; i++) free(r->item[i].json);
  r->n = 0;
}

int64_t *k2_cli_dense_i64(GrB_Vector v, GrB_Index n, int64_t missing) {
  int64_t *out = malloc((n + 1) * sizeof(int64_t)), *X = malloc((n + 1) * sizeof(int64_t));
  GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index)), nv = n;
  if (out == NULL || X == NULL || I == NULL || GrB_Vector_extractTuples_INT64(I, X, &nv, v) != GrB_SUCCESS) {
    free(out), free(X), free(I);
    return NULL;
  }
  for (GrB_Index i = 0; i < n; i++) out[i] = missing;
  for (GrB_Index k = 0; k < nv; k++) out[I[k]] = X[k];
  free(X), free(I);
  return out;
}

double *k2_cli_dense_f64(GrB_Vector v, GrB_Index n, double missing) {
  double *out = malloc((n + 1) * sizeof(double)), *X = malloc((n + 1) * sizeof(double));
  GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index)), nv = n;
  if (out == NULL || X == NULL || I == NULL || GrB_Vector_extractTuples_FP64(I, X, &nv, v) != GrB_SUCCESS) {
    free(out), free(X), free(I);
    return NULL;
  }
  for (GrB_Index i = 0; i < n; i++) out[i] = missing;
  for (GrB_Index k = 0; k < nv; k++) out[I[k]] = X[k];
  free(X), free(I);
  return out;
}
