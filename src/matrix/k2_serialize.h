// k2_serialize.h: .k2 images in memory and in files (internal; docs/k2-format.md).
// SPDX-License-Identifier: Apache-2.0
//
// Behind K2_Matrix_serializeSize / serialize / deserialize / save / load (src/api/k2_files.c),
// which check the arguments and the handle. An image is checked whole before a matrix is made
// of it; a new matrix is written to *A only on success.
#ifndef K2_SERIALIZE_H
#define K2_SERIALIZE_H

#include <k2grb.h>

// Bytes of A's image (pending edits assembled first).
GrB_Info k2_serialize_size(GrB_Index *size, K2_Matrix A);
// A's image into blob, which holds *size bytes (GrB_INSUFFICIENT_SPACE, recorded on A, when
// that is too few); *size receives the image's bytes.
GrB_Info k2_serialize_image(void *blob, GrB_Index *size, K2_Matrix A);
// A new matrix from an image of `size` bytes (copied: blob is not kept).
GrB_Info k2_serialize_read(K2_Matrix *A, const void *blob, GrB_Index size);
// A's image into the file at path, replacing it whole or not at all.
GrB_Info k2_serialize_save(K2_Matrix A, const char *path);
// A new matrix from the .k2 file at path (messages name "K2_Matrix_load: <path>").
GrB_Info k2_serialize_load(K2_Matrix *A, const char *path);

#endif
