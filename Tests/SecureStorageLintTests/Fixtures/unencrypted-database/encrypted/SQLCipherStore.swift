import SQLCipher

// A database keyed with SQLCipher's PRAGMA key.
func openKeyed(db: OpaquePointer?, password: String, statement: OpaquePointer?) {
    sqlite3_exec(db, "PRAGMA key = 'x'", nil, nil, nil)
    sqlite3_bind_text(statement, 1, password, -1, nil)
    sqlite3_exec(db, "INSERT INTO users (name, password) VALUES ('a', 'b')", nil, nil, nil)
}
