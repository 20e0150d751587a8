#if canImport(CTSS2)
import Crypto
import Foundation
import KeychainCore
import TPMTestSupport

/// The TPM binding against the software path, on a software TPM (swtpm) this run starts:
/// opening a keychain (one unseal), binding, and token keys (create, sign, ECDH). A real TPM chip
/// is slower than swtpm, often by 10–100× per command; the command counts are the same.
///
///     swift run --package-path Benchmarks -c release KeychainBenchmarks --only tpm [--items N]
enum TPMBenchmarks {
    static func run(samples: Int, in directory: URL) throws -> [Measurement] {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let device = TPMDevice(tcti: tpm.tcti)
        func options(_ binding: NewKeychainBinding) -> KeychainOptions {
            KeychainOptions(tpm: device, newKeychainBinding: binding)
        }
        let software = KeychainLocation(directory: directory.appendingPathComponent("tpm-software"))
        let bound = KeychainLocation(directory: directory.appendingPathComponent("tpm-bound"))
        let softwareKeychain = try Keychain(location: software, options: options(.keyFile))
        let boundKeychain = try Keychain(location: bound, options: options(.tpm))
        var results: [Measurement] = []

        let opens = min(samples, 200)
        for (name, location, binding) in [
            ("key file", software, NewKeychainBinding.keyFile), ("TPM-sealed (unseal)", bound, .tpm)
        ] {
            var open = Measurement("open keychain, \(name)")
            for _ in 0..<opens { _ = try open.time { try Keychain(location: location, options: options(binding)) } }
            results.append(open)
        }
        var bind = Measurement("bindToTPM, empty keychain (new secret: seal, unseal to check, rekey)")
        for _ in 0..<min(samples, 50) { try bind.time { try softwareKeychain.bindToTPM() } }
        results.append(bind)
        let unbound = KeychainLocation(directory: directory.appendingPathComponent("tpm-software-2"))
        let plainKeychain = try Keychain(location: unbound, options: KeychainOptions(tpm: nil))

        let peer = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        let digest = Data(SHA256.hash(data: Data(repeating: 0x42, count: 256)))
        for (name, keychain) in [("software", plainKeychain), ("TPM", boundKeychain)] {
            var create = Measurement("generateTokenKey P-256, \(name)")
            var references: [PersistentReference] = []
            for _ in 0..<min(samples, 100) {
                references.append(try create.time { try keychain.generateTokenKey(.p256) }.persistentReference)
            }
            var sign = Measurement("signWithTokenKey P-256 digest, \(name)")
            var agree = Measurement("keyAgreementWithTokenKey P-256, \(name)")
            for _ in 0..<min(samples, 500) {
                _ = try sign.time { try keychain.signWithTokenKey(references[0], digest: digest) }
                _ = try agree.time { try keychain.keyAgreementWithTokenKey(references[0], peerPublicKey: peer) }
            }
            results += [create, sign, agree]
        }
        return results
    }
}
#endif
