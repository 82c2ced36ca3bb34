// k2grb_common.c: what the k2grb subcommands share: option parsing, loading any graph file
// into a tree with a progress line, result files, messages.
// SPDX-License-Identifier: Apache-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
  // the library's messages start with the function that failed ("K2_Matrix_load: g.k2: ..."):
  // a user of the tool reads what failed, not which call
  if (message != NULL && strncmp(message, "K2_", 3) == 0) {
    size_t len = 3;
    while (isalnum((unsigned char)message[len]) || message[len] == '_') len++;
    if (message[len] == ':' && message[len + 1] == ' ') message += len + 2;
  }
  bool has_message = message != NULL && message[0] != '\0';
  return k2_cli_error(o, code, "%s%s%s (%s)", what, has_message ? ": " : "", has_message ? message : "",
                      k2_cli_info_name(info));
}

const char *k2_cli_alg_words(const char *msg, char *buf, size_t cap) {
  static const struct {
    const char *fn, *words;
  } names[] = {{"K2_bfs", "BFS"},
               {"K2_bfs_graph", "BFS"},
               {"K2_pagerank_ldbc_graph", "PageRank (LDBC)"},
               {"K2_pagerank_gap_graph", "PageRank (GAP)"},
               {"K2_pagerank_graph", "PageRank"},
               {"K2_Graph_new", "graph"},
               {"K2_msbfs", "multi-source BFS"},
               {"K2_pagerank_ldbc", "PageRank (LDBC)"},
               {"K2_pagerank_gap", "PageRank (GAP)"},
               {"K2_pagerank", "PageRank"},
               {"K2_sssp_hops", "shortest paths"},
               {"K2_wcc", "connected components"}};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    size_t len = strlen(names[k].fn);
    if (strncmp(msg, names[k].fn, len) == 0 && msg[len] == ':') {
      snprintf(buf, cap, "%s%s", names[k].words, msg + len);
      return buf;
    }
  }
  snprintf(buf, cap, "%s", msg);
  return buf;
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

// A count or an id: decimal digits only (no sign, no spaces), within 64 bits.
static bool k2_cli_ull(const char *s, unsigned long long *v) {
  if (s == NULL || !isdigit((unsigned char)s[0])) return false;
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
  if (s == NULL || *s == '\0' || isspace((unsigned char)*s)) return false;
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return errno == 0 && *end == '\0' && *v >= lo && *v <= hi;
}

// The engine a word names: auto, cpu (= openmp), openmp, cuda, reference; -1 if none.
static int k2_cli_engine_of(const char *w) {
  return strcmp(w, "auto") == 0                                ? K2_ENGINE_AUTO
         : strcmp(w, "cpu") == 0 || strcmp(w, "openmp") == 0 ? K2_ENGINE_OPENMP
         : strcmp(w, "cuda") == 0                              ? K2_ENGINE_CUDA
         : strcmp(w, "reference") == 0                         ? K2_ENGINE_REFERENCE
                                                               : -1;
}

// The command line for the `argv` key, as text and as a JSON array (kept to the end: reachable
// from here).
static char *k2_cli_argv_text, *k2_cli_argv_json;

void k2_cli_set_argv(int argc, char **argv) {
  size_t tl = 0, jl = 0;
  FILE *t = open_memstream(&k2_cli_argv_text, &tl), *j = open_memstream(&k2_cli_argv_json, &jl);
  if (t == NULL || j == NULL) {
    if (t) fclose(t);
    if (j) fclose(j);
    return;
  }
  fputc('[', j);
  for (int i = 0; i < argc; i++) {
    fprintf(t, "%s%s", i ? " " : "", argv[i]);
    fputs(i ? ", " : "", j);
    k2_cli_json_string(j, argv[i]);
  }
  fputc(']', j);
  fclose(t);
  fclose(j);
}

// Every option of every command: name, takes a value.
static const struct {
  const char *name;
  bool value;
} k2_cli_optdefs[] = {
    {"json", false},   {"parents", false},     {"symmetrize", false}, {"transpose", false},
    {"one-based", false}, {"remap", false},    {"check", false},      {"reverse", false},
    {"gap", false},    {"out", true},          {"source", true},      {"sources", true},
    {"top", true},     {"ldbc-iterations", true}, {"itermax", true},  {"repeat", true},
    {"damping", true}, {"tol", true},          {"mode", true},        {"scale", true},
    {"edge-factor", true}, {"seed", true},     {"format", true},      {"engine", true},
    {"threads", true}, {"trials", true},   {"ldbc", false},       {"vertices", true},
    {"graph", true},   {"compress-leaves", false}, {"leaf-log", true},
    {"full-blocks", false}, {"bottom-codes", false}, {"locality-order", false},
    {"decoded-level", false},
};
#define K2_CLI_NOPTS ((int)(sizeof k2_cli_optdefs / sizeof k2_cli_optdefs[0]))
#define K2_CLI_OPT_BASE 256

