import Foundation

extension Keychain {
    /// Who authenticates the user for items with an ``AccessPolicy`` that requires it (biometry
    /// and passcode stand-ins off Apple platforms). Without one, such items cannot be added and
    /// their data cannot be read (`errSecAuthFailed`). Their attributes stay readable.
    public var authenticator: (any Authenticator)? {
        get { authenticatorSlot.withLock { $0 } }
        set { authenticatorSlot.withLock { $0 = newValue } }
    }

    /// Checks the policy of an item being written and records the authenticator's enrolment
    /// state for ``AccessPolicy/Flags/biometryCurrentSet``. Returns the attributes to store.
    func sealingAccessPolicy(_ attributes: [AttributeKey: AttributeValue], isTokenKey: Bool) throws(KeychainError)
        -> [AttributeKey: AttributeValue]
    {
        guard let stored = attributes[.accessControl] else { return attributes }
        guard let bytes = stored.dataValue, var policy = AccessPolicy(encoded: bytes) else {
            throw KeychainError.accessControlAttributeNotAPolicy()
        }
        if !policy.flags.isDisjoint(with: [.companion, .applicationPassword]) {
            throw KeychainError.companionOrApplicationPasswordUnsupported()
        }
        if policy.flags.contains(.privateKeyUsage) && !isTokenKey {
            throw KeychainError.privateKeyUsageOnOtherItem()
        }
        if isTokenKey && policy.requiresAuthentication && !policy.flags.contains(.privateKeyUsage) {
            throw KeychainError.tokenKeyWithoutPrivateKeyUsage()
        }
        var attributes = attributes
        policy.enrollmentState = nil
        if policy.requiresAuthentication {
            guard let authenticator else {
                throw KeychainError.protectedItemWithoutAuthenticator(policy: policy)
            }
            if policy.flags.contains(.biometryCurrentSet) {
                guard let state = authenticator.enrollmentState, !state.isEmpty,
                    authenticator.availableMethods.contains(.biometry)
                else {
                    throw KeychainError.biometryCurrentSetNeedsEnrolledBiometry()
                }
                policy.enrollmentState = state
            }
            if attributes[.synchronizable]?.numberValue == 1 {
                throw KeychainError.protectedItemSynchronizable()
            }
            if policy.guardsData,
                let blob = attributes.keys.first(where: { Self.secretDerivedAttributes.contains($0) && $0 != .sha1 })
            {
                throw KeychainError.protectedItemWithSecretBlobAttribute(attribute: blob.rawValue)
            }
            try requireEnrolment(for: policy)
        }
        attributes[.accessControl] = .data(policy.encoded)
        return attributes
    }

    /// What a successful ``authorize(_:operation:options:)`` yields: the presence key the
    /// authentication unwrapped, or `nil` in a keychain where no authenticator was ever enrolled
    /// (one upgraded from format 4, whose protected items are not yet sealed to a presence key).
    struct Authorization {
        var presenceKey: PresencePrivateKey?
    }

    /// A protected item is sealed to the presence key, so each of its constraints needs an
    /// enrolled method: otherwise it could never be read.
    private func requireEnrolment(for policy: AccessPolicy) throws(KeychainError) {
        let presence = keys.presence
        guard presence.isEstablished else {
            throw KeychainError.protectedItemWithoutEnrolment(policy: policy)
        }
        for methods in policy.requiredAuthentications where methods.isDisjoint(with: presence.enrolledMethods) {
            throw KeychainError.noEnrolmentForRequiredMethods(methods: methods)
        }
        // The installed authenticator must hold one of those enrolments: an enrolment someone
        // else made (the first one in a keychain is whoever's comes first) must not receive the
        // app's new secrets unseen.
        for methods in policy.requiredAuthentications {
            let held = methods.contains { method in
                authenticator?.enrollmentIdentifier(for: method).map {
                    presence.enrollment(method, identifier: $0) != nil
                } ?? false
            }
            guard held else {
                throw KeychainError.installedAuthenticatorHoldsNoEnrolment(methods: methods)
            }
        }
    }

