// k2grb/experimental.h: tuning knobs of the CUDA engine, for measurements and comparisons.
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

#endif
