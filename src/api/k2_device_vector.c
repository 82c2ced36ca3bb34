// k2_device_vector.c: device-resident vectors (K2_DeviceVector, include/k2grb/device.h) and
// the products on them, over the CUDA gateway.
// SPDX-License-Identifier: Apache-2.0
//
// A vector is one device allocation: its values, then one presence byte per entry. A product
// writes its result into the vector's spare allocation and swaps it in on success, so that w may
// be the input or the mask and is untouched by a failure. The entry count is kept on the host
// when it is known (after a product, a clear, a full assignment) and counted on the device
// otherwise, so a loop that only needs its frontier's size never reads a vector back. A batch
// (width B > 1) is B vectors of `rows` entries side by side, row-major (entry (i, b) at i*B + b,
// the layout of the engines' batches): to the element-wise kernels it is a vector of rows*B.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/k2_api.h"
#include "bridge/k2_bridge.h"
#include "cuda/k2_cuda_gateway.h"
#include "dispatch/k2_dispatch.h"
#include "matrix/k2_matrix.h"
#include "matrix/k2_slot.h"
#include "util/k2_clock.h"
#include "semiring/k2_semiring.h"
#include "util/k2_error.h"

#define K2_DVEC_LIVE UINT64_C(0x6b32677264764c56)   // "k2grdvLV"
#define K2_DVEC_FREED UINT64_C(0x6b32677264764652)  // "k2grdvFR"

struct K2_DeviceVector_opaque {
  uint64_t magic;
  GrB_Type grb_type;
  k2_type type;
  uint32_t ts;      // bytes per value
  GrB_Index n;      // entries: rows * width
  GrB_Index rows;   // the size of each vector
  GrB_Index width;  // vectors side by side (1: a plain vector)
  uint64_t bytes;   // of each allocation: values (rounded up), then presence
  void *mem;        // the vector
  void *spare;      // a product's result, swapped in on success (allocated at the first product)
  GrB_Index nvals;
  bool nvals_known;
};

static uint64_t k2_dvec_values_bytes(const struct K2_DeviceVector_opaque *v) {
  return ((uint64_t)v->n * v->ts + 255) & ~(uint64_t)255;
}
static void *k2_dvec_values(const struct K2_DeviceVector_opaque *v) { return v->mem; }
static uint8_t *k2_dvec_present(const struct K2_DeviceVector_opaque *v) {
  return (uint8_t *)v->mem + k2_dvec_values_bytes(v);
}

// The gateway's int results as GrB_Info: a decline (no device) is "not implemented".
static GrB_Info k2_dvec_info(int rc) { return rc == K2_DECLINED ? GrB_NOT_IMPLEMENTED : (GrB_Info)rc; }

