// Preloaded (LD_PRELOAD) with Debian's SQLCipher 3.4 into the benchmark's SQLCipher child process
// only (SealedColumnBenchmarks+SQLCipher.swift), never into the process that measures plain GRDB.
// SQLCipher 3.4 is SQLite 3.15, which lacks sqlite3_prepare_v3 (SQLite 3.20), the one function
// GRDB calls on every statement that it does not export: without this, GRDB's call would reach
// the system SQLite's sqlite3_prepare_v3 with SQLCipher's connection. The flags only hint at a
// statement's lifetime (SQLITE_PREPARE_PERSISTENT), so sqlite3_prepare_v2 prepares the same
// statement. sqlite3_prepare_v2 resolves, at run time, to the preloaded SQLCipher.
#include "sqlcipher_shim.h"

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;

int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail);

int sqlite3_prepare_v3(
    sqlite3 *db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement, const char **tail) {
    (void)flags;
    return sqlite3_prepare_v2(db, sql, bytes, statement, tail);
}

int sqlcipher_shim_loaded(void) { return 1; }
