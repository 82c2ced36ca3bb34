// alg_ldbc.h: LDBC Graphalytics validation graphs (ldbc-graphalytics-examples): the .v/.e files
// with their own vertex ids, the .properties parameters, and the expected outputs.
// SPDX-License-Identifier: Apache-2.0
//
// Vertex ids are mapped to 0..n-1 in increasing id order, so "smallest id of a component"
// (WCC) keeps its meaning. Undirected graphs list each edge once: both directions are built.
#ifndef ALG_LDBC_H
#define ALG_LDBC_H

#include "alg_test_util.h"

typedef struct {
  alg_graph g;
  uint64_t *ids;  // sorted original ids (n)
  bool directed;
  char name[128];
} alg_ldbc;

static inline const char *alg_ldbc_path(const char *name, const char *suffix) {
  char rel[256];
  snprintf(rel, sizeof rel, "ldbc-graphalytics-examples/%s%s", name, suffix);
  return k2_test_data_path(rel);
}

// The value of key "graph.<name>.<key>" in <name>.properties, or NULL.
static inline const char *alg_ldbc_property(const alg_ldbc *L, const char *key) {
  static char value[256];
  const char *path = alg_ldbc_path(L->name, ".properties");
  if (path == NULL) return NULL;
  FILE *f = fopen(path, "r");
  if (f == NULL) return NULL;
  char want[256], line[1024];
  snprintf(want, sizeof want, "graph.%s.%s", L->name, key);
  const char *found = NULL;
  while (!found && fgets(line, sizeof line, f)) {
    char k[512], v[256];
    if (sscanf(line, " %511[^= ] = %255s", k, v) == 2 && strcmp(k, want) == 0) {
      snprintf(value, sizeof value, "%s", v);
      found = value;
    }
  }
  fclose(f);
  return found;
}

static inline GrB_Index alg_ldbc_index(const alg_ldbc *L, uint64_t id) {
  GrB_Index lo = 0, hi = L->g.n;
  while (lo < hi) {
    GrB_Index mid = (lo + hi) / 2;
    if (L->ids[mid] < id) lo = mid + 1; else hi = mid;
  }
  assert_true(lo < L->g.n && L->ids[lo] == id);
  return lo;
}

static inline bool alg_ldbc_load(alg_ldbc *L, const char *name) {
  memset(L, 0, sizeof *L);
  snprintf(L->name, sizeof L->name, "%s", name);
  const char *vpath = alg_ldbc_path(name, ".v");
  if (vpath == NULL) {
    print_message("LDBC graph %s absent: skipped\n", name);
    return false;
  }
  const char *dir = alg_ldbc_property(L, "directed");
  assert_non_null(dir);
  L->directed = strcmp(dir, "true") == 0;
  FILE *f = fopen(alg_ldbc_path(name, ".v"), "r");
  assert_non_null(f);
  GrB_Index n = 0, cap = 64;
  L->ids = malloc(cap * sizeof(uint64_t));
  unsigned long long id;
  while (fscanf(f, "%llu", &id) == 1) {
    if (n == cap) L->ids = realloc(L->ids, (cap *= 2) * sizeof(uint64_t));
    L->ids[n++] = id;
  }
  fclose(f);
  qsort(L->ids, n, sizeof(uint64_t), alg_cmp_u64);
  L->g.n = n;
  f = fopen(alg_ldbc_path(name, ".e"), "r");
  assert_non_null(f);
  GrB_Index ne = 0, ecap = 64;
  uint32_t *I = malloc(ecap * sizeof(uint32_t)), *J = malloc(ecap * sizeof(uint32_t));
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    unsigned long long a, b;
    if (sscanf(line, "%llu %llu", &a, &b) != 2) continue;
    if (ne + 2 > ecap) {
      ecap *= 2;
      I = realloc(I, ecap * sizeof(uint32_t));
      J = realloc(J, ecap * sizeof(uint32_t));
    }
    uint32_t u = (uint32_t)alg_ldbc_index(L, a), v = (uint32_t)alg_ldbc_index(L, b);
    I[ne] = u, J[ne++] = v;
    if (!L->directed) I[ne] = v, J[ne++] = u;
  }
  fclose(f);
  alg_graph_from_pairs(&L->g, n, I, J, ne);
  free(I);
  free(J);
  return true;
}

static inline void alg_ldbc_free(alg_ldbc *L) {
  alg_graph_free(&L->g);
  free(L->ids);
}

// Expected output <name>-<ALGO> into value[index]: "infinity" and INT64_MAX become INFINITY.
static inline void alg_ldbc_expected(const alg_ldbc *L, const char *algo, double *value) {
  char suffix[64];
  snprintf(suffix, sizeof suffix, "-%s", algo);
  const char *path = alg_ldbc_path(L->name, suffix);
  assert_non_null(path);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[1024];
  GrB_Index count = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long id;
    char v[128];
    if (sscanf(line, "%llu %127s", &id, v) != 2) continue;
    double x = (strcmp(v, "infinity") == 0 || strcmp(v, "9223372036854775807") == 0) ? INFINITY : strtod(v, NULL);
    value[alg_ldbc_index(L, id)] = x;
    count++;
  }
  fclose(f);
  assert_int_equal(count, L->g.n);
}

#endif
