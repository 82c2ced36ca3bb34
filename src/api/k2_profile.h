// k2_profile.h: the per-step profile of one product call (internal; K2_Profile in
// include/k2grb/experimental.h, the sums in src/api/k2_profile.c).
// SPDX-License-Identifier: Apache-2.0
//
// A call keeps its own steps on its stack and adds them to the shared sums once, at its end. With
// profiling off k2_profile_begin reads one flag and every other call here returns at once.
#ifndef K2_PROFILE_H
#define K2_PROFILE_H

#include <k2grb.h>

#include "engine/k2_kernels.h"
#include "util/k2_clock.h"

typedef struct {
  bool on;
  double start, mark;                // the call's start; the end of its last timed step
  double seconds[K2_PROFILE_STEPS];
  uint32_t touched;                  // bit s: the call went through step s
  k2_product_timing product;         // what dispatch and the engine add (P->timing)
} k2_profile_call;

// Start a call's profile: pc->on when profiling is on.
void k2_profile_begin(k2_profile_call *pc);

// The seconds since the end of the last step into step s.
static inline void k2_profile_lap(k2_profile_call *pc, K2_ProfileStep s) {
  if (!pc->on) return;
  const double now = k2_clock_now();
  pc->seconds[s] += now - pc->mark;
  pc->touched |= UINT32_C(1) << s;
  pc->mark = now;
}

// P->timing for the call's dispatch: NULL when the call is not profiled.
static inline k2_product_timing *k2_profile_product(k2_profile_call *pc) {
  return pc->on ? &pc->product : NULL;
}

// After k2_dispatch_product: its steps into the call's; what it did not attribute stays "other".
void k2_profile_dispatched(k2_profile_call *pc);

// The call's total, and "other" = the total minus its steps, into the sums.
void k2_profile_end(k2_profile_call *pc);

// K2GRB_PROFILE=1 at K2_init: profiling on, and the table printed by k2_profile_finish (the last
// K2_finalize) or at exit.
void k2_profile_from_env(void);
void k2_profile_finish(void);

#endif
