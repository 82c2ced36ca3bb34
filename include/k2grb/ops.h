// k2grb/ops.h: see k2grb.h for the sections of the public API.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2GRB_OPS_H
#define K2GRB_OPS_H

#endif
