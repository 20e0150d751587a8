import Foundation
import XCTest
@testable import KeychainCore

/// Files 0600, directories 0700, and refusal of unsafe files.
final class FileSecurityTests: XCTestCase {
    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testCreatedFilesArePrivate() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct"))
        XCTAssertEqual(try mode(test.location.databaseURL), 0o600)
        XCTAssertEqual(try mode(URL(fileURLWithPath: test.location.databaseURL.path + "-wal")), 0o600)
        XCTAssertEqual(try mode(test.location.deviceKeyURL), 0o600)
        XCTAssertEqual(try mode(test.location.databaseURL.deletingLastPathComponent()), 0o700)
        XCTAssertEqual(try mode(test.location.deviceKeyURL.deletingLastPathComponent()), 0o700)
        XCTAssertNotEqual(
            test.location.databaseURL.deletingLastPathComponent(),
            test.location.deviceKeyURL.deletingLastPathComponent(),
            "the device key lives outside the data directory")
    }

    func testGroupReadableKeychainFileIsRefusedWithAFix() throws {
        let test = try TestKeychain()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: test.location.databaseURL.path)
        XCTAssertThrowsError(try test.openAnother()) { error in
            let error = error as? KeychainError
            XCTAssertEqual(error?.code, .keychainUnavailable)
            XCTAssertTrue(error?.message.contains("chmod 600") ?? false, error?.message ?? "")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: test.location.databaseURL.path)
        XCTAssertNoThrow(try test.openAnother())
    }

    func testWorldReadableDeviceKeyIsRefused() throws {
        let test = try TestKeychain()
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: test.location.deviceKeyURL.path)
        XCTAssertKeychainError(.keychainUnavailable, try test.openAnother())
    }

    func testFileOwnedByAnotherUserIsRefused() throws {
        try XCTSkipUnless(getuid() == 0, "changing a file's owner needs root")
        let test = try TestKeychain()
        XCTAssertEqual(chown(test.location.databaseURL.path, 65534, 65534), 0)
        XCTAssertThrowsError(try test.openAnother()) { error in
            XCTAssertEqual((error as? KeychainError)?.code, .keychainUnavailable)
            XCTAssertTrue((error as? KeychainError)?.message.contains("chown") ?? false)
        }
    }

    func testMissingDeviceKeyIsAnErrorAndNothingIsReplaced() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct"))
        try FileManager.default.removeItem(at: test.location.deviceKeyURL)
        XCTAssertKeychainError(.keychainUnavailable, try test.openAnother())
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: test.location.deviceKeyURL.path), "no new device key was invented")
    }

    func testCorruptDeviceKeyIsAnError() throws {
        let test = try TestKeychain()
        var bytes = try Data(contentsOf: test.location.deviceKeyURL)
        bytes[10] ^= 0xFF
        try bytes.write(to: test.location.deviceKeyURL)
        XCTAssertKeychainError(.keychainUnavailable, try test.openAnother())
    }

    func testNonKeychainFilesAreRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-bad-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = KeychainLocation(directory: directory)
        try FileManager.default.createDirectory(
            at: location.databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: location.databaseURL)
        chmod(location.databaseURL.path, 0o600)
        XCTAssertKeychainError(.invalidKeychain, try Keychain(location: location))
    }

    func testDefaultLocationFollowsTheEnvironment() {
        let explicit = KeychainLocation.resolve(environment: ["SECURE_STORAGE_HOME": "/tmp/ssh", "XDG_DATA_HOME": "/x"])
        XCTAssertEqual(explicit.databaseURL.path, "/tmp/ssh/data/keychain.db")
        XCTAssertEqual(explicit.deviceKeyURL.path, "/tmp/ssh/state/device.key")
        let xdg = KeychainLocation.resolve(environment: [
            "HOME": "/home/u", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s"
        ])
        XCTAssertEqual(xdg.databaseURL.path, "/d/secure-storage/keychain.db")
        XCTAssertEqual(xdg.deviceKeyURL.path, "/s/secure-storage/device.key")
        let fallback = KeychainLocation.resolve(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "relative"])
        XCTAssertEqual(fallback.databaseURL.path, "/home/u/.local/share/secure-storage/keychain.db")
        XCTAssertEqual(fallback.deviceKeyURL.path, "/home/u/.local/state/secure-storage/device.key")
    }

    func testErrorMessagesNeverContainSecrets() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("my-passphrase-value")
        try test.keychain.add(password("svc", "acct", "my-secret-value"))
        var messages: [String] = []
        for attempt in [
            { try test.keychain.add(password("svc", "acct", "my-secret-value")) },
            { try test.keychain.unlock(passphrase: "my-passphrase-value-wrong") },
            { try test.keychain.changePassphrase(from: "my-passphrase-value-x", to: "y") }
        ] as [() throws -> Void] {
            do { try attempt() } catch { messages.append("\(error)") }
        }
        XCTAssertEqual(messages.count, 3)
        for message in messages {
            XCTAssertFalse(message.contains("my-secret-value") || message.contains("my-passphrase-value"), message)
        }
    }
}