// Set option `name` from its value (NULL for a flag); false on a bad value.
static bool k2_cli_set(k2_cli_opts *o, const char *a, const char *v) {
  bool *flag = strcmp(a, "json") == 0        ? &o->json
               : strcmp(a, "parents") == 0    ? &o->parents
               : strcmp(a, "symmetrize") == 0 ? &o->symmetrize
               : strcmp(a, "transpose") == 0  ? &o->transpose
               : strcmp(a, "one-based") == 0  ? &o->one_based
               : strcmp(a, "remap") == 0      ? &o->remap
               : strcmp(a, "check") == 0      ? &o->check
               : strcmp(a, "reverse") == 0    ? &o->reverse
               : strcmp(a, "gap") == 0        ? &o->gap
               : strcmp(a, "ldbc") == 0       ? &o->ldbc
               : strcmp(a, "compress-leaves") == 0 ? &o->compress_leaves
               : strcmp(a, "full-blocks") == 0 ? &o->full_blocks
               : strcmp(a, "bottom-codes") == 0 ? &o->bottom_codes
               : strcmp(a, "locality-order") == 0 ? &o->locality_order
               : strcmp(a, "decoded-level") == 0 ? &o->decoded_level
                                              : NULL;
  if (flag != NULL) {
    *flag = true;
    return true;
  }
  if (strcmp(a, "leaf-log") == 0) {
    unsigned long long l;
    if (!k2_cli_ull(v, &l) || l < 1 || l > 3) return false;
    o->leaf_log = (uint32_t)l;
    return true;
  }
  if (strcmp(a, "out") == 0) {
    o->out = v;
    return v[0] != '\0';
  }
  if (strcmp(a, "source") == 0) {
    o->has_source = true;
    return k2_cli_ull(v, &o->source);
  }
  if (strcmp(a, "sources") == 0) {
    // comma-separated ids: no empty item, no sign or space, at most K2_CLI_MAX_SOURCES
    o->nsources = 0;
    for (const char *p = v;; p++) {
      const char *e = strchr(p, ',');
      size_t len = e ? (size_t)(e - p) : strlen(p);
      char item[32];
      if (len == 0 || len >= sizeof item || o->nsources >= K2_CLI_MAX_SOURCES) return false;
      memcpy(item, p, len);
      item[len] = '\0';
      if (!k2_cli_ull(item, &o->sources[o->nsources++])) return false;
      if (e == NULL) return true;
      p = e;
    }
  }
  if (strcmp(a, "top") == 0) return k2_cli_int(v, 0, 1 << 30, &o->top);
  if (strcmp(a, "ldbc-iterations") == 0) return k2_cli_int(v, 1, 1 << 20, &o->ldbc_iterations);
  if (strcmp(a, "itermax") == 0) return k2_cli_int(v, 1, 1 << 20, &o->itermax);
  if (strcmp(a, "repeat") == 0) return k2_cli_int(v, 1, 1000, &o->repeat);
  if (strcmp(a, "trials") == 0) return k2_cli_int(v, 1, K2_CLI_MAX_TRIALS, &o->trials);
  if (strcmp(a, "threads") == 0) return k2_cli_int(v, 1, 4096, &o->threads);
  if (strcmp(a, "vertices") == 0) {
    o->vertices = v;
    return v[0] != '\0';
  }
  if (strcmp(a, "damping") == 0) o->has_damping = true;
  if (strcmp(a, "damping") == 0) return k2_cli_double(v, 1e-9, 1 - 1e-9, &o->damping);
  if (strcmp(a, "tol") == 0) return k2_cli_double(v, 0, 1, &o->tol);
  if (strcmp(a, "edge-factor") == 0) return k2_cli_double(v, 0.01, 1024, &o->edge_factor);
  if (strcmp(a, "seed") == 0) return k2_cli_ull(v, &o->seed);
  if (strcmp(a, "graph") == 0) {
    o->graph = v;
    return strcmp(v, "rmat") == 0 || strcmp(v, "web") == 0 || strcmp(v, "both") == 0;
  }
  if (strcmp(a, "mode") == 0) {
    o->mode = v;
    return strcmp(v, "auto") == 0 || strcmp(v, "push") == 0 || strcmp(v, "pull") == 0;
  }
  if (strcmp(a, "scale") == 0) {
    int sc;
    if (!k2_cli_int(v, 1, 30, &sc)) return false;
    o->scale = (unsigned)sc;
    return true;
  }
  if (strcmp(a, "engine") == 0) {
    int e = k2_cli_engine_of(v);
    o->engine = (K2_Engine)e;
    o->engine_word = v;
    o->has_engine = true;
    return e >= 0;
  }
  if (strcmp(a, "format") == 0) {
    o->format = strcmp(v, "auto") == 0      ? K2_FORMAT_AUTO
                : strcmp(v, "mtx") == 0     ? K2_FORMAT_MATRIX_MARKET
                : strcmp(v, "edges") == 0   ? K2_FORMAT_EDGE_LIST
                : strcmp(v, "metis") == 0   ? K2_FORMAT_METIS
                : strcmp(v, "bvgraph") == 0 ? K2_FORMAT_BVGRAPH
                : strcmp(v, "k2") == 0      ? K2_FORMAT_K2
                                            : (K2_FileFormat)-1;
    return (int)o->format >= 0;
  }
  return false;
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
  o->trials = 1;
  o->mode = "auto";
  o->scale = 20;
  o->edge_factor = 16;
  o->seed = 1;
  o->graph = "both";
  o->engine = K2_ENGINE_AUTO;
  o->engine_word = "auto";
  o->products = k2_cli_allowed(allowed, "--engine");
  // the accepted options only: an abbreviation ("--sou") resolves among them
  struct option longopts[K2_CLI_NOPTS + 2];
  int nl = 0;
  for (int k = 0; k < K2_CLI_NOPTS; k++) {
    char dashed[40];
    snprintf(dashed, sizeof dashed, "--%s", k2_cli_optdefs[k].name);
    if (!k2_cli_allowed(allowed, dashed)) continue;
    longopts[nl++] = (struct option){k2_cli_optdefs[k].name, k2_cli_optdefs[k].value ? required_argument : no_argument,
                                     NULL, K2_CLI_OPT_BASE + k};
  }
  longopts[nl++] = (struct option){"help", no_argument, NULL, 'h'};
  longopts[nl] = (struct option){NULL, 0, NULL, 0};
  // getopt sees the command name as argv[0]; "-" first: files come back in order (code 1),
  // ":" second: a missing value comes back as ':'
  int gargc = argc + 1;
  char **gargv = argv - 1;
  opterr = 0;
  optind = 0;  // a full reset (glibc)
  for (;;) {
    int c = getopt_long(gargc, gargv, "-:h", longopts, NULL);
    if (c == -1) break;
    if (c == 'h') {
      fputs(usage, stdout);
      return 0;
    }
    if (c == 1) {  // a file
      if (o->nfiles >= max_files || o->nfiles >= K2_CLI_MAX_FILES) {
        return k2_cli_error(o, K2_CLI_USAGE, "unexpected argument '%s' (see --help)", optarg);
      }
      o->files[o->nfiles++] = optarg;
      continue;
    }
    const char *arg = gargv[optind - 1];
    if (c == ':') {
      const char *name = optopt >= K2_CLI_OPT_BASE ? k2_cli_optdefs[optopt - K2_CLI_OPT_BASE].name : arg;
      return k2_cli_error(o, K2_CLI_USAGE, "option --%s needs a value (see --help)", name);
    }
    if (c == '?') {
      if (optopt >= K2_CLI_OPT_BASE) {
        return k2_cli_error(o, K2_CLI_USAGE, "option --%s takes no value (see --help)",
                            k2_cli_optdefs[optopt - K2_CLI_OPT_BASE].name);
      }
      if (optopt > 0 && optopt < K2_CLI_OPT_BASE) {
        // a short option: getopt is inside an argument such as "-q" or "-graph.mtx", and
        // optind moves past that argument only after its last letter, so name the letter
        return k2_cli_error(o, K2_CLI_USAGE,
                            "unknown option '-%c' (see --help; a file whose name starts with '-': "
                            "put '--' before it)",
                            optopt);
      }
      return k2_cli_error(o, K2_CLI_USAGE, "unknown or ambiguous option '%s' (see --help)", arg);
    }
    const char *name = k2_cli_optdefs[c - K2_CLI_OPT_BASE].name;
    if (!k2_cli_set(o, name, optarg)) {
      if (strcmp(name, "sources") == 0) {
        return k2_cli_error(o, K2_CLI_USAGE,
                            "bad value '%s' for --sources: want 1 to %d vertex ids separated by commas, "
                            "no empty item",
                            optarg, K2_CLI_MAX_SOURCES);
      }
      if (strcmp(name, "graph") == 0) {
        return k2_cli_error(o, K2_CLI_USAGE, "bad value '%s' for --graph: want rmat, web or both", optarg);
      }
      if (strcmp(name, "engine") == 0) {
        return k2_cli_error(o, K2_CLI_USAGE, "bad value '%s' for --engine: want auto, cpu, cuda or reference",
                            optarg);
      }
      return k2_cli_error(o, K2_CLI_USAGE, "bad value '%s' for --%s (see --help)", optarg, name);
    }
  }
  // what getopt left after "--": files
  for (; optind < gargc; optind++) {
    if (o->nfiles >= max_files || o->nfiles >= K2_CLI_MAX_FILES) {
      return k2_cli_error(o, K2_CLI_USAGE, "unexpected argument '%s' (see --help)", gargv[optind]);
    }
    o->files[o->nfiles++] = gargv[optind];
  }
  if (o->nfiles < min_files) return k2_cli_error(o, K2_CLI_USAGE, "missing FILE argument (see --help)");
  // K2GRB_ENGINE, unless --engine said otherwise
  const char *env = getenv("K2GRB_ENGINE");
  if (o->products && !o->has_engine && env != NULL && env[0] != '\0') {
    int e = k2_cli_engine_of(env);
    if (e < 0) {
      return k2_cli_error(o, K2_CLI_USAGE,
                          "K2GRB_ENGINE='%s' is not an engine: want auto, cpu, cuda or reference (or use --engine)",
                          env);
    }
    o->engine = (K2_Engine)e;
    o->engine_word = env;
  }
  return -1;
}

