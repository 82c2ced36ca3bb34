// k2grb/device.h: the CUDA engine's settings (residency, configuration, memory budget). Its
// tuning knobs (tile size, offsets source, CUDA graphs, fused levels) are in experimental.h.
// SPDX-License-Identifier: Apache-2.0
//
// A matrix is copied to the GPU once (K2_Matrix_upload, or lazily by its first GPU product) and
// stays there until it is freed or changes. Every device byte of a product is known before it
// runs (K2_Matrix_deviceBytes): the resident matrix, the scratch of its tile plan and the
// device copies of the vectors. A product that would exceed the budget is declined: it runs on
// the CPU, or fails in strict mode (K2_set_strict). Without a CUDA build or a GPU every call
// here still answers: K2_Device_available says false and uploads return GrB_NOT_IMPLEMENTED.
#ifndef K2GRB_DEVICE_H
#define K2GRB_DEVICE_H

#ifndef K2GRB_H
#error "include <k2grb.h>"
#endif

// How much of the traversal a matrix keeps on the device.
typedef enum {
  K2_DEVICE_AUTO = -1,     // the default configuration (K2_Device_setConfig); unless set,
                           // BOTTOM if the matrix's format caches the bottom codes, else TREE_ONLY
  K2_DEVICE_TREE_ONLY = 0, // tree + directory + top codes ("k²"); the scratch is per product
  K2_DEVICE_BOTTOM = 1,    // also the bottom codes, the Morton codes of the last internal level
                           // ("k²+B", 8 bytes per node of that level): a single-vector product
                           // is one kernel
  K2_DEVICE_ROWS = 2       // only the last internal level, decoded into its 4x4 blocks and
                           // sorted by block row ("k²+R", 10 bytes per node of that level, no
                           // tree on the device): right products sum each row in registers
                           // instead of one atomic per block; left products scatter to the
                           // columns. Trees with 2x2 leaves (the default) only; others decline.
} K2_DeviceConfig;

// true if the library was built with CUDA and a GPU is usable.
GrB_Info K2_Device_available(bool *present);

// Device bytes one product may hold (matrix + scratch + vectors); 0 = no limit (default).
GrB_Info K2_Device_setBudget(GrB_Index bytes);
GrB_Info K2_Device_getBudget(GrB_Index *bytes);
// The configuration a matrix gets when its first GPU product uploads it (or K2_Matrix_upload(A,
// K2_DEVICE_AUTO) does): K2_DEVICE_AUTO (the default: BOTTOM if the format caches the
// bottom codes, else TREE_ONLY) or a configuration. ROWS applies to trees with 2x2 leaves; others
// get the AUTO rule. Matrices already on the device keep their copy. The environment variable
// K2GRB_DEVICE_CONFIG (tree, bottom, rows or auto; "frontier", the old name of bottom, is
// still read) sets it at K2_init.
GrB_Info K2_Device_setConfig(K2_DeviceConfig config);
GrB_Info K2_Device_getConfig(K2_DeviceConfig *config);

// Copy A to the device in a configuration (replacing a copy in another configuration).
GrB_Info K2_Matrix_upload(K2_Matrix A, K2_DeviceConfig config);
// Drop A's device copy (the next GPU product uploads it again).
GrB_Info K2_Matrix_deviceRelease(K2_Matrix A);

// Flags of K2_Matrix_deviceBytes: which optional byte arrays the product carries.
#define K2_DEVICE_X_PRESENT 1u  // a sparse input vector (presence bytes)
#define K2_DEVICE_Y_PRESENT 2u  // the output's presence bytes
#define K2_DEVICE_Y_SKIP 4u     // a mask (rows not needed)

typedef struct {
  uint64_t matrix;   // the resident copy of A
  uint64_t scratch;  // level buffers, scan offsets and CUB temporary of the tile plan
  uint64_t vectors;  // x, y (batch columns each) and the flagged byte arrays
  uint64_t total;    // matrix + scratch + vectors
  uint64_t tiles;    // launches of the traversal (after the initialisation of y)
} K2_DeviceBytes;

// The exact device bytes of one product of A, before it runs: configuration, value type
// (GrB_BOOL, GrB_INT32, GrB_INT64, GrB_FP32, GrB_FP64), batch width B (1..256), right (y = A x)
// or left (y' = x' A), flags as above. Uses the current tile size, offsets source and fusion
// (experimental.h).
GrB_Info K2_Matrix_deviceBytes(K2_DeviceBytes *bytes, K2_Matrix A, K2_DeviceConfig config,
                               GrB_Type type, GrB_Index batch, bool left, unsigned flags);

// What the engine holds on the device now (resident matrices + the shared workspace), the peak
// since K2_Device_resetPeak, and the number of live allocations (0 once all is freed).
typedef struct {
  uint64_t allocated;
  uint64_t peak;
  uint64_t allocations;
} K2_DeviceMemory;
GrB_Info K2_Device_memory(K2_DeviceMemory *memory);
GrB_Info K2_Device_resetPeak(void);
// Free the shared workspace (scratch and vector buffers; the next product allocates it again).
GrB_Info K2_Device_trim(void);

#endif
