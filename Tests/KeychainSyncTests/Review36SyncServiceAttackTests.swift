#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Review of the i36 restructuring, (5): the rewritten background sync (SyncService and its
/// state machine) facing a hostile sync server — or anything between the device and the server
/// (a proxy, a connection pooler, `idle_session_timeout`) — that drops the `LISTEN` connection
/// as soon as it is made.
final class Review36SyncServiceAttackTests: SyncTestCase {
    /// Reproduction: the device syncs through a "server" (here a Unix-socket proxy in front of
    /// the test PostgreSQL) that answers `LISTEN` and then closes that one connection at once;
    /// everything else is forwarded faithfully, so every round succeeds. Nothing changes
    /// anywhere, and the poll interval is an hour.
    ///
    /// Secure behaviour: a lost listener is reconnected with a backoff, and its loss makes at
    /// most one catch-up round per backoff period, so a server that keeps dropping it cannot
    /// make the device run rounds back to back. (The old BackgroundSync loop also reconnected
    /// at once, but a lost listener never started a round.) The new SyncService turns
    /// every `.listenerLost` into `.changeNoticed` — a full round at once — and reconnects the
    /// listener before that round without any backoff (`mayContactServer` only looks at the
    /// backoff of *failed* rounds), so the service runs sync rounds and reconnects in a tight loop
    /// for as long as the server keeps doing this.
    func testAServerThatDropsTheListenerAtOnceCannotMakeTheServiceSyncInATightLoop() async throws {
        let proxy = try DroppingListenProxy(upstreamDirectory: postgres.directory)
        defer { proxy.stop() }
        let server = postgres.connectionString.replacingOccurrences(
            of: "host=\(postgres.directory.path)", with: "host=\(proxy.directory)")
        let laptop = try device("laptop")
        let phone = try device("phone")
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: server, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: phone)
        let approval = try joiner.requestToJoin(server: server, circleCode: code, deviceName: "phone")
        try founder.approve(approval)
        XCTAssertTrue(try joiner.finishJoining())
        try laptop.add(password("svc", "acct", "v1"))
        try founder.syncNow()
        try joiner.syncNow()

        let events = ServiceEventLog()
        let service = SyncService(synchronizer: joiner, pollInterval: .seconds(3600)) { events.append($0) }
        let task = Task { await service.run() }
        // Let the first round (and the one that settles its own write) pass.
        try await Task.sleep(for: .seconds(2))
        let settled = events.synced
        let listensBefore = proxy.droppedListens
        try await Task.sleep(for: .seconds(6))
        let rounds = events.synced - settled
        let listens = proxy.droppedListens - listensBefore
        task.cancel()
        await task.value
        print(
            "Review36: in 6 s with nothing changing: \(rounds) sync rounds, \(listens) LISTEN connections made and dropped"
        )
        XCTAssertTrue(events.failures.isEmpty, "\(events.failures)")
        XCTAssertLessThanOrEqual(
            rounds, 6,
            "a server that drops the LISTEN connection makes the service run \(rounds) full sync rounds in 6 s (no change anywhere, poll interval 1 h)"
        )
        XCTAssertLessThanOrEqual(listens, 12, "the listener was reconnected \(listens) times in 6 s without any pause")
    }
}

extension Review36SyncServiceAttackTests {
    /// Reproduction: the server (here the proxy) stops answering in the middle of the service's
    /// life — it keeps the connections open and sends nothing. A local write starts a round, and
    /// the service's task is then cancelled (a graceful shutdown of its service group).
    ///
    /// Secure behaviour: a round against a server that does not answer ends with
    /// `serverUnreachable` after a bounded time (a statement or socket timeout, TCP keepalives),
    /// so the service ends, `BackgroundSync.stop()` returns, and the `-sync.lock` is released.
    /// PostgresConnection sets no timeout on anything after the connection is made, so the round
    /// blocks for ever: the cancelled service never ends and the sync lock stays held.
    func testAServerThatStopsAnsweringCannotHangTheServiceForEver() async throws {
        let proxy = try DroppingListenProxy(upstreamDirectory: postgres.directory, dropsListen: false)
        defer { proxy.stop() }
        let server = postgres.connectionString.replacingOccurrences(
            of: "host=\(postgres.directory.path)", with: "host=\(proxy.directory)")
        let laptop = try device("laptop")
        let phone = try device("phone")
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: server, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: phone)
        let approval = try joiner.requestToJoin(server: server, circleCode: code, deviceName: "phone")
        try founder.approve(approval)
        XCTAssertTrue(try joiner.finishJoining())

        let events = ServiceEventLog()
        let service = SyncService(synchronizer: joiner, pollInterval: .seconds(3600)) { events.append($0) }
        let finished = ManagedFlag()
        let task = Task {
            await service.run()
            finished.set()
        }
        try await Task.sleep(for: .seconds(2))
        XCTAssertGreaterThan(events.synced, 0, "the first round ran")
        proxy.stalls = true
        try phone.add(password("local", "write", "v1"))  // the watcher starts a round, which the server never answers
        try await Task.sleep(for: .seconds(1))
        task.cancel()
        let deadline = Date().addingTimeInterval(60)
        while !finished.isSet && Date() < deadline { try await Task.sleep(for: .milliseconds(200)) }
        let ended = finished.isSet
        proxy.stop()  // the connections close: the round fails and the service can end
        await task.value
        XCTAssertTrue(
            ended,
            "the service did not end within 60 s of its cancellation: a round is blocked on a server that stopped answering, holding the sync lock"
        )
    }
}

