#include "BuildStamp.h"

// The defines are bare tokens (Package.swift keeps them to [0-9A-Za-z.-]), made strings here,
// so no quoting passes through the build system.
#define HEALTHETL_STRING_(x) #x
#define HEALTHETL_STRING(x) HEALTHETL_STRING_(x)

#ifndef HEALTHETL_COMMIT
#define HEALTHETL_COMMIT unknown
#endif
#ifndef HEALTHETL_BUILD_DATE
#define HEALTHETL_BUILD_DATE unknown
#endif

const char *healthetl_build_commit(void) { return HEALTHETL_STRING(HEALTHETL_COMMIT); }
const char *healthetl_build_date(void) { return HEALTHETL_STRING(HEALTHETL_BUILD_DATE); }