bool k2_cli_strict(void) {
  const char *s = getenv("K2GRB_STRICT");
  return s != NULL && strcmp(s, "1") == 0;
}

int k2_cli_setup(const k2_cli_opts *o) {
  if (o->threads > 0) {
    omp_set_num_threads(o->threads);
    GxB_set(GxB_NTHREADS, o->threads);
  }
  if (!o->products) return 0;
  GrB_Info info = K2_set_engine(o->engine);
  if (info != GrB_SUCCESS) return k2_cli_fail(o, K2_CLI_FAIL, info, NULL, "cannot select the %s engine", o->engine_word);
  if (o->engine == K2_ENGINE_CUDA && !k2_cli_strict()) {
    bool present = false;
    if (K2_Device_available(&present) != GrB_SUCCESS || !present) {
      // outside strict mode each product the CUDA engine declines runs on the CPU; in strict
      // mode the first one fails, and its error line says so
      fprintf(stderr, "k2grb %s: note: no CUDA device (none found, or built without CUDA): the products run on "
                      "the CPU (K2GRB_STRICT=1 makes this an error)\n", o->cmd);
    }
  }
  return 0;
}

void k2_cli_best_median(double *t, int n, double *best, double *median) {
  for (int i = 1; i < n; i++) {  // insertion sort: a few trials
    double x = t[i];
    int j = i;
    for (; j > 0 && t[j - 1] > x; j--) t[j] = t[j - 1];
    t[j] = x;
  }
  *best = n > 0 ? t[0] : 0;
  *median = n == 0 ? 0 : n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

//==============================================================================================
// loading, with a progress line on a terminal
//==============================================================================================

typedef struct {
  pthread_t thread;
  atomic_int phase;    // 0 reading, 1 building, 2 done
  atomic_bool stop;
  const char *path;
  char real[4096];     // the file's absolute path ("" if unknown): its descriptor is found by it
  long long size;      // bytes (0: unknown, or not a regular file)
  int fd;              // the reader's descriptor of the file (-1: not found yet)
  double t0, delay;
  bool shown;
} k2_cli_progress;

// Bytes the reader has consumed: the offset of its descriptor of the file (plain or gzip text
// is read in order). -1 when unknown (not open, or read by pread / at once).
static long long k2_cli_progress_pos(k2_cli_progress *p) {
  char link[64], target[4096], info[64];
  if (p->real[0] == '\0') return -1;
  for (int pass = 0; pass < 2; pass++) {
    if (p->fd < 0) {  // look for it
      DIR *d = opendir("/proc/self/fd");
      for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        ssize_t n = readlinkat(dirfd(d), e->d_name, target, sizeof target - 1);
        if (n > 0 && (size_t)n == strlen(p->real) && memcmp(target, p->real, (size_t)n) == 0) {
          p->fd = atoi(e->d_name);
          break;
        }
      }
      if (d != NULL) closedir(d);
      if (p->fd < 0) return -1;
    }
    // still that file? (the descriptor may have been closed and reused)
    snprintf(link, sizeof link, "/proc/self/fd/%d", p->fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n > 0 && (size_t)n == strlen(p->real) && memcmp(target, p->real, (size_t)n) == 0) {
      snprintf(info, sizeof info, "/proc/self/fdinfo/%d", p->fd);
      FILE *f = fopen(info, "r");
      long long pos = -1;
      if (f != NULL) {
        if (fscanf(f, "pos: %lld", &pos) != 1) pos = -1;
        fclose(f);
      }
      return pos;
    }
    p->fd = -1;
  }
  return -1;
}

