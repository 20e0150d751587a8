import Foundation
import GRDB

extension Keychain {
    /// The authentication methods enrolled in this keychain: those whose authenticators can
    /// release the presence key that protected items are sealed to.
    /// (Read from the file as it is now; empty if it cannot be read.)
    public var enrolledMethods: Set<AuthenticationMethod> { currentPresence.enrolledMethods }

    /// The identifiers of the enrolments for `method` (usually one; two for a moment while a
    /// PIN changes), read from the file as it is now.
    public func enrollmentIdentifiers(for method: AuthenticationMethod) -> Set<Data> {
        Set(currentPresence.enrollments[method]?.keys ?? [:].keys)
    }

    /// The presence records after taking in another process's keybag change.
    private var currentPresence: PresenceRecords {
        guard (try? refreshKeys()) != nil else { return PresenceRecords.none }
        return keys.presence
    }

    /// Enrols an authenticator's secret for `method`: from now on, authenticating with it
    /// releases the keychain's presence key, and items protected by an ``AccessPolicy`` that
    /// `method` satisfies can be added and read.
    ///
    /// - The first enrolment creates the presence key pair, and moves the keychain's existing
    ///   protected items (written before presence was a key) under it, in the same transaction:
    ///   every protected item's class must then be unlocked.
    /// - Later enrolments need the presence key, so they need an authentication with an existing
    ///   enrolment: `existing` (for example the old PIN's secret when the PIN changes), or else
    ///   the keychain's ``authenticator`` is asked (operation `"enrolment"`). An attacker who
    ///   can only install an authenticator or delete a PIN file cannot enrol a secret of their own.
    ///
    /// ```swift
    /// let secret = try AuthenticationSecret(identifier: tokenID, keyMaterial: tokenDerivedSecret)
    /// try keychain.enroll(secret, for: .biometry)            // asks the enrolled PIN first
    /// ```
    ///
    /// ``PINAuthenticator/setPIN(_:current:in:)`` enrols a PIN this way.
    ///
    /// - Throws: `.authFailed` when `existing` or the authentication does not open an existing
    ///   enrolment; `.userCanceled`, `.interactionNotAllowed` from the authentication;
    ///   `.interactionNotAllowed` when a protected item that must move under the presence key is
    ///   in a locked class; `.duplicateItem` when `secret`'s identifier is already enrolled;
    ///   `.invalidState` when another process changed the keybag meanwhile (retry).
    public func enroll(
        _ secret: AuthenticationSecret, for method: AuthenticationMethod,
        authorizedBy existing: (method: AuthenticationMethod, secret: AuthenticationSecret)? = nil,
        authentication: AuthenticationOptions = AuthenticationOptions()
    ) throws(KeychainError) {
        try requireWritable()
        try refreshKeys()
        let expected = keys.header
        let presence = keys.presence
        if presence.enrollment(method, identifier: secret.identifier) != nil {
            throw KeychainError.secretAlreadyEnrolled(method: method.rawValue)
        }
        let presenceKey: PresencePrivateKey
        let established = presence.isEstablished
        if established {
            presenceKey = try currentPresenceKey(authorizedBy: existing, authentication: authentication)
        } else {
            presenceKey = .generate()
        }
        let wrapped = try PresenceEnrollment.wrap(
            presenceKey, secret: secret, method: method, vaultID: expected.vaultID)
        let (header, keybag, moved) = try changeKeybag(expecting: expected) { db throws -> Int in
            var moved = 0
            if !established {
                // Items sealed to a presence key in a keybag that has none: its presence slots
                // were removed. A new key would leave them closed for ever, silently.
                if try Self.hasPresenceSealedItems(db) { throw KeychainError.presenceSlotsRemoved() }
                try KeybagTable.write(in: db, [.presencePublicKey: presenceKey.publicKey.rawRepresentation])
                moved = try self.sealProtectedItems(to: presenceKey.publicKey, db)
            }
            try KeybagTable.write(in: db, [.presenceEnrollment(method, identifier: secret.identifier): wrapped])
            return moved
        }
        keys.adopt(header: header, presence: try PresenceRecords(keybag: keybag))
        settleAnchor()
        if moved > 0 { checkpointAfterRewrap("protected items moved under the presence key") }
        logger.info(
            "authenticator enrolled", metadata: ["method": "\(method.rawValue)", "protectedItemsSealed": "\(moved)"])
    }

