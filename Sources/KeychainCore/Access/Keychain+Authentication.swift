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
    func sealingAccessPolicy(_ attributes: [AttributeKey: AttributeValue], isTokenKey: Bool) throws(KeychainError) -> [AttributeKey: AttributeValue] {
        guard let stored = attributes[.accessControl] else { return attributes }
        guard let bytes = stored.dataValue, var policy = AccessPolicy(encoded: bytes) else {
            throw KeychainError(.invalidParameter, "The access-control attribute (accc) is not an access policy; set it with NewItem.protected(by:).")
        }
        if !policy.flags.isDisjoint(with: [.companion, .applicationPassword]) {
            throw KeychainError(.unimplemented, "The access-control flags companion and applicationPassword are not available on this platform; use userPresence, biometry or devicePasscode constraints.")
        }
        if policy.flags.contains(.privateKeyUsage) && !isTokenKey {
            throw KeychainError(.invalidParameter, "privateKeyUsage applies to private keys generated inside the keychain (kSecAttrTokenIDSecureEnclave); other items are protected when their data is read.")
        }
        if isTokenKey && policy.requiresAuthentication && !policy.flags.contains(.privateKeyUsage) {
            throw KeychainError(.invalidParameter, "The access control of a key generated inside the keychain must include privateKeyUsage: its data is never read, so other constraints would guard nothing.")
        }
        var attributes = attributes
        policy.enrollmentState = nil
        if policy.requiresAuthentication {
            guard let authenticator else {
                throw KeychainError(.authFailed, "The item requires user authentication (\(policy)) but the keychain has no authenticator, so it could never be read. Set Keychain.authenticator (for example a PINAuthenticator) first.")
            }
            if policy.flags.contains(.biometryCurrentSet) {
                guard let state = authenticator.enrollmentState, !state.isEmpty, authenticator.availableMethods.contains(.biometry) else {
                    throw KeychainError(.authFailed, "biometryCurrentSet needs enrolled biometry, and the authenticator reports none.")
                }
                policy.enrollmentState = state
            }
            if attributes[.synchronizable]?.numberValue == 1 {
                throw KeychainError(.invalidParameter, "Items with access-control constraints cannot be synchronizable.")
            }
        }
        attributes[.accessControl] = .data(policy.encoded)
        return attributes
    }

    /// Asks for the authentications `policy` requires before `operation` (reading data or using
    /// a private key). Returns false when the item is to be left out (``AuthenticationOptions/Interaction/skip``).
    ///
    /// - Throws: `.userCanceled` (-128) when the user cancels, `.authFailed` (-25293) when
    ///   authentication fails, is impossible or the enrolled biometry changed since the item was
    ///   written, `.interactionNotAllowed` (-25308) when a prompt is needed but not allowed.
    func authorize(_ policy: AccessPolicy, operation: String, options: AuthenticationOptions) throws(KeychainError) -> Bool {
        guard policy.requiresAuthentication else { return true }
        if let context = options.context, context.isInvalidated {
            throw KeychainError(.authFailed, "The authentication context was invalidated; create a new one.")
        }
        guard let authenticator else {
            throw KeychainError(.authFailed, "The item requires user authentication (\(policy)) and the keychain has no authenticator. Set Keychain.authenticator.")
        }
        if !policy.flags.isDisjoint(with: [.companion, .applicationPassword]) {
            throw KeychainError(.authFailed, "The item needs a companion device or an application password, which this platform cannot check.")
        }
        var required = policy.requiredAuthentications
        if policy.flags.contains(.biometryCurrentSet) && authenticator.enrollmentState != policy.enrollmentState {
            // The enrolment the item was bound to is gone: biometry can never satisfy it again.
            // With .or another constraint (the passcode) still can.
            required = policy.flags.contains(.or) ? required.map { $0.subtracting([.biometry]) } : [[]]
            if required.contains(where: \.isEmpty) {
                throw KeychainError(.authFailed, "The enrolled biometry changed since this item was written, and it is protected by biometryCurrentSet: it can never be read again. Delete it and write it anew.")
            }
        }
        guard !required.isEmpty else {
            throw KeychainError(.authFailed, "The item's access control names no constraint this platform can check.")
        }
        for methods in required {
            if options.context?.reusableAuthentication(among: methods) != nil { continue }
            switch options.interaction {
            case .skip: return false
            case .fail: throw KeychainError(.interactionNotAllowed, "Reading the item needs user authentication and the call does not allow prompting (kSecUseAuthenticationUIFail).")
            case .allow: break
            }
            if options.context?.interactionNotAllowed == true {
                throw KeychainError(.interactionNotAllowed, "Reading the item needs user authentication and the authentication context does not allow interaction.")
            }
            let available = methods.intersection(authenticator.availableMethods)
            guard !available.isEmpty else {
                throw KeychainError(.authFailed, "The item needs \(methods.map(\.rawValue).sorted().joined(separator: " or ")) and the authenticator offers none of them.")
            }
            let request = AuthenticationRequest(allowedMethods: available, reason: options.reason, operation: operation)
            switch authenticator.authenticate(request) {
            case .authenticated(let method) where available.contains(method):
                options.context?.record(method)
                logger.debug("user authenticated", metadata: ["method": "\(method.rawValue)", "operation": "\(operation)"])
            case .authenticated:
                throw KeychainError(.authFailed, "The authenticator used a method the item does not accept.")
            case .canceled:
                throw KeychainError(.userCanceled, "The user cancelled the authentication.")
            case .failed:
                throw KeychainError(.authFailed, "User authentication failed.")
            }
        }
        return true
    }
}
