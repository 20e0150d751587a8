#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// Every class in every lock state, as Apple's Data Protection behaves: what can be created,
/// read and renamed, and what happens to a file open when the keychain locks.
final class ProtectedFileLockMatrixTests: ProtectedFilesTestCase {
    private enum State: String { case noPassphrase, unlocked, locked, beforeFirstUnlock }

    /// What a class allows in a state: (create a new file, read an existing one).
    private func expected(_ protection: FileProtection, _ state: State) -> (create: Bool, read: Bool) {
        switch (protection, state) {
        case (_, .noPassphrase), (_, .unlocked), (.none, _): (true, true)
        case (.completeUntilFirstUserAuthentication, .locked): (true, true)
        case (.completeUnlessOpen, .locked): (true, false)
        default: (false, false)
        }
    }

    private func outcome(_ body: () throws -> Void) -> SecureStorageError? {
        do {
            try body()
            return nil
        } catch { return error as? SecureStorageError ?? .underlying(-1) }
    }

    func testEveryClassInEveryLockState() throws {
        let content = pattern(70_000)
        for state in [State.noPassphrase, .unlocked, .locked, .beforeFirstUnlock] {
            if state == .unlocked { try keychain.setPassphrase("device passcode") }
            for protection in FileProtection.allCases {
                try files.write(content, to: "existing-\(protection)", protection: protection)
            }
            switch state {
            case .locked: try SecItemEnvironment.lock()
            case .beforeFirstUnlock: try restart()
            default: break
            }
            for protection in FileProtection.allCases {
                let allowed = expected(protection, state)
                let name = "new-\(protection)-\(state)"
                let created = outcome { try files.write(content, to: name, protection: protection) }
                XCTAssertEqual(created, allowed.create ? nil : .locked, "create \(protection) \(state)")
                let read = outcome {
                    let data = try files.read("existing-\(protection)")
                    XCTAssertEqual(data, content)
                }
                XCTAssertEqual(read, allowed.read ? nil : .locked, "read \(protection) \(state)")
                // Names and classes need no file key: every state.
                XCTAssertEqual(try files.protection(of: "existing-\(protection)"), protection, "\(state)")
                try files.move("existing-\(protection)", to: "moved-\(protection)")
                try files.move("moved-\(protection)", to: "existing-\(protection)")
                if allowed.create { XCTAssertTrue(try files.remove(name)) }
            }
            XCTAssertEqual(try files.names().count, FileProtection.allCases.count, "\(state)")
            if state != .noPassphrase && state != .unlocked { try unlock() }
            // After the unlock every file reads again.
            for protection in FileProtection.allCases {
                XCTAssertEqual(try files.read("existing-\(protection)"), content, "\(protection) after \(state)")
            }
        }
        XCTAssertEqual(try temporaries(), [], "failed creations leave nothing behind")
    }

    /// A complete file's reader and writer stop at the lock and go on after the unlock.
    func testCompleteHandlesStopWhileLockedAndResumeAfterUnlock() throws {
        try keychain.setPassphrase("device passcode")
        let content = pattern(200_000)
        try files.write(content, to: "doc", protection: .complete)

        let reader = try files.open("doc")
        var read = try XCTUnwrap(reader.read(upToCount: 1000))
        let writer = try files.create("draft", protection: .complete)
        try writer.write(content.prefix(70_000))

        try SecItemEnvironment.lock()
        // The rest of the chunk already opened is plaintext in memory (as Apple's page cache);
        // the next chunk needs the key.
        while read.count < 65_536, let piece = try reader.read(upToCount: 65_536 - read.count) { read.append(piece) }
        XCTAssertStorageError(.locked, try reader.read(upToCount: 1000))
        XCTAssertStorageError(.locked, try writer.write(content.suffix(from: 70_000)))
        XCTAssertStorageError(.locked, try writer.commit())

        try unlock()
        while let piece = try reader.read(upToCount: 50_000) { read.append(piece) }
        XCTAssertEqual(read, content)
        try writer.write(content.suffix(from: 70_000))
        try writer.commit()
        XCTAssertEqual(try files.read("draft"), content)
    }

    /// completeUnlessOpen: a file open at the lock stays readable until closed; a file created
    /// while locked is written whole but opens only after the unlock.
    func testCompleteUnlessOpenKeepsOpenFilesAndCreatesWhileLocked() throws {
        try keychain.setPassphrase("device passcode")
        let content = pattern(150_000)
        try files.write(content, to: "download", protection: .completeUnlessOpen)
        let reader = try files.open("download")

        try SecItemEnvironment.lock()
        XCTAssertEqual(try reader.readToEnd(), content)
        reader.close()
        XCTAssertStorageError(.locked, try files.open("download"))

        let writer = try files.create("recording", protection: .completeUnlessOpen)
        try writer.write(content)
        try writer.commit()
        XCTAssertStorageError(.locked, try files.read("recording"))

        try unlock()
        XCTAssertEqual(try files.read("recording"), content)
        // Apple's advice once unlocked: move the finished file to complete.
        try files.setProtection(.complete, of: "recording")
        XCTAssertEqual(try files.protection(of: "recording"), .complete)
        XCTAssertEqual(try files.read("recording"), content)
    }

    /// A store first used while locked gets the keys an unlock allows at its first write after
    /// one: then completeUnlessOpen files can be created while locked.
    func testClassKeysOfAStoreFirstUsedWhileLockedAreMadeAtTheUnlock() throws {
        try keychain.setPassphrase("device passcode")
        try restart()
        try files.write(Data("cache".utf8), to: "cache", protection: .none)
        XCTAssertStorageError(
            .locked, try files.write(Data("x".utf8), to: "early", protection: .completeUnlessOpen),
            "before the first unlock")
        try unlock()
        try SecItemEnvironment.lock()
        try files.write(Data("x".utf8), to: "any", protection: .completeUntilFirstUserAuthentication)
        XCTAssertStorageError(
            .locked, try files.write(Data("x".utf8), to: "early", protection: .completeUnlessOpen),
            "the key pair can only be made while unlocked")
        try unlock()
        try files.write(Data("x".utf8), to: "any", protection: .completeUntilFirstUserAuthentication)
        try SecItemEnvironment.lock()
        try files.write(Data("x".utf8), to: "later", protection: .completeUnlessOpen)
        try unlock()
        XCTAssertEqual(try files.read("later"), Data("x".utf8))
        XCTAssertEqual(try files.read("cache"), Data("cache".utf8))
    }
}
#endif
