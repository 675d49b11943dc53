#include <sqlite3.h>

/// Turns off SQLite's memory statistics, which take a global mutex on every allocation
/// (a bulk load allocates per row). `sqlite3_config` is variadic, which Swift cannot call.
/// Only effective before the first connection is opened.
static inline int healthetl_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// `sqlite3_db_config` with one int setting (it is variadic, which Swift cannot call).
static inline int healthetl_sqlite3_db_config_int(sqlite3 *db, int op, int value) {
    int now = -1;
    return sqlite3_db_config(db, op, value, &now);
}
