import SQLite3

// Apple's SQLite has no codec: `PRAGMA key` is ignored and the database stays in the clear.
func openKeyedSystemSQLite(db: OpaquePointer?, password: String, statement: OpaquePointer?) {
    sqlite3_exec(db, "PRAGMA key = 'x'", nil, nil, nil)
    sqlite3_bind_text(statement, 1, password, -1, nil) // expect: unencrypted-database
}
