// k2_cuda_stub.c: the CUDA gateway when built without CUDA.
// SPDX-License-Identifier: Apache-2.0
//
// No device: every product is declined (the dispatcher runs the CPU engines), settings are
// kept so that programs behave the same with or without a GPU build (the public device calls,
// src/api/k2_device.c, are the same in both builds).
#include <string.h>

#include <k2grb.h>

#include "cuda/k2_cuda_testing.h"
#include "util/k2_error.h"

static k2_cuda_settings k2_stub_settings = {UINT64_C(1) << 20, K2_CUDA_OFFSETS_AUTO, 0,
                                            true, true, true, K2_CUDA_PRUNE_AUTO,
                                            K2_CUDA_CONFIG_AUTO};

void k2_cuda_settings_get(k2_cuda_settings *s) { *s = k2_stub_settings; }
int k2_cuda_settings_set(const k2_cuda_settings *s) {
  if (s == NULL || s->tile < 16 || s->tile > (UINT64_C(1) << 30) ||
      s->offsets < K2_CUDA_OFFSETS_AUTO || s->offsets > K2_CUDA_OFFSETS_SCAN ||
      s->config < K2_CUDA_CONFIG_AUTO || s->config > K2_CUDA_CONFIG_ROWS ||
      s->prune < K2_CUDA_PRUNE_AUTO || s->prune > K2_CUDA_PRUNE_ALWAYS)
    return k2_cuda_fail(GrB_INVALID_VALUE, "CUDA engine: a device setting is out of range");
  k2_stub_settings = *s;
  return 0;
}
int k2_cuda_available(void) { return 0; }
int k2_cuda_upload(const k2_view *A, int config, void **device) {
  (void)A;
  (void)config;
  if (device) *device = NULL;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
void k2_cuda_release(void *device) { (void)device; }
int k2_cuda_device_config(const void *device) {
  (void)device;
  return K2_CUDA_CONFIG_TREE;
}
int k2_cuda_plan_replay(const k2_view *A, uint64_t M, bool fuse, k2_cuda_plan_rule rule,
                        uint64_t *steps, uint64_t *scratch) {
  (void)A;
  (void)M;
  (void)fuse;
  (void)rule;
  if (steps) *steps = 0;
  if (scratch) *scratch = 0;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_resolve_config(const k2_view *A, int config) {
  (void)A;
  return config;
}
int k2_cuda_product(const k2_view *A, void *state, const k2_product *P) {
  (void)A;
  (void)state;
  (void)P;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_product_device(const k2_view *A, void *device, const k2_product *P) {
  return k2_cuda_product(A, device, P);
}
int k2_cuda_product_bytes(const k2_view *A, const void *device, int config, const k2_product *P,
                          k2_cuda_bytes *out) {
  (void)device;
  (void)A;
  (void)config;
  (void)P;
  if (out) memset(out, 0, sizeof *out);
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
uint64_t k2_cuda_allocated_bytes(void) { return 0; }
uint64_t k2_cuda_peak_bytes(void) { return 0; }
void k2_cuda_reset_peak(void) {}
uint64_t k2_cuda_live_allocations(void) { return 0; }
void k2_cuda_trim(void) {}
void *k2_cuda_stream(void) { return NULL; }
void *k2_cuda_malloc(uint64_t bytes) {
  (void)bytes;
  return NULL;
}
void k2_cuda_free(void *p, uint64_t bytes) {
  (void)p;
  (void)bytes;
}

int k2_cuda_copy_rate(uint64_t bytes, int reps, double *up, double *down) {
  (void)bytes, (void)reps;
  if (up) *up = 0;
  if (down) *down = 0;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}

uint64_t k2_cuda_set_frontier_max(uint64_t nodes) {
  (void)nodes;
  return 0;
}

int k2_cuda_product_resident(const k2_view *A, void *device, const k2_product *P,
                             const k2_cuda_mask *mask, uint64_t *y_nvals) {
  (void)mask;
  if (y_nvals) *y_nvals = 0;
  return k2_cuda_product(A, device, P);
}
void *k2_cuda_vector_alloc(uint64_t bytes) {
  (void)bytes;
  k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
  return NULL;
}
void k2_cuda_vector_free(void *p, uint64_t bytes) {
  (void)p;
  (void)bytes;
}
int k2_cuda_vector_copy(void *dst, const void *src, uint64_t bytes, int kind) {
  (void)dst, (void)src, (void)bytes, (void)kind;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_vector_fill(void *p, int byte, uint64_t bytes) {
  (void)p, (void)byte, (void)bytes;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_vector_assign(void *v, uint8_t *vp, const uint8_t *m, const void *w, const uint8_t *wp,
                          const void *scalar, uint32_t ts, uint64_t n) {
  (void)v, (void)vp, (void)m, (void)w, (void)wp, (void)scalar, (void)ts, (void)n;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_vector_count(const uint8_t *p, uint64_t n, uint64_t *count) {
  (void)p, (void)n;
  if (count) *count = 0;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_vector_sum(const void *x, const uint8_t *p, k2_type t, uint64_t n, int64_t *isum,
                       double *fsum) {
  (void)x, (void)p, (void)t, (void)n;
  if (isum) *isum = 0;
  if (fsum) *fsum = 0;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_vector_ewise(void *z, uint8_t *zp, const void *x, const uint8_t *xp, const void *y,
                         const uint8_t *yp, k2_type t, int op, bool add, uint64_t n) {
  (void)z, (void)zp, (void)x, (void)xp, (void)y, (void)yp, (void)t, (void)op, (void)add, (void)n;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_vector_apply(void *z, uint8_t *zp, const void *x, const uint8_t *xp, k2_type t, int op,
                         uint64_t n) {
  (void)z, (void)zp, (void)x, (void)xp, (void)t, (void)op, (void)n;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_product_resident_batch(const k2_view *A, void *device, const k2_product *P,
                                   const k2_cuda_mask *mask, uint64_t *y_nvals) {
  (void)mask;
  if (y_nvals) *y_nvals = 0;
  return k2_cuda_product(A, device, P);
}
int k2_cuda_pagerank(const k2_view *A, void *device, const float *d, const uint8_t *sink, float damping, float tol,
                     int itermax, float *rank, uint8_t *rank_present, int *iters, float *rdiff, bool *touched) {
  (void)A, (void)device, (void)d, (void)sink, (void)damping, (void)tol, (void)itermax, (void)rank;
  (void)rank_present;
  if (iters) *iters = 0;
  if (rdiff) *rdiff = 0;
  if (touched) *touched = false;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_bfs_levels(const k2_view *A, void *device, bool left, const uint64_t *sources, uint32_t nsources,
                       int32_t *dist, uint8_t *dist_present, uint64_t *reached) {
  (void)A, (void)device, (void)left, (void)sources, (void)nsources, (void)dist, (void)dist_present;
  if (reached) *reached = 0;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_bfs_levels_bytes(const k2_view *A, void *device, bool left, const uint64_t *sources, uint32_t nsources,
                             k2_cuda_levels_span span, void *ctx, uint64_t *reached) {
  (void)A, (void)device, (void)left, (void)sources, (void)nsources, (void)span, (void)ctx;
  if (reached) *reached = K2_CUDA_NVALS_UNKNOWN;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_bfs_one(const k2_view *A, void *device, bool left, uint64_t source, void *level, uint8_t *level_present,
                    uint32_t level_bytes, void *parent, uint8_t *parent_present, uint32_t parent_bytes,
                    uint64_t max_depth, bool *complete, uint64_t *reached) {
  (void)A, (void)device, (void)left, (void)source, (void)level, (void)level_present, (void)level_bytes;
  (void)parent, (void)parent_present, (void)parent_bytes, (void)max_depth;
  if (complete) *complete = false;
  if (reached) *reached = K2_CUDA_NVALS_UNKNOWN;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
uint64_t k2_cuda_bfs_report(k2_cuda_bfs_level *out, uint64_t cap) {
  (void)out, (void)cap;
  return 0;
}
int k2_cuda_vector_list(const void *x, const uint8_t *xp, uint64_t n, uint32_t ts, uint64_t nvals, uint64_t *list,
                        void *vals) {
  (void)x, (void)xp, (void)n, (void)ts, (void)nvals, (void)list, (void)vals;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_vector_extract(void *w, uint8_t *wp, const void *u, const uint8_t *up, uint64_t nu,
                           const void *I, const uint8_t *Ip, bool index64, uint32_t ts, uint64_t n,
                           uint64_t *bad, uint64_t *w_nvals) {
  (void)w, (void)wp, (void)u, (void)up, (void)nu, (void)I, (void)Ip, (void)index64, (void)ts, (void)n;
  if (bad) *bad = 0;
  if (w_nvals) *w_nvals = 0;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
