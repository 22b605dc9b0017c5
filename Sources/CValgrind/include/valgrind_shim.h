#ifndef STOREBENCH_VALGRIND_SHIM_H
#define STOREBENCH_VALGRIND_SHIM_H
#include <stdint.h>

// Valgrind's client requests (valgrind/callgrind.h, Debian's valgrind package) are macros of inline assembly, which
// Swift cannot import: these wrappers are the whole shim. Outside valgrind every request does nothing; where the
// header is missing at build time, sb_valgrind_available() is 0 and the others do nothing.

/// 1 when the header was found at build time (the requests work under valgrind), else 0.
int sb_valgrind_available(void);

/// How many valgrinds this process runs under (0: natively).
int sb_running_on_valgrind(void);

/// Zeroes callgrind's counters, then switches its instrumentation on (CALLGRIND_ZERO_STATS,
/// CALLGRIND_START_INSTRUMENTATION): the events from here on are counted.
void sb_callgrind_start(void);

/// Switches callgrind's instrumentation off, then writes the counts since sb_callgrind_start to the next numbered
/// output file, whose description names `tag` (CALLGRIND_STOP_INSTRUMENTATION, CALLGRIND_DUMP_STATS_AT). The file
/// is complete when this returns.
void sb_callgrind_stop(const char *tag);

/// Runs a loop of `iterations` that the optimizer keeps, with a fixed number of instructions per iteration (the
/// test seam that plants extra instructions per operation).
void sb_spin(uint64_t iterations);

#endif
