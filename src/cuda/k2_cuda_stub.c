// k2_cuda_stub.c: the CUDA gateway and the public device calls when built without CUDA.
// SPDX-License-Identifier: Apache-2.0
//
// No device: every product is declined (the dispatcher runs the CPU engines), settings are
// kept so that programs behave the same with or without a GPU build.
#include <string.h>

#include <k2grb.h>

#include "cuda/k2_cuda_gateway.h"
#include "util/k2_error.h"

static k2_cuda_settings k2_stub_settings = {UINT64_C(1) << 20, K2_CUDA_OFFSETS_AUTO, 0, true, true,
                                            true, K2_CUDA_CONFIG_AUTO};

int k2_cuda_fail(int info, const char *message) {
  return (int)k2_error_set((GrB_Info)info, "%s", message);
}
void k2_cuda_settings_get(k2_cuda_settings *s) { *s = k2_stub_settings; }
int k2_cuda_settings_set(const k2_cuda_settings *s) {
  if (s == NULL || s->tile < 16 || s->tile > (UINT64_C(1) << 30) ||
      s->offsets < K2_CUDA_OFFSETS_AUTO || s->offsets > K2_CUDA_OFFSETS_SCAN ||
      s->config < K2_CUDA_CONFIG_AUTO || s->config > K2_CUDA_CONFIG_ROWS)
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
int k2_cuda_product(const k2_view *A, const k2_product *P) {
  (void)A;
  (void)P;
  return k2_cuda_fail(K2_DECLINED, "CUDA engine: built without CUDA");
}
int k2_cuda_product_device(const k2_view *A, const k2_product *P) { return k2_cuda_product(A, P); }
int k2_cuda_product_bytes(const k2_view *A, int config, const k2_product *P, k2_cuda_bytes *out) {
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

// ---- public calls ---------------------------------------------------------------------------

GrB_Info K2_Device_available(bool *present) {
  if (present == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_available: present is NULL");
  *present = false;
  return GrB_SUCCESS;
}
GrB_Info K2_Device_setTileSize(GrB_Index M) {
  k2_cuda_settings s = k2_stub_settings;
  s.tile = M;
  return (GrB_Info)k2_cuda_settings_set(&s);
}
GrB_Info K2_Device_getTileSize(GrB_Index *M) {
  if (M == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getTileSize: M is NULL");
  *M = k2_stub_settings.tile;
  return GrB_SUCCESS;
}
GrB_Info K2_Device_setOffsets(K2_DeviceOffsets source) {
  k2_cuda_settings s = k2_stub_settings;
  s.offsets = (int)source;
  return (GrB_Info)k2_cuda_settings_set(&s);
}
GrB_Info K2_Device_getOffsets(K2_DeviceOffsets *source) {
  if (source == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getOffsets: source is NULL");
  *source = (K2_DeviceOffsets)k2_stub_settings.offsets;
  return GrB_SUCCESS;
}
GrB_Info K2_Device_setBudget(GrB_Index bytes) {
  k2_stub_settings.budget = bytes;
  return GrB_SUCCESS;
}
GrB_Info K2_Device_getBudget(GrB_Index *bytes) {
  if (bytes == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getBudget: bytes is NULL");
  *bytes = k2_stub_settings.budget;
  return GrB_SUCCESS;
}
GrB_Info K2_Device_setGraphs(bool enable) {
  k2_stub_settings.graphs = enable;
  return GrB_SUCCESS;
}
GrB_Info K2_Device_setConfig(K2_DeviceConfig config) {
  k2_cuda_settings s = k2_stub_settings;
  s.config = (int)config;
  if (k2_cuda_settings_set(&s) != 0)
    K2_FAIL(GrB_INVALID_VALUE, "K2_Device_setConfig: bad configuration %d", (int)config);
  return GrB_SUCCESS;
}
GrB_Info K2_Device_getConfig(K2_DeviceConfig *config) {
  if (config == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_getConfig: config is NULL");
  *config = (K2_DeviceConfig)k2_stub_settings.config;
  return GrB_SUCCESS;
}
GrB_Info K2_Matrix_upload(K2_Matrix A, K2_DeviceConfig config) {
  (void)A;
  (void)config;
  K2_FAIL(GrB_NOT_IMPLEMENTED, "K2_Matrix_upload: built without CUDA");
}
GrB_Info K2_Matrix_deviceRelease(K2_Matrix A) {
  (void)A;
  return GrB_SUCCESS;
}
GrB_Info K2_Matrix_deviceBytes(K2_DeviceBytes *bytes, K2_Matrix A, K2_DeviceConfig config,
                               GrB_Type type, GrB_Index batch, bool left, unsigned flags) {
  (void)A;
  (void)config;
  (void)type;
  (void)batch;
  (void)left;
  (void)flags;
  if (bytes) memset(bytes, 0, sizeof *bytes);
  K2_FAIL(GrB_NOT_IMPLEMENTED, "K2_Matrix_deviceBytes: built without CUDA");
}
GrB_Info K2_Device_memory(K2_DeviceMemory *memory) {
  if (memory == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Device_memory: memory is NULL");
  memset(memory, 0, sizeof *memory);
  return GrB_SUCCESS;
}
GrB_Info K2_Device_resetPeak(void) { return GrB_SUCCESS; }
GrB_Info K2_Device_trim(void) { return GrB_SUCCESS; }
