// k2_device.c: the public device calls (include/k2grb/device.h, and the tuning knobs of
// include/k2grb/experimental.h) over the CUDA gateway.
// SPDX-License-Identifier: Apache-2.0
//
// The front side of the gateway: this file knows the K2_Matrix object and GraphBLAS; the
// engine behind the gateway knows views and its own per-matrix state only. The same in builds
// with and without CUDA (the gateway's stub then has no device).
#include <string.h>

#include "cuda/k2_cuda_gateway.h"
#include "engine/k2_engine.h"
#include "matrix/k2_matrix.h"
#include "util/k2_error.h"

// The gateway's int results as GrB_Info: a decline is "not implemented" to a public caller.
static GrB_Info k2_cuda_info(int rc) {
  if (rc == K2_DECLINED) return GrB_NOT_IMPLEMENTED;
  return (GrB_Info)rc;
}

GrB_Info K2_Device_available(bool *present) {
  if (present == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_available: present is NULL");
  *present = k2_cuda_available() != 0;
  return GrB_SUCCESS;
}

GrB_Info K2_Device_setTileSize(GrB_Index M) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.tile = M;
  return k2_cuda_info(k2_cuda_settings_set(&s));
}

GrB_Info K2_Device_getTileSize(GrB_Index *M) {
  if (M == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getTileSize: M is NULL");
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  *M = s.tile;
  return GrB_SUCCESS;
}

GrB_Info K2_Device_setOffsets(K2_DeviceOffsets source) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.offsets = (int)source;
  return k2_cuda_info(k2_cuda_settings_set(&s));
}

GrB_Info K2_Device_getOffsets(K2_DeviceOffsets *source) {
  if (source == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getOffsets: source is NULL");
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  *source = (K2_DeviceOffsets)s.offsets;
  return GrB_SUCCESS;
}

GrB_Info K2_Device_setBudget(GrB_Index bytes) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.budget = bytes;
  return k2_cuda_info(k2_cuda_settings_set(&s));
}

GrB_Info K2_Device_getBudget(GrB_Index *bytes) {
  if (bytes == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getBudget: bytes is NULL");
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  *bytes = s.budget;
  return GrB_SUCCESS;
}

GrB_Info K2_Device_setGraphs(bool enable) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.graphs = enable;
  return k2_cuda_info(k2_cuda_settings_set(&s));
}

GrB_Info K2_Device_setFusion(bool enable) {
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.fuse_levels = enable;
  return k2_cuda_info(k2_cuda_settings_set(&s));
}

