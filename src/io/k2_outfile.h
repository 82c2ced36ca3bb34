// k2_outfile.h: the K2_OutFile object behind K2_OutFile_open / commit / discard (internal).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_OUTFILE_H
#define K2_OUTFILE_H

#include <stdio.h>

#include <k2grb.h>

// A stream on a temporary beside path; *file and *stream are written only on success.
GrB_Info k2_outfile_open(K2_OutFile *file, FILE **stream, const char *path);
// Flush and close the stream, then rename the temporary over path (any write error: the
// target is left as it was). Frees f in every case.
GrB_Info k2_outfile_commit(K2_OutFile f);
// Close the stream and remove the temporary; the target is left as it was. Frees f.
void k2_outfile_discard(K2_OutFile f);

#endif
