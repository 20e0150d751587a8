// libpq is linked, not wrapped: this file only gives SwiftPM a C target to build.
#include "CLibPQ.h"
