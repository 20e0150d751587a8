#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Review of the i36 restructuring, (2): the hand-written PKCS#1 DER reader (RSAKeyDER) that
// replaced BoringSSL's parser, and the raw public operation from the system's libcrypto.
import Crypto
import CryptoExtras
import Foundation
import KeychainCore
@testable import KeychainServices
import XCTest

final class Review36RSAAttackTests: XCTestCase {
    /// DER helpers.
    private static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var value = count
        while value > 0 {
            bytes.insert(UInt8(value & 0xFF), at: 0)
            value >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
    private static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }
    private static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    private func vectorNumbers() throws -> RSAKeyDER.PublicNumbers {
        try XCTUnwrap(RSAKeyDER.publicNumbers(pkcs1: RSAVectors.publicKey))
    }

    /// BoringSSL's verdict on a PKCS#1 public key, as swift-crypto 4's `_RSA` API reads it
    /// (the reference the old code used): its (n, e) when accepted.
    private func boringSSL(_ der: Data) -> (n: [UInt8], e: [UInt8])? {
        guard let key = try? _RSA.Encryption.PublicKey(unsafeDERRepresentation: der) else { return nil }
        let exported = key.pkcs1DERRepresentation
        return RSAKeyDER.publicNumbers(pkcs1: exported).map { ($0.modulus, $0.exponent) }
    }

