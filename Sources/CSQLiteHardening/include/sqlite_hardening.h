#ifndef SQLITE_HARDENING_H
#define SQLITE_HARDENING_H

#include <sqlite3.h>

/// Turns on SQLite's defensive mode for one connection (SQLITE_DBCONFIG_DEFENSIVE): no writable
/// schema, no direct writes to shadow tables, no journal-mode tricks that could corrupt the file
/// from SQL. Returns 1 when defensive mode is on afterwards, 0 when this SQLite lacks it or
/// refused. (sqlite3_db_config is variadic, so Swift cannot call it directly.)
int sqlite_hardening_enable_defensive(sqlite3 *db);

#endif
