// A stand-in for a server or app that reads what the `keychain` tool stored, through the
// SecureStorage facade, with whatever identity its environment configures
// (KEYCHAIN_APPLICATION_IDENTIFIER, KEYCHAIN_ACCESS_GROUPS) or none.
//
//   secure-storage-sample get <service> <key>     prints the value; exit 44 when absent
//   secure-storage-sample keys <service>          prints the keys, one per line
//   secure-storage-sample identity                prints the identity in use
//   secure-storage-sample write-file <dir> <name> <class>   stores stdin as a protected file
//   secure-storage-sample read-file <dir> <name>            prints a protected file
//   secure-storage-sample replace-loop <dir> <name>         replaces the file with version 1, 2, … until killed
//   secure-storage-sample check-version <dir> <name>        prints the version the file holds; exit 1 unless it is whole
//   secure-storage-sample set <service> <key> <value>       stores a value
//   secure-storage-sample unlock <passphrase-file> [<service> <key>]   unlocks from the file, then reads the value
//   secure-storage-sample location                          prints the default keychain's database path
//   secure-storage-sample directory-mode                    prints the mode of the directory holding it
//   secure-storage-sample run-child <executable> [<argument> …]   uses the default keychain, then runs
//                                                           the child in this environment; exits with its status
//
// With --log first, the app sets up logging (swift-log to standard error, level debug) and
// hands SecureStorage its logger; without it, the library must print nothing.
import Foundation
import KeychainCore
import KeychainServices
import Logging
import SecureStorage

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--log" {
    arguments.removeFirst()
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = .debug
        return handler
    }
    SecureStorage.logger = Logger(label: "sample-app")
}
do {
    switch arguments.first {
    case "set" where arguments.count == 4:
        try SecureStorage(service: arguments[1]).set(arguments[3], for: arguments[2])
    case "unlock" where arguments.count == 2 || arguments.count == 4:
        try SecureStorage.unlock(from: .file(URL(fileURLWithPath: arguments[1])))
        if arguments.count == 4 { _ = try SecureStorage(service: arguments[2]).string(for: arguments[3]) }
    case "location" where arguments.count == 1:
        print(KeychainLocation.default.databaseURL.path)
    case "directory-mode" where arguments.count == 1:
        // The mode of the directory holding the default keychain's data and state directories.
        let home = KeychainLocation.default.databaseURL.deletingLastPathComponent().deletingLastPathComponent()
        let mode = try FileManager.default.attributesOfItem(atPath: home.path)[.posixPermissions] as? Int ?? 0
        print(String(mode, radix: 8))
    case "run-child" where arguments.count >= 2, "run-child-early" where arguments.count >= 2:
        // As a test does: use the default keychain (run-child-early: not yet), then start a
        // process that inherits the environment.
        if arguments[0] == "run-child" { _ = KeychainLocation.default }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: arguments[1])
        child.arguments = Array(arguments.dropFirst(2))
        try child.run()
        child.waitUntilExit()
        exit(child.terminationStatus)
    case "get" where arguments.count == 3:
        guard let value = try SecureStorage(service: arguments[1]).string(for: arguments[2]) else { exit(44) }
        // keychain-lint:disable-next-line logged-secret -- the round-trip test reads the secret from this output
        print(value)
    case "keys" where arguments.count == 2:
        for key in try SecureStorage(service: arguments[1]).allKeys().sorted() { print(key) }
    case "write-file" where arguments.count == 4:
        guard let protection = FileProtection(rawValue: arguments[3]) else { exit(64) }
        try ProtectedFiles(directory: URL(fileURLWithPath: arguments[1])).write(
            FileHandle.standardInput.readDataToEndOfFile(),
            to: arguments[2], protection: protection)
    case "read-file" where arguments.count == 3:
        FileHandle.standardOutput.write(
            try ProtectedFiles(directory: URL(fileURLWithPath: arguments[1])).read(arguments[2]))
    case "replace-loop" where arguments.count == 3:
        let files = try ProtectedFiles(directory: URL(fileURLWithPath: arguments[1]))
        var version = (try? LoopVersion.read(files, arguments[2])) ?? 0
        while true {
            version += 1
            try files.write(
                LoopVersion.content(version), to: arguments[2], protection: .completeUntilFirstUserAuthentication)
        }
    case "check-version" where arguments.count == 3:
        print(try LoopVersion.read(try ProtectedFiles(directory: URL(fileURLWithPath: arguments[1])), arguments[2]))
    case "identity" where arguments.count == 1:
        print(SecItemEnvironment.applicationIdentity.defaultAccessGroup)
    default:
        FileHandle.standardError.write(
            Data(
                "usage: secure-storage-sample [--log] get <service> <key> | set <service> <key> <value> | unlock <passphrase-file> [<service> <key>] | location | run-child[-early] <executable> [<argument> …] | keys <service> | identity | write-file <dir> <name> <class> | read-file <dir> <name> | replace-loop <dir> <name> | check-version <dir> <name>\n"
                    .utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("secure-storage-sample: \(error)\n".utf8))
    exit(1)
}

/// The versions `replace-loop` writes: `<n>:` followed by a marker and bytes that depend on the
/// version, 0 to 300 000 of them, so a file mixing two versions or cut short is recognised.
enum LoopVersion {
    static let marker = Data("LOOP-PLAINTEXT-MARKER-7b1f".utf8)

    static func content(_ version: Int) -> Data {
        var data = Data("\(version):".utf8) + marker
        data.append(
            contentsOf: (0..<(version &* 7_919 % 300_000)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ version) })
        return data
    }

    /// The version the file holds; throws when its content is not exactly one version's.
    static func read(_ files: ProtectedFiles, _ name: String) throws -> Int {
        let data = try files.read(name)
        guard let colon = data.firstIndex(of: UInt8(ascii: ":")),
            let version = Int(String(decoding: data[..<colon], as: UTF8.self)),
            data == content(version)
        else {
            throw SecureStorageError.integrityViolation
        }
        return version
    }
}