extension Review36SyncServiceAttackTests {
    /// Reproduction: anyone who can connect to the sync database (another tenant of the
    /// database, any circle member, the server) sends `NOTIFY keychain_sync, '<circle id>'` a
    /// hundred times a second (each in its own transaction; the circle id is no secret to the
    /// server). Nothing changed anywhere.
    ///
    /// Secure behaviour: notifications are coalesced (a round at most every second or so), so a
    /// notification storm costs the device a bounded number of rounds. The old loop looked at the
    /// socket every 250 ms (at most ~4 rounds a second); SyncService starts a round on every
    /// wake-up at once, so the storm drives it as fast as rounds can run.
    func testANotificationStormIsCoalesced() async throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let synchronizers = try circle([laptop, phone])
        let circleID = try XCTUnwrap(SyncStateStore.load(from: phone)?.circleID.uuidString)
        let events = ServiceEventLog()
        let service = SyncService(synchronizer: synchronizers[1], pollInterval: .seconds(3600)) { events.append($0) }
        let task = Task { await service.run() }
        try await Task.sleep(for: .seconds(2))
        let settled = events.synced
        try postgres.psql(
            "CREATE OR REPLACE PROCEDURE review36_storm(n int) LANGUAGE plpgsql AS $$ BEGIN FOR i IN 1..n LOOP PERFORM pg_notify('\(SyncServer.channel)', '\(circleID)'); COMMIT; PERFORM pg_sleep(0.01); END LOOP; END $$"
        )
        let postgres = self.postgres!
        let storm = Task.detached { try postgres.psql("CALL review36_storm(500)") }  // about 6 s
        _ = try await storm.value
        let rounds = events.synced - settled
        task.cancel()
        await task.value
        print("Review36: a NOTIFY storm of 500 in about 6 s made \(rounds) sync rounds")
        XCTAssertTrue(events.failures.isEmpty, "\(events.failures)")
        XCTAssertLessThanOrEqual(
            rounds, 30, "a notification storm made the service run \(rounds) full sync rounds, nothing having changed")
    }
}

final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// A Unix-socket "PostgreSQL server" that forwards to a real one, except that a connection on
/// which the client sends `LISTEN` is closed right after the server's answer to it.
final class DroppingListenProxy: @unchecked Sendable {
    let directory: String
    private let listener: Int32
    private let lock = NSLock()
    private var dropped = 0
    private var stopped = false
    private var stalling = false
    private let dropsListen: Bool

    /// While set, the proxy never answers a query (it holds the connection open and passes
    /// nothing on): a server that stopped answering after the connection was made, or a
    /// black-holed network path.
    var stalls: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stalling
        }
        set {
            lock.lock()
            stalling = newValue
            lock.unlock()
        }
    }

    var droppedListens: Int {
        lock.lock()
        defer { lock.unlock() }
        return dropped
    }

    init(upstreamDirectory: URL, dropsListen: Bool = true) throws {
        self.dropsListen = dropsListen
        let names = try FileManager.default.contentsOfDirectory(atPath: upstreamDirectory.path)
        guard let socketName = names.first(where: { $0.hasPrefix(".s.PGSQL.") && !$0.hasSuffix(".lock") }) else {
            throw NSError(
                domain: "proxy", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "no PostgreSQL socket in \(upstreamDirectory.path)"])
        }
        let upstream = upstreamDirectory.appendingPathComponent(socketName).path
        directory = "/tmp/r36p-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/" + socketName
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0, Self.withAddress(path, { bind(listener, $0, $1) }) == 0, Glibc.listen(listener, 64) == 0
        else {
            throw NSError(
                domain: "proxy", code: 2, userInfo: [NSLocalizedDescriptionKey: "cannot listen on \(path): \(errno)"])
        }
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { if self.isStopped { return } else { continue } }
                Thread.detachNewThread { self.serve(client, upstream: upstream) }
            }
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if already { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    private func serve(_ client: Int32, upstream: String) {
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(client)
            close(server)
        }
        guard Self.withAddress(upstream, { connect(server, $0, $1) }) == 0 else { return }
        var sawListen = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var fds = [
            pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)
        ]
        while !isStopped {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, 200)
            if ready < 0 && errno != EINTR { return }
            for index in 0..<2 where fds[index].revents != 0 {
                let from = fds[index].fd
                let to = index == 0 ? server : client
                let count = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
                if count <= 0 { return }
                let chunk = Array(buffer[0..<count])
                if index == 0 && stalls && (chunk.first == UInt8(ascii: "Q") || chunk.first == UInt8(ascii: "P")) {
                    // A query after a completed startup: never answered, the connection held open.
                    while !isStopped { usleep(20_000) }
                    return
                }
                if index == 0, String(decoding: chunk, as: UTF8.self).contains("LISTEN ") { sawListen = true }
                var offset = 0
                while offset < chunk.count {
                    let written = chunk[offset...].withUnsafeBytes { write(to, $0.baseAddress, $0.count) }
                    if written <= 0 { return }
                    offset += written
                }
                if index == 1 && sawListen && dropsListen {
                    // The server answered LISTEN: hang up on the client.
                    lock.lock()
                    dropped += 1
                    lock.unlock()
                    return
                }
            }
        }
    }
}
