import KeychainCore

/// Every message the Secret Service provider sends, in one place: one factory per failure. A
/// factory takes only names of methods, paths, counts and sizes, never an attribute value or a secret.
extension SecretServiceError {
    // MARK: - Objects and methods

    /// No object lives at `path`.
    static func unknownObject(_ path: String) -> SecretServiceError {
        SecretServiceError(.unknownObject, "No Secret Service object at \(path); it was deleted or never existed.")
    }

    /// The item or collection at `path` does not exist (or is not visible to this caller).
    static func noSuchObject(_ path: String) -> SecretServiceError {
        SecretServiceError(.noSuchObject, "No such item or collection: \(path).")
    }

    /// The object has no method `member` on `interface`.
    static func unknownMethod(_ member: String, interface: String?, path: String) -> SecretServiceError {
        SecretServiceError(
            .unknownMethod, "\(path) has no method \(member) on \(interface ?? "any of its interfaces").")
    }

    /// The body's signature does not match the method's.
    static func wrongSignature(_ member: String, expected: String, got: String) -> SecretServiceError {
        SecretServiceError(.invalidArgs, "\(member) takes arguments of signature '\(expected)', not '\(got)'.")
    }

    /// An argument is malformed; `what` names it and why (no value).
    static func invalidArgument(_ what: String) -> SecretServiceError {
        SecretServiceError(.invalidArgs, "Invalid argument: \(what).")
    }

    /// The interface has no property `name`.
    static func unknownProperty(_ name: String, interface: String) -> SecretServiceError {
        SecretServiceError(.unknownProperty, "\(interface) has no property \(name).")
    }

    /// The property `name` cannot be set.
    static func readOnlyProperty(_ name: String, interface: String) -> SecretServiceError {
        SecretServiceError(.propertyReadOnly, "\(interface).\(name) is read-only.")
    }

    // MARK: - Sessions and secrets

    /// An algorithm other than `plain` and `dh-ietf1024-sha256-aes128-cbc-pkcs7`.
    static func unsupportedAlgorithm(_ name: String) -> SecretServiceError {
        SecretServiceError(
            .notSupported,
            "The algorithm \(PrintableName.of(name)) is not supported; "
                + "use dh-ietf1024-sha256-aes128-cbc-pkcs7 or plain."
        )
    }

    /// The system's libcrypto, which computes the key agreement, could not be loaded.
    static func keyAgreementUnavailable() -> SecretServiceError {
        SecretServiceError(
            .notSupported,
            "The dh-ietf1024-sha256-aes128-cbc-pkcs7 key agreement needs the system's OpenSSL 3 libcrypto, "
                + "which could not be loaded; install libssl3.")
    }

    /// The client's public key is 0, 1, p−1, not below the prime, or of the wrong size.
    static func degenerateClientKey() -> SecretServiceError {
        SecretServiceError(
            .invalidArgs,
            "The client's Diffie-Hellman public key is not a valid element of the 1024-bit MODP group "
                + "(0, 1, p-1 or not below the prime); generate a new key pair.")
    }

    /// The session path is unknown, closed, or another caller's.
    static func noSession(_ path: String) -> SecretServiceError {
        SecretServiceError(.noSession, "No open session \(path) for this caller; call OpenSession first.")
    }

    /// An encrypted secret could not be decrypted (wrong IV size, padding, or key).
    static func undecryptableSecret() -> SecretServiceError {
        SecretServiceError(
            .invalidArgs, "The secret could not be decrypted with the session's key (bad IV, padding or key).")
    }

    /// A secret larger than the limit.
    static func secretTooLarge(size: Int, limit: Int) -> SecretServiceError {
        SecretServiceError(.invalidArgs, "The secret is \(size) bytes; at most \(limit) bytes are accepted.")
    }

    /// An attribute map over the limits.
    static func attributesTooLarge(count: Int, size: Int, countLimit: Int, sizeLimit: Int) -> SecretServiceError {
        SecretServiceError(
            .invalidArgs,
            "The attribute map has \(count) pairs and \(size) bytes; at most \(countLimit) pairs and "
                + "\(sizeLimit) bytes are accepted.")
    }

    /// The caller holds `limit` sessions or prompts already.
    static func tooMany(_ what: String, limit: Int) -> SecretServiceError {
        SecretServiceError(.limitsExceeded, "This client already holds \(limit) \(what); close some first.")
    }

    // MARK: - Lock state and access

    /// The object is locked.
    static func locked(_ path: String) -> SecretServiceError {
        SecretServiceError(.isLocked, "\(path) is locked; call Unlock (or run `keychain unlock`) first.")
    }

    /// A caller of another uid.
    static func otherUser(uid: UInt32) -> SecretServiceError {
        SecretServiceError(.accessDenied, "The Secret Service of this user does not serve uid \(uid).")
    }

    /// The caller could not be identified (it exited, or its process could not be read).
    static func unidentifiedCaller() -> SecretServiceError {
        SecretServiceError(
            .accessDenied, "The calling process could not be identified (it exited or its /proc entry is unreadable).")
    }

    /// A sandboxed app asked for something outside its own items.
    static func sandboxed(_ what: String) -> SecretServiceError {
        SecretServiceError(.accessDenied, "A sandboxed application may not \(what).")
    }

    /// The login or session collection cannot be deleted.
    static func permanentCollection(_ path: String) -> SecretServiceError {
        SecretServiceError(.accessDenied, "\(path) cannot be deleted.")
    }

    /// The alias name is not one the provider keeps.
    static func invalidAlias() -> SecretServiceError {
        SecretServiceError(.invalidArgs, "Alias names are 1 to 64 characters of [A-Za-z0-9_].")
    }

    // MARK: - The keychain and the bus

    /// The keychain failed; its error's message is safe to show (KeychainCore never puts values in it).
    static func keychain(_ error: KeychainError) -> SecretServiceError {
        if error.code == .interactionNotAllowed {
            return SecretServiceError(.isLocked, "The keychain is locked; call Unlock or run `keychain unlock`.")
        }
        if error.code == .itemNotFound {
            return SecretServiceError(.noSuchObject, "The item no longer exists.")
        }
        return SecretServiceError(.failed, "The keychain failed: \(error.message)")
    }

    /// A failure of no known kind (never expected; the provider keeps serving).
    static func unexpected() -> SecretServiceError {
        SecretServiceError(.failed, "The Secret Service failed unexpectedly; the call changed nothing it reported.")
    }

    /// Another connection owns `org.freedesktop.secrets`.
    static func nameOwned(by owner: String?) -> SecretServiceError {
        SecretServiceError(
            .nameTaken,
            "org.freedesktop.secrets is already owned by \(owner.map(PrintableName.of) ?? "another connection") "
                + "(gnome-keyring-daemon, KWallet or another keychaind?); stop it, or do not start the provider "
                + "on this bus.")
    }

    /// The bus refused the name for another reason.
    static func nameRefused(reply: UInt32) -> SecretServiceError {
        SecretServiceError(.nameTaken, "The bus refused org.freedesktop.secrets (RequestName reply \(reply)).")
    }
}

/// Names from clients (algorithm names, bus names) made safe to print: printable ASCII, at most 64 characters.
enum PrintableName {
    /// `name` with anything outside printable ASCII replaced by `?`, cut at 64 characters.
    static func of(_ name: String) -> String {
        let cleaned = String(
            name.unicodeScalars.prefix(64).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" })
        return "'" + cleaned + (name.unicodeScalars.count > 64 ? "…'" : "'")
    }
}