    /// Differential fuzzing against BoringSSL: whatever the hand-written reader accepts (with
    /// the platform's size rules: 1024…8192 bits in whole bytes), BoringSSL accepts too, with
    /// the same numbers; and it accepts BoringSSL's own canonical encoding of every key
    /// BoringSSL accepts.
    func testTheDERReaderNeverAcceptsWhatBoringSSLRefusesOrReadsOtherNumbers() throws {
        var rng = SystemRandomNumberGenerator()
        let base = [UInt8](RSAVectors.publicKey)
        var accepted = 0
        var disagreements: [String] = []
        for iteration in 0..<20_000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                guard !bytes.isEmpty else { break }
                let index = Int.random(
                    in: 0..<min(bytes.count, Bool.random(using: &rng) ? 12 : bytes.count), using: &rng)
                switch Int.random(in: 0..<7, using: &rng) {
                case 0: bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                case 1:
                    bytes[index] =
                        [0x00, 0xFF, 0x80, 0x7F, 0x81, 0x82, 0x83, 0x84, 0x85, 0x02, 0x30][
                            Int.random(in: 0..<11, using: &rng)]
                case 2: bytes.removeSubrange(index...)
                case 3: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: index)
                case 4: bytes.remove(at: index)
                case 5: bytes += [UInt8](repeating: 0, count: Int.random(in: 1...4, using: &rng))
                default: bytes[bytes.count - 1] ^= 0x02
                }
            }
            let der = Data(bytes)
            let ours = RSAKeyDER.publicNumbers(pkcs1: der).flatMap { numbers -> RSAKeyDER.PublicNumbers? in
                (1024...8192).contains(numbers.bitCount) && numbers.bitCount % 8 == 0 ? numbers : nil
            }
            let theirs = boringSSL(der)
            if let ours {
                accepted += 1
                if let theirs {
                    if theirs.n != ours.modulus || theirs.e != ours.exponent {
                        disagreements.append("mutant \(iteration): other numbers")
                    }
                } else {
                    disagreements.append(
                        "mutant \(iteration) accepted here, refused by BoringSSL: \(der.map { String(format: "%02x", $0) }.joined().prefix(40))…"
                    )
                }
            }
        }
        XCTAssertEqual(disagreements, [], "\(disagreements.count) disagreements")
        print("Review36 RSA differential fuzz: \(accepted) of 20000 mutants accepted")
    }

    /// Keys of every size BoringSSL makes: the reader reads the numbers BoringSSL reads.
    func testTheReaderAgreesWithBoringSSLOnGeneratedKeys() throws {
        for bits in [1024, 1152, 2048, 3072] {
            let key = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: bits))
            let der = key.publicKey.pkcs1DERRepresentation
            let numbers = try XCTUnwrap(RSAKeyDER.publicNumbers(pkcs1: der), "\(bits)")
            XCTAssertEqual(numbers.bitCount, bits)
            let theirs = try XCTUnwrap(boringSSL(der))
            XCTAssertEqual(theirs.n, numbers.modulus)
            XCTAssertEqual(theirs.e, numbers.exponent)
            let privateNumbers = try XCTUnwrap(RSAKeyDER.privateKeyPublicNumbers(pkcs1: key.derRepresentation))
            XCTAssertEqual(privateNumbers, numbers)
        }
    }

    /// The raw public operation refuses every input that is not smaller than the modulus
    /// (n itself, n + 2, all ones), and inputs of another length; it computes x^e mod n right
    /// for 0, 1 and n − 1.
    func testTheRawPublicOperationRefusesInputsNotBelowTheModulus() throws {
        let numbers = try vectorNumbers()
        let n = numbers.modulus
        guard (try? RSAPublicOperation.compute(Data(count: n.count), numbers)) != nil else {
            throw XCTSkip("the system's libcrypto is not available")
        }
        var nPlus2 = n
        nPlus2[nPlus2.count - 1] &+= 2
        XCTAssertNotEqual(nPlus2.last, 0, "no carry in this vector")
        for (situation, input) in [("n", n), ("n + 2", nPlus2), ("all ones", [UInt8](repeating: 0xFF, count: n.count))]
        {
            XCTAssertNil(try RSAPublicOperation.compute(Data(input), numbers), situation)
        }
        XCTAssertNil(try RSAPublicOperation.compute(Data([1]), numbers), "short input")
        XCTAssertNil(try RSAPublicOperation.compute(Data([0] + n), numbers), "long input with a leading zero")
        XCTAssertEqual(try RSAPublicOperation.compute(Data(count: n.count), numbers), Data(count: n.count))
        let one = Data(count: n.count - 1) + [1]
        XCTAssertEqual(try RSAPublicOperation.compute(one, numbers), one)
        var nMinus1 = n
        nMinus1[nMinus1.count - 1] -= 1  // n odd: no borrow
        // (n − 1)^e = (−1)^e = −1 = n − 1 (e odd).
        XCTAssertEqual(try RSAPublicOperation.compute(Data(nMinus1), numbers), Data(nMinus1))
    }

    /// Through the public API: raw encryption of a block not below n is errSecParam, never a result.
    func testRawEncryptionOfABlockNotBelowTheModulusIsRefused() throws {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic
        ]
        var error: Unmanaged<CFError>?
        let key = try XCTUnwrap(
            SecKeyCreateWithData(RSAVectors.publicKey as CFData, attributes as CFDictionary, &error))
        let n = try vectorNumbers().modulus
        for input in [n, [UInt8](repeating: 0xFF, count: n.count)] {
            var failure: Unmanaged<CFError>?
            let result = SecKeyCreateEncryptedData(key, .rsaEncryptionRaw, Data(input) as CFData, &failure)
            XCTAssertNil(result)
            XCTAssertNotNil(failure?.takeRetainedValue())
        }
    }

    /// Hostile lengths around the reader's 4-byte limit and Int arithmetic: never a trap.
    func testHostileLengthsNeverTrap() {
        let e = Self.integer([1, 0, 1])
        let rows: [[UInt8]] = [
            [0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF],
            [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x01, 0x01],
            [0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00],
            [0x30, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x30, 0x06, 0x02, 0x84, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x30, 0x06, 0x02, 0x84, 0x00, 0x00, 0x00, 0x01],
            [0x30, 0x03, 0x02, 0x81],
            [0x30, 0x02, 0x02, 0x00],
            [0x30, 0x00],
            [0x30],
            [],
            [0x1F, 0x30, 0x00],
            [0x30, 0x81],
            [0x30, 0x82, 0x01],
            // 512 bits: parsed, refused by size
            Self.tlv(0x30, Self.integer([0x80] + [UInt8](repeating: 0x11, count: 63) + [0x01]) + e)
        ]
        for der in rows {
            _ = RSAKeyDER.publicNumbers(pkcs1: Data(der))
            _ = RSAKeyDER.privateKeyPublicNumbers(pkcs1: Data(der))
        }
        XCTAssertNil(RSAKeyDER.publicNumbers(pkcs1: Data([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF])))
    }
}
#endif