// A progress bar on stderr: appears after p->delay seconds (0.5 on a terminal), redrawn 10x a
// second, erased at the end. While a text file is read it shows the bytes read against the
// file's size; otherwise (building the tree, .k2 and BVGraph files) an activity bar.
static void *k2_cli_progress_run(void *arg) {
  k2_cli_progress *p = arg;
  int tick = 0;
  while (!atomic_load(&p->stop)) {
    struct timespec ts = {0, 100 * 1000 * 1000};
    if (tick > 0 || p->delay > 0) nanosleep(&ts, NULL);
    double t = k2_cli_now() - p->t0;
    if (t < p->delay || atomic_load(&p->stop)) continue;
    bool reading = atomic_load(&p->phase) == 0;
    long long pos = reading && p->size > 0 ? k2_cli_progress_pos(p) : -1;
    char bar[21], amount[64] = "";
    if (pos >= 0 && pos <= p->size) {
      int fill = (int)(20 * pos / p->size);
      for (int i = 0; i < 20; i++) bar[i] = i < fill ? '#' : '.';
      snprintf(amount, sizeof amount, " %3d%% (%.1f of %.1f MB)", (int)(100 * pos / p->size), (double)pos / 1e6,
               (double)p->size / 1e6);
    } else {
      for (int i = 0; i < 20; i++) bar[i] = (abs(i - (tick % 38 < 19 ? tick % 38 : 38 - tick % 38)) <= 1) ? '#' : '.';
    }
    bar[20] = '\0';
    tick++;
    fprintf(stderr, "\r[%s] %s %s%s  %.1f s \033[K", bar, reading ? "reading" : "building tree", p->path, amount, t);
    fflush(stderr);
    p->shown = true;
  }
  if (p->shown) fprintf(stderr, "\r\033[K");
  return NULL;
}

