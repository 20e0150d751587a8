import Foundation

/// A throw-away keychain home for one fuzzing process, created on first use and set as
/// `SECURE_STORAGE_HOME` before anything opens the default keychain. Never the user's keychain.
enum FuzzEnvironment {
    static let home: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keychain-fuzz-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        setenv("SECURE_STORAGE_HOME", directory.path, 1)
        setenv("KEYCHAIN_APPLICATION_IDENTIFIER", "FUZZTEAM.org.example.fuzz", 1)
        setenv("KEYCHAIN_ACCESS_GROUPS", "FUZZTEAM.org.example.fuzz,FUZZTEAM.shared", 1)
        return directory
    }()
}
