// k2_version.c: the library's version (CMake's project version, through k2grb/version.h).
// SPDX-License-Identifier: Apache-2.0
#include <k2grb.h>

GrB_Info K2_version(int *major, int *minor, int *patch) {
  if (major != NULL) *major = K2GRB_VERSION_MAJOR;
  if (minor != NULL) *minor = K2GRB_VERSION_MINOR;
  if (patch != NULL) *patch = K2GRB_VERSION_PATCH;
  return GrB_SUCCESS;
}
