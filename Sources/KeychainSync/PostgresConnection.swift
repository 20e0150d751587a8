import CLibPQ
import Foundation
import KeychainCore
import SecureStorageFoundation

/// One connection to the sync server through libpq, used by one thread at a time.
///
/// Every statement is sent with `PQsendQueryParams`: parameters travel apart from the SQL text
/// (no quoting, no injection) and in binary, and results come back in binary. The connection
/// does not block in libpq: it waits for its socket with `poll(2)`, so a statement the server
/// does not answer within ``statementDeadline`` fails instead of blocking for ever (libpq's
/// `connect_timeout` covers only the connection's setup, and TCP keepalives do not help
/// against a peer that is alive but silent, nor on a Unix socket).
final class PostgresConnection {
    /// How long one statement may wait for the server's answer by default: 30 seconds, far
    /// longer than any statement of a sync round takes on a server that answers.
    static let defaultStatementDeadline: Duration = .seconds(30)

    private let connection: OpaquePointer
    /// How long each statement may wait for the server's answer.
    let statementDeadline: Duration
    /// Set when a statement timed out: the connection was shut down and is not used again.
    private var timedOut = false

    /// Connects with a libpq connection string (`host=/run/postgresql dbname=keychain` or a
    /// `postgresql://` URI). A password belongs in `~/.pgpass` or `PGPASSWORD`, not in the string
    /// when the string is shown anywhere. The server's notices are printed made safe
    /// (``ServerNotice``). Each statement may then wait `statementDeadline` for its answer.
    ///
    /// - Throws: ``SyncError/Code/serverUnreachable`` with libpq's reason.
    init(_ connectionString: String, statementDeadline: Duration = PostgresConnection.defaultStatementDeadline)
        throws(SyncError)
    {
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
        // Sending never blocks either: what the socket does not take at once is flushed by
        // `send(until:)`, which waits with the statement's deadline.
        guard PQsetnonblocking(connection, 1) == 0 else {
            let reason = PrintableText.sanitized(Self.message(connection), limit: 200)
            PQfinish(connection)
            throw SyncError.connectionFailed(reason: reason)
        }
        ServerNotice.install(on: connection)
        self.connection = connection
        self.statementDeadline = statementDeadline
    }

    deinit { PQfinish(connection) }

    /// Runs one statement and returns its rows (none for a command).
    ///
    /// - Throws: ``SyncError/Code/serverUnreachable`` when the connection is gone or the server
    ///   did not answer within ``statementDeadline`` (the connection is then shut down and every
    ///   later statement fails at once); ``SyncError/Code/serverRejected`` with the server's SQLSTATE otherwise.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(SyncError) -> PostgresRows {
        guard !timedOut else { throw SyncError.statementTimedOut(seconds: Self.seconds(statementDeadline)) }
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
        let deadline = ContinuousClock.now.advanced(by: statementDeadline)
        let pointers: [UnsafePointer<CChar>?] = buffers.map { UnsafePointer($0) }
        guard PQsendQueryParams(connection, sql, Int32(parameters.count), types, pointers, lengths, formats, 1) == 1
        else {
            throw SyncError.connectionLost(reason: PrintableText.sanitized(Self.message(connection), limit: 200))
        }
        try send(until: deadline)
        let result = try lastResult(until: deadline)
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

    /// Sends what libpq still buffers of the statement, waiting for the socket until `deadline`.
    private func send(until deadline: ContinuousClock.Instant) throws(SyncError) {
        while true {
            let pending = PQflush(connection)
            if pending == 0 { return }
            guard pending > 0 else {
                throw SyncError.connectionLost(reason: PrintableText.sanitized(Self.message(connection), limit: 200))
            }
            // libpq asks to read while waiting to write, so the server can never block on us.
            let ready = try waitForSocket(Int16(POLLIN) | Int16(POLLOUT), until: deadline)
            if ready & Int16(POLLIN) != 0 { try consumeInput() }
        }
    }

    /// The statement's result, read as the socket becomes readable until `deadline`: the last
    /// one libpq returns, or the first error among them (as `PQexec` answers).
    private func lastResult(until deadline: ContinuousClock.Instant) throws(SyncError) -> OpaquePointer {
        var kept: OpaquePointer?
        do {
            while true {
                while PQisBusy(connection) == 1 {
                    _ = try waitForSocket(Int16(POLLIN), until: deadline)
                    try consumeInput()
                }
                guard let next = PQgetResult(connection) else { break }
                if let previous = kept, PQresultStatus(previous) == PGRES_FATAL_ERROR {
                    PQclear(next)
                } else {
                    if let previous = kept { PQclear(previous) }
                    kept = next
                }
            }
        } catch {
            if let kept { PQclear(kept) }
            throw error
        }
        guard let kept else {
            throw SyncError.connectionLost(reason: PrintableText.sanitized(Self.message(connection), limit: 200))
        }
        return kept
    }

    /// Reads what arrived on the socket into libpq's buffer.
    private func consumeInput() throws(SyncError) {
        guard PQconsumeInput(connection) == 1 else {
            throw SyncError.connectionLost(reason: PrintableText.sanitized(Self.message(connection), limit: 200))
        }
    }

    /// Waits until the socket is ready for `events` and returns the events it is ready for.
    /// At `deadline` the connection is shut down (the server ends its session, rolling back an
    /// open transaction) and the statement fails.
    private func waitForSocket(_ events: Int16, until deadline: ContinuousClock.Instant) throws(SyncError) -> Int16 {
        let descriptor = PQsocket(connection)
        guard descriptor >= 0 else {
            throw SyncError.connectionLost(reason: PrintableText.sanitized(Self.message(connection), limit: 200))
        }
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                timedOut = true
                _ = shutdown(descriptor, Int32(SHUT_RDWR))
                throw SyncError.statementTimedOut(seconds: Self.seconds(statementDeadline))
            }
            var watched = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&watched, 1, Self.milliseconds(remaining))
            if ready > 0 { return watched.revents }
            if ready < 0 && errno != EINTR {
                throw SyncError.connectionLost(reason: String(cString: strerror(errno)))
            }
        }
    }

    /// `duration` in whole milliseconds, rounded up, for `poll(2)`.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(milliseconds, 1))
    }

    /// `duration` in whole seconds, rounded up, for messages.
    private static func seconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
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
        try consumeInput()
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