GrB_Info K2_Device_getFusion(bool *enable) {
  if (enable == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getFusion: enable is NULL");
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  *enable = s.fuse_levels;
  return GrB_SUCCESS;
}

GrB_Info K2_Device_setPruning(K2_DevicePruning mode) {
  if (mode < K2_PRUNING_AUTO || mode > K2_PRUNING_ALWAYS)
    K2_FAIL(GrB_INVALID_VALUE, "K2_Device_setPruning: bad mode %d", (int)mode);
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.prune = (int)mode;
  return k2_cuda_info(k2_cuda_settings_set(&s));
}

GrB_Info K2_Device_getPruning(K2_DevicePruning *mode) {
  if (mode == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getPruning: mode is NULL");
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  *mode = (K2_DevicePruning)s.prune;
  return GrB_SUCCESS;
}

GrB_Info K2_Device_setConfig(K2_DeviceConfig config) {
  if (config < K2_DEVICE_AUTO || config > K2_DEVICE_ROWS)
    K2_FAIL(GrB_INVALID_VALUE, "K2_Device_setConfig: bad configuration %d", (int)config);
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  s.config = (int)config;
  return k2_cuda_info(k2_cuda_settings_set(&s));
}

GrB_Info K2_Device_getConfig(K2_DeviceConfig *config) {
  if (config == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getConfig: config is NULL");
  k2_cuda_settings s;
  k2_cuda_settings_get(&s);
  *config = (K2_DeviceConfig)s.config;
  return GrB_SUCCESS;
}

// What K2_Matrix_upload asks of A's CUDA slot: a resident copy in this configuration.
typedef struct {
  const k2_view *A;
  int config;
} k2_upload_need;

static bool k2_upload_ready(const void *state, const void *arg) {
  const k2_upload_need *n = arg;
  return state != NULL && k2_cuda_device_config(state) == n->config;
}

static int k2_upload_build(void **state, const void *arg) {
  const k2_upload_need *n = arg;
  k2_cuda_release(*state);  // another configuration: replaced
  *state = NULL;
  return k2_cuda_upload(n->A, n->config, state);
}

GrB_Info K2_Matrix_upload(K2_Matrix A, K2_DeviceConfig config) {
  GrB_Info info = k2_matrix_check(A, "K2_Matrix_upload");
  if (info != GrB_SUCCESS) return info;
  if (config < K2_DEVICE_AUTO || config > K2_DEVICE_ROWS)
    K2_MATRIX_FAIL(A, GrB_INVALID_VALUE, "K2_Matrix_upload: bad configuration %d", (int)config);
  if (!k2_cuda_available())
    K2_MATRIX_FAIL(A, GrB_NOT_IMPLEMENTED, "K2_Matrix_upload: no CUDA device (or built without CUDA)");
  info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  k2_view v;  // the device holds a plain tree of 2x2 leaves (k2_matrix_plain_view)
  if ((info = k2_matrix_plain_view(A, &v)) != GrB_SUCCESS) return k2_error_to_obj(A->error, sizeof A->error, info);
  const k2_upload_need need = {&v, k2_cuda_resolve_config(&v, (int)config)};
  void *device = NULL;
  int rc = k2_slot_build(A, K2_SLOT_CUDA, k2_cuda_engine.ops, k2_upload_ready, k2_upload_build,
                         &need, &device);
  if (rc != 0) {
    GrB_Info e = k2_cuda_info(rc);
    return k2_error_to_obj(A->error, sizeof A->error, e);
  }
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_deviceRelease(K2_Matrix A) {
  GrB_Info info = k2_matrix_check(A, "K2_Matrix_deviceRelease");
  if (info != GrB_SUCCESS) return info;
  k2_slot_drop(A, K2_SLOT_CUDA);
  return GrB_SUCCESS;
}

static bool k2_cuda_type_of(GrB_Type type, k2_type *t) {
  if (type == GrB_BOOL) *t = K2_T_BOOL;
  else if (type == GrB_INT32) *t = K2_T_INT32;
  else if (type == GrB_INT64) *t = K2_T_INT64;
  else if (type == GrB_FP32) *t = K2_T_FP32;
  else if (type == GrB_FP64) *t = K2_T_FP64;
  else return false;
  return true;
}

GrB_Info K2_Matrix_deviceBytes(K2_DeviceBytes *bytes, K2_Matrix A, K2_DeviceConfig config,
                               GrB_Type type, GrB_Index batch, bool left, unsigned flags) {
  if (bytes == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_deviceBytes: bytes is NULL");
  GrB_Info info = k2_matrix_check(A, "K2_Matrix_deviceBytes");
  if (info != GrB_SUCCESS) return info;
  k2_product P;
  memset(&P, 0, sizeof P);
  if (!k2_cuda_type_of(type, &P.type))
    K2_MATRIX_FAIL(A, GrB_DOMAIN_MISMATCH, "K2_Matrix_deviceBytes: type not native");
  if (batch < 1 || batch > 256)
    K2_MATRIX_FAIL(A, GrB_INVALID_VALUE, "K2_Matrix_deviceBytes: batch %llu outside 1..256",
                   (unsigned long long)batch);
  if (config < K2_DEVICE_AUTO || config > K2_DEVICE_ROWS)
    K2_MATRIX_FAIL(A, GrB_INVALID_VALUE, "K2_Matrix_deviceBytes: bad configuration %d",
                   (int)config);
  static const uint8_t flag_byte = 1;
  P.batch = (uint32_t)batch;
  P.left = left;
  P.x_present = (flags & K2_DEVICE_X_PRESENT) ? &flag_byte : NULL;
  P.y_present = (flags & K2_DEVICE_Y_PRESENT) ? (uint8_t *)&flag_byte : NULL;
  P.y_skip = (flags & K2_DEVICE_Y_SKIP) ? &flag_byte : NULL;
  info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  k2_view v;  // the device holds a plain tree of 2x2 leaves (made before the lock, which it takes)
  if ((info = k2_matrix_plain_view(A, &v)) != GrB_SUCCESS) return k2_error_to_obj(A->error, sizeof A->error, info);
  // under the lock: the resident copy, whose plan the estimate reuses, stays while it is read
  pthread_mutex_lock(&A->lock);
  k2_cuda_bytes b;
  int rc = k2_cuda_product_bytes(&v, A->slots[K2_SLOT_CUDA].state, (int)config, &P, &b);
  pthread_mutex_unlock(&A->lock);
  if (rc != 0) {
    GrB_Info e = k2_cuda_info(rc);
    return k2_error_to_obj(A->error, sizeof A->error, e);
  }
  bytes->matrix = b.matrix;
  bytes->scratch = b.scratch;
  bytes->vectors = b.vectors;
  bytes->total = b.total;
  bytes->tiles = b.tiles;
  return GrB_SUCCESS;
}

GrB_Info K2_Device_memory(K2_DeviceMemory *memory) {
  if (memory == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_memory: memory is NULL");
  memory->allocated = k2_cuda_allocated_bytes();
  memory->peak = k2_cuda_peak_bytes();
  memory->allocations = k2_cuda_live_allocations();
  return GrB_SUCCESS;
}

GrB_Info K2_Device_resetPeak(void) {
  k2_cuda_reset_peak();
  return GrB_SUCCESS;
}

GrB_Info K2_Device_trim(void) {
  k2_cuda_trim();
  return GrB_SUCCESS;
}