    /// Replaces the enrolment of `method` that `current` opens with `new`, as a PIN change does.
    ///
    /// When `method` is the only enrolled method, the presence key itself is replaced too: every
    /// protected item's data key is unwrapped with the old presence key and sealed to the new
    /// one, in one transaction (their classes must be unlocked). Old copies of the keybag and
    /// the old secret then open nothing protected that is in the file, as a passphrase change
    /// does for class keys. With other methods enrolled the presence key stays (their secrets
    /// are not at hand to wrap a new one), and only the enrolment changes.
    ///
    /// Until ``removeEnrollment(_:for:)`` drops it, the old secret keeps an enrolment
    /// too, so that a process killed before the authenticator's own record changed (the PIN
    /// file) loses nothing.
    ///
    /// - Throws: `.authFailed` when `current` is not an enrolment of this keychain or does not
    ///   open it; `.interactionNotAllowed` when a protected item's class is locked.
    public func replaceEnrollment(
        of method: AuthenticationMethod, current: AuthenticationSecret, with new: AuthenticationSecret
    ) throws(KeychainError) {
        try requireWritable()
        try refreshKeys()
        let expected = keys.header
        let presence = keys.presence
        let oldKey = try currentPresenceKey(authorizedBy: (method, current), authentication: AuthenticationOptions())
        let rotating = presence.enrolledMethods == [method]
        let newKey = rotating ? PresencePrivateKey.generate() : oldKey
        var slots: [KeybagSlot: Data] = [
            .presenceEnrollment(method, identifier: new.identifier):
                try PresenceEnrollment.wrap(newKey, secret: new, method: method, vaultID: expected.vaultID)
        ]
        if rotating {
            slots[.presencePublicKey] = newKey.publicKey.rawRepresentation
            slots[.presenceEnrollment(method, identifier: current.identifier)] = try PresenceEnrollment.wrap(
                newKey, secret: current, method: method, vaultID: expected.vaultID)
        }
        let (header, keybag, moved) = try changeKeybag(expecting: expected) { db throws -> Int in
            let moved = rotating ? try self.resealProtectedItems(from: oldKey, to: newKey.publicKey, db) : 0
            if rotating {
                for identifier in presence.enrollments[method]?.keys ?? [:].keys where identifier != current.identifier
                {
                    try KeybagTable.delete(in: db, slot: .presenceEnrollment(method, identifier: identifier))
                }
            }
            try KeybagTable.write(in: db, slots)
            return moved
        }
        keys.adopt(header: header, presence: try PresenceRecords(keybag: keybag))
        settleAnchor()
        if rotating { checkpointAfterRewrap("the presence key was replaced") }
        logger.info(
            "enrolment replaced",
            metadata: [
                "method": "\(method.rawValue)", "presenceKeyReplaced": "\(rotating)",
                "protectedItemsResealed": "\(moved)"
            ])
    }

    /// Removes one enrolment (after a PIN change, the old PIN's). The last enrolment of the
    /// keychain cannot be removed: protected items would never open again.
    ///
    /// - Throws: `.invalidState` when nothing else would remain enrolled.
    public func removeEnrollment(_ identifier: Data, for method: AuthenticationMethod) throws(KeychainError) {
        try requireWritable()
        try refreshKeys()
        let presence = keys.presence
        guard presence.enrollment(method, identifier: identifier) != nil else { return }
        guard presence.enrollments.values.reduce(0, { $0 + $1.count }) > 1 else {
            throw KeychainError.lastEnrolment()
        }
        let (header, keybag, _) = try changeKeybag(expecting: keys.header) { db throws in
            try KeybagTable.delete(in: db, slot: .presenceEnrollment(method, identifier: identifier))
        }
        keys.adopt(header: header, presence: try PresenceRecords(keybag: keybag))
        settleAnchor()
    }

    /// The presence key, from an existing enrolment's secret or an authentication.
    private func currentPresenceKey(
        authorizedBy existing: (method: AuthenticationMethod, secret: AuthenticationSecret)?,
        authentication: AuthenticationOptions
    ) throws(KeychainError) -> PresencePrivateKey {
        let presence = keys.presence
        if let existing {
            guard let wrapped = presence.enrollment(existing.method, identifier: existing.secret.identifier) else {
                throw KeychainError.authorizingSecretNotEnrolled()
            }
            return try PresenceEnrollment.unwrap(
                wrapped, secret: existing.secret, method: existing.method, vaultID: keys.header.vaultID)
        }
        guard let authenticator else {
            throw KeychainError.enrolmentNeedsAuthentication(enrolledMethods: presence.enrolledMethods)
        }
        // An authentication with any enrolled method releases the presence key.
        guard
            let granted = try authenticate(
                presence.enrolledMethods, with: authenticator, operation: "enrolment", options: authentication),
            let key = granted.presenceKey
        else {
            throw KeychainError.enrolmentNeedsInteraction()
        }
        return key
    }

