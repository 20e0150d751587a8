import Crypto
import Foundation

/// The two subkeys of one class key: one wraps per-item metadata keys, one per-item secret keys.
struct ClassKeys: Sendable {
    let metadata: SymmetricKey
    let secret: SymmetricKey

    init(classKey: SymmetricKey) {
        metadata = KeyHierarchy.subkey(of: classKey, purpose: "sv1/meta")
        secret = KeyHierarchy.subkey(of: classKey, purpose: "sv1/secret")
    }
}
