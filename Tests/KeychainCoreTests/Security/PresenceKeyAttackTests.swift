import Crypto
import Foundation
import SecureStorageFoundation
import GRDB
import XCTest
import AuthenticationTestSupport
@_spi(Testing) @testable import KeychainCore

/// User presence is a key, not a question: each test is an attacker who can link the library,
/// install any authenticator, and read and write the files as the same user, and each asserts
/// the precise error and that no protected secret came out.
final class PresenceKeyAttackTests: XCTestCase {
    var test: TestKeychain!
    var keychain: Keychain { test.keychain }
    let answers = Locked<[String?]>([])

    override func setUpWithError() throws { test = try TestKeychain() }

    private func pinAuthenticator() throws -> PINAuthenticator {
        try PINAuthenticator(keychain: test.location, parameters: .insecureForTestingOnly) { [answers] _ in
            answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }

    /// A keychain with an enrolled PIN "2468" and three protected things: a userPresence
    /// password, a devicePasscode password and a key generated inside the keychain.
    private func protectedKeychain() throws -> PersistentReference {
        let pin = try pinAuthenticator()
        try pin.setPIN("2468", in: keychain)
        keychain.authenticator = pin
        try keychain.add(
            password("bank", "presence", "presence-secret").protected(by: AccessPolicy(flags: [.userPresence])))
        try keychain.add(
            password("bank", "passcode", "passcode-secret").protected(by: AccessPolicy(flags: [.devicePasscode])))
        return try keychain.generateTokenKey(.p256, policy: AccessPolicy(flags: [.privateKeyUsage, .userPresence]))
            .persistentReference
    }

    private func readData(_ keychain: Keychain, _ account: String) throws -> Data? {
        try keychain.find(query("bank", account, limit: .one), returning: .data).first?.data
    }

    private let secrets = ["presence-secret", "passcode-secret"]

    func testAnAlwaysYesAuthenticatorInAnotherProcessReadsNothing() throws {
        let key = try protectedKeychain()
        // Another process: its own instance, its own authenticator that approves everything and
        // claims the enrolment the keychain recorded (identifiers are not secret).
        let attacker = try test.openAnother()
        let forger = ScriptedAuthenticator.alwaysYes(claimingEnrolmentsOf: attacker)
        attacker.authenticator = forger
        for account in ["presence", "passcode"] {
            XCTAssertKeychainError(.authFailed, revealing: secrets, try self.readData(attacker, account), account)
        }
        XCTAssertKeychainError(
            .authFailed, revealing: secrets, try attacker.signWithTokenKey(key, digest: Data(count: 32)))
        var all = query("bank")
        all.authentication = AuthenticationOptions(context: AuthenticationContext(reuseDuration: 300))
        XCTAssertKeychainError(.authFailed, revealing: secrets, try attacker.find(all, returning: .data))
        XCTAssertKeychainError(
            .authFailed, revealing: secrets,
            try attacker.update(
                query("bank", "presence"),
                with: ItemChanges(attributes: [.accessControl: AccessPolicy(flags: []).attributeValue])),
            "stripping the policy needs the key too")
        XCTAssertGreaterThan(forger.prompts, 0, "the forger was asked and said yes")
        // An authenticator that does not even claim the enrolment is told it is not the enrolled one.
        attacker.authenticator = ScriptedAuthenticator()
        XCTAssertKeychainError(.integrityViolation, revealing: secrets, try self.readData(attacker, "presence"))
        // Nothing changed: the enrolled PIN still opens everything.
        answers.withLock { $0 = ["2468", "2468"] }
        XCTAssertEqual(try readData(keychain, "presence"), Data("presence-secret".utf8))
        XCTAssertEqual(
            try keychain.find(query("bank", "presence"), returning: .attributes).first?.accessPolicy?.flags,
            [.userPresence])
        XCTAssertNoThrow(try keychain.signWithTokenKey(key, digest: Data(count: 32)))
    }

    /// The attacker who also holds the class keys (same user, keychain unlocked) and every file
    /// still finds no presence private key in the file and no way to open the data key.
    func testTheFilesHoldThePresenceKeyOnlyWrappedByThePIN() throws {
        _ = try protectedKeychain()
        let row = try keychain.read { db in
            try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id").map(ItemRow.init(row:))
        }[0]
        XCTAssertTrue(row.sealed.isPresenceSealed)
        let classKeys = try keychain.keys.classKeys(for: row.accessibility)
        let opened = try keychain.open(row, includingData: false)
        let binding = try SecretBinding(attributes: opened.attributes).applied(
            to: row.binding(vaultID: keychain.vaultID))
        XCTAssertKeychainError(
            .authFailed, revealing: secrets, try ItemCipher.openSecret(row.sealed, binding: binding, keys: classKeys))
        XCTAssertKeychainError(
            .integrityViolation, revealing: secrets,
            try ItemCipher.openSecret(row.sealed, binding: binding, keys: classKeys, presenceKey: .generate()),
            "another presence key opens nothing")
        // The presence private key, unwrapped the legitimate way, appears nowhere in the files.
        let pinSecret = try XCTUnwrap(answerPIN("2468"))
        let wrapped = try XCTUnwrap(keychain.keys.presence.enrollment(.passcode, identifier: pinSecret.identifier))
        let presenceKey = try PresenceEnrollment.unwrap(
            wrapped, secret: pinSecret, method: .passcode, vaultID: keychain.vaultID)
        XCTAssertEqual(
            try ItemCipher.openSecret(row.sealed, binding: binding, keys: classKeys, presenceKey: presenceKey),
            Data("presence-secret".utf8))
        keychain.checkpoint()
        let raw = presenceKey.key.rawRepresentation
        for file in [
            test.location.databaseURL, test.location.deviceKeyURL, PINAuthenticator.fileURL(for: test.location)
        ] {
            XCTAssertNil(
                try Data(contentsOf: file).range(of: raw),
                "the presence private key in clear in \(file.lastPathComponent)")
            for secret in secrets { XCTAssertNil(try Data(contentsOf: file).range(of: Data(secret.utf8))) }
        }
    }

    private func answerPIN(_ pin: String) throws -> AuthenticationSecret? {
        answers.withLock { $0 = [pin] }
        guard
            case .authenticated(_, let secret) = try pinAuthenticator().authenticate(
                AuthenticationRequest(allowedMethods: [.passcode], reason: "", operation: "data"))
        else { return nil }
        return secret
    }

    /// `rm state/authenticator/pin && keychain set-pin`: the deleted file is tampering, a new PIN
    /// is refused, and restoring the file brings everything back.
    func testADeletedPINFileIsTamperingAndNoNewPINReplacesIt() throws {
        _ = try protectedKeychain()
        let file = PINAuthenticator.fileURL(for: test.location)
        let saved = try Data(contentsOf: file)
        try FileManager.default.removeItem(at: file)
        let pin = try pinAuthenticator()
        keychain.authenticator = pin
        answers.withLock { $0 = ["2468"] }
        XCTAssertKeychainError(.integrityViolation, revealing: secrets, try self.readData(self.keychain, "presence"))
        XCTAssertKeychainError(.integrityViolation, try pin.setPIN("1111", in: self.keychain))
        XCTAssertFalse(pin.isPINSet, "no PIN file was written")
        XCTAssertEqual(keychain.enrolledMethods, [.passcode])
        XCTAssertEqual(keychain.enrollmentIdentifiers(for: .passcode).count, 1, "no enrolment was added")
        // Enrolling the attacker's own secret directly needs the presence key first.
        let own = try AuthenticationSecret(
            identifier: Data(repeating: 7, count: 16), keyMaterial: Data(repeating: 1, count: 32))
        keychain.authenticator = ScriptedAuthenticator.alwaysYes(claimingEnrolmentsOf: keychain)
        XCTAssertKeychainError(.authFailed, try self.keychain.enroll(own, for: .passcode))
        keychain.authenticator = nil
        XCTAssertKeychainError(.authFailed, try self.keychain.enroll(own, for: .biometry))
        XCTAssertKeychainError(
            .authFailed, try self.keychain.enroll(own, for: .biometry, authorizedBy: (.passcode, own)))
        XCTAssertEqual(keychain.enrolledMethods, [.passcode])

        XCTAssertTrue(try PlatformIO.writeNewPrivateFile(saved, to: file.path))
        keychain.authenticator = try pinAuthenticator()
        answers.withLock { $0 = ["2468"] }
        XCTAssertEqual(try readData(keychain, "presence"), Data("presence-secret".utf8))
    }

    /// A PIN file replaced by one the attacker made (their own PIN, and even the recorded
    /// enrolment identifier copied in) verifies their PIN but opens nothing.
    func testAReplacedPINFileOpensNothing() throws {
        _ = try protectedKeychain()
        let file = PINAuthenticator.fileURL(for: test.location)
        let recorded = try XCTUnwrap(keychain.enrollmentIdentifiers(for: .passcode).first)
        // Their own PIN file, made with the library for a keychain of their own.
        let other = try TestKeychain()
        try PINAuthenticator(keychain: other.location, parameters: .insecureForTestingOnly) { _ in nil }.setPIN(
            "0000", in: other.keychain)
        var forged = try Data(contentsOf: PINAuthenticator.fileURL(for: other.location))
        try forged.write(to: file)
        keychain.authenticator = try pinAuthenticator()
        answers.withLock { $0 = ["0000"] }
        XCTAssertKeychainError(
            .integrityViolation, revealing: secrets, try self.readData(self.keychain, "presence"),
            "another enrolment identifier")
        forged.replaceSubrange(24..<40, with: recorded)
        try forged.write(to: file)
        let pin = try pinAuthenticator()
        keychain.authenticator = pin
        XCTAssertEqual(pin.enrollmentIdentifier(for: .passcode), recorded)
        answers.withLock { $0 = ["0000"] }
        XCTAssertKeychainError(
            .authFailed, revealing: secrets, try self.readData(self.keychain, "presence"),
            "the right identifier, the wrong secret")
        XCTAssertEqual(answers.withLock { $0.count }, 0, "their PIN was asked for and accepted by the file")
    }

    /// `set-pin` over an existing enrolment needs the old PIN; a wrong one changes nothing.
    func testChangingThePINNeedsTheOldOneAndMovesTheEnrolment() throws {
        _ = try protectedKeychain()
        let before = keychain.enrollmentIdentifiers(for: .passcode)
        let pin = try pinAuthenticator()
        XCTAssertKeychainError(.authFailed, try pin.setPIN("1111", in: self.keychain))
        XCTAssertKeychainError(.authFailed, try pin.setPIN("1111", current: "9999", in: self.keychain))
        XCTAssertEqual(keychain.enrollmentIdentifiers(for: .passcode), before)
        try pin.setPIN("1111", current: "2468", in: keychain)
        let after = keychain.enrollmentIdentifiers(for: .passcode)
        XCTAssertEqual(after.count, 1)
        XCTAssertNotEqual(after, before, "the old PIN's enrolment is gone")
        keychain.authenticator = pin
        answers.withLock { $0 = ["1111"] }
        XCTAssertEqual(try readData(keychain, "presence"), Data("presence-secret".utf8))
        answers.withLock { $0 = ["2468"] }
        XCTAssertKeychainError(
            .authFailed, revealing: secrets, try self.readData(self.keychain, "presence"),
            "the old PIN no longer opens anything")
        // Another instance sees the new enrolment and keeps its class keys.
        let other = try test.openAnother()
        other.authenticator = pin
        answers.withLock { $0 = ["1111"] }
        XCTAssertEqual(try readData(other, "presence"), Data("presence-secret".utf8))
    }

    /// Raw SQL on the keybag: removing or swapping the enrolment is refused by the header MAC,
    /// and an old copy of the keybag from before the enrolment by the format anchor.
    func testTheEnrolmentCannotBeRemovedSwappedOrRolledBack() throws {
        let beforeEnrolment = try test.snapshot()
        _ = try protectedKeychain()
        let enrolled = try test.snapshot()
        let attacks = [
            ("enrolment deleted", "DELETE FROM keybag WHERE slot LIKE 'presence.%'"),
            (
                "enrolment moved to biometry",
                "UPDATE keybag SET slot = 'presence.biometry.' || substr(slot, 19) WHERE slot LIKE 'presence.passcode.%'"
            ),
            ("presence key replaced", "UPDATE keybag SET wrapped_key = zeroblob(32) WHERE slot = 'presence'")
        ]
        for (name, sql) in attacks {
            try restore(enrolled)
            try test.tamper { db in
                try db.execute(sql: sql)
                XCTAssertGreaterThan(db.changesCount, 0, name)
            }
            XCTAssertKeychainError(.integrityViolation, try self.test.openAnother(), name)
        }
        try restore(enrolled)
        try test.restoreHeaderAndKeybag(from: beforeEnrolment)
        XCTAssertKeychainError(.integrityViolation, try self.test.openAnother(), "the keybag from before the enrolment")
    }

    /// Puts a snapshot back as the keychain file.
    private func restore(_ snapshot: URL) throws {
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: test.location.databaseURL.path + suffix)
        }
        try FileManager.default.removeItem(at: test.location.databaseURL)
        try FileManager.default.copyItem(at: snapshot, to: test.location.databaseURL)
    }

    /// An attribute change never prompts and keeps the data sealed; the data ciphertext from
    /// before a later data change, put back, does not open (its binding is gone).
    func testAttributeChangesKeepTheDataSealedAndOldDataCannotBeReplayed() throws {
        _ = try protectedKeychain()
        let counting = ScriptedAuthenticator.alwaysYes(claimingEnrolmentsOf: keychain)
        keychain.authenticator = counting
        try keychain.update(
            query("bank", "presence"),
            with: ItemChanges(attributes: [
                .label: "renamed", .accessible: .string(Accessibility.afterFirstUnlock.rawValue)
            ]))
        XCTAssertEqual(counting.prompts, 0, "changing attributes never prompts")
        let old = try test.snapshot()
        try keychain.update(query("bank", "presence"), with: ItemChanges(data: Data("new-secret".utf8)))
        XCTAssertEqual(counting.prompts, 0, "replacing the data never prompts")
        keychain.authenticator = try pinAuthenticator()
        answers.withLock { $0 = ["2468"] }
        XCTAssertEqual(try readData(keychain, "presence"), Data("new-secret".utf8))
        XCTAssertEqual(try keychain.find(query("bank", "presence")).first?.attributes[.label]?.stringValue, "renamed")
        try test.tamper { db in
            try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [old.path])
            try db.execute(
                sql:
                    "UPDATE items SET secret = (SELECT secret FROM old.items WHERE old.items.id = items.id), secret_key = (SELECT secret_key FROM old.items WHERE old.items.id = items.id) WHERE id = 1"
            )
            try db.execute(sql: "DETACH DATABASE old")
        }
        answers.withLock { $0 = ["2468"] }
        XCTAssertKeychainError(
            .integrityViolation, revealing: secrets + ["new-secret"], try self.readData(self.keychain, "presence"))
    }

    /// The documented limit: with the device key (the same user can read it) the keybag can be
    /// re-signed with a presence public key of the attacker's. Items sealed before stay closed;
    /// an item added afterwards is sealed to the attacker's key; and the next authentication
    /// with the enrolled PIN reports the substitution.
    func testASubstitutedPresenceKeyExposesOnlyLaterItemsAndIsReported() throws {
        _ = try protectedKeychain()
        let attackerKey = PresencePrivateKey.generate()
        try test.tamper { db in
            try db.execute(
                sql: "UPDATE keybag SET wrapped_key = ? WHERE slot = 'presence'",
                arguments: [attackerKey.publicKey.rawRepresentation])
            try db.execute(sql: "UPDATE vault_header SET keybag_generation = keybag_generation + 1")
            try test.forgeHeaderMAC(db)
        }
        try test.forgeAnchor()
        let victim = try test.openAnother()
        victim.authenticator = try pinAuthenticator()
        try victim.add(password("bank", "later", "later-secret").protected(by: AccessPolicy(flags: [.userPresence])))
        // The attacker opens the later item with their key and the class keys.
        let rows = try victim.read { db in
            try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id").map(ItemRow.init(row:))
        }
        let later = try XCTUnwrap(rows.last)
        let opened = try victim.open(later, includingData: false)
        let binding = try SecretBinding(attributes: opened.attributes).applied(
            to: later.binding(vaultID: victim.vaultID))
        XCTAssertEqual(
            try ItemCipher.openSecret(
                later.sealed, binding: binding, keys: victim.keys.classKeys(for: later.accessibility),
                presenceKey: attackerKey),
            Data("later-secret".utf8))
        // ...but not the items sealed before.
        let first = try victim.open(rows[0], includingData: false)
        let firstBinding = try SecretBinding(attributes: first.attributes).applied(
            to: rows[0].binding(vaultID: victim.vaultID))
        XCTAssertKeychainError(
            .integrityViolation, revealing: secrets,
            try ItemCipher.openSecret(
                rows[0].sealed, binding: firstBinding,
                keys: victim.keys.classKeys(for: rows[0].accessibility), presenceKey: attackerKey))
        answers.withLock { $0 = ["2468"] }
        XCTAssertKeychainError(
            .integrityViolation, revealing: secrets, try self.readData(victim, "presence"),
            "the enrolled PIN's key is not the keybag's presence key")
    }

    // MARK: - Found by the review of the first version

    /// The presence slots deleted and the header re-signed with the device key: every use of a
    /// sealed item reports it, nothing is re-sealed without a presence key, nobody can enrol a
    /// new key over the sealed items, and verify reports it.
    func testStrippedPresenceSlotsAreReportedAndNothingGoesPlainOrIsLost() throws {
        let key = try protectedKeychain()
        try test.tamper { db in
            try db.execute(sql: "DELETE FROM keybag WHERE slot LIKE 'presence%'")
            try db.execute(sql: "UPDATE vault_header SET keybag_generation = keybag_generation + 1")
            try test.forgeHeaderMAC(db)
        }
        try test.forgeAnchor()
        let victim = try test.openAnother()
        XCTAssertFalse(victim.keys.presence.isEstablished)
        let pin = try pinAuthenticator()
        victim.authenticator = pin
        answers.withLock { $0 = ["2468"] }
        XCTAssertKeychainError(.integrityViolation, revealing: secrets, try self.readData(victim, "presence"))
        XCTAssertEqual(answers.withLock { $0.count }, 1, "reported before the user is asked")
        XCTAssertKeychainError(.integrityViolation, try victim.signWithTokenKey(key, digest: Data(count: 32)))
        XCTAssertKeychainError(
            .integrityViolation,
            try victim.update(query("bank", "passcode"), with: ItemChanges(data: Data("rotated-secret".utf8))))
        XCTAssertKeychainError(
            .integrityViolation,
            try victim.addOrUpdate(
                password("bank", "presence", "rotated-2").protected(by: AccessPolicy(flags: [.userPresence]))))
        let own = try AuthenticationSecret(
            identifier: Data(repeating: 7, count: 16), keyMaterial: Data(repeating: 1, count: 32))
        XCTAssertKeychainError(
            .integrityViolation, try victim.enroll(own, for: .passcode), "no new presence key over sealed items")
        XCTAssertKeychainError(.integrityViolation, try pin.setPIN("1357", current: "2468", in: victim))
        XCTAssertEqual(victim.enrolledMethods, [])
        let report = try victim.verify()
        XCTAssertEqual(report.damagedItems.count, 3, "\(report)")
        let rows = try victim.read { db in
            try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id").map(ItemRow.init(row:))
        }
        XCTAssertTrue(rows.allSatisfy(\.sealed.isPresenceSealed), "nothing was re-sealed without the presence key")
    }

    /// Changing the PIN replaces the presence key: the old PIN with copies of the old PIN file and
    /// keybag opens nothing in the file afterwards, old items included.
    func testAChangedPINLocksOutOldCopiesOfThePINAndTheKeybag() throws {
        _ = try protectedKeychain()
        let oldFile = try Data(contentsOf: PINAuthenticator.fileURL(for: test.location))
        let oldEnrolments = try XCTUnwrap(keychain.keys.presence.enrollments[.passcode])
        try pinAuthenticator().setPIN("9753", current: "2468", in: keychain)
        XCTAssertTrue(keychain.enrollmentIdentifiers(for: .passcode).isDisjoint(with: oldEnrolments.keys))
        try keychain.add(
            password("bank", "after-change", "added-after-pin-change").protected(
                by: AccessPolicy(flags: [.devicePasscode])))
        let record = try PINVerifierRecord(encoded: oldFile, path: "old copy")
        let secret = try XCTUnwrap(record.secret(ifMatching: "2468"))
        let oldKey = try PresenceEnrollment.unwrap(
            XCTUnwrap(oldEnrolments[secret.identifier]), secret: secret, method: .passcode, vaultID: keychain.vaultID)
        let rows = try keychain.read { db in
            try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id").map(ItemRow.init(row:))
        }
        for row in rows where row.sealed.isPresenceSealed {
            let opened = try keychain.open(row, includingData: false)
            let binding = try SecretBinding(attributes: opened.attributes).applied(
                to: row.binding(vaultID: keychain.vaultID))
            XCTAssertKeychainError(
                .integrityViolation, revealing: secrets + ["added-after-pin-change"],
                try ItemCipher.openSecret(
                    row.sealed, binding: binding, keys: self.keychain.keys.classKeys(for: row.accessibility),
                    presenceKey: oldKey))
        }
        keychain.authenticator = try pinAuthenticator()
        answers.withLock { $0 = ["9753", "9753"] }
        XCTAssertEqual(try readData(keychain, "presence"), Data("presence-secret".utf8))
        XCTAssertEqual(try readData(keychain, "after-change"), Data("added-after-pin-change".utf8))
    }

    /// Two processes changing the PIN at once: one wins, the other is told the current PIN is
    /// wrong, and the PIN file left is always the enrolled one.
    func testConcurrentPINChangesNeverLoseTheItems() throws {
        _ = try protectedKeychain()
        var current = "2468"
        for round in 0..<8 {
            let instances = try (0..<2).map { _ in try test.openAnother() }
            let candidates = ["a\(round)", "b\(round)"]
            let outcomes = Locked<[Int: Bool]>([:])
            let location = test.location
            let previous = current
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let pin = try! PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in nil }
                let succeeded = (try? pin.setPIN(candidates[index], current: previous, in: instances[index])) != nil
                outcomes.withLock { $0[index] = succeeded }
            }
            let winners = outcomes.withLock { $0 }.filter(\.value).map(\.key)
            XCTAssertEqual(winners.count, 1, "round \(round): exactly one change wins")
            current = candidates[winners.first ?? 0]
            let check = try test.openAnother()
            let pin = try pinAuthenticator()
            XCTAssertTrue(
                check.enrollmentIdentifiers(for: .passcode).contains(
                    try XCTUnwrap(pin.enrollmentIdentifier(for: .passcode))))
            check.authenticator = pin
            answers.withLock { $0 = [current] }
            XCTAssertEqual(try readData(check, "presence"), Data("presence-secret".utf8), "round \(round)")
        }
    }

    /// A presence key substituted while an authentication context holds the real one: the
    /// cached key is not reused, and the new authentication reports the substitution.
    func testAContextReusingItsKeyReportsASubstitutedPresenceKey() throws {
        _ = try protectedKeychain()
        var reading = query("bank", "presence", limit: .one)
        reading.authentication = AuthenticationOptions(context: AuthenticationContext(reuseDuration: 300))
        answers.withLock { $0 = ["2468"] }
        XCTAssertEqual(try keychain.find(reading, returning: .data).first?.data, Data("presence-secret".utf8))
        try test.tamper { db in
            try db.execute(
                sql: "UPDATE keybag SET wrapped_key = ? WHERE slot = 'presence'",
                arguments: [PresencePrivateKey.generate().publicKey.rawRepresentation])
            try db.execute(sql: "UPDATE vault_header SET keybag_generation = keybag_generation + 1")
            try test.forgeHeaderMAC(db)
        }
        try test.forgeAnchor()
        answers.withLock { $0 = ["2468"] }
        XCTAssertKeychainError(
            .integrityViolation, revealing: secrets, try self.keychain.find(reading, returning: .data))
        XCTAssertEqual(answers.withLock { $0.count }, 0, "asked again instead of reusing the cached key")
    }

    /// A PIN change in another process replaces the presence key: a context that cached the old
    /// one asks again and reads on, without a false alarm.
    func testAContextAsksAgainAfterAPINChangeElsewhere() throws {
        _ = try protectedKeychain()
        var reading = query("bank", "presence", limit: .one)
        reading.authentication = AuthenticationOptions(context: AuthenticationContext(reuseDuration: 300))
        answers.withLock { $0 = ["2468"] }
        XCTAssertEqual(try keychain.find(reading, returning: .data).first?.data, Data("presence-secret".utf8))
        try pinAuthenticator().setPIN("1357", current: "2468", in: test.openAnother())
        answers.withLock { $0 = ["1357"] }
        XCTAssertEqual(try keychain.find(reading, returning: .data).first?.data, Data("presence-secret".utf8))
        XCTAssertEqual(answers.withLock { $0.count }, 0)
    }

    /// Another program enrolling first (before the app set its PIN) gets none of the app's
    /// secrets: the app's PIN cannot be enrolled without it, and its protected adds are refused
    /// because its authenticator holds none of the keychain's enrolments.
    func testAnEnrolmentMadeByAnotherProgramReceivesNothing() throws {
        let attacker = try test.openAnother()
        let own = try AuthenticationSecret(
            identifier: Data(repeating: 9, count: 16), keyMaterial: Data(repeating: 2, count: 32))
        try attacker.enroll(own, for: .biometry)
        let pin = try pinAuthenticator()
        XCTAssertKeychainError(
            .authFailed, try pin.setPIN("2468", in: self.keychain),
            "enrolling needs an existing enrolment's authentication")
        XCTAssertFalse(pin.isPINSet, "no PIN file is left behind")
        keychain.authenticator = pin
        XCTAssertKeychainError(
            .authFailed,
            try self.keychain.add(
                password("bank", "tofu", "tofu-secret").protected(by: AccessPolicy(flags: [.userPresence]))))
        keychain.authenticator = ScriptedAuthenticator()
        XCTAssertKeychainError(
            .authFailed,
            try self.keychain.add(
                password("bank", "tofu", "tofu-secret").protected(by: AccessPolicy(flags: [.userPresence]))))
        XCTAssertKeychainError(.itemNotFound, try self.keychain.find(query("bank", "tofu")))
    }

    /// A PIN file edited to lock the PIN for ever (a last failure far in the future, or not a
    /// number) locks it for the policy's wait from now, never longer.
    func testAnEditedFailureTimeNeverLocksThePINForEver() throws {
        let clock = ManualClock()
        let pin = try PINAuthenticator(
            keychain: test.location, parameters: .insecureForTestingOnly,
            attemptPolicy: PINAttemptPolicy(freeAttempts: 1, baseDelay: 30, maximumDelay: 60), clock: clock.reading
        ) { _ in nil }
        try pin.setPIN("2468", in: keychain)
        XCTAssertFalse(try pin.verify("0000"))
        XCTAssertFalse(try pin.verify("0000"))
        for seconds in [1e300, Double.nan] {
            var bytes = try Data(contentsOf: pin.fileURL)
            withUnsafeBytes(of: seconds.bitPattern.bigEndian) {
                bytes.replaceSubrange(bytes.count - 8..<bytes.count, with: $0)
            }
            try bytes.write(to: pin.fileURL)
            XCTAssertGreaterThan(try pin.remainingLockout(), 0)
            clock.advance(61)
            XCTAssertEqual(try pin.remainingLockout(), 0, "\(seconds): the wait ran from when it was noticed")
            XCTAssertTrue(try pin.verify("2468"))
            XCTAssertFalse(try pin.verify("0000"))
            XCTAssertFalse(try pin.verify("0000"))
        }
    }
}
