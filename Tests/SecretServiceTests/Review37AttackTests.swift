import Foundation
import KeychainCore
import SecureStorageDBus
import SecureStorageFoundation
import DBusTestSupport
import XCTest

@testable import SecretService

/// The attack review of issue 37, each finding as the test that broke it.
final class Review37AttackTests: XCTestCase {
    /// The number of descriptors this process holds.
    private func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// F1: calls the provider refuses still have their descriptors closed. Unidentified callers
    /// used to keep them, until the process ran out and its bus connection (and the Secret Service)
    /// closed. Here the refusal is the other path that returns early: a call with no usable body on
    /// the portal path, 200 times with 8 descriptors each.
    func testDescriptorsOfRefusedAndFailedCallsAreClosed() async throws {
        let hosted = try await ProviderOnBus.start(in: self)
        let client = try await DBusConnection.connect(to: hosted.busAddress)
        defer { client.close() }
        XCTAssertTrue(client.supportsUnixFileDescriptors)
        _ = try await client.call(
            destination: SecretServiceNames.busName, path: SecretServiceNames.servicePath,
            interface: SecretServiceNames.serviceInterface, member: "ReadAlias", body: [.string("default")])
        let before = openDescriptorCount()
        for _ in 0..<200 {
            var descriptors: [Int32] = []
            for _ in 0..<4 {
                var ends: [Int32] = [0, 0]
                XCTAssertEqual(pipe(&ends), 0)
                descriptors += ends
            }
            let message = DBusMessage(
                kind: .methodCall, path: PortalSecretBackend.path, interface: PortalSecretBackend.interface,
                member: "RetrieveSecret", destination: SecretServiceNames.busName, body: [.string("wrong")],
                unixFileDescriptors: descriptors)
            _ = try? await client.call(message, timeout: .seconds(10))
            for descriptor in descriptors { close(descriptor) }
        }
        let after = openDescriptorCount()
        XCTAssertLessThan(after - before, 40, "descriptors leaked: \(before) before, \(after) after")
        let alias = try await client.call(
            destination: SecretServiceNames.busName, path: SecretServiceNames.servicePath,
            interface: SecretServiceNames.serviceInterface, member: "ReadAlias", body: [.string("default")])
        XCTAssertEqual(alias.first?.stringValue, "/org/freedesktop/secrets/collection/login")
    }