bool k2_cli_ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

// --remap: the ids of the file that occur, ascending; vertex v of the tree is k2_cli_idmap[v]
// (NULL: no renumbering). Kept to the end of the run (reachable from here).
static uint32_t *k2_cli_idmap;
static GrB_Index k2_cli_idmap_n;

static int k2_cli_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

// Renumber the ids that occur (as row or column) to 0..k-1 in increasing order (the matrix
// becomes k x k), keeping the ids for k2_cli_file_id.
static GrB_Info k2_cli_remap(K2_Edges *E) {
  free(k2_cli_idmap);
  k2_cli_idmap_n = 0;
  k2_cli_idmap = malloc((2 * E->nvals + 1) * sizeof(uint32_t));
  if (k2_cli_idmap == NULL) return GrB_OUT_OF_MEMORY;
  uint32_t *ids = k2_cli_idmap;
  memcpy(ids, E->I, E->nvals * sizeof(uint32_t));
  memcpy(ids + E->nvals, E->J, E->nvals * sizeof(uint32_t));
  qsort(ids, 2 * E->nvals, sizeof(uint32_t), k2_cli_cmp_u32);
  GrB_Index k = 0;
  for (GrB_Index t = 0; t < 2 * E->nvals; t++) {
    if (k == 0 || ids[k - 1] != ids[t]) ids[k++] = ids[t];
  }
  for (GrB_Index e = 0; e < E->nvals; e++) {
    E->I[e] = (uint32_t)((uint32_t *)bsearch(&E->I[e], ids, k, sizeof(uint32_t), k2_cli_cmp_u32) - ids);
    E->J[e] = (uint32_t)((uint32_t *)bsearch(&E->J[e], ids, k, sizeof(uint32_t), k2_cli_cmp_u32) - ids);
  }
  E->nrows = E->ncols = k;
  k2_cli_idmap_n = k;
  return GrB_SUCCESS;
}

unsigned long long k2_cli_file_id(const k2_cli_opts *o, GrB_Index v) {
  unsigned long long id = k2_cli_idmap != NULL && v < k2_cli_idmap_n ? k2_cli_idmap[v] : v;
  return id + (o->one_based ? 1 : 0);
}

bool k2_cli_vertex(const k2_cli_opts *o, unsigned long long id, GrB_Index *v) {
  if (o->one_based) {
    if (id == 0) return false;
    id--;
  }
  if (k2_cli_idmap == NULL) {
    *v = id;
    return true;
  }
  if (id > UINT32_MAX) return false;
  uint32_t key = (uint32_t)id;
  uint32_t *p = bsearch(&key, k2_cli_idmap, k2_cli_idmap_n, sizeof(uint32_t), k2_cli_cmp_u32);
  if (p == NULL) return false;
  *v = (GrB_Index)(p - k2_cli_idmap);
  return true;
}

//==============================================================================================
// --ldbc: LDBC Graphalytics graphs (<g>.v vertex ids, <g>.e edges, <g>.properties)
//==============================================================================================

// The value of `graph.<name>.<key> = value` in a .properties file (any graph name), in val.
static bool k2_cli_prop(const char *text, const char *key, char *val, size_t cap) {
  size_t kl = strlen(key);
  for (const char *line = text; line != NULL && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    while (*line == ' ' || *line == '\t') line++;
    if (strncmp(line, "graph.", 6) != 0) continue;
    const char *eq = strchr(line, '=');
    const char *nl = strchr(line, '\n');
    if (eq == NULL || (nl != NULL && eq > nl)) continue;
    const char *end = eq;
    while (end > line && (end[-1] == ' ' || end[-1] == '\t')) end--;
    // the key ends the name: "graph.NAME." KEY
    if ((size_t)(end - line) <= 6 + kl || strncmp(end - kl, key, kl) != 0 || end[-(long)kl - 1] != '.') continue;
    const char *v = eq + 1;
    while (*v == ' ' || *v == '\t') v++;
    size_t n = nl ? (size_t)(nl - v) : strlen(v);
    while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r')) n--;
    if (n >= cap) n = cap - 1;
    memcpy(val, v, n);
    val[n] = '\0';
    return true;
  }
  return false;
}

