import Crypto
import Foundation
import SecureStorageFoundation

/// The random values one item's sealing needs, drawn with one system call
/// (``SystemRandom/fill(_:)``): its metadata and secret keys, a GCM nonce for each, and the
/// random part of its identifier. The buffer they were cut from is wiped.
///
/// Keys are fresh for every item and every rewrite, so a random nonce per key is never reused.
struct ItemRandomness {
    let metadataKey: SymmetricKey
    let secretKey: SymmetricKey
    let metadataNonce: AES.GCM.Nonce
    let secretNonce: AES.GCM.Nonce
    /// The 10 bytes after an item identifier's sequence number (``Foundation/UUID/sequential(_:random:)``).
    let identifier: [UInt8]

    init() {
        var bytes = [UInt8](repeating: 0, count: 32 + 32 + 12 + 12 + 10)
        defer { SecretWiping.wipe(&bytes) }
        bytes.withUnsafeMutableBytes { SystemRandom.fill($0) }
        metadataKey = SymmetricKey(data: bytes[0..<32])
        secretKey = SymmetricKey(data: bytes[32..<64])
        // A 12-byte nonce is always valid.
        metadataNonce = try! AES.GCM.Nonce(data: bytes[64..<76])
        secretNonce = try! AES.GCM.Nonce(data: bytes[76..<88])
        identifier = Array(bytes[88..<98])
    }
}
