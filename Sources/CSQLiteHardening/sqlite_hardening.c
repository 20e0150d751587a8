#include "sqlite_hardening.h"

int sqlite_hardening_enable_defensive(sqlite3 *db) {
#ifdef SQLITE_DBCONFIG_DEFENSIVE
    int enabled = 0;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &enabled) != SQLITE_OK) return 0;
    return enabled;
#else
    (void)db;
    return 0;
#endif
}
