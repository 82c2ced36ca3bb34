// k2_vector.c: GrB_Vector inputs as dense arrays, masks as skip bytes, descriptors.
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <string.h>

#include "bridge/k2_bridge.h"
#include "semiring/k2_semiring.h"
#include "util/k2_error.h"

bool k2_bridge_real_type(GrB_Type t) {
  return t == GrB_BOOL || t == GrB_INT8 || t == GrB_INT16 || t == GrB_INT32 || t == GrB_INT64 ||
         t == GrB_UINT8 || t == GrB_UINT16 || t == GrB_UINT32 || t == GrB_UINT64 ||
         t == GrB_FP32 || t == GrB_FP64;
}

GrB_Info k2_bridge_vector_from_bitmap(GrB_Vector *w, k2_type t, GrB_Index n, void **values,
                                   uint8_t **present, GrB_Index nvals) {
  *w = NULL;
  if (nvals == UINT64_MAX) nvals = k2_flags_count(*present, n);
  GrB_Vector v = NULL;
  GrB_Info info = GrB_Vector_new(&v, k2_type_grb(t), n);
  if (info == GrB_SUCCESS) {
    info = GxB_Vector_pack_Bitmap(v, (int8_t **)present, values, n, n * k2_type_size(t), false, nvals, NULL);
  }
  if (info != GrB_SUCCESS) {
    GrB_Vector_free(&v);
    return info;
  }
  *w = v;
  return GrB_SUCCESS;
}

GrB_Descriptor k2_bridge_desc(bool replace, bool comp, bool structure) {
  if (!replace) {
    if (comp) return structure ? GrB_DESC_SC : GrB_DESC_C;
    return structure ? GrB_DESC_S : NULL;
  }
  if (comp) return structure ? GrB_DESC_RSC : GrB_DESC_RC;
  return structure ? GrB_DESC_RS : GrB_DESC_R;
}

GrB_Info k2_bridge_desc_full(GrB_Descriptor *d, bool replace, bool comp, bool structure,
                             bool tran0, bool tran1) {
  GrB_Info info = GrB_Descriptor_new(d);
  if (info == GrB_SUCCESS && replace) info = GrB_Descriptor_set(*d, GrB_OUTP, GrB_REPLACE);
  if (info == GrB_SUCCESS && (comp || structure)) {
    info = GxB_Desc_set(*d, GrB_MASK, (comp ? GrB_COMP : 0) + (structure ? GrB_STRUCTURE : 0));
  }
  if (info == GrB_SUCCESS && tran0) info = GrB_Descriptor_set(*d, GrB_INP0, GrB_TRAN);
  if (info == GrB_SUCCESS && tran1) info = GrB_Descriptor_set(*d, GrB_INP1, GrB_TRAN);
  if (info != GrB_SUCCESS) {
    GrB_Descriptor_free(d);
    K2_FAIL(info, "out of memory for a descriptor");
  }
  return GrB_SUCCESS;
}

GrB_Info k2_bridge_desc_read(GrB_Descriptor desc, bool *replace, bool *comp, bool *structure,
                             bool *tran0, bool *tran1) {
  *replace = *comp = *structure = *tran0 = *tran1 = false;
  if (desc == NULL) return GrB_SUCCESS;
  GrB_Desc_Value out, mask, in0, in1;
  GrB_Info info = GxB_Descriptor_get(&out, desc, GrB_OUTP);
  if (info == GrB_SUCCESS) info = GxB_Descriptor_get(&mask, desc, GrB_MASK);
  if (info == GrB_SUCCESS) info = GxB_Descriptor_get(&in0, desc, GrB_INP0);
  if (info == GrB_SUCCESS) info = GxB_Descriptor_get(&in1, desc, GrB_INP1);
  if (info != GrB_SUCCESS) {
    K2_FAIL(info, "desc is not a valid GrB_Descriptor");
  }
  *replace = (out == GrB_REPLACE);
  *comp = ((int)mask & GrB_COMP) != 0;
  *structure = ((int)mask & GrB_STRUCTURE) != 0;
  *tran0 = (in0 == GrB_TRAN);
  *tran1 = (in1 == GrB_TRAN);
  return GrB_SUCCESS;
}

// GrB_Vector_extractTuples_<T> for the five engine types: GraphBLAS typecasts for us.
static GrB_Info k2_extract(GrB_Index *I, void *X, GrB_Index *n, GrB_Vector u, k2_type t) {
  switch (t) {
    case K2_T_BOOL: return GrB_Vector_extractTuples_BOOL(I, X, n, u);
    case K2_T_INT32: return GrB_Vector_extractTuples_INT32(I, X, n, u);
    case K2_T_INT64: return GrB_Vector_extractTuples_INT64(I, X, n, u);
    case K2_T_FP32: return GrB_Vector_extractTuples_FP32(I, X, n, u);
    default: return GrB_Vector_extractTuples_FP64(I, X, n, u);
  }
}

