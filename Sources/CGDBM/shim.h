#include <gdbm.h>

// Swift 6 rejects reading the C global `gdbm_version`, and `gdbm_errno` is a macro: expose both.
static inline const char *cgdbm_version(void) { return gdbm_version; }
static inline int cgdbm_errno(void) { return gdbm_errno; }
static inline void cgdbm_clear_errno(void) { gdbm_errno = GDBM_NO_ERROR; }
