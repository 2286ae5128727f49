/* fuzz_format.c — the libFuzzer target of one row of the format table (src/data/formats.c):
 * mk/fuzz.mk builds it once per row as build/fuzz/fuzz_NAME with -DFZ_FORMAT='"NAME"' (see
 * fuzz_targets.h's fz_format). */
#include "fuzz_targets.h"

#ifndef FZ_FORMAT
#error "build with -DFZ_FORMAT='\"npy\"' (a row name of src/data/formats.c), as mk/fuzz.mk does"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ld_format *f;
    if (!f) f = ld_fmt_named(FZ_FORMAT);
    fz_assert(f != NULL);
    fz_format(f, data, size);
    return 0;
}
