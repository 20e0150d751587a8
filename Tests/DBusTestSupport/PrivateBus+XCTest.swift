import Foundation
import XCTest

extension XCTestCase {
    /// A private bus for this test, stopped and deleted when the test ends. Skips the test when
    /// `dbus-daemon` is not installed, except under `REQUIRE_DBUS` (`scripts/test` sets it),
    /// where that fails it.
    public func startPrivateBus(environment: [String: String]? = nil) throws -> PrivateBus {
        do {
            let bus = try PrivateBus(environment: environment)
            addTeardownBlock { bus.stop() }
            return bus
        } catch let error as PrivateBusUnavailable
            where error.isMissing && ProcessInfo.processInfo.environment["REQUIRE_DBUS"] == nil
        {
            throw XCTSkip("\(error.message); the D-Bus tests need it.")
        }
    }

    /// The path of `program` on PATH or in /usr/bin, or a skip (a failure under `REQUIRE_DBUS`)
    /// naming `package`, the Debian package that installs it.
    public func requireProgram(_ program: String, package: String) throws -> String {
        let directories =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/bin", "/bin"]
        if let found = directories.map({ "\($0)/\(program)" }).first(where: FileManager.default.isExecutableFile) {
            return found
        }
        let message = "\(program) is not installed (Debian: apt-get install \(package))"
        if ProcessInfo.processInfo.environment["REQUIRE_DBUS"] != nil {
            XCTFail(message)
            throw PrivateBusUnavailable(message: message, isMissing: true)
        }
        throw XCTSkip(message)
    }
}
