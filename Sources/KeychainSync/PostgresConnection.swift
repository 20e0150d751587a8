import CLibPQ
import Foundation
import KeychainCore

/// One connection to the sync server through libpq, used by one thread at a time.
///
/// Every statement is sent with `PQexecParams`: parameters travel apart from the SQL text (no
/// quoting, no injection) and in binary, and results come back in binary.
final class PostgresConnection {
    private let connection: OpaquePointer

    /// Connects with a libpq connection string (`host=/run/postgresql dbname=keychain` or a
    /// `postgresql://` URI). A password belongs in `~/.pgpass` or `PGPASSWORD`, not in the string
    /// when the string is shown anywhere. The server's notices are printed made safe
    /// (``ServerNotice``).
    ///
    /// - Throws: ``SyncError/Code/serverUnreachable`` with libpq's reason.
    init(_ connectionString: String) throws(SyncError) {
        guard clibpq_load() == 1 else {
            throw SyncError.serverLibraryUnavailable(String(cString: clibpq_load_error()))
        }
        guard let connection = PQconnectdb(connectionString) else {
            throw SyncError.connectionOutOfMemory
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = ConnectionErrorText.safe(Self.message(connection), connectionString: connectionString)
            PQfinish(connection)
            throw SyncError.connectionFailed(reason: reason)
        }
        ServerNotice.install(on: connection)
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    /// Runs one statement and returns its rows (none for a command).
    ///
    /// - Throws: ``SyncError/Code/serverUnreachable`` when the connection is gone;
    ///   ``SyncError/Code/serverRejected`` with the server's SQLSTATE otherwise.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(SyncError) -> PostgresRows {
        let types = parameters.map(\.typeOID)
        let values = parameters.map(\.binary)
        let lengths = values.map { Int32($0.count) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        // Each value's bytes stay alive (and non-empty, so never a null pointer for SQL NULL)
        // for the call.
        let buffers = values.map { bytes -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBufferPointer { source in
                source.withMemoryRebound(to: CChar.self) { buffer.update(from: $0.baseAddress!, count: bytes.count) }
            }
            return buffer
        }
        defer {
            for (buffer, bytes) in zip(buffers, values) {
                buffer.update(repeating: 0, count: max(bytes.count, 1))
                buffer.deallocate()
            }
        }
        let pointers: [UnsafePointer<CChar>?] = buffers.map { UnsafePointer($0) }
        let result = PQexecParams(connection, sql, Int32(parameters.count), types, pointers, lengths, formats, 1)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return PostgresRows(rows: [])
        case PGRES_TUPLES_OK:
            var rows: [[Data?]] = []
            let rowCount = PQntuples(result)
            let columnCount = PQnfields(result)
            rows.reserveCapacity(Int(rowCount))
            for row in 0..<rowCount {
                var columns: [Data?] = []
                for column in 0..<columnCount {
                    if PQgetisnull(result, row, column) == 1 {
                        columns.append(nil)
                    } else {
                        columns.append(
                            Data(bytes: PQgetvalue(result, row, column), count: Int(PQgetlength(result, row, column))))
                    }
                }
                rows.append(columns)
            }
            return PostgresRows(rows: rows)
        default:
            if PQstatus(connection) != CONNECTION_OK {
                throw SyncError.connectionLost(reason: PrintableText.sanitized(Self.message(connection), limit: 200))
            }
            let state = PrintableText.sanitized(
                PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "?", limit: 5)
            let primary = PrintableText.sanitized(
                PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                    ?? Self.message(connection), limit: 200)
            throw SyncError.statementRefused(sqlState: state, reason: primary)
        }
    }

    /// Runs `body` in one transaction (`BEGIN` with `mode`), committed when it returns and
    /// rolled back when it throws.
    func transaction<T>(_ mode: String = "", _ body: () throws(SyncError) -> T) throws(SyncError) -> T {
        try execute("BEGIN \(mode)")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// The socket libpq reads notifications from, for waiting on `LISTEN` channels.
    var socket: Int32 { PQsocket(connection) }

    /// Reads what arrived on the socket and returns the payloads of the notifications received
    /// since the last call.
    func notifications() throws(SyncError) -> [String] {
        guard PQconsumeInput(connection) == 1 else {
            throw SyncError.connectionLost(reason: PrintableText.sanitized(Self.message(connection), limit: 200))
        }
        var payloads: [String] = []
        while let notification = PQnotifies(connection) {
            payloads.append(notification.pointee.extra.map { String(cString: $0) } ?? "")
            PQfreemem(notification)
        }
        return payloads
    }

    private static func message(_ connection: OpaquePointer) -> String {
        String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
