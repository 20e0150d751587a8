import Crypto
import Foundation

/// A passphrase about to be set: a fresh salt, the parameters the hardening picks on this
/// machine, and the stretched key K_P. Derived before any transaction starts, so scrypt never
/// holds the database.
struct NewPassphrase {
    let salt: Data
    let parameters: ScryptParameters
    let key: SymmetricKey

    init(_ passphrase: String, hardening: PassphraseHardening) throws(KeychainError) {
        guard !passphrase.isEmpty else { throw KeychainError.emptyPassphrase() }
        salt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        parameters = try hardening.parameters()
        try parameters.requireWithinBounds(in: "the passphrase hardening options")
        key = try parameters.deriveKey(passphrase: passphrase, salt: salt)
    }
}
