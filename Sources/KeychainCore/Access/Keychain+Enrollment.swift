import Foundation
import GRDB

extension Keychain {
    /// The authentication methods enrolled in this keychain: those whose authenticators can
    /// release the presence key that protected items are sealed to.
    public var enrolledMethods: Set<AuthenticationMethod> { keys.presence.enrolledMethods }

    /// The identifiers of the enrolments for `method` (usually one; two for a moment while a
    /// PIN changes).
    public func enrollmentIdentifiers(for method: AuthenticationMethod) -> Set<Data> {
        Set(keys.presence.enrollments[method]?.keys ?? [:].keys)
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
    public func enroll(_ secret: AuthenticationSecret, for method: AuthenticationMethod,
                       authorizedBy existing: (method: AuthenticationMethod, secret: AuthenticationSecret)? = nil,
                       authentication: AuthenticationOptions = AuthenticationOptions()) throws(KeychainError) {
        let expected = keys.header
        let presence = keys.presence
        if presence.enrollment(method, identifier: secret.identifier) != nil {
            throw KeychainError(.duplicateItem, "This \(method.rawValue) secret is already enrolled in the keychain.")
        }
        let presenceKey: PresencePrivateKey
        let established = presence.isEstablished
        if established {
            presenceKey = try currentPresenceKey(authorizedBy: existing, authentication: authentication)
        } else {
            presenceKey = .generate()
        }
        let wrapped = try PresenceEnrollment.wrap(presenceKey, secret: secret, method: method, vaultID: expected.vaultID)
        let (header, keybag, moved) = try changeKeybag(expecting: expected) { db throws -> Int in
            var moved = 0
            if !established {
                try Self.writeKeybag([.presencePublicKey: presenceKey.publicKey.rawRepresentation], db)
                moved = try self.sealProtectedItems(to: presenceKey.publicKey, db)
            }
            try Self.writeKeybag([.presenceEnrollment(method, identifier: secret.identifier): wrapped], db)
            return moved
        }
        keys.adopt(header: header, presence: try PresenceRecords(keybag: keybag))
        settleAnchor()
        logger.info("authenticator enrolled", metadata: ["method": "\(method.rawValue)", "protectedItemsSealed": "\(moved)"])
    }

    /// Removes the enrolments for `method` other than `keeping` (after a PIN change, the old
    /// PIN's). The last enrolment of the keychain cannot be removed: protected items would
    /// never open again.
    ///
    /// - Throws: `.invalidState` when nothing else would remain enrolled.
    public func removeEnrollments(for method: AuthenticationMethod, keeping: Data? = nil) throws(KeychainError) {
        let presence = keys.presence
        let doomed = (presence.enrollments[method] ?? [:]).keys.filter { $0 != keeping }
        guard !doomed.isEmpty else { return }
        let remaining = presence.enrollments.values.reduce(0) { $0 + $1.count } - doomed.count
        guard remaining > 0 else {
            throw KeychainError(.invalidState, "That is the keychain's last enrolment: without it, protected items could never be read again. Enrol another authenticator first.")
        }
        let (header, keybag, _) = try changeKeybag(expecting: keys.header) { db throws in
            for identifier in doomed {
                try db.execute(sql: "DELETE FROM keybag WHERE slot = ?", arguments: [KeybagSlot.presenceEnrollment(method, identifier: identifier).name])
            }
        }
        keys.adopt(header: header, presence: try PresenceRecords(keybag: keybag))
        settleAnchor()
    }

    /// The presence key, from an existing enrolment's secret or an authentication.
    private func currentPresenceKey(authorizedBy existing: (method: AuthenticationMethod, secret: AuthenticationSecret)?,
                                    authentication: AuthenticationOptions) throws(KeychainError) -> PresencePrivateKey {
        let presence = keys.presence
        if let existing {
            guard let wrapped = presence.enrollment(existing.method, identifier: existing.secret.identifier) else {
                throw KeychainError(.authFailed, "The secret given to authorize the enrolment is not one of this keychain's enrolments.")
            }
            return try PresenceEnrollment.unwrap(wrapped, secret: existing.secret, method: existing.method, vaultID: keys.header.vaultID)
        }
        guard let authenticator else {
            throw KeychainError(.authFailed, "Enrolling another authenticator needs an authentication with one already enrolled (\(presence.enrolledMethods.map(\.rawValue).sorted().joined(separator: ", "))), and the keychain has no authenticator.")
        }
        // An authentication with any enrolled method releases the presence key.
        guard let granted = try authenticate(presence.enrolledMethods, with: authenticator, operation: "enrolment", options: authentication),
              let key = granted.presenceKey else {
            throw KeychainError(.interactionNotAllowed, "Enrolling another authenticator needs user authentication, which the call does not allow.")
        }
        return key
    }

    /// Runs `body` in a write transaction that changes presence slots of the keybag, then bumps
    /// the keybag generation (other instances reload it; their class keys stay) and stores the
    /// header MAC through the format anchor's two-phase change.
    private func changeKeybag<T>(expecting: VaultHeader, _ body: @escaping (Database) throws -> T) throws(KeychainError) -> (VaultHeader, [KeybagSlot: Data], T) {
        var header = expecting
        header.keybagGeneration += 1
        return try write { db in
            let current = try HeaderAuthenticator.fetchVerified(db, deviceKey: self.keys.deviceKey, location: self.location).0
            guard current == expecting else {
                throw KeychainError(.invalidState, "Another process changed the keychain's keys meanwhile; nothing was changed. Retry.")
            }
            header.session = current.session
            let result = try body(db)
            try header.updateKeybagState(db)
            let keybag = try KeyStore.fetchKeybag(db)
            try HeaderAuthenticator.storeChange(header, keybag: keybag, location: self.location, deviceKey: self.keys.deviceKey, db)
            return (header, keybag, result)
        }
    }

    /// Re-seals every protected item written before the keychain had a presence key, so that its
    /// data key is sealed to `publicKey` (the first enrolment; inside its transaction). Their
    /// metadata no longer holds the data's digest. Every protected item's class must be unlocked.
    private func sealProtectedItems(to publicKey: PresencePublicKey, _ db: Database) throws -> Int {
        var moved = 0
        let rows = try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id").map(ItemRow.init(row:))
        for row in rows where !row.sealed.isPresenceSealed {
            guard (try? keys.classKeys(for: row.accessibility)) != nil else {
                throw KeychainError(.interactionNotAllowed, "Enrolling the first authenticator moves the keychain's protected items under the new presence key, and some items are in a locked class (\(row.accessibility.rawValue)). Unlock the keychain and retry; nothing was changed.")
            }
            var item = try open(row, includingData: false)
            guard item.requiresPresenceSeal else { continue }
            try openData(of: &item)
            var attributes = item.attributes
            if item.isTokenKey, attributes[TokenKeys.publicKeyAttribute] == nil,
               let bits = attributes[.keySizeInBits]?.numberValue, let curve = EllipticCurve(keySizeInBits: Int(bits)) {
                attributes[TokenKeys.publicKeyAttribute] = .data(try ECPrivateKeyMaterial(curve: curve, scalar: item.data ?? Data()).publicKeyX963())
            }
            try rewrite(item, attributes: attributes, data: item.data ?? Data(), sealingTo: publicKey, db)
            moved += 1
        }
        return moved
    }
}