// A vector's storage as SuiteSparse holds it, read through a GxB_Iterator: no copy and no
// change to the vector, so concurrent readers are safe. The pointers stay valid while the
// vector is unchanged. False when the iterator cannot be attached.
typedef struct {
  int sparsity;          // GxB_SPARSE, GxB_BITMAP or GxB_FULL
  bool iso;
  size_t type_size;
  const void *values;    // Ax
  const uint8_t *bitmap; // Ab (bitmap only)
} k2_vector_storage;

static bool k2_vector_storage_get(k2_vector_storage *st, GrB_Vector v) {
  GxB_Iterator it = NULL;
  if (GxB_Iterator_new(&it) != GrB_SUCCESS) return false;
  bool ok = GxB_Vector_Iterator_attach(it, v, NULL) == GrB_SUCCESS;
  if (ok) {
    st->sparsity = it->A_sparsity;
    st->iso = it->iso;
    st->type_size = it->type_size;
    st->values = it->Ax;
    st->bitmap = (const uint8_t *)it->Ab;
  }
  GxB_Iterator_free(&it);
  return ok;
}

// u's own arrays when they already are what the engines read: a full or bitmap vector of the
// semiring's type that is not iso. False: copy instead.
static bool k2_vector_borrow(const void **x, const uint8_t **present, GrB_Vector u, k2_type t) {
  GrB_Type ut = NULL;
  if (GxB_Vector_type(&ut, u) != GrB_SUCCESS || ut != k2_type_grb(t)) return false;
  k2_vector_storage st;
  if (!k2_vector_storage_get(&st, u) || st.iso || st.type_size != k2_type_size(t) ||
      st.values == NULL || !(st.sparsity == GxB_FULL || (st.sparsity == GxB_BITMAP && st.bitmap != NULL))) {
    return false;
  }
  *x = st.values;
  *present = st.sparsity == GxB_BITMAP ? st.bitmap : NULL;
  return true;
}

GrB_Info k2_bridge_vector_dense(void **x, uint8_t **present, bool *borrowed, GrB_Vector u,
                                k2_type t, bool values) {
  *x = NULL;
  *present = NULL;
  *borrowed = false;
  GrB_Index n, nv;
  GrB_Info info = GrB_Vector_size(&n, u);
  if (info == GrB_SUCCESS) info = GrB_Vector_nvals(&nv, u);
  if (info != GrB_SUCCESS) return info;
  const void *bx;
  const uint8_t *bp;
  if (n > 0 && k2_vector_borrow(&bx, &bp, u, t)) {
    *x = (void *)bx;
    *present = nv == n ? NULL : (uint8_t *)bp;  // a bitmap with every entry is full
    *borrowed = true;
    return GrB_SUCCESS;
  }
  size_t ts = k2_type_size(t);
  GrB_Index *I = NULL;
  void *X = NULL;
  uint8_t *p = NULL;
  void *xx = NULL;
#define K2_FREE_WORK do { free(I); free(X); free(p); free(xx); } while (0)
  // The engines load x even for multiplies that ignore it (PAIR, FIRST in mxv, SECONDI), so
  // x always exists; then it is zeros (calloc: untouched pages cost nothing).
  xx = values ? malloc((n > 0 ? n : 1) * ts) : calloc(n > 0 ? n : 1, ts);
  if (xx == NULL) goto oom;
  if (nv == n) {
    // full: the values come out in index order, straight into the dense array
    if (values) K2_TRY(k2_extract(NULL, xx, &nv, u, t));
  } else {
    p = calloc(n > 0 ? n : 1, 1);
    I = malloc((nv > 0 ? nv : 1) * sizeof(GrB_Index));
    if (values) X = malloc((nv > 0 ? nv : 1) * ts);
    if (p == NULL || I == NULL || (values && X == NULL)) goto oom;
    K2_TRY(k2_extract(I, X, &nv, u, t));
    for (GrB_Index k = 0; k < nv; k++) p[I[k]] = 1;
    if (values) {
      for (GrB_Index k = 0; k < nv; k++) {
        memcpy((char *)xx + I[k] * ts, (const char *)X + k * ts, ts);
      }
    }
    free(I);
    free(X);
    I = NULL;
    X = NULL;
  }
  *x = xx;
  *present = p;
  return GrB_SUCCESS;
oom:
  K2_FREE_WORK;
#undef K2_FREE_WORK
  K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory reading a vector of %llu entries", (unsigned long long)n);
}

