// libfuse 3 (Debian: libfuse3-dev), high-level API version 3.1.
#define FUSE_USE_VERSION 31
#include <fuse.h>
