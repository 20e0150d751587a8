#ifndef FUZZER_DRIVER_H
#define FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs with their own main (compiler-rt, LLVM 11 and later). Only
/// linked in builds with -sanitize=fuzzer (scripts/fuzz), where FUZZING is defined.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