int k2_cli_ldbc_prepare(k2_cli_opts *o) {
  if (o->remap || o->one_based) {
    return k2_cli_error(o, K2_CLI_USAGE, "--ldbc takes the ids of the vertex file: no --remap or --one-based");
  }
  const char *path = o->files[0];
  size_t len = strlen(path);
  if (o->format == K2_FORMAT_K2 || (o->format == K2_FORMAT_AUTO && k2_cli_ends_with(path, ".k2"))) {
    return k2_cli_error(o, K2_CLI_USAGE, "--ldbc reads an edge file (<g>.e), not a tree (%s)", path);
  }
  bool dot_e = len > 2 && strcmp(path + len - 2, ".e") == 0;
  if (o->vertices != NULL) {
    snprintf(o->ldbc_vpath, sizeof o->ldbc_vpath, "%s", o->vertices);
  } else if (dot_e && len < sizeof o->ldbc_vpath) {
    snprintf(o->ldbc_vpath, sizeof o->ldbc_vpath, "%.*s.v", (int)(len - 2), path);
  } else {
    return k2_cli_error(o, K2_CLI_USAGE, "--ldbc: %s does not end in .e: name the vertex file with --vertices FILE",
                        path);
  }
  // the .properties beside the .e (optional)
  if (dot_e && len + 16 < sizeof o->ldbc_ppath) {
    snprintf(o->ldbc_ppath, sizeof o->ldbc_ppath, "%.*s.properties", (int)(len - 2), path);
    FILE *f = fopen(o->ldbc_ppath, "r");
    if (f != NULL) {
      static char text[1 << 16];
      size_t n = fread(text, 1, sizeof text - 1, f);
      text[n] = '\0';
      fclose(f);
      o->ldbc_has_props = true;
      char v[256];
      if (k2_cli_prop(text, "directed", v, sizeof v) && strcmp(v, "false") == 0) o->symmetrize = true;
      if (k2_cli_prop(text, "bfs.source-vertex", v, sizeof v)) {
        o->ldbc_has_bfs_source = k2_cli_ull(v, &o->ldbc_bfs_source);
      }
      if (k2_cli_prop(text, "sssp.source-vertex", v, sizeof v)) {
        o->ldbc_has_sssp_source = k2_cli_ull(v, &o->ldbc_sssp_source);
      }
      if (k2_cli_prop(text, "pr.damping-factor", v, sizeof v)) {
        o->ldbc_has_damping = k2_cli_double(v, 1e-9, 1 - 1e-9, &o->ldbc_damping);
      }
      if (k2_cli_prop(text, "pr.num-iterations", v, sizeof v) &&
          !k2_cli_int(v, 1, 1 << 20, &o->ldbc_iterations_prop)) {
        o->ldbc_iterations_prop = 0;
      }
    }
  }
  // weights: a third column on the first edge line
  FILE *f = fopen(path, "r");
  if (f != NULL) {
    char line[512];
    while (fgets(line, sizeof line, f) != NULL) {
      char a[128], b[128], c[128];
      int k = sscanf(line, "%127s %127s %127s", a, b, c);
      if (k <= 0 || a[0] == '#' || a[0] == '%') continue;
      o->ldbc_weighted = k >= 3;
      break;
    }
    fclose(f);
  }
  return 0;
}