GrB_Info k2_bridge_skip_from_mask(uint8_t **skip, uint64_t *allowed, GrB_Vector mask, GrB_Index n,
                               bool comp, bool structure) {
  *skip = NULL;
  *allowed = 0;
  GrB_Index nv;
  GrB_Info info = GrB_Vector_nvals(&nv, mask);
  if (info != GrB_SUCCESS) return info;
  uint8_t *s = malloc(n > 0 ? n : 1);
  GrB_Index *I = malloc((nv > 0 ? nv : 1) * sizeof(GrB_Index));
  bool *X = structure ? NULL : malloc(nv > 0 ? nv : 1);
#define K2_FREE_WORK do { free(s); free(I); free(X); } while (0)
  if (s == NULL || I == NULL || (!structure && X == NULL)) {
    K2_FREE_WORK;
    K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory reading the mask");
  }
  // a structural mask may have any type, user-defined ones included: read its pattern only
  GrB_Type mt = NULL;
  K2_TRY(GxB_Vector_type(&mt, mask));
  if (structure && !k2_bridge_real_type(mt)) {
    K2_TRY(GrB_Vector_extractTuples_UDT(I, NULL, &nv, mask));
  } else {
    K2_TRY(GrB_Vector_extractTuples_BOOL(I, X, &nv, mask));
  }
  // allowed(i) = m(i) xor comp, m(i) = present (structural) or present and true (valued)
  memset(s, comp ? 0 : 1, n);
  uint64_t in_mask = 0;
  for (GrB_Index k = 0; k < nv; k++) {
    if (structure || X[k]) {
      s[I[k]] = comp ? 1 : 0;
      in_mask++;
    }
  }
  *allowed = comp ? n - in_mask : in_mask;
  free(I);
  free(X);
#undef K2_FREE_WORK
  *skip = s;
  return GrB_SUCCESS;
}

static int k2_cmp_index(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

GrB_Info k2_bridge_vector_scatter(k2_workspace *W, GrB_Vector u, k2_type t, bool values,
                               uint64_t *count) {
  *count = 0;
  GrB_Index nv = W->x_cap;
  GrB_Info info = k2_extract(W->x_list, values ? W->x_values : NULL, &nv, u, t);
  if (info != GrB_SUCCESS) {
    K2_FAIL(info, "reading the entries of u failed");
  }
  const size_t ts = k2_type_size(t);
  bool ascending = true;
  for (GrB_Index k = 0; k < nv; k++) {
    const uint64_t i = W->x_list[k];
    W->x_present[i] = 1;
    if (values) memcpy((char *)W->x + i * ts, (const char *)W->x_values + k * ts, ts);
    if (k > 0 && W->x_list[k - 1] >= i) ascending = false;
  }
  // GraphBLAS lists a vector's entries in order; the engines rely on it, so make sure
  if (!ascending) qsort(W->x_list, nv, sizeof(uint64_t), k2_cmp_index);
  *count = nv;
  return GrB_SUCCESS;
}

void k2_bridge_vector_unscatter(k2_workspace *W, uint64_t count) {
  for (uint64_t k = 0; k < count; k++) W->x_present[W->x_list[k]] = 0;
}

bool k2_bridge_skip_borrow(const uint8_t **skip, uint64_t *allowed, GrB_Vector mask, GrB_Index n,
                        bool comp, bool structure) {
  // a complemented structural mask skips exactly its entries: a bitmap's presence bytes
  if (!comp || !structure) return false;
  GrB_Index nv;
  k2_vector_storage st;
  if (GrB_Vector_nvals(&nv, mask) != GrB_SUCCESS || !k2_vector_storage_get(&st, mask) ||
      st.sparsity != GxB_BITMAP || st.bitmap == NULL) {
    return false;
  }
  *skip = st.bitmap;
  *allowed = n - nv;
  return true;
}

GrB_Info k2_bridge_result_compact(k2_workspace *W, uint64_t k, const uint8_t *skip, k2_type t,
                               GrB_Index **I, void **X, uint64_t *nvals) {
  const size_t ts = k2_type_size(t);
  GrB_Index *ii = malloc((k > 0 ? k : 1) * sizeof(GrB_Index));
  char *xx = malloc((k > 0 ? k : 1) * ts);
  uint64_t m = 0;
  for (uint64_t q = 0; q < k; q++) {
    const uint64_t i = W->y_list[q];
    W->y_present[i] = 0;
    // the engines may compute a masked-out entry: drop it, so the result obeys the mask
    if ((skip != NULL && skip[i]) || ii == NULL || xx == NULL) continue;
    ii[m] = i;
    memcpy(xx + m * ts, (const char *)W->y + i * ts, ts);
    m++;
  }
  if (ii == NULL || xx == NULL) {
    free(ii);
    free(xx);
    K2_FAIL(GrB_OUT_OF_MEMORY, "out of memory for a result of %llu entries", (unsigned long long)k);
  }
  *I = ii;
  *X = xx;
  *nvals = m;
  return GrB_SUCCESS;
}
