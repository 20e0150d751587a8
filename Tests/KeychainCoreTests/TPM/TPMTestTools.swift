#if canImport(CTSS2)
import CTSS2
import Foundation
import TPMTestSupport
import XCTest
@testable import KeychainCore

extension SoftwareTPM {
    /// This TPM as the keychain names it.
    var device: TPMDevice { TPMDevice(tcti: tcti) }

    /// Extends a PCR (SHA-256 bank) with a measurement, as a boot component would: a change of
    /// the Secure Boot state, seen from the TPM.
    func extendPCR(_ index: Int) throws {
        try TPMConnection.with(device) { (tpm: TPMConnection) throws(TPMFailure) in
            var digests = TPML_DIGEST_VALUES()
            digests.count = 1
            digests.digests.0.hashAlg = TPM2_ALG_ID(TPM2_ALG_SHA256)
            withUnsafeMutableBytes(of: &digests.digests.0.digest) { $0.storeBytes(of: 0x5a, as: UInt8.self) }
            try tpmCheck(
                Esys_PCR_Extend(
                    tpm.context, ESYS_TR(ESYS_TR_PCR0) + ESYS_TR(index), ESYS_TR(ESYS_TR_PASSWORD),
                    ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &digests), "Extending PCR \(index)")
        }
    }
}

extension TestKeychain {
    /// The keychain's data and state directories copied to a new place, as someone copying the
    /// files to another machine would: the location of the copy.
    func copyFiles() throws -> KeychainLocation {
        keychain.checkpoint()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("kc-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: copy, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for part in ["data", "state"] {
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent(part), to: copy.appendingPathComponent(part))
        }
        return KeychainLocation(directory: copy)
    }
}
#endif

#if canImport(CTSS2)
import SecureStorageFoundation

extension SoftwareTPM {
    /// Turns the SHA-256 PCR bank off (SHA-1 only, as on old firmware) and reboots the TPM.
    func allocateOnlySHA1Bank() throws {
        try TPMConnection.with(device) { (tpm: TPMConnection) throws(TPMFailure) in
            var allocation = TPML_PCR_SELECTION()
            allocation.count = 2
            allocation.pcrSelections.0.hash = TPM2_ALG_ID(TPM2_ALG_SHA1)
            allocation.pcrSelections.0.sizeofSelect = 3
            withUnsafeMutableBytes(of: &allocation.pcrSelections.0.pcrSelect) {
                $0[0] = 0xff
                $0[1] = 0xff
                $0[2] = 0xff
            }
            allocation.pcrSelections.1.hash = TPM2_ALG_ID(TPM2_ALG_SHA256)
            allocation.pcrSelections.1.sizeofSelect = 3
            var success = TPMI_YES_NO(0)
            var maxPCR: UInt32 = 0
            var sizeNeeded: UInt32 = 0
            var sizeAvailable: UInt32 = 0
            try tpmCheck(
                Esys_PCR_Allocate(
                    tpm.context, ESYS_TR(ESYS_TR_RH_PLATFORM), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
                    ESYS_TR(ESYS_TR_NONE),
                    &allocation, &success, &maxPCR, &sizeNeeded, &sizeAvailable), "Allocating PCR banks")
        }
        try restart()
    }
}

/// Unix-socket listeners standing in for a TPM's data and control sockets (`<dir>/sock` and
/// `<dir>/sock.ctrl`, as tcti-swtpm expects): a recording proxy to a real software TPM (a bus
/// sniffer), or a TPM that accepts connections and never answers commands (optionally
/// answering its control channel, so that connecting succeeds and the first command hangs).
final class FakeTPMSockets: @unchecked Sendable {
    let directory: URL
    private let target: String?
    private let answersControl: Bool
    private var listeners: [Int32] = []
    private let recorded = Locked(Data())
    private let open = Locked<[Int32]>([])

    /// The TCTI naming these sockets.
    var tcti: String { "swtpm:path=\(directory.path)/sock" }
    /// Every byte that crossed, both ways.
    var capturedBytes: Data { recorded.withLock { $0 } }

    /// Forwards to `tpm`, recording, or (without a TPM) answers no command; `answersControl`
    /// acknowledges control requests (tcti-swtpm sends one while connecting).
    init(forwardingTo tpm: SoftwareTPM?, answersControl: Bool = false) throws {
        self.answersControl = answersControl
        directory = URL(fileURLWithPath: "/tmp/tpmx-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        target = tpm.map { $0.stateDirectory.path + "/sock" }
        for suffix in ["", ".ctrl"] {
            guard let listener = UnixSocket.listening(at: directory.path + "/sock" + suffix) else {
                throw CocoaError(.fileWriteUnknown)
            }
            listeners.append(listener)
            let isControl = !suffix.isEmpty
            Thread.detachNewThread { [self] in
                acceptLoop(listener, forwardTo: target.map { $0 + suffix }, acknowledging: isControl && answersControl)
            }
        }
    }

    func stop() {
        for descriptor in listeners + open.withLock({ $0 }) {
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
        listeners = []
        try? FileManager.default.removeItem(at: directory)
    }

    private func acceptLoop(_ listener: Int32, forwardTo target: String?, acknowledging: Bool) {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            open.withLock { $0.append(client) }
            if acknowledging {
                Thread.detachNewThread { Self.acknowledge(client) }
                continue
            }
            guard let target else { continue }  // silent: hold the connection, never answer
            guard let server = UnixSocket.connected(to: target) else {
                close(client)
                continue
            }
            open.withLock { $0.append(server) }
            Thread.detachNewThread { [self] in pump(from: client, to: server) }
            Thread.detachNewThread { [self] in pump(from: server, to: client) }
        }
    }

    private func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else {
                shutdown(destination, Int32(SHUT_WR))
                return
            }
            recorded.withLock { $0.append(contentsOf: buffer[0..<count]) }
            var written = 0
            while written < count {
                let result = buffer[written..<count].withUnsafeBytes { write(destination, $0.baseAddress, $0.count) }
                guard result > 0 else { return }
                written += result
            }
        }
    }

    /// Answers each control request with a 4-byte success code.
    private static func acknowledge(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(descriptor, &buffer, buffer.count) > 0 {
            let success: [UInt8] = [0, 0, 0, 0]
            guard write(descriptor, success, success.count) == success.count else { return }
        }
    }
}
#endif
