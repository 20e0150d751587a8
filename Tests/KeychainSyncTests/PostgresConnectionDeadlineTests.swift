#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
@testable import KeychainSync
import XCTest

/// A statement the server never answers fails after the connection's deadline instead of
/// blocking for ever, and the connection still reads `LISTEN` notifications.
final class PostgresConnectionDeadlineTests: SyncTestCase {
    func testAStatementTheServerDoesNotAnswerFailsAtItsDeadline() throws {
        let proxy = try DroppingListenProxy(upstreamDirectory: postgres.directory, dropsListen: false)
        defer { proxy.stop() }
        let server = postgres.connectionString.replacingOccurrences(
            of: "host=\(postgres.directory.path)", with: "host=\(proxy.directory)")
        let connection = try PostgresConnection(server, statementDeadline: .seconds(1))
        XCTAssertEqual(
            try connection.execute("SELECT (41 + 1)::bigint").int64(0, 0), 42, "answered statements run as before")
        proxy.stalls = true
        let started = Date()
        XCTAssertThrowsError(try connection.execute("SELECT 1")) { error in
            XCTAssertEqual((error as? SyncError)?.code, .serverUnreachable)
            XCTAssertEqual(
                (error as? SyncError)?.message,
                "The sync server did not answer within 1 s; the connection was closed.")
        }
        let waited = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(waited, 0.9)
        XCTAssertLessThan(waited, 5, "the statement waited \(waited) s")
        let again = Date()
        XCTAssertThrowsError(try connection.execute("SELECT 1")) { error in
            XCTAssertEqual((error as? SyncError)?.code, .serverUnreachable)
        }
        XCTAssertLessThan(Date().timeIntervalSince(again), 0.5, "a timed-out connection is not used again")
    }

    func testTheDefaultDeadlineIsThirtySeconds() {
        XCTAssertEqual(PostgresConnection.defaultStatementDeadline, .seconds(30))
    }

    func testNotificationsAreStillRead() throws {
        let connection = try PostgresConnection(postgres.connectionString)
        try connection.execute("LISTEN \(SyncServer.channel)")
        try postgres.psql("NOTIFY \(SyncServer.channel), 'review36-payload'")
        var payloads: [String] = []
        let deadline = Date().addingTimeInterval(10)
        while payloads.isEmpty && Date() < deadline {
            var watched = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&watched, 1, 200)
            payloads += try connection.notifications()
        }
        XCTAssertEqual(payloads, ["review36-payload"])
    }
}