/// Network file systems are recognised and refused by default (issue 7: WAL is unsafe there).
final class NetworkFileSystemTests: XCTestCase {
    func testNetworkFileSystemsAreRecognised() {
        let mounts = """
            /dev/sda1 / ext4 rw,relatime 0 0
            tmpfs /run/user/1000 tmpfs rw 0 0
            server:/export /home/alice/nfs nfs4 rw,vers=4.2 0 0
            //nas/share /mnt/my\\040share cifs rw 0 0
            """
        XCTAssertEqual(FileSystemKind.type(of: "/home/alice/nfs/keychain/data", mounts: mounts), "nfs4")
        XCTAssertEqual(
            FileSystemKind.type(of: "/home/alice/nfsother", mounts: mounts), "ext4", "a prefix is not a parent")
        XCTAssertEqual(FileSystemKind.type(of: "/mnt/my share/kc", mounts: mounts), "cifs")
        XCTAssertEqual(FileSystemKind.type(of: "/run/user/1000/secure-storage", mounts: mounts), "tmpfs")
        XCTAssertTrue(FileSystemKind.networkTypes.isSuperset(of: ["nfs4", "cifs"]))
        XCTAssertFalse(FileSystemKind.networkTypes.contains("ext4"))
        XCTAssertNil(
            FileSystemKind.networkFileSystem(at: FileManager.default.temporaryDirectory.path),
            "the test directory is local")
        XCTAssertFalse(KeychainOptions().allowsNetworkFileSystem)
    }

    /// The file-system magic numbers statfs(2) gives name network file systems as the mount
    /// table does, and where this machine has a file system both can name, they agree.
    func testFileSystemMagicNumbersAgreeWithTheMountTable() throws {
        let names = Set(FileSystemKind.magicTypes.values)
        XCTAssertTrue(
            names.isSuperset(of: ["nfs", "cifs", "smb2", "9p", "ceph", "afs", "gfs2", "ocfs2", "lustre", "coda"]))
        XCTAssertTrue(
            names.intersection(FileSystemKind.networkTypes)
                == names.subtracting(["ext4", "xfs", "btrfs", "zfs", "f2fs", "overlay", "tmpfs", "ramfs"]),
            "every magic is either a network type or one of the local types")
        XCTAssertNil(FileSystemKind.magicTypes[0x6573_5546], "FUSE is told apart by the mount table (fuse.sshfs, …)")
        #if os(Linux)
        let mounts = try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)
        var compared = 0
        for path in ["/", "/dev/shm", FileManager.default.temporaryDirectory.path, NSHomeDirectory()] {
            guard
                let fromTable = FileSystemKind.type(
                    of: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, mounts: mounts),
                FileSystemKind.magicTypes.values.contains(fromTable)
            else { continue }
            XCTAssertEqual(FileSystemKind.type(at: path), fromTable, path)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 0, "/dev/shm is tmpfs on every Linux machine")
        #endif
    }
}