    /// The presence key a new version of an item with these attributes is sealed to: the
    /// keychain's, when its policy requires authentication (for its data, or for using a key
    /// generated inside the keychain); `nil` otherwise, and in a keychain where nothing was ever
    /// enrolled (one upgraded from format 4: its protected items stay as they were until the
    /// first enrolment seals them; new ones cannot be added before it).
    /// `establishing` is the key the first enrolment is creating, before the keychain adopted it.
    func presenceSealing(_ attributes: [AttributeKey: AttributeValue], establishing: PresencePublicKey? = nil)
        -> PresencePublicKey?
    {
        guard let policy = attributes[.accessControl]?.dataValue.flatMap(AccessPolicy.init(encoded:)),
            policy.requiresAuthentication
        else { return nil }
        return keys.presence.publicKey ?? establishing
    }

    /// Asks for the authentications `policy` requires before `operation` (reading data or using
    /// a private key), and unwraps the presence key with the secret the authenticator releases.
    /// Returns `nil` when the item is to be left out (``AuthenticationOptions/Interaction/skip``).
    ///
    /// - Throws: `.userCanceled` (-128) when the user cancels, `.authFailed` (-25293) when
    ///   authentication fails, is impossible, the enrolled biometry changed since the item was
    ///   written, or the authenticator's secret does not open the enrolment (whatever it
    ///   answered); `.interactionNotAllowed` (-25308) when a prompt is needed but not allowed;
    ///   `.integrityViolation` when the keychain's enrolment is not held by the authenticator
    ///   (a deleted or replaced PIN file).
    func authorize(_ policy: AccessPolicy, operation: String, options: AuthenticationOptions) throws(KeychainError)
        -> Authorization?
    {
        guard policy.requiresAuthentication else { return Authorization(presenceKey: nil) }
        if let context = options.context, context.isInvalidated {
            throw KeychainError.authenticationContextInvalidated()
        }
        guard let authenticator else {
            throw KeychainError.protectedReadWithoutAuthenticator(policy: policy)
        }
        if !policy.flags.isDisjoint(with: [.companion, .applicationPassword]) {
            throw KeychainError.companionOrApplicationPasswordRequired()
        }
        var required = policy.requiredAuthentications
        if policy.flags.contains(.biometryCurrentSet) && authenticator.enrollmentState != policy.enrollmentState {
            // The enrolment the item was bound to is gone: biometry can never satisfy it again.
            // With .or another constraint (the passcode) still can.
            required = policy.flags.contains(.or) ? required.map { $0.subtracting([.biometry]) } : [[]]
            if required.contains(where: \.isEmpty) {
                throw KeychainError.enrolledBiometryChanged()
            }
        }
        guard !required.isEmpty else {
            throw KeychainError.noCheckableConstraint()
        }
        var presenceKey: PresencePrivateKey?
        for methods in required {
            let key = try authenticate(methods, with: authenticator, operation: operation, options: options)
            guard let key else { return nil }
            presenceKey = presenceKey ?? key.presenceKey
        }
        return Authorization(presenceKey: presenceKey)
    }

    /// One constraint: an authentication with one of `methods`, reused from the context or
    /// prompted for. Returns `nil` to skip the item.
    func authenticate(
        _ methods: Set<AuthenticationMethod>, with authenticator: any Authenticator, operation: String,
        options: AuthenticationOptions
    ) throws(KeychainError) -> Authorization? {
        let presence = keys.presence
        let vaultID = keys.header.vaultID
        // A cached key that is no longer the keybag's (a PIN change replaced it, or someone
        // substituted it) is not reused: the user is asked again, and the enrolment's key is
        // then checked against the keybag's.
        if let reused = options.context?.reusableAuthentication(
            among: methods, vaultID: vaultID, needingKey: presence.isEstablished),
            reused.presenceKey.map({ $0.publicKey == presence.publicKey }) ?? true
        {
            return Authorization(presenceKey: reused.presenceKey)
        }
        switch options.interaction {
        case .skip: return nil
        case .fail: throw KeychainError.authenticationPromptNotAllowed()
        case .allow: break
        }
        if options.context?.interactionNotAllowed == true {
            throw KeychainError.authenticationContextNotInteractive()
        }
        let available = try enrolledMethods(
            methods.intersection(authenticator.availableMethods), of: authenticator, constraint: methods, presence)
        let reason = options.reason.isEmpty ? options.context?.localizedReason ?? "" : options.reason
        let request = AuthenticationRequest(allowedMethods: available, reason: reason, operation: operation)
        switch authenticator.authenticate(request) {
        case .authenticated(let method, let secret) where available.contains(method):
            var key: PresencePrivateKey?
            if presence.isEstablished {
                guard let wrapped = presence.enrollment(method, identifier: secret.identifier) else {
                    throw KeychainError.unknownEnrolmentReleased()
                }
                let unwrapped = try PresenceEnrollment.unwrap(wrapped, secret: secret, method: method, vaultID: vaultID)
                guard unwrapped.publicKey == presence.publicKey else {
                    throw KeychainError.tamperedEnrolmentKey()
                }
                key = unwrapped
            }
            options.context?.record(method, vaultID: vaultID, presenceKey: key)
            logger.debug("user authenticated", metadata: ["method": "\(method.rawValue)", "operation": "\(operation)"])
            return Authorization(presenceKey: key)
        case .authenticated:
            throw KeychainError.authenticatorMethodNotAccepted()
        case .canceled:
            throw KeychainError.userCanceledAuthentication()
        case .failed:
            throw KeychainError.userAuthenticationFailed()
        }
    }

