// k2_profile.c: the products' per-step profile (K2_Profile_*, include/k2grb/experimental.h):
// the switch, the sums over all calls and threads, the table.
// SPDX-License-Identifier: Apache-2.0
#include "api/k2_profile.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_bool k2_profile_on = false;
static pthread_mutex_t k2_profile_mu = PTHREAD_MUTEX_INITIALIZER;
static K2_Profile k2_profile_sums;  // under k2_profile_mu
static bool k2_profile_env = false, k2_profile_printed = false;

static const char *const k2_profile_names[K2_PROFILE_STEPS] = {
    "validate", "input", "mask", "plan", "h2d", "kernel", "d2h", "pack", "apply", "fallback", "other"};

void k2_profile_begin(k2_profile_call *pc) {
  // the one branch an unprofiled call pays
  pc->on = atomic_load_explicit(&k2_profile_on, memory_order_relaxed);
  if (!pc->on) return;
  memset(pc, 0, sizeof *pc);
  pc->on = true;
  pc->start = pc->mark = k2_clock_now();
}

void k2_profile_dispatched(k2_profile_call *pc) {
  if (!pc->on) return;
  k2_product_timing *t = &pc->product;
  pc->seconds[K2_PROFILE_PLAN] += t->plan;
  pc->seconds[K2_PROFILE_KERNEL] += t->kernel;
  pc->seconds[K2_PROFILE_H2D] += t->h2d;
  pc->seconds[K2_PROFILE_D2H] += t->d2h;
  pc->touched |= (UINT32_C(1) << K2_PROFILE_PLAN) | (UINT32_C(1) << K2_PROFILE_KERNEL);
  if (t->device || t->h2d > 0 || t->d2h > 0) {
    pc->touched |= (UINT32_C(1) << K2_PROFILE_H2D) | (UINT32_C(1) << K2_PROFILE_D2H);
  }
  // kernel_device and device stay for k2_profile_end
  t->plan = t->kernel = t->h2d = t->d2h = 0;
  pc->mark = k2_clock_now();
}

void k2_profile_end(k2_profile_call *pc) {
  if (!pc->on) return;
  const double total = k2_clock_now() - pc->start;
  double steps = 0;
  for (int s = 0; s < K2_PROFILE_OTHER; s++) steps += pc->seconds[s];
  // the steps are disjoint spans of the call: only rounding can make them exceed it
  pc->seconds[K2_PROFILE_OTHER] = total > steps ? total - steps : 0;
  pc->touched |= UINT32_C(1) << K2_PROFILE_OTHER;
  pthread_mutex_lock(&k2_profile_mu);
  K2_Profile *p = &k2_profile_sums;
  p->calls++;
  p->total += total;
  for (int s = 0; s < K2_PROFILE_STEPS; s++) {
    p->seconds[s] += pc->seconds[s];
    p->count[s] += (pc->touched >> s) & 1;
  }
  p->kernel_device += pc->product.kernel_device;
  p->device_calls += pc->product.device;
  pthread_mutex_unlock(&k2_profile_mu);
}

GrB_Info K2_Profile_enable(bool enable) {
  atomic_store(&k2_profile_on, enable);
  return GrB_SUCCESS;
}

GrB_Info K2_Profile_enabled(bool *enable) {
  if (enable == NULL) return GrB_NULL_POINTER;
  *enable = atomic_load(&k2_profile_on);
  return GrB_SUCCESS;
}

GrB_Info K2_Profile_reset(void) {
  pthread_mutex_lock(&k2_profile_mu);
  memset(&k2_profile_sums, 0, sizeof k2_profile_sums);
  pthread_mutex_unlock(&k2_profile_mu);
  return GrB_SUCCESS;
}

GrB_Info K2_Profile_get(K2_Profile *profile) {
  if (profile == NULL) return GrB_NULL_POINTER;
  pthread_mutex_lock(&k2_profile_mu);
  *profile = k2_profile_sums;
  pthread_mutex_unlock(&k2_profile_mu);
  return GrB_SUCCESS;
}

const char *K2_Profile_stepName(K2_ProfileStep step) {
  if ((int)step < 0 || step >= K2_PROFILE_STEPS) return NULL;
  return k2_profile_names[step];
}

GrB_Info K2_Profile_print(FILE *f, const K2_Profile *profile) {
  if (f == NULL || profile == NULL) return GrB_NULL_POINTER;
  const K2_Profile *p = profile;
  // per call of all calls, so that the column adds up to the total's
  const double calls = p->calls > 0 ? (double)p->calls : 1;
  fprintf(f, "k2grb profile: %llu product calls, %.3f ms (K2_mxv, K2_vxm, K2_dense_*)\n",
          (unsigned long long)p->calls, 1e3 * p->total);
  fprintf(f, "  %-10s %10s %12s %10s %7s\n", "step", "calls", "ms", "us/call", "share");
  for (int s = 0; s < K2_PROFILE_STEPS; s++) {
    fprintf(f, "  %-10s %10llu %12.3f %10.2f %6.1f%%\n", k2_profile_names[s],
            (unsigned long long)p->count[s], 1e3 * p->seconds[s], 1e6 * p->seconds[s] / calls,
            p->total > 0 ? 100 * p->seconds[s] / p->total : 0.0);
  }
  fprintf(f, "  %-10s %10llu %12.3f %10.2f %6.1f%%\n", "total", (unsigned long long)p->calls,
          1e3 * p->total, 1e6 * p->total / calls, p->total > 0 ? 100.0 : 0.0);
  if (p->device_calls > 0) {
    fprintf(f, "  of kernel, the GPU's own time (CUDA events): %.3f ms over %llu calls, %.2f us per call\n",
            1e3 * p->kernel_device, (unsigned long long)p->device_calls,
            1e6 * p->kernel_device / (double)p->device_calls);
  }
  return GrB_SUCCESS;
}

static void k2_profile_print_once(void) {
  pthread_mutex_lock(&k2_profile_mu);
  const bool print = k2_profile_env && !k2_profile_printed;
  k2_profile_printed = true;
  K2_Profile p = k2_profile_sums;
  pthread_mutex_unlock(&k2_profile_mu);
  if (print) K2_Profile_print(stderr, &p);
}

void k2_profile_from_env(void) {
  const char *e = getenv("K2GRB_PROFILE");
  if (e == NULL || e[0] == '\0' || strcmp(e, "0") == 0) return;
  atomic_store(&k2_profile_on, true);
  pthread_mutex_lock(&k2_profile_mu);
  const bool first = !k2_profile_env;
  k2_profile_env = true;
  k2_profile_printed = false;
  pthread_mutex_unlock(&k2_profile_mu);
  // a program that never calls K2_finalize still gets its table
  if (first) atexit(k2_profile_print_once);
}

void k2_profile_finish(void) { k2_profile_print_once(); }
