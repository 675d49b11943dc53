#ifndef HEALTHETL_BUILD_STAMP_H
#define HEALTHETL_BUILD_STAMP_H

/// What this binary was built from, for `healthetl --version` and the run log: the git commit
/// (`abc123def456`, `-dirty` when the tree had changes) and the UTC build date (`2026-11-27`).
/// Set by the Makefile through HEALTHETL_COMMIT / HEALTHETL_BUILD_DATE (Package.swift turns
/// them into defines of this one C file, so a new commit relinks the binary and recompiles
/// nothing else); "unknown" when built without them.
const char *healthetl_build_commit(void);
const char *healthetl_build_date(void);

#endif
