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

    /// The python of `SECURE_STORAGE_PYTHON` (a venv with secretstorage, keyring and jeepney, which
    /// .ci/run makes in .build-venv), or a skip (a failure under `REQUIRE_DBUS`).
    public func requireSecretServicePython() throws -> String {
        try requireEnvironmentPath(
            "SECURE_STORAGE_PYTHON", "names no python with secretstorage, keyring and jeepney (.ci/run makes one)",
            executable: true)
    }

    /// The secretstorage source distribution of `SECURE_STORAGE_SECRETSTORAGE_SDIST` (its `tests/`
    /// are the project's own suite; .ci/run downloads it), or a skip (a failure under `REQUIRE_DBUS`).
    public func requireSecretStorageSourceDistribution() throws -> String {
        try requireEnvironmentPath(
            "SECURE_STORAGE_SECRETSTORAGE_SDIST", "names no secretstorage source distribution (.ci/run downloads it)",
            executable: false)
    }

    private func requireEnvironmentPath(_ variable: String, _ problem: String, executable: Bool) throws -> String {
        if let path = ProcessInfo.processInfo.environment[variable],
            executable
                ? FileManager.default.isExecutableFile(atPath: path) : FileManager.default.fileExists(atPath: path)
        {
            return path
        }
        let message = "\(variable) \(problem)"
        if ProcessInfo.processInfo.environment["REQUIRE_DBUS"] != nil { XCTFail(message) }
        throw XCTSkip(message)
    }
}