    /// Runs `body` in a write transaction that changes presence slots of the keybag, then bumps
    /// the keybag generation (other instances reload it; their class keys stay) and stores the
    /// header MAC through the format anchor's two-phase change.
    ///
    /// An unlock session survives: no class key changes, so its record is sealed again for the
    /// new generation with the ticket this environment holds (`keychain unlock`, then
    /// `keychain set-pin`, and later commands are still unlocked). Without that ticket the
    /// record cannot be resealed, and the session ends as after a passphrase change.
    private func changeKeybag<T>(expecting: VaultHeader, _ body: @escaping (Database) throws -> T) throws(KeychainError)
        -> (VaultHeader, [KeybagSlot: Data], T)
    {
        var header = expecting
        header.keybagGeneration += 1
        let session = currentSession()
        let changed: (VaultHeader, [KeybagSlot: Data], T) = try write { db in
            let current = try HeaderAuthenticator.fetchVerified(
                db, deviceKey: self.keys.deviceKey, location: self.location
            ).0
            guard current == expecting else {
                throw KeychainError.keysChangedConcurrently()
            }
            header.session = current.session
            if let session, current.session == session.record {
                header.session = try? session.ticket.record(
                    sealing: session.userKEK, keybagGeneration: header.keybagGeneration)
            }
            let result = try body(db)
            try header.updateKeybagState(db)
            let keybag = try KeyRing.fetchKeybag(db)
            try HeaderAuthenticator.storeChange(
                header, keybag: keybag, location: self.location, deviceKey: self.keys.deviceKey, db)
            return (header, keybag, result)
        }
        return changed
    }

    /// Re-seals every protected item written before the keychain had a presence key, so that its
    /// data key is sealed to `publicKey` (the first enrolment; inside its transaction). Their
    /// metadata no longer holds the data's digest. Every protected item's class must be unlocked.
    private func sealProtectedItems(to publicKey: PresencePublicKey, _ db: Database) throws -> Int {
        var moved = 0
        let rows = try ItemTable.allRows(in: db).map(ItemRow.init(row:))
        for row in rows where !row.sealed.isPresenceSealed {
            guard (try? keys.classKeys(for: row.accessibility)) != nil else {
                throw KeychainError.firstEnrolmentNeedsUnlockedClasses(accessibility: row.accessibility.constantName)
            }
            var item = try open(row, includingData: false)
            guard item.requiresPresenceSeal else { continue }
            try openData(of: &item)
            var attributes = item.attributes
            if item.isTokenKey, attributes[TokenKeys.publicKeyAttribute] == nil,
                let bits = attributes[.keySizeInBits]?.numberValue, let curve = EllipticCurve(keySizeInBits: Int(bits))
            {
                attributes[TokenKeys.publicKeyAttribute] = .data(
                    try ECPrivateKeyMaterial(curve: curve, scalar: item.data ?? Data()).publicKeyX963())
            }
            try rewrite(
                item, attributes: attributes, data: item.data ?? Data(), sealingTo: publicKey, keepingAdoptionTag: true,
                db)
            moved += 1
        }
        return moved
    }

    /// Moves every item sealed to `old` to the presence key `publicKey`: the class wrap is opened,
    /// the data key unwrapped with `old` and sealed to the new key, the class wrap closed again.
    /// The data, its binding and the row version stay; only the wrapped data key changes.
    private func resealProtectedItems(from old: PresencePrivateKey, to publicKey: PresencePublicKey, _ db: Database)
        throws -> Int
    {
        var removed: [[UInt8]] = []
        var added: [[UInt8]] = []
        let rows = try ItemTable.rows(in: db, secretKeyLength: SealedItem.presenceWrappedLength).map(ItemRow.init(row:))
        for var row in rows where row.sealed.isPresenceSealed {
            guard (try? keys.classKeys(for: row.accessibility)) != nil else {
                throw KeychainError.presenceKeyReplacementNeedsUnlockedClasses(
                    accessibility: row.accessibility.constantName)
            }
            let binding = row.binding(vaultID: keys.header.vaultID)
            let classKeys = try keys.classKeys(for: row.accessibility)
            row.sealed.wrappedSecretKey = try ItemCipher.resealPresenceWrap(
                row.sealed, binding: binding, keys: classKeys, from: old, to: publicKey)
            guard let rowID = row.rowID else { continue }
            removed.append(try keys.stateDigest.fingerprint(rowID: rowID, db))
            try ItemTable.setWrappedSecretKey(in: db, row.sealed.wrappedSecretKey, id: rowID)
            added.append(keys.stateDigest.fingerprint(values: row.storedValues(rowID: rowID)))
        }
        try keys.stateDigest.record(removing: removed, adding: added, db)
        return rows.count
    }

    /// Takes in a keybag another process changed (an enrolment, a passphrase change) before a
    /// change is computed from this instance's copy.
    private func refreshKeys() throws(KeychainError) {
        try read { _ in () }
    }

    /// Whether any item's data key is sealed to a presence key.
    static func hasPresenceSealedItems(_ db: Database) throws -> Bool {
        try ItemTable.containsRow(in: db, secretKeyLength: SealedItem.presenceWrappedLength)
    }

    /// The old wrapped keys stay in the database file until the write-ahead log is checkpointed
    /// into it (secure_delete then overwrites them); do it now.
    private func checkpointAfterRewrap(_ what: String) {
        do { try checkpointNow() } catch {
            logger.warning(
                "\(what), but the keychain file could not be checkpointed yet: until a later write checkpoints it, the previous wrapped keys stay in its write-ahead log",
                metadata: ["error": "\(error.code)"])
        }
    }
}
