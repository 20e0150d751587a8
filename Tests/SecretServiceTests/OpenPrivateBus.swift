import Foundation
import XCTest

/// A private `dbus-daemon` that other uids may connect to (for the attack by another user), which
/// DBusTestSupport's `PrivateBus` (0700 directory, same-uid policy) is not: with `allowingEveryUser`
/// its directory is searchable by all, its socket writable by all, and its policy allows every
/// user, as a session bus shared by mistake, or a system bus, would. The provider must refuse them
/// itself. Stopped with SIGKILL (a child of Foundation's `Process` starts with SIGTERM blocked).
final class OpenPrivateBus: @unchecked Sendable {
    let directory: URL
    let address: String
    private let process: Process

    static func start(in test: XCTestCase, allowingEveryUser: Bool = true) throws -> OpenPrivateBus {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
            let message = "dbus-daemon is not installed (Debian: apt-get install dbus-daemon)"
            if ProcessInfo.processInfo.environment["REQUIRE_DBUS"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
        let bus = try OpenPrivateBus(allowingEveryUser: allowingEveryUser)
        test.addTeardownBlock { bus.stop() }
        return bus
    }

    private init(allowingEveryUser: Bool) throws {
        directory = URL(fileURLWithPath: "/tmp/obus-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try FileManager.default.setAttributes(
            [.posixPermissions: allowingEveryUser ? 0o755 : 0o700], ofItemAtPath: directory.path)
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=" + socket
        let configuration = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            \(allowingEveryUser ? "<allow user=\"*\"/>" : "")
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: configuration, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(configuration.path)", "--nofork", "--nopidfile"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<250 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        if allowingEveryUser {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: socket)
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
