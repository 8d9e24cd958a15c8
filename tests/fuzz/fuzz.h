/* libFuzzer targets for saturn's input parsers (docs/RELIABILITY.md).
 *
 * Each target defines LLVMFuzzerTestOneInput. It is built twice: against
 * clang's libFuzzer when CMake's SATURN_FUZZ is on (scripts/fuzz.sh runs
 * them), and against replay.c's main with any compiler, which feeds it the
 * committed corpus (tests/fuzz/corpus/TARGET/) in the test suite. Besides
 * "no crash, no leak, no sanitizer report", a target checks what the
 * parser promises (errors are input errors naming file and line, values
 * survive a round trip) and aborts with a message when a promise breaks. */
#ifndef SATURN_FUZZ_H
#define SATURN_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A path whose file holds the bytes (an in-memory file, one per slot 0-3,
 * rewritten on each call): the parsers read paths, as saturn does. */
const char *fuzz_file(int slot, const void *data, size_t size);

/* Aborts with "fuzz: promise broken: what (detail)" unless ok. */
void fuzz_require(bool ok, const char *what, const char *detail);

/* True when msg starts with "PATH:LINE: ", LINE >= 1 and at most lines. */
bool fuzz_names_line(const char *msg, const char *path, int lines);

/* Lines in the bytes as saturn counts them ("\n", "\r\n" or a lone "\r" end one). */
int fuzz_count_lines(const uint8_t *data, size_t size);

#endif
