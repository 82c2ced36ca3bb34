// k2grb/experimental.h: tuning knobs of the CUDA engine and the products' per-step profile, for
// measurements and comparisons.
// SPDX-License-Identifier: Apache-2.0
//
// Not a stable promise: anything here may change or go without notice, in any release. A
// program that only needs correct, fast products leaves these alone (the defaults are what
// docs/benchmarks.md measures); what it may rely on is in device.h. Like device.h, every call
// here answers without a CUDA build or a GPU: the setters check and keep their values, which
// then have no effect.
#ifndef K2GRB_EXPERIMENTAL_H
#define K2GRB_EXPERIMENTAL_H

#ifndef K2GRB_H
#error "include <k2grb.h>"
#endif

// Tile size M: at most M children per tile and level (16 <= M <= 2^30, default 2^20). A smaller
// tile holds less scratch on the device and takes more launches.
GrB_Info K2_Device_setTileSize(GrB_Index M);
GrB_Info K2_Device_getTileSize(GrB_Index *M);

// Where the first child of a node comes from.
typedef enum {
  K2_OFFSETS_AUTO = 0,     // directory for single vectors, scan for batches (the default)
  K2_OFFSETS_DIRECTORY,    // the sampled directory (one sample every 2^directory_log nodes)
  K2_OFFSETS_SCAN          // a CUB exclusive scan of the fan-outs of each tile
} K2_DeviceOffsets;
GrB_Info K2_Device_setOffsets(K2_DeviceOffsets source);
GrB_Info K2_Device_getOffsets(K2_DeviceOffsets *source);

// Record single-vector launch sequences as CUDA graphs and replay them (default true).
GrB_Info K2_Device_setGraphs(bool enable);

// Fused levels: products on a tree-only copy (K2_DEVICE_TREE_ONLY) with directory offsets
// expand two levels per launch, the level between staged in shared memory and never stored:
// fewer launches and less scratch (default true). false: one level per launch.
GrB_Info K2_Device_setFusion(bool enable);
GrB_Info K2_Device_getFusion(bool *enable);

// The traversal of a single-vector product pruned by its input and its mask: a node is visited
// only when its input range holds a present entry and its output range an output the mask
// allows (a BFS frontier, the unvisited vertices of a pull). AUTO (the default) chooses per
// product from the counts of inputs and allowed outputs against the tree's levels; NEVER walks
// the whole tree; ALWAYS prunes whenever the product has an input presence or a mask (for
// comparisons and tests). Results are the same in every mode.
typedef enum {
  K2_PRUNING_AUTO = 0,
  K2_PRUNING_NEVER,
  K2_PRUNING_ALWAYS
} K2_DevicePruning;
GrB_Info K2_Device_setPruning(K2_DevicePruning mode);
GrB_Info K2_Device_getPruning(K2_DevicePruning *mode);

// ---- per-step profile of the products ---------------------------------------------------------
// Where the time of K2_mxv, K2_vxm and the dense products (K2_dense_mxv, _vxm, _mxm) goes, from
// entry to return, summed over the calls of every thread. Off by default: a call then reads
// one flag and no clock. On, each step reads the clock twice, and a GPU product waits for its
// stream at the end of each step (copies up, kernels, copies down), so that each step's time is
// its own: a profiled GPU product takes a few microseconds more than an unprofiled one.
// K2GRB_PROFILE=1 turns it on at K2_init and prints the table (K2_Profile_print) on stderr at
// the last K2_finalize, or at exit without one.
typedef enum {
  K2_PROFILE_VALIDATE = 0,  // the arguments' checks, the semiring's classification, the choice
                            // between the native path and SuiteSparse
  K2_PROFILE_INPUT,         // u read from GraphBLAS: a dense array (typecast) or its entries
                            // scattered into the thread's workspace, and released after
  K2_PROFILE_MASK,          // the mask read from GraphBLAS into skip bytes
  K2_PROFILE_PLAN,          // the result's arrays and workspace, cached occupancy or degrees,
                            // dispatch (pending edits, the engine's choice and per-matrix state:
                            // the tree's upload on a first GPU product), the GPU's tile plan
  K2_PROFILE_H2D,           // GPU: copies to the device (an input list's rebuild there included)
  K2_PROFILE_KERNEL,        // the product: a CPU engine's traversal, the GPU's kernels from the
                            // first launch to their completion, or the cached degrees' fill
  K2_PROFILE_D2H,           // GPU: copies back to the host (a listed result's scatter included)
  K2_PROFILE_PACK,          // the result into a GrB_Vector (listed outputs compacted, packed)
  K2_PROFILE_APPLY,         // GraphBLAS's w<mask> = accum (w, T) (not when T moves into w)
  K2_PROFILE_FALLBACK,      // a product SuiteSparse runs (a semiring or type not native)
  K2_PROFILE_OTHER,         // the rest of each call: its total minus the steps above
  K2_PROFILE_STEPS
} K2_ProfileStep;

typedef struct {
  uint64_t calls;                      // product calls profiled (failed ones too)
  double total;                        // their seconds from entry to return
  double seconds[K2_PROFILE_STEPS];    // per step; they add up to total
  uint64_t count[K2_PROFILE_STEPS];    // calls that went through the step (OTHER: every call)
  double kernel_device;                // part of KERNEL: the GPU's own time between two events
                                       // around the kernels, without launches and waits
  uint64_t device_calls;               // calls timed on the GPU
} K2_Profile;

GrB_Info K2_Profile_enable(bool enable);
GrB_Info K2_Profile_enabled(bool *enable);
// Zero the sums (profiling stays on or off).
GrB_Info K2_Profile_reset(void);
// The sums since the last reset; with profiling off they stay as they were.
GrB_Info K2_Profile_get(K2_Profile *profile);
// "validate", "input", "mask", "plan", "h2d", "kernel", "d2h", "pack", "apply", "fallback",
// "other"; NULL for a value out of range.
const char *K2_Profile_stepName(K2_ProfileStep step);
// A table of the steps (calls, milliseconds, microseconds per call, share of the total).
GrB_Info K2_Profile_print(FILE *f, const K2_Profile *profile);

#endif
