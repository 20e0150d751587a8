import Foundation
import XCTest
import AuthenticationTestSupport
@testable import KeychainCore

/// Every write path keeps access policies and token keys intact: add-or-update, identities,
/// backups and updates cannot strip a policy, revive an invalidated item, plant or swap a token
/// key, or carry protected data out without the user.
final class ProtectionBypassTests: XCTestCase {
    var test: TestKeychain!
    var authenticator: ScriptedAuthenticator!
    var keychain: Keychain { test.keychain }
    let tag: AttributeValue = .data(Data("com.acme.key".utf8))

    override func setUpWithError() throws {
        test = try TestKeychain()
        authenticator = ScriptedAuthenticator()
        keychain.authenticator = authenticator
        try authenticator.enroll(in: keychain)
    }

    func testAddOrUpdateCannotStripAPolicyWithoutTheUser() throws {
        try keychain.add(password("bank", "me").protected(by: AccessPolicy(flags: [.userPresence])))
        authenticator.script([.canceled])
        XCTAssertKeychainError(
            .userCanceled, try self.keychain.addOrUpdate(password("bank", "me").protected(by: AccessPolicy(flags: []))))
        XCTAssertEqual(try keychain.find(query("bank", "me")).first?.accessPolicy?.flags, [.userPresence])
        XCTAssertEqual(
            try keychain.addOrUpdate(password("bank", "me", "new secret")), .updated, "replacing data never prompts")
        XCTAssertEqual(authenticator.prompts, 1)
        XCTAssertEqual(
            try keychain.find(query("bank", "me")).first?.accessPolicy?.flags, [.userPresence], "and keeps the policy")
        XCTAssertEqual(try keychain.find(query("bank", "me"), returning: .data).first?.data, Data("new secret".utf8))
        XCTAssertEqual(authenticator.prompts, 2)
    }

    func testAnInvalidatedItemCannotBeRevived() throws {
        try keychain.add(password("bank", "me").protected(by: AccessPolicy(flags: [.biometryCurrentSet])))
        authenticator.enroll("someone else")
        let removed = try AccessPolicy(flags: [])
        XCTAssertKeychainError(
            .authFailed, try self.keychain.addOrUpdate(password("bank", "me").protected(by: removed)))
        XCTAssertKeychainError(
            .authFailed,
            try self.keychain.update(
                query("bank", "me"), with: ItemChanges(attributes: [.accessControl: removed.attributeValue])))
        // The same flags again change nothing: the stored enrolment state is kept, not refreshed.
        let same = try AccessPolicy(flags: [.biometryCurrentSet])
        XCTAssertEqual(try keychain.addOrUpdate(password("bank", "me").protected(by: same)), .updated)
        try keychain.update(query("bank", "me"), with: ItemChanges(attributes: [.accessControl: same.attributeValue]))
        XCTAssertKeychainError(.authFailed, try self.keychain.find(query("bank", "me"), returning: .data))
        XCTAssertEqual(authenticator.prompts, 0)
    }

    func testTokenKeysCannotBePlantedSwappedOrLoosened() throws {
        let key = try keychain.generateTokenKey(.p256, attributes: [.applicationTag: tag])
        let publicKey = try keychain.tokenKeyPublicKey(key.persistentReference)
        let planted = NewItem(
            .key, attributes: [.applicationTag: "planted", .tokenID: .string(TokenKeys.tokenID), .keyClass: 1],
            data: Data(count: 32))
        XCTAssertKeychainError(.invalidParameter, try self.keychain.addOrUpdate(planted))
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.addIdentity(
                certificate: NewItem(.certificate, attributes: [.publicKeyHash: .data(Data([1]))], data: Data([0x30])),
                privateKey: NewItem(
                    .key,
                    attributes: [
                        .keyClass: 1, .applicationLabel: .data(Data([1])), .tokenID: .string(TokenKeys.tokenID)
                    ], data: Data(count: 32))))

