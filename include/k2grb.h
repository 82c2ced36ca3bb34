// k2grb.h: the public API of k2grb.
// SPDX-License-Identifier: Apache-2.0
//
// k2grb stores Boolean sparse matrices (graph adjacency matrices) as k²-trees and multiplies
// them by vectors over semirings, behind an API shaped after GraphBLAS (SuiteSparse:GraphBLAS
// 7.4). Every call returns a GrB_Info. Include this after (or instead of) GraphBLAS.h.
//
// Sections, one header each under k2grb/:
//   matrix.h   the K2_Matrix object: build, query, serialize, memory accounting
//   engine.h   engine selection and the dense products (y = A x, y' = x' A, Y = A X)
//   io.h       graph file readers, writers and generators
//   ops.h      GraphBLAS-semantics products (K2_mxv, K2_vxm, K2_mxm) and the SuiteSparse bridge
//   device.h   the CUDA engine's settings (residency, memory budget)
//   experimental.h  tuning knobs of the CUDA engine: not a stable promise, may change or go
//              without notice
#ifndef K2GRB_H
#define K2GRB_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "k2grb/version.h"  // generated from the CMake project's version

#include "k2grb/matrix.h"
#include "k2grb/engine.h"
#include "k2grb/io.h"
#include "k2grb/gen.h"
#include "k2grb/ops.h"
#include "k2grb/device.h"
#include "k2grb/experimental.h"

#endif
