#if canImport(CTSS2)
import AttackTestSupport
import Crypto
import Foundation
import GRDB
import TPMTestSupport
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Attacks of the third review of issue 34 on the rotation of the device secret by `bindToTPM`
/// when keychains share one device key file (one state directory).
final class Review34cAttackTests: XCTestCase {
    private var tpm: SoftwareTPM!
    private var directory: URL!

    override func setUpWithError() throws {
        tpm = try startSoftwareTPM()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("review34c-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    private var options: KeychainOptions {
        KeychainOptions(
            passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: "TEAM.test.app", tpm: tpm.device,
            newKeychainBinding: .keyFile)
    }

    private func location(_ data: String, state: String = "state") -> KeychainLocation {
        KeychainLocation(
            databaseURL: directory.appendingPathComponent("\(data)/keychain.db"),
            deviceKeyURL: directory.appendingPathComponent("\(state)/device.key"))
    }

    /// Third review of issue 34: binding replaced the device secret but only rewrapped the class
    /// keys, so the clear device key file and the keybag from before the binding (a backup, a
    /// snapshot) unwrapped the class keys of items written after it, in a later copy of the
    /// database. Binding now replaces the user-tier class keys too.
    func testTheOldClearKeyAndAnOldKeybagDecryptNothingWrittenAfterBinding() throws {
        let location = location("data")
        let keychain = try Keychain(location: location, options: options)
        try keychain.add(password("before", "a", "written-before-binding", .afterFirstUnlock))

        // The attacker's old copy: the clear device key file and the keybag (a backup, a snapshot).
        let clearFile = try Data(contentsOf: location.deviceKeyURL)
        XCTAssertEqual(clearFile[4], 1, "a clear device key file")
        let oldSecret = SymmetricKey(data: clearFile[5..<37])
        let oldKeybag = try keychain.read { db in try KeyRing.fetchKeybag(db) }
        let vaultID = keychain.vaultID

        try keychain.bindToTPM()
        XCTAssertEqual(try Data(contentsOf: location.deviceKeyURL)[4], 2, "sealed by the TPM")
        try keychain.add(password("after", "b", "written-after-binding-afterFirstUnlock", .afterFirstUnlock))
        try keychain.add(password("after", "c", "written-after-binding-always", .always))
        try keychain.checkpointNow()

        // Later: a copy of the bound keychain's database file alone (stolen disk, data backup).
        let stolen = directory.appendingPathComponent("stolen.db")
        try FileManager.default.copyItem(at: location.databaseURL, to: stolen)
        let rows = try DatabaseQueue(path: stolen.path).read { db in
            try ItemTable.allRows(in: db).map { try ItemRow(row: $0) }
        }
        XCTAssertEqual(rows.count, 3)

        var opened: [String] = []
        for row in rows {
            let slot = KeybagSlot.classKey(row.accessibility)
            guard let wrapped = oldKeybag[slot] else { continue }
            let kek =
                slot.tier == .device
                ? KeyHierarchy.deviceKEK(deviceKey: oldSecret, vaultID: vaultID)
                : KeyHierarchy.userKEK(deviceKey: oldSecret, passphraseKey: nil, vaultID: vaultID)
            guard let classKey = try? slot.unwrap(wrapped, with: kek, vaultID: vaultID),
                let secret = try? ItemCipher.openSecret(
                    row.sealed, binding: row.binding(vaultID: vaultID), keys: ClassKeys(classKey: classKey))
            else { continue }
            opened.append(String(decoding: secret, as: UTF8.self))
        }
        XCTAssertFalse(
            opened.contains("written-after-binding-afterFirstUnlock"),
            "the clear device key file and keybag from before binding decrypt an item written after binding: \(opened)")
        // `always` items are device tier (readable by whoever holds the device key, by design):
        // their class key is rewrapped, not replaced, as a passphrase change leaves it too.
        let oldClassKey = oldKeybag[.classKey(.afterFirstUnlock)].flatMap {
            try? KeybagSlot.classKey(.afterFirstUnlock).unwrap(
                $0, with: KeyHierarchy.userKEK(deviceKey: oldSecret, passphraseKey: nil, vaultID: vaultID),
                vaultID: vaultID)
        }
        XCTAssertNotNil(
            oldClassKey, "the old key file and keybag still give the old class key (the attack works as set up)")
    }

    /// Two keychains using one device key file: binding one would replace the secret the other
    /// needs, so it is refused with what to do, and both keep opening.
    func testBindingAKeychainThatSharesItsDeviceKeyFileIsRefused() throws {
        let first = location("first")
        let second = location("second")
        let a = try Keychain(location: first, options: options)
        try a.add(password("first", "a", "first-secret", .afterFirstUnlock))
        let b = try Keychain(location: second, options: options)  // adopts the existing device.key
        try b.add(password("second", "b", "second-secret", .afterFirstUnlock))
        XCTAssertEqual(first.deviceKeyURL, second.deviceKeyURL)
        let before = try Data(contentsOf: first.deviceKeyURL)
        XCTAssertKeychainError(.invalidState, try a.bindToTPM())
        XCTAssertEqual(try Data(contentsOf: first.deviceKeyURL), before, "the device key file changed")
        XCTAssertEqual(
            try Keychain(location: second, options: options).find(query("second", "b", limit: .one), returning: .data)
                .first?.data,
            Data("second-secret".utf8))
        XCTAssertEqual(
            try Keychain(location: first, options: options).find(query("first", "a", limit: .one), returning: .data)
                .first?.data,
            Data("first-secret".utf8))
    }

    /// A rotation another keychain of the same state directory left pending (its bind killed
    /// after its commit) is not this keychain's to settle: opening this one leaves it, and the
    /// other keychain finishes it when it opens.
    func testOpeningOneKeychainLeavesAnotherKeychainsPendingRotation() throws {
        let second = location("second")
        let b = try Keychain(location: second, options: options)
        try b.add(password("second", "b", "second-secret", .afterFirstUnlock))
        let files = DeviceSecretRotationFiles(location: second)
        let anchorB = FormatAnchor.url(for: second, vaultID: b.vaultID)
        let oldAnchorB = try Data(contentsOf: anchorB)
        let oldKey = try Data(contentsOf: second.deviceKeyURL)
        try b.bindToTPM()
        // What a bind killed between its commit and its renames leaves.
        try FileManager.default.moveItem(at: anchorB, to: files.pendingAnchorURL(vaultID: b.vaultID))
        try FileManager.default.moveItem(at: second.deviceKeyURL, to: files.pendingKeyURL)
        try oldAnchorB.write(to: anchorB)
        try oldKey.write(to: second.deviceKeyURL)
        for url in [anchorB, second.deviceKeyURL] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        }
        // Another keychain of the same state directory opens (and is created) meanwhile.
        let a = try Keychain(location: location("first"), options: options)
        try a.add(password("first", "a", "first-secret", .afterFirstUnlock))
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: files.pendingKeyURL.path),
            "the other keychain's committed rotation was rolled back")
        let reopened = try Keychain(location: second, options: options)
        XCTAssertEqual(
            try reopened.find(query("second", "b", limit: .one), returning: .data).first?.data,
            Data("second-secret".utf8))
    }
}
#endif
