/* fuzz_pt.c — libFuzzer target for torch.save (.pt) archives: libzip and the pickle reader (see
 * fuzz_targets.h; built by `make fuzz`). */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_pt(data, size);
    return 0;
}