        var sameKey = NewItem(
            .key, attributes: key.attributes.filter { ItemSchema.of(.key).primaryKey.contains($0.key) },
            data: Data(count: 32))
        XCTAssertKeychainError(.invalidParameter, try self.keychain.addOrUpdate(sameKey), "no scalar swap")
        sameKey.data = nil
        sameKey.attributes[.accessible] = .string(Accessibility.afterFirstUnlock.rawValue)
        XCTAssertKeychainError(.invalidParameter, try self.keychain.addOrUpdate(sameKey), "no exportable accessibility")
        for change: [AttributeKey: AttributeValue] in [
            [.accessible: "ak"], [.isExtractable: 1], [.isSensitive: 0], [.keySizeInBits: 384]
        ] {
            XCTAssertKeychainError(
                .invalidParameter,
                try self.keychain.update(Query(.key, [.applicationTag: tag]), with: ItemChanges(attributes: change)))
        }
        try keychain.update(
            Query(.key, [.applicationTag: tag]), with: ItemChanges(attributes: [.label: "renamed", .accessible: "cku"]))
        XCTAssertEqual(try keychain.tokenKeyPublicKey(key.persistentReference), publicKey)
        XCTAssertKeychainError(
            .invalidParameter, try self.keychain.generateTokenKey(.p256, policy: AccessPolicy(flags: [.userPresence])),
            "constraints on a token key must guard its use")
    }

    func testBackupsCarryNeitherProtectedDataNorTokenKeysAndImportNeverReplacesThem() throws {
        try keychain.add(password("bank", "open", "s3cret", .afterFirstUnlock))
        try keychain.add(
            password("bank", "guarded", "s3cret", .afterFirstUnlock).protected(by: AccessPolicy(flags: [.userPresence]))
        )
        try keychain.generateTokenKey(.p256, attributes: [.applicationTag: tag])
        try keychain.update(Query(.key, [.applicationTag: tag]), with: ItemChanges(attributes: [.accessible: "cku"]))
        let file = test.directory.appendingPathComponent("backup")
        let summary = try keychain.exportBackup(to: file, passphrase: "backup")
        XCTAssertEqual(summary.exportedItems, 1)
        XCTAssertEqual(summary.skippedProtectedItems, 1)
        XCTAssertEqual(summary.skippedThisDeviceOnlyItems, 1)
        XCTAssertEqual(authenticator.prompts, 0)

        // The exported item becomes protected; importing the backup with replace keeps it so.
        try keychain.update(
            query("bank", "open"),
            with: ItemChanges(attributes: [.accessControl: AccessPolicy(flags: [.devicePasscode]).attributeValue]))
        let imported = try keychain.importBackup(from: file, passphrase: "backup", onDuplicate: .replace)
        XCTAssertEqual(imported.replacedItems, 0)
        XCTAssertEqual(imported.keptExistingItems, 1)
        XCTAssertEqual(try keychain.find(query("bank", "open")).first?.accessPolicy?.flags, [.devicePasscode])
        XCTAssertKeychainError(
            .duplicateItem, try self.keychain.importBackup(from: file, passphrase: "backup", onDuplicate: .fail))
        XCTAssertEqual(try keychain.importBackup(from: file, passphrase: "backup").keptExistingItems, 1)
        XCTAssertEqual(authenticator.prompts, 0)
    }

    func testRepeatingTheSamePolicyNeverPrompts() throws {
        try keychain.add(password("bank", "me").protected(by: AccessPolicy(flags: [.userPresence])))
        try keychain.addOrUpdate(password("bank", "me", "v2").protected(by: AccessPolicy(flags: [.userPresence])))
        try keychain.update(
            query("bank", "me"),
            with: ItemChanges(attributes: [.accessControl: AccessPolicy(flags: [.userPresence]).attributeValue]))
        XCTAssertEqual(authenticator.prompts, 0)
    }

    func testOrKeepsThePasscodeWhenBiometryChanged() throws {
        try keychain.add(
            password("bank", "me").protected(by: AccessPolicy(flags: [.biometryCurrentSet, .devicePasscode, .or])))
        authenticator.enroll("new finger")
        XCTAssertEqual(try keychain.find(query("bank", "me"), returning: .data).first?.data, Data("s3cret".utf8))
        XCTAssertEqual(authenticator.requests.last?.allowedMethods, [.passcode])
    }

    func testUncheckableConstraintsFailClosed() throws {
        authenticator.enroll("")
        XCTAssertKeychainError(
            .authFailed,
            try self.keychain.add(password("bank", "x").protected(by: AccessPolicy(flags: [.biometryCurrentSet]))),
            "an empty enrolment state is no enrolment")
        var stored = try AccessPolicy(flags: [.companion])
        stored.enrollmentState = nil
        XCTAssertKeychainError(
            .authFailed, try self.keychain.authorize(stored, operation: "data", options: AuthenticationOptions()))
        XCTAssertEqual(authenticator.prompts, 0)
    }

    func testKeyMaterialNeverPrints() throws {
        let material = ECPrivateKeyMaterial.generate(.p256)
        var dumped = ""
        dump(material, to: &dumped)
        XCTAssertFalse(dumped.contains("bytes"), dumped)
        XCTAssertFalse(dumped.contains(material.scalar.base64EncodedString()))
        XCTAssertEqual(material.description, "ECPrivateKeyMaterial(P-256)")
    }
}