static GrB_Info k2_dvec_check(const struct K2_DeviceVector_opaque *v, const char *fn, const char *name) {
  if (v == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: %s is NULL", fn, name);
  if (v->magic != K2_DVEC_LIVE) K2_FAIL(GrB_UNINITIALIZED_OBJECT, "%s: %s is not a live K2_DeviceVector", fn, name);
  return GrB_SUCCESS;
}

// A fail-fast check in a public call (nothing to clean up yet): returns its code from the caller.
#define K2_DVEC_RETURN_ON(check)                        \
  do {                                                  \
    GrB_Info k2_dv_info_ = (check);                     \
    if (k2_dv_info_ != GrB_SUCCESS) return k2_dv_info_; \
  } while (0)
#define K2_DVEC_CHECK(v, fn, name) K2_DVEC_RETURN_ON(k2_dvec_check((v), (fn), (name)))

// A vector (width 1) or a batch of `width` vectors of `rows` entries.
static GrB_Info k2_dvec_create(K2_DeviceVector *v, GrB_Type type, GrB_Index rows, GrB_Index width,
                               const char *fn) {
  k2_error_clear();
  if (v == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: v is NULL", fn);
  *v = NULL;
  if (type == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: type is NULL", fn);
  const int t = k2_type_from_grb(type);
  if (t < 0)
    K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: the type must be GrB_BOOL, GrB_INT32, GrB_INT64, GrB_FP32 or GrB_FP64", fn);
  if (rows == 0 || rows > GrB_INDEX_MAX)
    K2_FAIL(GrB_INVALID_VALUE, "%s: size %llu is not in 1 .. GrB_INDEX_MAX", fn, (unsigned long long)rows);
  if (width == 0 || width > K2_DEVICE_BATCH_MAX)
    K2_FAIL(GrB_INVALID_VALUE, "%s: width %llu is not in 1 .. %d", fn, (unsigned long long)width,
            K2_DEVICE_BATCH_MAX);
  if (rows > GrB_INDEX_MAX / width)
    K2_FAIL(GrB_INVALID_VALUE, "%s: %llu x %llu entries are too many", fn, (unsigned long long)rows,
            (unsigned long long)width);
  const GrB_Index n = rows * width;
  if (!k2_cuda_available())
    K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: no CUDA device (or built without CUDA)", fn);
  struct K2_DeviceVector_opaque *d = calloc(1, sizeof *d);
  if (d == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", fn);
  d->grb_type = type;
  d->type = (k2_type)t;
  d->ts = k2_type_size(d->type);
  d->n = n;
  d->rows = rows;
  d->width = width;
  d->bytes = k2_dvec_values_bytes(d) + n;
  d->mem = k2_cuda_vector_alloc(d->bytes);
  int rc = d->mem != NULL ? k2_cuda_vector_fill(k2_dvec_present(d), 0, n) : GrB_OUT_OF_MEMORY;
  if (rc != 0) {
    k2_cuda_vector_free(d->mem, d->bytes);
    free(d);
    K2_FAIL(rc == GrB_OUT_OF_MEMORY || rc == K2_DECLINED ? GrB_OUT_OF_MEMORY : (GrB_Info)rc,
            "%s: no device memory for %llu entries (%s)", fn, (unsigned long long)n, k2_error_get());
  }
  d->nvals_known = true;
  d->magic = K2_DVEC_LIVE;
  *v = d;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_new(K2_DeviceVector *v, GrB_Type type, GrB_Index n) {
  return k2_dvec_create(v, type, n, 1, "K2_DeviceVector_new");
}

GrB_Info K2_DeviceVector_newBatch(K2_DeviceVector *v, GrB_Type type, GrB_Index n, GrB_Index width) {
  return k2_dvec_create(v, type, n, width, "K2_DeviceVector_newBatch");
}

GrB_Info K2_DeviceVector_free(K2_DeviceVector *v) {
  if (v == NULL || *v == NULL) return GrB_SUCCESS;
  K2_DVEC_CHECK(*v, "K2_DeviceVector_free", "v");
  struct K2_DeviceVector_opaque *d = *v;
  k2_cuda_vector_free(d->mem, d->bytes);
  k2_cuda_vector_free(d->spare, d->bytes);
  d->magic = K2_DVEC_FREED;
  free(d);
  *v = NULL;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_size(GrB_Index *n, const K2_DeviceVector v) {
  if (n == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_DeviceVector_size: n is NULL");
  K2_DVEC_CHECK(v, "K2_DeviceVector_size", "v");
  *n = v->rows;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_width(GrB_Index *width, const K2_DeviceVector v) {
  if (width == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_DeviceVector_width: width is NULL");
  K2_DVEC_CHECK(v, "K2_DeviceVector_width", "v");
  *width = v->width;
  return GrB_SUCCESS;
}

// The calls on one vector (setElement, import, export, mxv, vxm) refuse a batch.
static GrB_Info k2_dvec_single(const struct K2_DeviceVector_opaque *v, const char *fn, const char *name) {
  if (v->width != 1)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: %s is a batch of %llu vectors, not one vector", fn, name,
            (unsigned long long)v->width);
  return GrB_SUCCESS;
}
#define K2_DVEC_SINGLE(v, fn, name) K2_DVEC_RETURN_ON(k2_dvec_single((v), (fn), (name)))

// v's entry count, counted on the device when not known.
static GrB_Info k2_dvec_nvals(GrB_Index *nvals, struct K2_DeviceVector_opaque *v, const char *fn) {
  if (!v->nvals_known) {
    uint64_t c = 0;
    int rc = k2_cuda_vector_count(k2_dvec_present(v), v->n, &c);
    if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: counting the entries failed: %s", fn, k2_error_get());
    v->nvals = c;
    v->nvals_known = true;
  }
  *nvals = v->nvals;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_nvals(GrB_Index *nvals, const K2_DeviceVector v) {
  if (nvals == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_DeviceVector_nvals: nvals is NULL");
  K2_DVEC_CHECK(v, "K2_DeviceVector_nvals", "v");
  return k2_dvec_nvals(nvals, v, "K2_DeviceVector_nvals");
}

GrB_Info K2_DeviceVector_clear(K2_DeviceVector v) {
  K2_DVEC_CHECK(v, "K2_DeviceVector_clear", "v");
  int rc = k2_cuda_vector_fill(k2_dvec_present(v), 0, v->n);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "K2_DeviceVector_clear: %s", k2_error_get());
  v->nvals = 0;
  v->nvals_known = true;
  return GrB_SUCCESS;
}

// x cast to v's type as GraphBLAS casts an INT64 (integers wrap as C converts them, BOOL is x != 0).
static void k2_dvec_cast_int64(void *out, k2_type t, int64_t x) {
  switch (t) {
    case K2_T_BOOL: *(uint8_t *)out = x != 0; break;
    case K2_T_INT32: *(int32_t *)out = (int32_t)x; break;
    case K2_T_INT64: *(int64_t *)out = x; break;
    case K2_T_FP32: *(float *)out = (float)x; break;
    default: *(double *)out = (double)x; break;
  }
}

static GrB_Info k2_dvec_set(struct K2_DeviceVector_opaque *v, const void *value, GrB_Index i, const char *fn) {
  K2_DVEC_CHECK(v, fn, "v");
  K2_DVEC_SINGLE(v, fn, "v");
  if (i >= v->n)
    K2_FAIL(GrB_INVALID_INDEX, "%s: index %llu is out of range: v has %llu entries", fn,
            (unsigned long long)i, (unsigned long long)v->n);
  const uint8_t one = 1;
  int rc = k2_cuda_vector_copy((char *)k2_dvec_values(v) + i * v->ts, value, v->ts, K2_CUDA_COPY_UP);
  if (rc == 0) rc = k2_cuda_vector_copy(k2_dvec_present(v) + i, &one, 1, K2_CUDA_COPY_UP);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  v->nvals_known = false;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_setElement_INT64(K2_DeviceVector v, int64_t x, GrB_Index i) {
  uint64_t bits = 0;
  if (v != NULL && v->magic == K2_DVEC_LIVE) k2_dvec_cast_int64(&bits, v->type, x);
  return k2_dvec_set(v, &bits, i, "K2_DeviceVector_setElement_INT64");
}

GrB_Info K2_DeviceVector_setElement_FP64(K2_DeviceVector v, double x, GrB_Index i) {
  uint64_t bits = 0;
  if (v != NULL && v->magic == K2_DVEC_LIVE) k2_cast_double(&bits, v->type, x);
  return k2_dvec_set(v, &bits, i, "K2_DeviceVector_setElement_FP64");
}

// The tuples of u (a vector) or U (a matrix: J gets the columns) by extractTuples_<T>.
static GrB_Info k2_dvec_tuples(GrB_Index *I, GrB_Index *J, void *X, GrB_Index *n, GrB_Vector u, GrB_Matrix U,
                               k2_type t) {
  switch (t) {
    case K2_T_BOOL: return U ? GrB_Matrix_extractTuples_BOOL(I, J, X, n, U) : GrB_Vector_extractTuples_BOOL(I, X, n, u);
    case K2_T_INT32: return U ? GrB_Matrix_extractTuples_INT32(I, J, X, n, U) : GrB_Vector_extractTuples_INT32(I, X, n, u);
    case K2_T_INT64: return U ? GrB_Matrix_extractTuples_INT64(I, J, X, n, U) : GrB_Vector_extractTuples_INT64(I, X, n, u);
    case K2_T_FP32: return U ? GrB_Matrix_extractTuples_FP32(I, J, X, n, U) : GrB_Vector_extractTuples_FP32(I, X, n, u);
    default: return U ? GrB_Matrix_extractTuples_FP64(I, J, X, n, U) : GrB_Vector_extractTuples_FP64(I, X, n, u);
  }
}

// v = the nv entries of u or U (checked by the caller): the dense row-major image on the host,
// then one copy of values and presence.
static GrB_Info k2_dvec_upload(K2_DeviceVector v, GrB_Vector u, GrB_Matrix U, GrB_Index nv, const char *fn) {
  char *host = calloc(v->bytes, 1);
  GrB_Index *I = malloc((nv + 1) * sizeof *I), *J = U != NULL ? malloc((nv + 1) * sizeof *J) : NULL;
  void *X = malloc((nv + 1) * (size_t)v->ts);
  if (host == NULL || I == NULL || X == NULL || (U != NULL && J == NULL)) {
    free(host), free(I), free(J), free(X);
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory for %llu entries", fn, (unsigned long long)v->n);
  }
  GrB_Index got = nv;
  GrB_Info info = k2_dvec_tuples(I, J, X, &got, u, U, v->type);
  if (info == GrB_SUCCESS) {
    uint8_t *present = (uint8_t *)host + k2_dvec_values_bytes(v);
    for (GrB_Index k = 0; k < got; k++) {
      const GrB_Index at = I[k] * v->width + (J != NULL ? J[k] : 0);
      memcpy(host + at * v->ts, (char *)X + k * v->ts, v->ts);
      present[at] = 1;
    }
    int rc = k2_cuda_vector_copy(v->mem, host, v->bytes, K2_CUDA_COPY_UP);
    if (rc != 0) info = k2_error_set_at(__FILE__, __LINE__, k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  } else {
    info = k2_error_set_at(__FILE__, __LINE__, info, "%s: reading the entries failed", fn);
  }
  free(host), free(I), free(J), free(X);
  if (info != GrB_SUCCESS) return info;
  v->nvals = got;
  v->nvals_known = true;
  return GrB_SUCCESS;
}

// u full or bitmap (and not iso): its arrays are already the device layout (values, then a byte
// per entry), so they go up as they are: lent by an unpack and handed back by a pack, with no
// tuples extracted and no host copy. *done false: u is in another form and untouched.
static GrB_Info k2_dvec_upload_dense(K2_DeviceVector v, GrB_Vector u, const char *fn, bool *done) {
  *done = false;
  int status = 0;
  bool iso = true;
  if (GxB_Vector_Option_get(u, GxB_SPARSITY_STATUS, &status) != GrB_SUCCESS ||
      (status != GxB_FULL && status != GxB_BITMAP) || GxB_Vector_iso(&iso, u) != GrB_SUCCESS || iso)
    return GrB_SUCCESS;
  void *X = NULL;
  int8_t *B = NULL;
  GrB_Index xs = 0, bs = 0, nv = v->n;
  GrB_Info info = status == GxB_FULL ? GxB_Vector_unpack_Full(u, &X, &xs, &iso, NULL)
                                     : GxB_Vector_unpack_Bitmap(u, &B, &X, &bs, &xs, &iso, &nv, NULL);
  if (info != GrB_SUCCESS) return GrB_SUCCESS;  // u as it was: the tuples instead
  *done = true;
  int rc = k2_cuda_vector_copy(k2_dvec_values(v), X, (uint64_t)v->n * v->ts, K2_CUDA_COPY_UP);
  if (rc == 0)
    rc = B != NULL ? k2_cuda_vector_copy(k2_dvec_present(v), B, v->n, K2_CUDA_COPY_UP)
                   : k2_cuda_vector_fill(k2_dvec_present(v), 1, v->n);
  // u's arrays back to it, whatever the copy did
  GrB_Info back = B != NULL ? GxB_Vector_pack_Bitmap(u, &B, &X, bs, xs, false, nv, NULL)
                            : GxB_Vector_pack_Full(u, &X, xs, false, NULL);
  if (back != GrB_SUCCESS) {
    free(X), free(B);
    K2_FAIL(back, "%s: handing u its arrays back failed", fn);
  }
  if (rc != 0) {  // v's contents are unknown after a failed copy: empty
    v->nvals = 0;
    v->nvals_known = true;
    (void)k2_cuda_vector_fill(k2_dvec_present(v), 0, v->n);
    K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  }
  v->nvals = nv;
  v->nvals_known = true;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_import(K2_DeviceVector v, GrB_Vector u) {
  const char *fn = "K2_DeviceVector_import";
  K2_DVEC_CHECK(v, fn, "v");
  K2_DVEC_SINGLE(v, fn, "v");
  if (u == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: u is NULL", fn);
  GrB_Index n = 0, nv = 0;
  GrB_Type t = NULL;
  GrB_Info info = GrB_Vector_size(&n, u);
  if (info == GrB_SUCCESS) info = GxB_Vector_type(&t, u);
  if (info == GrB_SUCCESS) info = GrB_Vector_nvals(&nv, u);
  if (info != GrB_SUCCESS) K2_FAIL(info, "%s: u is not a valid GrB_Vector", fn);
  if (n != v->n)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: u has size %llu, v has size %llu", fn, (unsigned long long)n,
            (unsigned long long)v->n);
  if (t != v->grb_type) K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: u and v have different types", fn);
  bool done = false;
  info = k2_dvec_upload_dense(v, u, fn, &done);
  if (info != GrB_SUCCESS || done) return info;
  return k2_dvec_upload(v, u, NULL, nv, fn);
}

GrB_Info K2_DeviceVector_importMatrix(K2_DeviceVector v, GrB_Matrix U) {
  const char *fn = "K2_DeviceVector_importMatrix";
  K2_DVEC_CHECK(v, fn, "v");
  if (U == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: U is NULL", fn);
  GrB_Index nr = 0, nc = 0, nv = 0;
  GrB_Type t = NULL;
  GrB_Info info = GrB_Matrix_nrows(&nr, U);
  if (info == GrB_SUCCESS) info = GrB_Matrix_ncols(&nc, U);
  if (info == GrB_SUCCESS) info = GxB_Matrix_type(&t, U);
  if (info == GrB_SUCCESS) info = GrB_Matrix_nvals(&nv, U);
  if (info != GrB_SUCCESS) K2_FAIL(info, "%s: U is not a valid GrB_Matrix", fn);
  if (nr != v->rows || nc != v->width)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: U is %llu x %llu, v is %llu x %llu", fn, (unsigned long long)nr,
            (unsigned long long)nc, (unsigned long long)v->rows, (unsigned long long)v->width);
  if (t != v->grb_type) K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: U and v have different types", fn);
  return k2_dvec_upload(v, NULL, U, nv, fn);
}

// v's values and presence copied down into new host arrays (*X, *B: freed by the caller), which
// a GrB_Vector or a row-major GrB_Matrix then takes as its bitmap; *nvals its entry count.
static GrB_Info k2_dvec_download(void **X, uint8_t **B, GrB_Index *nvals, const K2_DeviceVector v, const char *fn) {
  *X = malloc((size_t)v->n * v->ts);
  *B = malloc((size_t)v->n);
  if (*X == NULL || *B == NULL)
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory for %llu entries", fn, (unsigned long long)v->n);
  int rc = k2_cuda_vector_copy(*X, k2_dvec_values(v), (uint64_t)v->n * v->ts, K2_CUDA_COPY_DOWN);
  if (rc == 0) rc = k2_cuda_vector_copy(*B, k2_dvec_present(v), v->n, K2_CUDA_COPY_DOWN);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  if (!v->nvals_known) {
    v->nvals = k2_flags_count(*B, v->n);
    v->nvals_known = true;
  }
  *nvals = v->nvals;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_export(GrB_Vector *u, const K2_DeviceVector v) {
  const char *fn = "K2_DeviceVector_export";
  if (u == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: u is NULL", fn);
  K2_DVEC_CHECK(v, fn, "v");
  K2_DVEC_SINGLE(v, fn, "v");
  void *X = NULL;
  uint8_t *B = NULL;
  GrB_Index nvals = 0;
  GrB_Vector w = NULL;
  // few entries (known without reading the device): listed on the device, and only they copied
  if (v->nvals_known && v->nvals > 0 && v->nvals * (8 + v->ts) * 4 <= (uint64_t)v->n * (v->ts + 1)) {
    GrB_Index *list = malloc(v->nvals * sizeof *list);
    void *vals = malloc(v->nvals * v->ts);
    if (list == NULL || vals == NULL) {
      free(list), free(vals);
      K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory for %llu entries", fn, (unsigned long long)v->nvals);
    }
    GrB_Info info = GrB_SUCCESS;
    int rc = k2_cuda_vector_list(k2_dvec_values(v), k2_dvec_present(v), v->n, v->ts, v->nvals, (uint64_t *)list, vals);
    if (rc != 0) info = k2_error_set_at(__FILE__, __LINE__, k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
    if (info == GrB_SUCCESS) info = GrB_Vector_new(&w, v->grb_type, v->n);
    if (info == GrB_SUCCESS) {
      const GrB_Index nv = v->nvals;
      info = GxB_Vector_pack_CSC(w, &list, &vals, nv * sizeof *list, nv * v->ts, false, nv, false, NULL);
      if (info != GrB_SUCCESS) {
        GrB_Vector_free(&w);
        info = k2_error_set_at(__FILE__, __LINE__, info, "%s: building the GrB_Vector of %llu entries failed", fn,
                               (unsigned long long)nv);
      }
    }
    free(list);  // NULL once the vector took them
    free(vals);
    if (info != GrB_SUCCESS) return info;
    *u = w;
    return GrB_SUCCESS;
  }
  GrB_Info info = k2_dvec_download(&X, &B, &nvals, v, fn);
  if (info == GrB_SUCCESS) {
    info = k2_bridge_vector_from_bitmap(&w, v->type, v->n, &X, &B, nvals);
    if (info != GrB_SUCCESS)
      info = k2_error_set_at(__FILE__, __LINE__, info, "%s: building the GrB_Vector of %llu entries (size %llu) failed",
                             fn, (unsigned long long)nvals, (unsigned long long)v->n);
  }
  free(X);  // NULL once the vector took them
  free(B);
  if (info != GrB_SUCCESS) return info;
  *u = w;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_exportMatrix(GrB_Matrix *U, const K2_DeviceVector v) {
  const char *fn = "K2_DeviceVector_exportMatrix";
  if (U == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: U is NULL", fn);
  K2_DVEC_CHECK(v, fn, "v");
  void *X = NULL;
  uint8_t *B = NULL;
  GrB_Index nvals = 0;
  GrB_Matrix M = NULL;
  // the device layout is already GraphBLAS's BitmapR
  GrB_Info info = k2_dvec_download(&X, &B, &nvals, v, fn);
  if (info == GrB_SUCCESS) {
    info = GrB_Matrix_new(&M, v->grb_type, v->rows, v->width);
    if (info == GrB_SUCCESS)
      info = GxB_Matrix_pack_BitmapR(M, (int8_t **)&B, &X, v->n, (GrB_Index)v->n * v->ts, false, nvals, NULL);
    if (info != GrB_SUCCESS) {
      GrB_Matrix_free(&M);
      info = k2_error_set_at(__FILE__, __LINE__, info, "%s: building the GrB_Matrix failed", fn);
    }
  }
  free(X);  // NULL once the matrix took them
  free(B);
  if (info != GrB_SUCCESS) return info;
  *U = M;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_extract(K2_DeviceVector w, const K2_DeviceVector u, const K2_DeviceVector I) {
  const char *fn = "K2_DeviceVector_extract";
  K2_DVEC_CHECK(w, fn, "w");
  K2_DVEC_CHECK(u, fn, "u");
  K2_DVEC_CHECK(I, fn, "I");
  K2_DVEC_SINGLE(w, fn, "w");
  K2_DVEC_SINGLE(u, fn, "u");
  K2_DVEC_SINGLE(I, fn, "I");
  if (I->n != w->n)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: w has size %llu, I has size %llu", fn, (unsigned long long)w->n,
            (unsigned long long)I->n);
  if (u->type != w->type) K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: w and u have different types", fn);
  if (I->type != K2_T_INT32 && I->type != K2_T_INT64)
    K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: I must be INT32 or INT64, it is %s", fn, k2_type_name(I->type));
  // into w's spare, swapped in on success: w may be u or I (a gather in place would race)
  if (w->spare == NULL) {
    w->spare = k2_cuda_vector_alloc(w->bytes);
    if (w->spare == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: no device memory for the result: %s", fn, k2_error_get());
  }
  struct K2_DeviceVector_opaque out = *w;
  out.mem = w->spare;
  uint64_t bad = 0, wnv = 0;
  int rc = k2_cuda_vector_extract(k2_dvec_values(&out), k2_dvec_present(&out), k2_dvec_values(u),
                                  k2_dvec_present(u), u->n, k2_dvec_values(I), k2_dvec_present(I),
                                  I->type == K2_T_INT64, w->ts, w->n, &bad, &wnv);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  if (bad != 0)
    K2_FAIL(GrB_INDEX_OUT_OF_BOUNDS, "%s: %llu of the indices in I are outside 0 .. %llu", fn,
            (unsigned long long)bad, (unsigned long long)(u->n - 1));
  w->spare = w->mem;
  w->mem = out.mem;
  w->nvals = wnv;
  w->nvals_known = true;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_assign(K2_DeviceVector v, const K2_DeviceVector m, const K2_DeviceVector w) {
  const char *fn = "K2_DeviceVector_assign";
  K2_DVEC_CHECK(v, fn, "v");
  if (m != NULL) K2_DVEC_CHECK(m, fn, "m");
  K2_DVEC_CHECK(w, fn, "w");
  if ((m != NULL && (m->n != v->n || m->width != v->width)) || w->n != v->n || w->width != v->width)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: v (%llu), m (%llu) and w (%llu) differ in size or width", fn,
            (unsigned long long)v->n, (unsigned long long)(m ? m->n : v->n), (unsigned long long)w->n);
  if (w->type != v->type) K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: v and w have different types", fn);
  int rc = k2_cuda_vector_assign(k2_dvec_values(v), k2_dvec_present(v), m ? k2_dvec_present(m) : NULL,
                                 k2_dvec_values(w), k2_dvec_present(w), NULL, v->ts, v->n);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  v->nvals = w->nvals;
  v->nvals_known = m == NULL && w->nvals_known;
  return GrB_SUCCESS;
}

static GrB_Info k2_dvec_assign_scalar(K2_DeviceVector v, const K2_DeviceVector m, const void *x, const char *fn) {
  int rc = k2_cuda_vector_assign(k2_dvec_values(v), k2_dvec_present(v), m ? k2_dvec_present(m) : NULL,
                                 NULL, NULL, x, v->ts, v->n);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  v->nvals = v->n;
  v->nvals_known = m == NULL;
  return GrB_SUCCESS;
}

static GrB_Info k2_dvec_assign_check(K2_DeviceVector v, const K2_DeviceVector m, const char *fn) {
  K2_DVEC_CHECK(v, fn, "v");
  if (m != NULL) K2_DVEC_CHECK(m, fn, "m");
  if (m != NULL && (m->n != v->n || m->width != v->width))
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: v has %llu entries, m has %llu (or another width)", fn,
            (unsigned long long)v->n, (unsigned long long)m->n);
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_assign_INT64(K2_DeviceVector v, const K2_DeviceVector m, int64_t x) {
  const char *fn = "K2_DeviceVector_assign_INT64";
  GrB_Info info = k2_dvec_assign_check(v, m, fn);
  if (info != GrB_SUCCESS) return info;
  uint64_t bits = 0;
  k2_dvec_cast_int64(&bits, v->type, x);
  return k2_dvec_assign_scalar(v, m, &bits, fn);
}

GrB_Info K2_DeviceVector_assign_FP64(K2_DeviceVector v, const K2_DeviceVector m, double x) {
  const char *fn = "K2_DeviceVector_assign_FP64";
  GrB_Info info = k2_dvec_assign_check(v, m, fn);
  if (info != GrB_SUCCESS) return info;
  uint64_t bits = 0;
  k2_cast_double(&bits, v->type, x);
  return k2_dvec_assign_scalar(v, m, &bits, fn);
}

static GrB_Info k2_dvec_reduce(int64_t *isum, double *fsum, const K2_DeviceVector v, const char *fn) {
  K2_DVEC_CHECK(v, fn, "v");
  int rc = k2_cuda_vector_sum(k2_dvec_values(v), k2_dvec_present(v), v->type, v->n, isum, fsum);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_reduce_INT64(int64_t *sum, const K2_DeviceVector v) {
  if (sum == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_DeviceVector_reduce_INT64: sum is NULL");
  int64_t is = 0;
  double fs = 0;
  GrB_Info info = k2_dvec_reduce(&is, &fs, v, "K2_DeviceVector_reduce_INT64");
  if (info != GrB_SUCCESS) return info;
  *sum = v->type == K2_T_FP32 || v->type == K2_T_FP64 ? (int64_t)fs : is;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_reduce_FP64(double *sum, const K2_DeviceVector v) {
  if (sum == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_DeviceVector_reduce_FP64: sum is NULL");
  int64_t is = 0;
  double fs = 0;
  GrB_Info info = k2_dvec_reduce(&is, &fs, v, "K2_DeviceVector_reduce_FP64");
  if (info != GrB_SUCCESS) return info;
  *sum = v->type == K2_T_FP32 || v->type == K2_T_FP64 ? fs : (double)is;
  return GrB_SUCCESS;
}

// ---- element-wise operators -------------------------------------------------------------------

// The engine's code of a built-in binary (unary) operator on type t, or -1: PLUS, MINUS, TIMES,
// DIV (floats: integer division has GraphBLAS's own rules at zero), MIN, MAX; IDENTITY, AINV, ABS.
static int k2_dvec_binop(GrB_BinaryOp op, k2_type t) {
  const GrB_BinaryOp ops[4][6] = {
      {GrB_PLUS_INT32, GrB_MINUS_INT32, GrB_TIMES_INT32, NULL, GrB_MIN_INT32, GrB_MAX_INT32},
      {GrB_PLUS_INT64, GrB_MINUS_INT64, GrB_TIMES_INT64, NULL, GrB_MIN_INT64, GrB_MAX_INT64},
      {GrB_PLUS_FP32, GrB_MINUS_FP32, GrB_TIMES_FP32, GrB_DIV_FP32, GrB_MIN_FP32, GrB_MAX_FP32},
      {GrB_PLUS_FP64, GrB_MINUS_FP64, GrB_TIMES_FP64, GrB_DIV_FP64, GrB_MIN_FP64, GrB_MAX_FP64}};
  const int row = t == K2_T_INT32 ? 0 : t == K2_T_INT64 ? 1 : t == K2_T_FP32 ? 2 : t == K2_T_FP64 ? 3 : -1;
  if (row < 0 || op == NULL) return -1;
  for (int k = 0; k < 6; k++)
    if (ops[row][k] == op) return k;  // the order of K2_CUDA_OP_*
  return -1;
}

static int k2_dvec_unop(GrB_UnaryOp op, k2_type t) {
  const GrB_UnaryOp ops[4][3] = {{GrB_IDENTITY_INT32, GrB_AINV_INT32, GrB_ABS_INT32},
                                 {GrB_IDENTITY_INT64, GrB_AINV_INT64, GrB_ABS_INT64},
                                 {GrB_IDENTITY_FP32, GrB_AINV_FP32, GrB_ABS_FP32},
                                 {GrB_IDENTITY_FP64, GrB_AINV_FP64, GrB_ABS_FP64}};
  const int row = t == K2_T_INT32 ? 0 : t == K2_T_INT64 ? 1 : t == K2_T_FP32 ? 2 : t == K2_T_FP64 ? 3 : -1;
  if (row < 0 || op == NULL) return -1;
  for (int k = 0; k < 3; k++)
    if (ops[row][k] == op) return k;  // the order of K2_CUDA_UOP_*
  return -1;
}

// The checks of an element-wise call: live handles, one size and one type.
static GrB_Info k2_dvec_same(const char *fn, K2_DeviceVector w, K2_DeviceVector u, K2_DeviceVector v) {
  K2_DVEC_CHECK(w, fn, "w");
  K2_DVEC_CHECK(u, fn, "u");
  if (v != NULL) K2_DVEC_CHECK(v, fn, "v");
  if (u->n != w->n || u->width != w->width || (v != NULL && (v->n != w->n || v->width != w->width)))
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: the vectors differ in size or width", fn);
  if (u->type != w->type || (v != NULL && v->type != w->type))
    K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: the vectors differ in type (device vectors are not typecast)", fn);
  return GrB_SUCCESS;
}

static GrB_Info k2_dvec_ewise(const char *fn, K2_DeviceVector w, GrB_BinaryOp op, K2_DeviceVector u,
                              K2_DeviceVector v, bool add) {
  GrB_Info info = k2_dvec_same(fn, w, u, v);
  if (info != GrB_SUCCESS) return info;
  if (v == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: v is NULL", fn);
  const int code = k2_dvec_binop(op, w->type);
  if (code < 0)
    K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: the operator must be PLUS, MINUS, TIMES, DIV (floats), MIN or MAX of "
            "the vectors' type (%s)", fn, k2_type_name(w->type));
  // the result's entries are the union (eWiseAdd) or the intersection (eWiseMult) of u's and v's
  const bool ufull = u->nvals_known && u->nvals == u->n, vfull = v->nvals_known && v->nvals == v->n;
  const bool full = add ? ufull || vfull : ufull && vfull;
  int rc = k2_cuda_vector_ewise(k2_dvec_values(w), k2_dvec_present(w), k2_dvec_values(u), k2_dvec_present(u),
                                k2_dvec_values(v), k2_dvec_present(v), w->type, code, add, w->n);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  w->nvals = w->n;
  w->nvals_known = full;
  return GrB_SUCCESS;
}

GrB_Info K2_DeviceVector_eWiseAdd(K2_DeviceVector w, const GrB_BinaryOp op, const K2_DeviceVector u,
                                  const K2_DeviceVector v) {
  return k2_dvec_ewise("K2_DeviceVector_eWiseAdd", w, op, u, v, true);
}

GrB_Info K2_DeviceVector_eWiseMult(K2_DeviceVector w, const GrB_BinaryOp op, const K2_DeviceVector u,
                                   const K2_DeviceVector v) {
  return k2_dvec_ewise("K2_DeviceVector_eWiseMult", w, op, u, v, false);
}

GrB_Info K2_DeviceVector_apply(K2_DeviceVector w, const GrB_UnaryOp op, const K2_DeviceVector u) {
  const char *fn = "K2_DeviceVector_apply";
  GrB_Info info = k2_dvec_same(fn, w, u, NULL);
  if (info != GrB_SUCCESS) return info;
  const int code = k2_dvec_unop(op, w->type);
  if (code < 0)
    K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: the operator must be IDENTITY, AINV or ABS of the vectors' type (%s)", fn,
            k2_type_name(w->type));
  int rc = k2_cuda_vector_apply(k2_dvec_values(w), k2_dvec_present(w), k2_dvec_values(u), k2_dvec_present(u),
                                w->type, code, w->n);
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  w->nvals = u->nvals;
  w->nvals_known = u->nvals_known;
  return GrB_SUCCESS;
}

// ---- products --------------------------------------------------------------------------------

// A's resident copy on the device (the one it has, or one uploaded now in the default
// configuration) and the view of the tree it holds (full blocks expanded), A's pending work done.
static GrB_Info k2_dvec_resident(void **device, k2_view *view, K2_Matrix A, const char *fn) {
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  *device = k2_slot_get(A, K2_SLOT_CUDA);
  if (*device == NULL) {
    info = K2_Matrix_upload(A, K2_DEVICE_AUTO);
    if (info != GrB_SUCCESS) K2_FAIL(info, "%s: uploading A failed: %s", fn, k2_error_get());
    *device = k2_slot_get(A, K2_SLOT_CUDA);
    if (*device == NULL) K2_FAIL(GrB_PANIC, "%s: A has no device copy after its upload", fn);
  }
  return k2_matrix_plain_view(A, view);  // the device holds a plain tree of 2x2 leaves
}

// vxm: u enters as a row (the matrix is the multiply's second operand); batch (K2_mxm_device):
// u and w may hold several vectors side by side, the same number.
static GrB_Info k2_dvec_product(const char *fn, K2_DeviceVector w, K2_DeviceVector mask, GrB_Semiring s,
                                K2_Matrix A, K2_DeviceVector u, GrB_Descriptor desc, bool vxm, bool batch) {
  k2_error_clear();
  k2_api_set_path(K2_PATH_NONE);
  K2_DVEC_CHECK(w, fn, "w");
  if (mask != NULL) K2_DVEC_CHECK(mask, fn, "mask");
  if (s == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: semiring is NULL", fn);
  GrB_Info info = k2_api_check_matrix(A, fn);
  if (info != GrB_SUCCESS) return info;
  K2_DVEC_CHECK(u, fn, "u");
  k2_semiring_class c;
  if ((info = k2_semiring_classify(&c, s, !vxm)) != GrB_SUCCESS) return info;
  bool replace, comp, structure, tran0, tran1;
  if ((info = k2_bridge_desc_read(desc, &replace, &comp, &structure, &tran0, &tran1)) != GrB_SUCCESS) return info;
  if (!batch) {
    K2_DVEC_SINGLE(w, fn, "w");
    K2_DVEC_SINGLE(u, fn, "u");
    if (mask != NULL) K2_DVEC_SINGLE(mask, fn, "mask");
  } else if (tran1) {
    K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: B cannot be transposed (GrB_INP1): its vectors are its columns", fn);
  }
  const bool left = vxm ? !tran1 : tran0;
  const GrB_Index n_in = left ? A->tree.nrows : A->tree.ncols, n_out = left ? A->tree.ncols : A->tree.nrows;
  if (u->rows != n_in || w->rows != n_out || u->width != w->width)
    K2_FAIL(GrB_DIMENSION_MISMATCH,
            "%s: dimensions of w (%llu x %llu), A%s (%llu x %llu) and u (%llu x %llu) do not match", fn,
            (unsigned long long)w->rows, (unsigned long long)w->width, left ? "'" : "",
            (unsigned long long)n_out, (unsigned long long)n_in, (unsigned long long)u->rows,
            (unsigned long long)u->width);
  if (mask != NULL && (mask->rows != w->rows || mask->width != w->width))
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: mask is %llu x %llu, w is %llu x %llu", fn,
            (unsigned long long)mask->rows, (unsigned long long)mask->width, (unsigned long long)w->rows,
            (unsigned long long)w->width);
  if (!c.native) K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: %s does not run natively on the tree: %s", fn, c.name, c.why);
  if (w->type != c.type)
    K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: w is %s, the semiring computes %s", fn, k2_type_name(w->type),
            k2_type_name(c.type));
  // the engines read u in the semiring's type (even where the multiply ignores its values), and
  // a device vector is not typecast on the way: u must have that type
  if (u->type != c.type)
    K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: u is %s, the semiring's type is %s (device vectors are not typecast)",
            fn, k2_type_name(u->type), k2_type_name(c.type));
  if (mask != NULL && !replace)
    K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: a mask needs GrB_REPLACE in the descriptor (the result replaces w)", fn);
  if (w->spare == NULL) {
    w->spare = k2_cuda_vector_alloc(w->bytes);
    if (w->spare == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: no device memory for the result: %s", fn, k2_error_get());
  }
  void *device = NULL;
  k2_view view;
  if ((info = k2_dvec_resident(&device, &view, A, fn)) != GrB_SUCCESS) return info;
  GrB_Index unv = 0, mnv = 0;
  if ((info = k2_dvec_nvals(&unv, u, fn)) != GrB_SUCCESS) return info;
  // the allowed outputs' count feeds the pruning estimate of single vectors; batches run the
  // full traversal, and counting would cost them a wait per call
  const bool mask_counted = mask != NULL && structure && !batch;
  if (mask_counted && (info = k2_dvec_nvals(&mnv, mask, fn)) != GrB_SUCCESS) return info;

  k2_product P;
  memset(&P, 0, sizeof P);
  k2_semiring_setup(&P, &c, A->weight);
  P.left = left;
  P.batch = (uint32_t)u->width;
  P.x = k2_dvec_values(u);
  P.x_present = unv == u->n ? NULL : k2_dvec_present(u);
  P.x_count = unv;
  struct K2_DeviceVector_opaque out = *w;  // the spare, as a vector
  out.mem = w->spare;
  P.y = k2_dvec_values(&out);
  P.y_present = k2_dvec_present(&out);
  k2_cuda_mask mk = {0};
  uint64_t allowed = w->n;
  if (mask != NULL || comp) {
    mk.present = mask != NULL ? k2_dvec_present(mask) : NULL;
    mk.values = mask != NULL ? k2_dvec_values(mask) : NULL;
    mk.type = mask != NULL ? mask->type : K2_T_BOOL;
    mk.structural = structure;
    mk.complement = comp;
    if (mask_counted) {
      allowed = comp ? w->n - mnv : mnv;
      P.y_allowed_known = true;
      P.y_allowed = allowed;
    }
  }
  k2_product_report report = {0};
  P.report = &report;
  uint64_t ynv = 0;
  int rc;
  if (mask == NULL && comp) {  // the complement of no mask allows nothing: w becomes empty
    rc = k2_cuda_vector_fill(P.y_present, 0, w->n);
  } else if (P.batch > 1) {
    rc = k2_cuda_product_resident_batch(&view, device, &P, mask != NULL ? &mk : NULL, &ynv);
  } else {
    rc = k2_cuda_product_resident(&view, device, &P, mask != NULL ? &mk : NULL, &ynv);
  }
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  w->spare = w->mem;
  w->mem = out.mem;
  w->nvals = ynv;
  w->nvals_known = ynv != K2_CUDA_NVALS_UNKNOWN;
  k2_api_set_path(K2_PATH_NATIVE_GPU);
  k2_dispatch_set_last(K2_ENGINE_CUDA);
  if (k2_api_burble()) {
    k2_api_say(fn, K2_PATH_NATIVE_GPU,
               "%s, %s product on device vectors (%llu wide), u %llu of %llu entries, %s mask%s (%llu outputs "
               "allowed): %s (estimated %.0f of %llu nodes, %llu expanded), %lld entries (-1: not counted)",
               c.name, left ? "left" : "right", (unsigned long long)u->width, (unsigned long long)unv,
               (unsigned long long)u->n,
               mask == NULL ? "no" : structure ? "structural" : "valued", comp ? " complemented" : "",
               (unsigned long long)allowed, report.traversal ? report.traversal : "full", report.estimate,
               (unsigned long long)report.nodes, (unsigned long long)report.expanded,
               ynv == K2_CUDA_NVALS_UNKNOWN ? -1LL : (long long)ynv);
  }
  return GrB_SUCCESS;
}

GrB_Info K2_mxv_device(K2_DeviceVector w, const K2_DeviceVector mask, const GrB_Semiring semiring,
                       const K2_Matrix A, const K2_DeviceVector u, const GrB_Descriptor desc) {
  return k2_bridge_done("K2_mxv_device", k2_dvec_product("K2_mxv_device", w, mask, semiring, A, u, desc, false, false));
}

GrB_Info K2_vxm_device(K2_DeviceVector w, const K2_DeviceVector mask, const GrB_Semiring semiring,
                       const K2_DeviceVector u, const K2_Matrix A, const GrB_Descriptor desc) {
  return k2_bridge_done("K2_vxm_device", k2_dvec_product("K2_vxm_device", w, mask, semiring, A, u, desc, true, false));
}

GrB_Info K2_mxm_device(K2_DeviceVector C, const K2_DeviceVector mask, const GrB_Semiring semiring,
                       const K2_Matrix A, const K2_DeviceVector B, const GrB_Descriptor desc) {
  return k2_bridge_done("K2_mxm_device", k2_dvec_product("K2_mxm_device", C, mask, semiring, A, B, desc, false, true));
}

// The arguments of a bitwise multi-source BFS (A, the sources, the descriptor: *tran0 whether
// the paths follow out-edges), then A's resident copy for it.
static GrB_Info k2_dvec_levels_args(K2_Matrix A, const GrB_Index *sources, GrB_Index nsources,
                                    const GrB_Descriptor desc, const char *fn, bool *tran0) {
  GrB_Info info = k2_api_check_matrix(A, fn);
  if (info != GrB_SUCCESS) return info;
  if (sources == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: sources is NULL", fn);
  bool replace, comp, structure, tran1;
  if ((info = k2_bridge_desc_read(desc, &replace, &comp, &structure, tran0, &tran1)) != GrB_SUCCESS) return info;
  const GrB_Index n = A->tree.nrows;
  if (A->tree.ncols != n)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: A is %llu x %llu, not square", fn, (unsigned long long)n,
            (unsigned long long)A->tree.ncols);
  if (nsources == 0 || nsources > 64)
    K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: %llu sources; the device BFS takes 1 to 64 (K2_mxm_device runs more)", fn,
            (unsigned long long)nsources);
  for (GrB_Index b = 0; b < nsources; b++)
    if (sources[b] >= n)
      K2_FAIL(GrB_INVALID_INDEX, "%s: sources[%llu] = %llu is not a vertex of A (0 .. %llu)", fn,
              (unsigned long long)b, (unsigned long long)sources[b], (unsigned long long)n - 1);
  if (n > INT32_MAX) K2_FAIL(GrB_NOT_IMPLEMENTED, "%s: levels are INT32, A has %llu vertices", fn, (unsigned long long)n);
  return GrB_SUCCESS;
}

static void k2_dvec_levels_done(const char *fn, GrB_Index nsources, bool tran0, uint64_t reached) {
  k2_api_set_path(K2_PATH_NATIVE_GPU);
  k2_dispatch_set_last(K2_ENGINE_CUDA);
  if (k2_api_burble())
    k2_api_say(fn, K2_PATH_NATIVE_GPU, "%llu sources along the %s-edges as words of bits: %llu entries",
               (unsigned long long)nsources, tran0 ? "out" : "in", (unsigned long long)reached);
}

GrB_Info K2_Device_bfsLevels(K2_DeviceVector dist, K2_Matrix A, const GrB_Index *sources, GrB_Index nsources,
                             const GrB_Descriptor desc) {
  const char *fn = "K2_Device_bfsLevels";
  k2_error_clear();
  k2_api_set_path(K2_PATH_NONE);
  K2_DVEC_CHECK(dist, fn, "dist");
  bool tran0 = false;
  GrB_Info info = k2_dvec_levels_args(A, sources, nsources, desc, fn, &tran0);
  if (info != GrB_SUCCESS) return info;
  const GrB_Index n = A->tree.nrows;
  if (dist->type != K2_T_INT32 || dist->rows != n || dist->width != nsources)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: dist must be an INT32 batch of %llu x %llu, not a %s batch of %llu x %llu",
            fn, (unsigned long long)n, (unsigned long long)nsources, k2_type_name(dist->type),
            (unsigned long long)dist->rows, (unsigned long long)dist->width);
  void *device = NULL;
  k2_view view;
  if ((info = k2_dvec_resident(&device, &view, A, fn)) != GrB_SUCCESS) return info;
  // written in place, without a spare of n x nsources entries (the device memory is what the
  // tree saves): the engine allocates what it needs before its first write to dist, so only a
  // device fault can leave dist half-written, and then it is marked empty
  uint64_t reached = 0;
  int rc = k2_cuda_bfs_levels(&view, device, tran0, (const uint64_t *)sources, (uint32_t)nsources,
                              (int32_t *)k2_dvec_values(dist), k2_dvec_present(dist), &reached);
  if (rc != 0 && reached != K2_CUDA_NVALS_UNKNOWN) {  // the engine emptied what it had written
    dist->nvals = 0;
    dist->nvals_known = true;
  }
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  dist->nvals = reached;
  dist->nvals_known = true;
  k2_dvec_levels_done(fn, nsources, tran0, reached);
  return GrB_SUCCESS;
}

// K2_Device_bfsLevelsMatrix's result on the host: the INT32 values and presence of an n x B
// BitmapR matrix, filled span by span from the engine's level bytes.
typedef struct {
  int32_t *X;
  int8_t *Bm;
} k2_dvec_levels_host;

// Pairs per decoding thread at least: below that a parallel region (its team woken next to
// GraphBLAS's) costs more than the loop, which takes about 0.15 ms per million pairs on one core.
#define K2_DVEC_LEVELS_PART ((int64_t)1 << 18)

static void k2_dvec_levels_span(void *ctx, const uint8_t *levels, uint64_t first, uint64_t count, int32_t base) {
  k2_dvec_levels_host *h = ctx;
  int32_t *X = h->X + first;
  int8_t *Bm = h->Bm + first;
  const int64_t total = (int64_t)count, most = omp_in_parallel() ? 1 : omp_get_max_threads();
  int64_t parts = total / K2_DVEC_LEVELS_PART;
  parts = parts < 1 ? 1 : parts > most ? most : parts;
  if (base == 0) {  // the first span: every pair, reached or not
#pragma omp parallel for schedule(static) num_threads((int)parts) if (parts > 1)
    for (int64_t k = 0; k < total; k++) {
      const uint8_t v = levels[k];
      X[k] = v != 0xFF ? (int32_t)v : 0;
      Bm[k] = v != 0xFF;
    }
  } else {  // a later span: its pairs only (each pair is reached in one span)
#pragma omp parallel for schedule(static) num_threads((int)parts) if (parts > 1)
    for (int64_t k = 0; k < total; k++) {
      const uint8_t v = levels[k];
      if (v == 0xFF) continue;
      X[k] = base + (int32_t)v;
      Bm[k] = 1;
    }
  }
}

GrB_Info K2_Device_bfsLevelsMatrix(GrB_Matrix *dist, K2_Matrix A, const GrB_Index *sources, GrB_Index nsources,
                                   const GrB_Descriptor desc) {
  const char *fn = "K2_Device_bfsLevelsMatrix";
  k2_error_clear();
  k2_api_set_path(K2_PATH_NONE);
  if (dist == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: dist is NULL", fn);
  bool tran0 = false;
  GrB_Info info = k2_dvec_levels_args(A, sources, nsources, desc, fn, &tran0);
  if (info != GrB_SUCCESS) return info;
  const GrB_Index n = A->tree.nrows;
  if (n > SIZE_MAX / 4 / nsources) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: %llu x %llu levels do not fit in memory", fn,
                                           (unsigned long long)n, (unsigned long long)nsources);
  void *device = NULL;
  k2_view view;
  if ((info = k2_dvec_resident(&device, &view, A, fn)) != GrB_SUCCESS) return info;
  const size_t entries = (size_t)n * nsources;
  k2_dvec_levels_host h = {malloc(entries * sizeof(int32_t) + 1), malloc(entries + 1)};
  GrB_Matrix M = NULL;
  uint64_t reached = 0;
  if (h.X == NULL || h.Bm == NULL) {
    info = k2_error_set_at(__FILE__, __LINE__, GrB_OUT_OF_MEMORY, "%s: out of memory for %llu x %llu levels", fn,
                           (unsigned long long)n, (unsigned long long)nsources);
  } else {
    int rc = k2_cuda_bfs_levels_bytes(&view, device, tran0, (const uint64_t *)sources, (uint32_t)nsources,
                                      k2_dvec_levels_span, &h, &reached);
    if (rc != 0) info = k2_error_set_at(__FILE__, __LINE__, k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  }
  if (info == GrB_SUCCESS) info = GrB_Matrix_new(&M, GrB_INT32, n, nsources);
  if (info == GrB_SUCCESS) {
    void *X = h.X;
    info = GxB_Matrix_pack_BitmapR(M, &h.Bm, &X, entries * sizeof(int32_t), entries, false, reached, NULL);
    if (info == GrB_SUCCESS) h.X = NULL;
    else info = k2_error_set_at(__FILE__, __LINE__, info, "%s: building the GrB_Matrix failed", fn);
  }
  free(h.X);  // NULL once the matrix took them
  free(h.Bm);
  if (info != GrB_SUCCESS) {
    GrB_Matrix_free(&M);
    return info;
  }
  *dist = M;
  k2_dvec_levels_done(fn, nsources, tran0, reached);
  return GrB_SUCCESS;
}

// A BFS result vector: NULL, or a plain INT32/INT64 vector of A's size; *bytes its entry size.
static GrB_Info k2_dvec_bfs_result(const struct K2_DeviceVector_opaque *v, GrB_Index n, const char *fn,
                                   const char *name, uint32_t *bytes) {
  *bytes = 0;
  if (v == NULL) return GrB_SUCCESS;
  K2_DVEC_CHECK(v, fn, name);
  if (v->type != K2_T_INT32 && v->type != K2_T_INT64)
    K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: %s must be INT32 or INT64, not %s", fn, name, k2_type_name(v->type));
  if (v->width != 1 || v->n != n)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: %s must be a plain vector of A's size %llu", fn, name, (unsigned long long)n);
  if (v->type == K2_T_INT32 && n > INT32_MAX)
    K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: %s is INT32, A has %llu vertices (INT64 holds them)", fn, name,
            (unsigned long long)n);
  *bytes = v->type == K2_T_INT64 ? 8 : 4;
  return GrB_SUCCESS;
}

// The burble's line per level of the device BFS just run (k2_cuda_bfs_report): how the engine
// traversed the tree, for how many vertices, and the host's time of the level.
static void k2_dvec_say_levels(const char *fn) {
  static const char *const how[4] = {"full", "pruned by the frontier", "pruned by the unvisited vertices",
                                     "pruned by both"};
  const uint64_t count = k2_cuda_bfs_report(NULL, 0);
  k2_cuda_bfs_level *lv = count > 0 ? malloc(count * sizeof *lv) : NULL;
  if (lv == NULL) return;
  (void)k2_cuda_bfs_report(lv, count);
  for (uint64_t i = 0, k = 1; i < count; k += !lv[i].overflow, i++)
    k2_api_say(fn, K2_PATH_NATIVE_GPU, "level %llu: %s, frontier %llu, %llu found, %llu nodes expanded%s, %.3f ms",
               (unsigned long long)k, how[lv[i].mode & 3], (unsigned long long)lv[i].frontier,
               (unsigned long long)lv[i].found, (unsigned long long)lv[i].expanded,
               lv[i].overflow ? " (past the frontier's room: the level again, in full)" : "",
               1e3 * lv[i].seconds);
  free(lv);
}

// K2_Device_bfs and K2_Device_bfsWithin: at most max_depth levels, *complete (or NULL) whether
// the search ended by itself.
static GrB_Info k2_dvec_bfs(const char *fn, K2_DeviceVector level, K2_DeviceVector parent, K2_Matrix A,
                            GrB_Index source, GrB_Index max_depth, bool *complete, const GrB_Descriptor desc) {
  k2_error_clear();
  k2_api_set_path(K2_PATH_NONE);
  if (level == NULL && parent == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: level and parent are both NULL", fn);
  GrB_Info info = k2_api_check_matrix(A, fn);
  if (info != GrB_SUCCESS) return info;
  bool replace, comp, structure, tran0, tran1;
  if ((info = k2_bridge_desc_read(desc, &replace, &comp, &structure, &tran0, &tran1)) != GrB_SUCCESS) return info;
  const GrB_Index n = A->tree.nrows;
  if (A->tree.ncols != n)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: A is %llu x %llu, not square", fn, (unsigned long long)n,
            (unsigned long long)A->tree.ncols);
  uint32_t lbytes = 0, pbytes = 0;
  if ((info = k2_dvec_bfs_result(level, n, fn, "level", &lbytes)) != GrB_SUCCESS) return info;
  if ((info = k2_dvec_bfs_result(parent, n, fn, "parent", &pbytes)) != GrB_SUCCESS) return info;
  if (level != NULL && level == parent) K2_FAIL(GrB_INVALID_VALUE, "%s: level and parent are one vector", fn);
  if (source >= n)
    K2_FAIL(GrB_INVALID_INDEX, "%s: source %llu is not a vertex of A (0 .. %llu)", fn, (unsigned long long)source,
            (unsigned long long)n - 1);
  void *device = NULL;
  k2_view view;
  if ((info = k2_dvec_resident(&device, &view, A, fn)) != GrB_SUCCESS) return info;
  // written in place: the engine allocates before its first write, so only a device fault can
  // leave the results half-written, and then they are marked empty
  uint64_t reached = 0;
  bool done = false;
  const double t0 = k2_clock_now();
  int rc = k2_cuda_bfs_one(&view, device, tran0, source, level ? k2_dvec_values(level) : NULL,
                           level ? k2_dvec_present(level) : NULL, lbytes, parent ? k2_dvec_values(parent) : NULL,
                           parent ? k2_dvec_present(parent) : NULL, pbytes, max_depth, &done, &reached);
  if (rc != 0 && reached != K2_CUDA_NVALS_UNKNOWN) {  // the engine emptied what it had written
    if (level != NULL) level->nvals = 0, level->nvals_known = true;
    if (parent != NULL) parent->nvals = 0, parent->nvals_known = true;
  }
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  if (level != NULL) level->nvals = reached, level->nvals_known = true;
  if (parent != NULL) parent->nvals = reached, parent->nvals_known = true;
  if (complete != NULL) *complete = done;
  k2_api_set_path(K2_PATH_NATIVE_GPU);
  k2_dispatch_set_last(K2_ENGINE_CUDA);
  if (k2_api_burble()) {
    k2_api_say(fn, K2_PATH_NATIVE_GPU, "from %llu along the %s-edges: %llu vertices reached in %.3f ms%s",
               (unsigned long long)source, tran0 ? "out" : "in", (unsigned long long)reached,
               1e3 * (k2_clock_now() - t0), done ? "" : ", stopped at the depth asked for");
    k2_dvec_say_levels(fn);
  }
  return GrB_SUCCESS;
}

GrB_Info K2_Device_bfs(K2_DeviceVector level, K2_DeviceVector parent, K2_Matrix A, GrB_Index source,
                       const GrB_Descriptor desc) {
  return k2_dvec_bfs("K2_Device_bfs", level, parent, A, source, UINT64_MAX, NULL, desc);
}

GrB_Info K2_Device_bfsWithin(K2_DeviceVector level, K2_DeviceVector parent, K2_Matrix A, GrB_Index source,
                             GrB_Index depth, bool *complete, const GrB_Descriptor desc) {
  if (complete == NULL) {
    k2_error_clear();
    K2_FAIL(GrB_NULL_POINTER, "K2_Device_bfsWithin: complete is NULL");
  }
  return k2_dvec_bfs("K2_Device_bfsWithin", level, parent, A, source, depth, complete, desc);
}

GrB_Info K2_Device_pagerank(K2_DeviceVector rank, K2_Matrix A, const K2_DeviceVector d, const K2_DeviceVector sinks,
                            float damping, float tol, int itermax, int *iters, float *rdiff) {
  const char *fn = "K2_Device_pagerank";
  k2_error_clear();
  k2_api_set_path(K2_PATH_NONE);
  K2_DVEC_CHECK(rank, fn, "rank");
  K2_DVEC_CHECK(d, fn, "d");
  if (sinks != NULL) K2_DVEC_CHECK(sinks, fn, "sinks");
  if (iters == NULL || rdiff == NULL) K2_FAIL(GrB_NULL_POINTER, "%s: iters or rdiff is NULL", fn);
  GrB_Info info = k2_api_check_matrix(A, fn);
  if (info != GrB_SUCCESS) return info;
  const GrB_Index n = A->tree.nrows;
  if (A->tree.ncols != n)
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: A is %llu x %llu, not square", fn, (unsigned long long)n,
            (unsigned long long)A->tree.ncols);
  if (rank->type != K2_T_FP32 || d->type != K2_T_FP32)
    K2_FAIL(GrB_DOMAIN_MISMATCH, "%s: rank and d must be FP32 (they are %s and %s)", fn, k2_type_name(rank->type),
            k2_type_name(d->type));
  if (rank->width != 1 || d->width != 1 || rank->n != n || d->n != n ||
      (sinks != NULL && (sinks->width != 1 || sinks->n != n)))
    K2_FAIL(GrB_DIMENSION_MISMATCH, "%s: rank, d and sinks must be plain vectors of A's size %llu", fn,
            (unsigned long long)n);
  if (!(damping >= 0 && damping <= 1) || !(tol >= 0) || itermax < 0)
    K2_FAIL(GrB_INVALID_VALUE, "%s: damping %g must lie in [0, 1], tol %g be >= 0 and itermax %d >= 0", fn,
            (double)damping, (double)tol, itermax);
  GrB_Index dnv = 0;
  if ((info = k2_dvec_nvals(&dnv, d, fn)) != GrB_SUCCESS) return info;
  if (dnv != n) K2_FAIL(GrB_INVALID_VALUE, "%s: d must be full (it has %llu of %llu entries)", fn,
                        (unsigned long long)dnv, (unsigned long long)n);
  void *device = NULL;
  k2_view view;
  if ((info = k2_dvec_resident(&device, &view, A, fn)) != GrB_SUCCESS) return info;
  bool touched = false;
  int it = 0;
  float diff = 0;
  const double t0 = k2_clock_now();
  int rc = k2_cuda_pagerank(&view, device, (const float *)k2_dvec_values(d), sinks ? k2_dvec_present(sinks) : NULL,
                            damping, tol, itermax, (float *)k2_dvec_values(rank), k2_dvec_present(rank), &it, &diff,
                            &touched);
  if (rc != 0 && touched) {  // the engine emptied what it had written
    rank->nvals = 0;
    rank->nvals_known = true;
  }
  if (rc != 0) K2_FAIL(k2_dvec_info(rc), "%s: %s", fn, k2_error_get());
  rank->nvals = n;
  rank->nvals_known = true;
  *iters = it;
  *rdiff = diff;
  k2_api_set_path(K2_PATH_NATIVE_GPU);
  k2_dispatch_set_last(K2_ENGINE_CUDA);
  if (k2_api_burble())
    k2_api_say(fn, K2_PATH_NATIVE_GPU, "%d iterations in %.3f ms, change %g (tolerance %g), %s sinks", it,
               1e3 * (k2_clock_now() - t0), (double)diff, (double)tol, sinks ? "with" : "without");
  return GrB_SUCCESS;
}

GrB_Info K2_Matrix_deviceServes(bool *serves, K2_Matrix A) {
  if (serves == NULL) K2_FAIL(GrB_NULL_POINTER, "K2_Matrix_deviceServes: serves is NULL");
  GrB_Info info = k2_api_check_matrix(A, "K2_Matrix_deviceServes");
  if (info != GrB_SUCCESS) return info;
  *serves = k2_dispatch_device_serves(A);
  return GrB_SUCCESS;
}
