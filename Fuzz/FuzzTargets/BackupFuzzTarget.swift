import Foundation
@_spi(Fuzzing) @_spi(Testing) import KeychainCore

/// Fuzzes backup import (`Keychain.importBackup`) with files an attacker could hand a user.
///
/// The first byte picks the mode. Even: the rest is the backup file, so mutations hit the magic,
/// version, chunk framing and authentication; with bit 3 set, the header's checksum (an unkeyed
/// SHA-256 a mutation cannot forge) is recomputed first, so mutations of the archive id, the
/// KDF parameters, the salt and the wrapped key get past it. Odd: the rest is chunk
/// plaintexts separated by ``chunkSeparator``, sealed with the real key schedule under the
/// passphrase "fuzz" before import, so mutations reach the record and attribute parsers behind
/// authentication (the attacker who also tells the victim the passphrase). Bits 1–2 pick the
/// duplicate policy. The target keychain is emptied before each input. Any thrown ``KeychainError`` is fine; a crash, a hang or a memory error is a finding.
public enum BackupFuzzTarget {
    /// The passphrase of every backup the target imports (and of its seeds).
    public static let passphrase = "fuzz"
    /// Separates chunk plaintexts in crafted-mode inputs.
    public static let chunkSeparator = Data("|CHUNK|".utf8)

    private static let crafter = try! BackupCrafter(passphrase: passphrase)
    private static let keychain = FuzzEnvironment.keychain("backup-target")
    private static let file = FuzzEnvironment.home.appendingPathComponent("input.backup")

    /// Runs one input; returns what happened ("imported 3 added…", the error's code, or why
    /// the input was skipped), for tests that check the seeds reach the import.
    @discardableResult
    public static func run(_ data: Data) -> String {
        guard let mode = data.first else { return "empty" }
        let body = data.dropFirst()
        let backup: Data
        if mode & 1 == 0 {
            // The header's scrypt log2 N sits after magic (8), version (1), archive id (16) and
            // creation time (8). Readers accept up to 2^20 (1 GiB, seconds): a unit test covers
            // that cap, the fuzzer skips costly inputs to keep its speed.
            if body.count > 33, body[body.startIndex + 33] > 12 { return "skipped: costly KDF" }
            backup = mode & 8 == 0 ? Data(body) : BackupCrafter.fixingHeaderChecksum(of: Data(body))
        } else {
            guard let crafted = try? crafter.backup(chunkPlaintexts: split(Data(body))) else {
                return "skipped: cannot seal"
            }
            backup = crafted
        }
        guard
            FileManager.default.createFile(atPath: file.path, contents: backup, attributes: [.posixPermissions: 0o600])
        else {
            return "skipped: cannot write \(file.path)"
        }
        FuzzEnvironment.empty(keychain)
        let policy: BackupDuplicatePolicy = [.keepExisting, .replace, .fail, .keepExisting][Int(mode >> 1) & 3]
        do {
            let summary = try keychain.importBackup(from: file, passphrase: passphrase, onDuplicate: policy)
            return
                "imported \(summary.addedItems) added, \(summary.replacedItems) replaced, \(summary.keptExistingItems) kept"
        } catch {
            return "refused: \(error.code)"
        }
    }

    /// Seeds: a real backup of a few items of every stored class, in both modes.
    public static func seeds() throws -> [Data] {
        let directory = FuzzEnvironment.home.appendingPathComponent("seed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("keychain")),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly)))
        try source.add(
            NewItem(
                .genericPassword, attributes: [.service: "api.example.com", .account: "alice", .label: "API"],
                data: Data("s3cret".utf8)))
        try source.add(
            NewItem(
                .internetPassword, attributes: [.server: "example.com", .account: "bob", .port: 443, .protocol: "htps"],
                data: Data("hunter2".utf8)))
        try source.add(
            NewItem(
                .genericPassword, attributes: [.service: "sync", .account: "carol", .synchronizable: true],
                data: Data([0, 1, 2, 255])))
        let url = directory.appendingPathComponent("seed.backup")
        try source.exportBackup(to: url, passphrase: passphrase)
        let raw = Data([0]) + (try Data(contentsOf: url))
        let rawWithChecksumFixing = Data([8]) + (try Data(contentsOf: url))
        var crafted = Data([1])
        for (index, plaintext) in try BackupCrafter.chunkPlaintexts(ofBackupAt: url, passphrase: passphrase)
            .enumerated()
        {
            if index > 0 { crafted.append(chunkSeparator) }
            crafted.append(plaintext)
        }
        return [raw, rawWithChecksumFixing, crafted]
    }

    private static func split(_ body: Data) -> [Data] {
        var chunks: [Data] = []
        var rest = body[...]
        while let range = rest.firstRange(of: chunkSeparator) {
            chunks.append(Data(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        chunks.append(Data(rest))
        return chunks
    }
}
