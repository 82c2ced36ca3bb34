// k2_dispatch.h: choose an engine for a product and run it (internal).
// SPDX-License-Identifier: Apache-2.0
//
// The public API (src/api) and the GraphBLAS bridge (src/bridge) call k2_dispatch_product; it
// assembles pending edits, takes a view of the tree and tries the engines in order (CUDA when
// selected or AUTO with a device, then OpenMP, with the reference engine on request), honouring
// strict mode.
#ifndef K2_DISPATCH_H
#define K2_DISPATCH_H

#include <k2grb.h>

#include "engine/k2_kernels.h"

// Run P on A. The caller fills every field of P but the view. Returns GrB_SUCCESS or an error
// (never K2_DECLINED); *ran (may be NULL) receives the engine that ran it (also the thread's
// K2_last_engine).
GrB_Info k2_dispatch_product(K2_Matrix A, const k2_product *P, K2_Engine *ran);

// Whether a full single-vector product of A would run on the GPU: the CUDA engine chosen and a
// device present, or AUTO with a device and A too large for the host rule (k2_dispatch.c).
bool k2_dispatch_device_serves(K2_Matrix A);

// The engine choice (AUTO: the GPU when present), strict mode, and the engine that ran the
// calling thread's last product.
void k2_dispatch_set_choice(K2_Engine engine);
K2_Engine k2_dispatch_choice(void);
void k2_dispatch_set_strict(bool strict);
// The CPU engine's traversal of single vectors (k2_omp_set_traversal): for comparing them.
void k2_dispatch_set_cpu_traversal(int mode);
K2_Engine k2_dispatch_last(void);
// Products outside k2_dispatch_product (on device vectors) record their engine here.
void k2_dispatch_set_last(K2_Engine engine);
bool k2_dispatch_strict(void);

#endif