    /// F4: a portal request whose descriptor is never read (a full pipe) fails within the write
    /// deadline instead of holding a thread of the provider; other clients are served meanwhile.
    func testAPortalDescriptorNobodyReadsCostsAtMostTheDeadline() async throws {
        let hosted = try await ProviderOnBus.start(in: self)
        let client = try await DBusConnection.connect(to: hosted.busAddress)
        defer { client.close() }
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let filler = [UInt8](repeating: 0x41, count: 4096)
        while write(ends[1], filler, filler.count) > 0 {}
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) & ~O_NONBLOCK)
        let started = ContinuousClock.now
        let message = DBusMessage(
            kind: .methodCall, path: PortalSecretBackend.path, interface: PortalSecretBackend.interface,
            member: "RetrieveSecret", destination: SecretServiceNames.busName,
            body: [
                .objectPath("/org/freedesktop/portal/desktop/request/1_1/t"), .string("org.example.Full"), .unixFD(0),
                .dictionary(keySignature: "s", valueSignature: "v", [])
            ], unixFileDescriptors: [ends[1]])
        do {
            _ = try await client.call(message, timeout: .seconds(20))
            XCTFail("a full pipe took the secret")
        } catch let error as DBusError {
            XCTAssertEqual(error.name, "org.freedesktop.DBus.Error.InvalidArgs")
        }
        close(ends[1])
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
    }

    /// F2: the in-memory `session` collection is bounded per caller scope.
    func testTheSessionCollectionIsBounded() async throws {
        let harness = try SecretServiceHarness()
        let session = try await harness.plainSession()
        let big = Data(repeating: 7, count: 1 << 20)
        let fitting = MemoryItemStore.bytesPerGroup / (1 << 20) - 1
        let sessionCollection = "/org/freedesktop/secrets/collection/session"
        for index in 0..<fitting {
            _ = try await harness.createItem(
                label: "big \(index)", attributes: ["n": "\(index)"], secret: big, session: session,
                collection: sessionCollection)
        }
        let properties = DBusValue.dictionary(
            keySignature: "s", valueSignature: "v",
            [
                DBusDictionaryEntry(
                    key: .string("org.freedesktop.Secret.Item.Label"), value: .variant(.string("one more")))
            ])
        let refused = await harness.errorCode(
            sessionCollection, SecretServiceNames.collectionInterface, "CreateItem",
            [
                properties,
                SecretValue(session: session, parameters: Data(), value: big, contentType: "text/plain").dbusValue,
                .boolean(false)
            ])
        XCTAssertEqual(refused, "org.freedesktop.DBus.Error.LimitsExceeded")
        // Another scope (a Flatpak app) still has room of its own.
        let app = SecretServiceHarness.caller(":1.31", flatpak: "org.example.Other")
        let appSession = try await harness.plainSession(as: app)
        _ = try await harness.createItem(
            label: "app", attributes: [:], secret: Data("small".utf8), session: appSession,
            collection: sessionCollection, as: app)
    }

    /// F5: a sandboxed app cannot lock the keychain for the user's other programs.
    func testASandboxedAppCannotLockTheKeychain() async throws {
        let harness = try SecretServiceHarness()
        try await harness.keychain.unlock(passphrase: SecretServiceHarness.passphrase)
        let app = SecretServiceHarness.caller(":1.30", flatpak: "org.evil.App")
        let refused = await harness.errorCode(
            SecretServiceNames.servicePath, SecretServiceNames.serviceInterface, "Lock",
            [.objectPaths(["/org/freedesktop/secrets/collection/login"])], as: app)
        XCTAssertEqual(refused, "org.freedesktop.DBus.Error.AccessDenied")
        XCTAssertEqual(harness.keychain.lockState, .unlocked)
    }

    /// F3: a caller whose `/proc/<pid>/root` cannot be opened (a non-dumpable process, to its own
    /// user) is told by its systemd unit: a Flatpak scope makes it that app, any other unit an
    /// unsandboxed process; it is no longer refused.
    func testANonDumpableCallerIsToldByItsSystemdScope() throws {
        let proc = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: proc) }
        let process = proc.appendingPathComponent("4242")
        try FileManager.default.createDirectory(at: process, withIntermediateDirectories: true)
        try "4242 (app) S 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 0 0"
            .write(to: process.appendingPathComponent("stat"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: process.appendingPathComponent("root").path, withDestinationPath: "/nonexistent-root-\(UUID())")
        let inspector = ProcessInspector(procRoot: proc.path)
        let cgroup = process.appendingPathComponent("cgroup")

        try "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.example.Notes-31337.scope\n"
            .write(to: cgroup, atomically: true, encoding: .utf8)
        let sandboxed = try inspector.inspect(uniqueName: ":1.5", uid: getuid(), pid: 4242, processFD: nil)
        XCTAssertEqual(sandboxed.flatpakAppID, "org.example.Notes")
        XCTAssertEqual(sandboxed.scope, .sandboxed(appID: "org.example.Notes"))

        try "0::/user.slice/user-1000.slice/user@1000.service/app.slice/acme-server.service\n"
            .write(to: cgroup, atomically: true, encoding: .utf8)
        let unsandboxed = try inspector.inspect(uniqueName: ":1.6", uid: getuid(), pid: 4242, processFD: nil)
        XCTAssertNil(unsandboxed.flatpakAppID)
        XCTAssertEqual(unsandboxed.systemdUnit, "acme-server.service")

        let notFlatpak = [
            "app-flatpak-.scope", "app-flatpak-org.x-abc.scope", "app-flatpak-bad/id-1.scope", "app-org.x-1.scope"
        ]
        for unit in notFlatpak {
            XCTAssertNil(ProcessInspector.flatpakAppID(scope: unit), unit)
        }
    }

    /// Second round, finding 2: a signal sent to the provider with descriptors (anyone on the bus
    /// may send one) has them closed too.
    func testDescriptorsOfSignalsSentToTheProviderAreClosed() async throws {
        let hosted = try await ProviderOnBus.start(in: self)
        let client = try await DBusConnection.connect(to: hosted.busAddress)
        defer { client.close() }
        let before = openDescriptorCount()
        for _ in 0..<200 {
            var ends: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&ends), 0)
            let signal = DBusMessage(
                kind: .signal, path: "/a/b", interface: "a.b", member: "Boom", destination: SecretServiceNames.busName,
                unixFileDescriptors: ends)
            try client.send(signal)
            for descriptor in ends { close(descriptor) }
        }
        _ = try await client.call(
            destination: SecretServiceNames.busName, path: SecretServiceNames.servicePath,
            interface: SecretServiceNames.serviceInterface, member: "ReadAlias", body: [.string("default")])
        let after = openDescriptorCount()
        XCTAssertLessThan(after - before, 40, "descriptors leaked: \(before) before, \(after) after")
    }

    /// Second round, finding 1: unique names are unique on one bus daemon only. The provider
    /// serving a restarted bus must identify `:1.2` afresh: here the same unique name is first an
    /// unsandboxed process (on the first bus), then a Flatpak app (on the second), which must not
    /// inherit the first's view of the login collection.
    func testARestartedBussUniqueNamesAreIdentifiedAfresh() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = try SecretServiceHarness.openKeychain(in: directory)
        _ = try keychain.add(
            NewItem(.genericPassword, attributes: [.service: "x", .account: "y"], data: Data("login".utf8)))
        let procRoot = directory.appendingPathComponent("proc")
        let ourProcess = procRoot.appendingPathComponent("\(getpid())")
        try FileManager.default.createDirectory(at: procRoot, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: ourProcess.path, withDestinationPath: "/proc/\(getpid())")
        let provider = SecretServiceProvider(
            keychain: keychain, unlocker: InMemorySecretServiceUnlocker(keychain: keychain, passphrase: ""),
            processInspector: ProcessInspector(procRoot: procRoot.path))

        /// Serves `bus`, probes it until the name is taken (one connection, as on both buses), then
        /// searches everything as a new client: its unique name and what it found.
        func searchAfterServing(_ bus: PrivateBus) async throws -> (
            name: String, found: [DBusValue], serving: Task<Void, any Error>
        ) {
            let connection = try await DBusConnection.connect(to: bus.address)
            let serving = Task { try await provider.serve(on: connection) }
            let probe = try await DBusConnection.connect(to: bus.address)
            for _ in 0..<250 {
                let owner = try? await probe.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus",
                    member: "GetNameOwner", body: [.string(SecretServiceNames.busName)])
                if owner?.first?.stringValue == connection.uniqueName { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let client = try await DBusConnection.connect(to: bus.address)
            let found = try await client.call(
                destination: SecretServiceNames.busName, path: SecretServiceNames.servicePath,
                interface: SecretServiceNames.serviceInterface, member: "SearchItems",
                body: [.stringDictionary([:])])
            return (client.uniqueName, found, serving)
        }

        let first = try startPrivateBus()
        let before: (name: String, found: [DBusValue], serving: Task<Void, any Error>)
        do { before = try await searchAfterServing(first) } catch { return XCTFail("first bus: \(error)") }
        guard case .array(_, let loginItems)? = before.found.first else { return XCTFail("\(before.found)") }
        XCTAssertEqual(loginItems.count, 1, "an unsandboxed client sees the login item")
        first.killDaemon()  // the client never leaves: no NameOwnerChanged reaches the provider
        _ = await before.serving.result

        // The same pid is now a Flatpak app, as a new process with a recycled name would be.
        try FileManager.default.removeItem(at: ourProcess)
        try FileManager.default.createDirectory(
            at: ourProcess.appendingPathComponent("root"), withIntermediateDirectories: true)
        // procfs files report size 0: read them to their end rather than by their size.
        let stat = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(getpid())/stat")?.readToEnd())
        try stat.write(to: ourProcess.appendingPathComponent("stat"))
        try "[Application]\nname=org.evil.App\n".write(
            to: ourProcess.appendingPathComponent("root/.flatpak-info"), atomically: true, encoding: .utf8)

        let second = try startPrivateBus()
        let after: (name: String, found: [DBusValue], serving: Task<Void, any Error>)
        do { after = try await searchAfterServing(second) } catch { return XCTFail("second bus: \(error)") }
        XCTAssertEqual(after.name, before.name, "the second bus hands out the same unique name")
        XCTAssertEqual(after.found.first, .objectPaths([]), "the app does not inherit the earlier client's view")
        second.killDaemon()
        _ = await after.serving.result
    }
}
