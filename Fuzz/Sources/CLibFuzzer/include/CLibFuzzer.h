// libFuzzer's documented entry for programs that own `main` (llvm.org/docs/LibFuzzer.html,
// "Using libFuzzer as a library"): it parses libFuzzer's flags from argc/argv and calls
// `callback` for every input. The definition comes from -sanitize=fuzzer's runtime.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