// Read the ids of the vertex file (one per line; blank lines and # comments skipped), sorted,
// without repeats, into k2_cli_idmap. *bad: the line of a bad id (0: none).
static GrB_Info k2_cli_read_vertices(const char *vpath, long *bad) {
  *bad = 0;
  FILE *f = fopen(vpath, "r");
  if (f == NULL) {
    *bad = -(long)errno;
    return GrB_INVALID_VALUE;
  }
  size_t cap = 1024, n = 0;
  uint32_t *ids = malloc(cap * sizeof(uint32_t));
  char line[256];
  long lineno = 0;
  GrB_Info info = ids ? GrB_SUCCESS : GrB_OUT_OF_MEMORY;
  while (info == GrB_SUCCESS && fgets(line, sizeof line, f) != NULL) {
    lineno++;
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\n' || *p == '\r' || *p == '\0' || *p == '#') continue;
    char *end;
    errno = 0;
    unsigned long long id = strtoull(p, &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') end++;
    if (end == p || *end != '\0' || errno != 0 || id > UINT32_MAX || *p == '-' || *p == '+') {
      *bad = lineno;
      info = GrB_INVALID_VALUE;
      break;
    }
    if (n == cap) {
      uint32_t *m = realloc(ids, 2 * cap * sizeof(uint32_t));
      if (m == NULL) {
        info = GrB_OUT_OF_MEMORY;
        break;
      }
      ids = m, cap *= 2;
    }
    ids[n++] = (uint32_t)id;
  }
  if (info == GrB_SUCCESS && ferror(f)) info = GrB_INVALID_VALUE;
  fclose(f);
  if (info != GrB_SUCCESS) {
    free(ids);
    return info;
  }
  qsort(ids, n, sizeof(uint32_t), k2_cli_cmp_u32);
  size_t k = 0;
  for (size_t t = 0; t < n; t++) {
    if (k == 0 || ids[k - 1] != ids[t]) ids[k++] = ids[t];
  }
  free(k2_cli_idmap);
  k2_cli_idmap = ids;
  k2_cli_idmap_n = k;
  return GrB_SUCCESS;
}

// Number the edges' ends by the vertex file (k2_cli_idmap); *missing: an end that is not there.
static GrB_Info k2_cli_ldbc_map(K2_Edges *E, unsigned long long *missing) {
  for (GrB_Index e = 0; e < E->nvals; e++) {
    uint32_t *pi = bsearch(&E->I[e], k2_cli_idmap, k2_cli_idmap_n, sizeof(uint32_t), k2_cli_cmp_u32);
    uint32_t *pj = bsearch(&E->J[e], k2_cli_idmap, k2_cli_idmap_n, sizeof(uint32_t), k2_cli_cmp_u32);
    if (pi == NULL || pj == NULL) {
      *missing = pi == NULL ? E->I[e] : E->J[e];
      return GrB_INVALID_INDEX;
    }
    E->I[e] = (uint32_t)(pi - k2_cli_idmap);
    E->J[e] = (uint32_t)(pj - k2_cli_idmap);
  }
  E->nrows = E->ncols = k2_cli_idmap_n;
  return GrB_SUCCESS;
}

int k2_cli_load(const k2_cli_opts *o, const char *path, K2_Matrix *A, double *seconds) {
  *A = NULL;
  k2_cli_progress p = {.path = path, .t0 = k2_cli_now(), .fd = -1, .delay = 0.5};
  atomic_init(&p.phase, 0);
  atomic_init(&p.stop, false);
  // K2GRB_PROGRESS: auto (a terminal, after 0.5 s), always (at once, even off a terminal), never
  const char *mode = getenv("K2GRB_PROGRESS");
  bool show = mode != NULL && strcmp(mode, "always") == 0 ? true
              : mode != NULL && strcmp(mode, "never") == 0 ? false
                                                           : isatty(STDERR_FILENO);
  if (mode != NULL && strcmp(mode, "always") == 0) p.delay = 0;
  struct stat st;
  if (show && stat(path, &st) == 0 && S_ISREG(st.st_mode) && realpath(path, p.real) != NULL) {
    p.size = (long long)st.st_size;
  } else {
    p.real[0] = '\0';
  }
  bool ticker = show && pthread_create(&p.thread, NULL, k2_cli_progress_run, &p) == 0;
  GrB_Info info;
  const char *what = "read";
  // a tree format asked for: a .k2 input is rebuilt in it
  const bool tree_format = o->compress_leaves || o->full_blocks || o->bottom_codes || o->leaf_log != 0;
  bool plain_k2 = (o->format == K2_FORMAT_K2 || (o->format == K2_FORMAT_AUTO && k2_cli_ends_with(path, ".k2"))) &&
                  !o->symmetrize && !o->transpose && !tree_format;
  if (plain_k2) {
    info = K2_Matrix_load(A, path);
  } else {
    K2_ReadOptions ro;
    K2_ReadOptions_default(&ro);
    ro.format = o->format;
    ro.symmetrize = o->symmetrize;
    ro.transpose = o->transpose;
    ro.one_based = o->one_based;
    ro.remap_ids = false;  // renumbered here, keeping the file's ids for the results
    if (o->ldbc && ro.format == K2_FORMAT_AUTO) ro.format = K2_FORMAT_EDGE_LIST;  // "src dst [weight]"
    K2_Edges E;
    info = K2_Edges_read(&E, path, &ro);
    if (info == GrB_SUCCESS && o->remap && (info = k2_cli_remap(&E)) != GrB_SUCCESS) {
      K2_Edges_free(&E);
      what = "renumber the ids of";
    }
    if (info == GrB_SUCCESS && o->ldbc) {
      long bad = 0;
      unsigned long long missing = 0;
      if ((info = k2_cli_read_vertices(o->ldbc_vpath, &bad)) != GrB_SUCCESS) {
        K2_Edges_free(&E);
        if (ticker) {
          atomic_store(&p.stop, true);
          pthread_join(p.thread, NULL);
        }
        if (info == GrB_OUT_OF_MEMORY) return k2_cli_fail(o, K2_CLI_FAIL, info, NULL, "cannot read %s", o->ldbc_vpath);
        if (bad > 0) {
          return k2_cli_error(o, K2_CLI_FAIL, "cannot read %s: line %ld is not a vertex id (0 to 4294967295)",
                              o->ldbc_vpath, bad);
        }
        return k2_cli_error(o, K2_CLI_FAIL, "cannot read the vertex file %s: %s", o->ldbc_vpath,
                            bad < 0 ? strerror((int)-bad) : "read error");
      }
      if ((info = k2_cli_ldbc_map(&E, &missing)) != GrB_SUCCESS) {
        K2_Edges_free(&E);
        if (ticker) {
          atomic_store(&p.stop, true);
          pthread_join(p.thread, NULL);
        }
        return k2_cli_error(o, K2_CLI_FAIL, "%s: vertex %llu of an edge is not in the vertex file %s", path, missing,
                            o->ldbc_vpath);
      }
    }
    if (info == GrB_SUCCESS) {
      atomic_store(&p.phase, 1);
      what = "build the tree of";
      GrB_Index n = E.nrows > E.ncols ? E.nrows : E.ncols;  // graphs are square
      K2_Format fmt;
      K2_Format_default(&fmt);
      fmt.compress_leaves = o->compress_leaves;
      fmt.full_blocks = o->full_blocks;
      fmt.cache_bottom_codes = o->bottom_codes;
      // compressed leaves need 4x4 or 8x8 leaves: 4x4 unless told (the smaller on web graphs)
      fmt.leaf_log = o->leaf_log != 0 ? o->leaf_log : o->compress_leaves ? 2 : fmt.leaf_log;
      info = K2_Matrix_new_format(A, n, n, &fmt);
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

int k2_cli_write_vector(const k2_cli_opts *o, GrB_Vector v, const char *fp_format, bool values_are_ids) {
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
        fprintf(f, "%llu ", k2_cli_file_id(o, I[k]));
        fprintf(f, fp_format, D[k]);
        fputc('\n', f);
      } else if (values_are_ids && X[k] >= 0) {
        fprintf(f, "%llu %llu\n", k2_cli_file_id(o, I[k]), k2_cli_file_id(o, (GrB_Index)X[k]));
      } else {
        fprintf(f, "%llu %lld\n", k2_cli_file_id(o, I[k]), (long long)X[k]);
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

void k2_cli_rep_tail(k2_cli_report *r) {
  k2_cli_rep_num(r, "threads", "%d", omp_get_max_threads());
  k2_cli_rep_str(r, "version", "%d.%d.%d", K2GRB_VERSION_MAJOR, K2GRB_VERSION_MINOR, K2GRB_VERSION_PATCH);
  k2_cli_rep_raw(r, "argv", k2_cli_argv_text ? k2_cli_argv_text : "", k2_cli_argv_json ? k2_cli_argv_json : "[]");
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

void k2_cli_rep_print_items(k2_cli_report *r) {
  for (int i = 0; i < r->n; i++) {
    printf(", ");
    k2_cli_json_string(stdout, r->item[i].key);
    printf(": %s", r->item[i].json ? r->item[i].json : "null");
    free(r->item[i].json);
  }
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

int k2_cli_write_ldbc(const k2_cli_opts *o, GrB_Vector v, GrB_Index n, k2_cli_ldbc_kind kind) {
  bool fp = kind == K2_CLI_LDBC_SSSP || kind == K2_CLI_LDBC_PR;
  int64_t *x = fp ? NULL : k2_cli_dense_i64(v, n, -1);
  double *d = fp ? k2_cli_dense_f64(v, n, INFINITY) : NULL;
  if (x == NULL && d == NULL) return k2_cli_error(o, K2_CLI_FAIL, "out of memory");
  k2_cli_out out;
  int rc = k2_cli_out_open(o, &out);
  for (GrB_Index i = 0; rc == 0 && i < n; i++) {
    unsigned long long id = k2_cli_file_id(o, i);
    switch (kind) {
      case K2_CLI_LDBC_BFS:
        if (x[i] < 0) fprintf(out.f, "%llu %lld\n", id, (long long)INT64_MAX);
        else fprintf(out.f, "%llu %lld\n", id, (long long)x[i]);
        break;
      case K2_CLI_LDBC_WCC:
        fprintf(out.f, "%llu %llu\n", id, k2_cli_file_id(o, (GrB_Index)(x[i] < 0 ? (int64_t)i : x[i])));
        break;
      case K2_CLI_LDBC_SSSP:
        if (isinf(d[i])) fprintf(out.f, "%llu infinity\n", id);
        else fprintf(out.f, "%llu %.15e\n", id, d[i]);
        break;
      case K2_CLI_LDBC_PR:
        fprintf(out.f, "%llu %.15e\n", id, d[i]);
        break;
    }
  }
  free(x), free(d);
  return k2_cli_out_close(o, &out, rc);
}
