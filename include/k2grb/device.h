// k2grb/device.h: see k2grb.h for the sections of the public API.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2GRB_DEVICE_H
#define K2GRB_DEVICE_H

#endif
