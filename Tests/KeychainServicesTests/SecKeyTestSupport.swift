#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// The outcome of a SecKey call: its value, and the status and message of the CFError it set.
struct SecKeyOutcome<Value> {
    let value: Value?
    let status: OSStatus?
    let message: String?
}

/// Calls a SecKey function with an error pointer and takes the error it sets.
func secKeyCall<Value>(_ body: (UnsafeMutablePointer<Unmanaged<CFError>?>) -> Value?) -> SecKeyOutcome<Value> {
    var error: Unmanaged<CFError>?
    let value = body(&error)
    let cfError = error?.takeRetainedValue()
    if let cfError { XCTAssertEqual(CFErrorGetDomain(cfError) as String?, NSOSStatusErrorDomain) }
    return SecKeyOutcome(
        value: value, status: cfError.map { OSStatus(CFErrorGetCode($0)) }, message: cfError?.localizedDescription)
}

extension SecItemTestCase {
    /// Generates a key: software unless `token`, with extra private-key attributes.
    func makeKey(
        bits: Int = 256, token: Bool = false, _ privateAttributes: [String: Any] = [:], top: [String: Any] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> SecKey {
        var parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: bits
        ]
        if token { parameters[kSecAttrTokenID as String] = kSecAttrTokenIDSecureEnclave }
        if !privateAttributes.isEmpty { parameters[kSecPrivateKeyAttrs as String] = privateAttributes }
        parameters.merge(top) { $1 }
        let outcome = secKeyCall { SecKeyCreateRandomKey(parameters as CFDictionary, $0) }
        return try XCTUnwrap(
            outcome.value,
            "SecKeyCreateRandomKey failed: \(outcome.status.map(String.init) ?? "") \(outcome.message ?? "")",
            file: file, line: line)
    }

    /// The public key of a key pair.
    func publicKey(of key: SecKey, file: StaticString = #filePath, line: UInt = #line) throws -> SecKey {
        try XCTUnwrap(SecKeyCopyPublicKey(key), file: file, line: line)
    }

    /// `SecKeyCopyExternalRepresentation`, which must succeed.
    func external(_ key: SecKey, file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        let outcome = secKeyCall { SecKeyCopyExternalRepresentation(key, $0) }
        return try XCTUnwrap(outcome.value as Data?, "export failed: \(outcome.message ?? "")", file: file, line: line)
    }

    /// `SecKeyCreateSignature`, which must succeed.
    func sign(
        _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Data {
        let outcome = secKeyCall { SecKeyCreateSignature(key, algorithm, data as CFData, $0) }
        return try XCTUnwrap(outcome.value as Data?, "\(algorithm): \(outcome.message ?? "")", file: file, line: line)
    }

    /// `SecKeyVerifySignature` with its error status.
    func verify(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data, _ signature: Data) -> (
        valid: Bool, status: OSStatus?
    ) {
        var error: Unmanaged<CFError>?
        let valid = SecKeyVerifySignature(key, algorithm, data as CFData, signature as CFData, &error)
        return (valid, error.map { OSStatus(CFErrorGetCode($0.takeRetainedValue())) })
    }

    /// A query for key items with an application tag.
    func keyQuery(tag: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data(tag.utf8)].merging(extra) { $1 }
    }
}

#endif