    /// Of the methods the authenticator offers now, those whose enrolment it holds and the
    /// keychain recorded (all of them while no authenticator was ever enrolled). An enrolment the
    /// keychain recorded but the authenticator does not hold — a deleted or replaced PIN file —
    /// is reported as tampering before anyone is prompted.
    private func enrolledMethods(
        _ offered: Set<AuthenticationMethod>, of authenticator: any Authenticator,
        constraint methods: Set<AuthenticationMethod>, _ presence: PresenceRecords
    ) throws(KeychainError) -> Set<AuthenticationMethod> {
        let names = { (set: Set<AuthenticationMethod>) in set.map(\.rawValue).sorted().joined(separator: " or ") }
        var usable = offered
        if presence.isEstablished {
            let recorded = methods.intersection(presence.enrolledMethods)
            guard !recorded.isEmpty else {
                throw KeychainError.noEnrolmentForMethods(methods: names(methods))
            }
            let held = recorded.filter { method in
                authenticator.enrollmentIdentifier(for: method).map {
                    presence.enrollment(method, identifier: $0) != nil
                } ?? false
            }
            guard !held.isEmpty else {
                throw KeychainError.enrolmentNotHeldByAuthenticator(
                    recorded: names(recorded), pinFile: PINAuthenticator.fileURL(for: location).path)
            }
            usable = offered.intersection(held)
        }
        guard !usable.isEmpty else {
            throw KeychainError.noOfferedMethod(methods: names(methods))
        }
        return usable
    }
}

extension Keychain {
    /// Authenticates the user now, with one of `methods`, and records the authentication in
    /// `context`, as `LAContext.evaluatePolicy` does: reads of protected items through the
    /// context then open without another prompt while its ``AuthenticationContext/reuseDuration``
    /// lasts.
    ///
    /// ```swift
    /// let context = AuthenticationContext(reuseDuration: 30)
    /// try keychain.evaluateAuthentication([.biometry, .passcode], context: context, reason: "Unlock your vault")
    /// var query = Query(.genericPassword, [.service: "vault"], limit: .all)
    /// query.authentication = AuthenticationOptions(context: context)
    /// let items = try keychain.find(query, returning: .data)     // no prompt
    /// ```
    /// - Throws: `.userCanceled` (-128) when the user cancels; `.authFailed` (-25293) when the
    ///   authentication fails, no authenticator is installed, none of `methods` is available,
    ///   or the context was invalidated; `.interactionNotAllowed` when the context forbids
    ///   prompting.
    public func evaluateAuthentication(
        _ methods: Set<AuthenticationMethod>, context: AuthenticationContext,
        reason: String
    ) throws(KeychainError) {
        if context.isInvalidated { throw KeychainError.authenticationContextInvalidated() }
        guard let authenticator else {
            throw KeychainError.noAuthenticatorInstalled()
        }
        guard !methods.intersection(authenticator.availableMethods).isEmpty else {
            throw KeychainError.noRequestedMethodAvailable(methods: methods)
        }
        _ = try authenticate(
            methods, with: authenticator, operation: "evaluate policy",
            options: AuthenticationOptions(context: context, interaction: .allow, reason: reason))
    }
}
