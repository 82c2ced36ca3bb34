// k2_slot.c: the matrix's slots for state derived from its tree (k2_slot.h).
// SPDX-License-Identifier: Apache-2.0
//
// One pattern for every cache of the library: readers load the state with acquire semantics
// and take no lock; a builder takes the matrix's lock, checks again, builds, and publishes with
// release semantics. The matrix frees each state through its slot's operations.
#include "matrix/k2_matrix.h"

void *k2_slot_get(K2_Matrix A, k2_slot_id id) {
  return __atomic_load_n(&A->slots[id].state, __ATOMIC_ACQUIRE);
}

int k2_slot_build(K2_Matrix A, k2_slot_id id, const k2_slot_ops *ops,
                  bool (*ready)(const void *state, const void *arg),
                  int (*build)(void **state, const void *arg), const void *arg, void **state) {
  void *s = k2_slot_get(A, id);
  int rc = 0;
  if (s == NULL || !ready(s, arg)) {
    pthread_mutex_lock(&A->lock);
    s = A->slots[id].state;
    if (s == NULL || !ready(s, arg)) {
      void *fresh = s;
      rc = build(&fresh, arg);
      if (fresh != s) {  // a new state (build freed or kept the old one as it saw fit)
        A->slots[id].ops = ops;
        __atomic_store_n(&A->slots[id].state, fresh, __ATOMIC_RELEASE);
        s = fresh;
      }
    }
    pthread_mutex_unlock(&A->lock);
  }
  *state = s;
  return rc;
}

void *k2_slot_offer(K2_Matrix A, k2_slot_id id, const k2_slot_ops *ops, void *state) {
  pthread_mutex_lock(&A->lock);
  void *s = A->slots[id].state;
  if (s == NULL) {
    A->slots[id].ops = ops;
    __atomic_store_n(&A->slots[id].state, state, __ATOMIC_RELEASE);
    s = state;
    state = NULL;
  }
  pthread_mutex_unlock(&A->lock);
  if (state != NULL) ops->release(state);
  return s;
}

static void k2_slot_free(k2_slot *slot) {
  if (slot->state != NULL && slot->ops != NULL) slot->ops->release(slot->state);
  __atomic_store_n(&slot->state, NULL, __ATOMIC_RELEASE);
  slot->ops = NULL;
}

void k2_slot_drop(K2_Matrix A, k2_slot_id id) {
  pthread_mutex_lock(&A->lock);
  k2_slot_free(&A->slots[id]);
  pthread_mutex_unlock(&A->lock);
}

void k2_slots_drop(K2_Matrix A, bool weighted_only) {
  for (int k = 0; k < K2_SLOT_COUNT; k++) {
    k2_slot *slot = &A->slots[k];
    if (slot->state == NULL || (weighted_only && !(slot->ops != NULL && slot->ops->weighted))) continue;
    k2_slot_free(slot);
  }
}

void k2_slots_copy(K2_Matrix C, K2_Matrix A) {
  pthread_mutex_lock(&A->lock);
  for (int k = 0; k < K2_SLOT_COUNT; k++) {
    const k2_slot *slot = &A->slots[k];
    if (slot->state == NULL || slot->ops == NULL || slot->ops->copy == NULL) continue;
    void *s = slot->ops->copy(slot->state);
    if (s != NULL) (void)k2_slot_offer(C, (k2_slot_id)k, slot->ops, s);
  }
  pthread_mutex_unlock(&A->lock);
}

uint64_t k2_slots_bytes(K2_Matrix A) {
  uint64_t b = 0;
  pthread_mutex_lock(&A->lock);
  for (int k = 0; k < K2_SLOT_COUNT; k++) {
    const k2_slot *slot = &A->slots[k];
    if (slot->state != NULL && slot->ops != NULL && slot->ops->bytes != NULL) b += slot->ops->bytes(slot->state);
  }
  pthread_mutex_unlock(&A->lock);
  return b;
}
