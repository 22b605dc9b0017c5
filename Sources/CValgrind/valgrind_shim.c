#include "valgrind_shim.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SB_HAVE_VALGRIND 1
#endif
#endif

#ifdef SB_HAVE_VALGRIND
int sb_valgrind_available(void) { return 1; }
int sb_running_on_valgrind(void) { return (int)RUNNING_ON_VALGRIND; }
void sb_callgrind_start(void) {
  CALLGRIND_ZERO_STATS;
  CALLGRIND_START_INSTRUMENTATION;
}
void sb_callgrind_stop(const char *tag) {
  CALLGRIND_STOP_INSTRUMENTATION;
  CALLGRIND_DUMP_STATS_AT(tag);
}
#else
int sb_valgrind_available(void) { return 0; }
int sb_running_on_valgrind(void) { return 0; }
void sb_callgrind_start(void) {}
void sb_callgrind_stop(const char *tag) { (void)tag; }
#endif

void sb_spin(uint64_t iterations) {
  for (volatile uint64_t i = 0; i < iterations; i++) {
  }
}
