#if canImport(CTSS2)
import CTSS2
import Foundation
import SecureStorageFoundation

/// One connection to a TPM through tpm2-tss's ESAPI, held for the length of one keychain
/// operation and then closed.
///
/// A TPM has only a few object and session slots, and one reached without a resource manager (a
/// software TPM, `/dev/tpm0`) shares them with every client and keeps what a client loaded, so
/// nothing is kept loaded between operations: the storage primary key is re-created from the
/// owner hierarchy's seed (the same template gives the same key on the same TPM), objects are
/// loaded, used and flushed. Not thread-safe; each operation opens its own (``with(_:_:)``).
final class TPMConnection {
    private(set) var context: OpaquePointer?
    private var tcti: OpaquePointer?
    /// Handles to flush when the connection closes, newest first.
    private var transientHandles: [ESYS_TR] = []

    /// tpm2-tss prints a line to stderr for every failed command, expected ones included; the
    /// keychain reports failures itself. `TSS2_LOG` set by the user still wins.
    private static let quietLogging: Void = { setenv("TSS2_LOG", "all+none", 0) }()

    /// One lock per TPM: this process's operations on a TPM run one at a time, so they never
    /// compete for its few object and session slots.
    private static let locks = Locked<[String: Locked<Void>]>([:])

    /// Connects and sends `TPM2_Startup(CLEAR)` (answered "already started" on a running TPM).
    private init(_ device: TPMDevice) throws(TPMFailure) {
        Self.quietLogging
        // Never a library named by its path (TCTIModule): 0x7000B is the ESAPI's "bad value",
        // not a TCTI error, so the refusal is reported as such, never taken for a missing TPM.
        guard let loaderString = TCTIModule.loaderString(for: device.tcti) else {
            throw TPMFailure(
                code: 0x7000B, operation: "Connecting to the TPM", explanation: TCTIModule.refusal(of: device.tcti))
        }
        try tpmCheck(Tss2_TctiLdr_Initialize(loaderString, &tcti), "Connecting to the TPM (\(device.tcti))")
        let initialized = Esys_Initialize(&context, tcti, nil)
        guard initialized == TSS2_RC_SUCCESS else {
            Tss2_TctiLdr_Finalize(&tcti)
            throw TPMFailure(code: initialized, operation: "Starting a TPM session (\(device.tcti))")
        }
        let started = Esys_Startup(context, TPM2_SU(TPM2_SU_CLEAR))
        guard started == TSS2_RC_SUCCESS || started == CTSS2_RC_INITIALIZE else {
            close()
            throw TPMFailure(code: started, operation: "Starting the TPM")
        }
    }

    /// Flushes objects and sessions a killed client left loaded, when the TPM says its slots are
    /// full. A TPM reached without a resource manager (a software TPM, `/dev/tpm0`) keeps what a
    /// client loaded after it dies, and three leftovers fill it; through a resource manager
    /// (`/dev/tpmrm0`) this sees only this connection's handles. Never done before an operation:
    /// on a TPM shared without a resource manager it would flush another client's live objects.
    private func flushAbandonedHandles() {
        var system: OpaquePointer?
        guard Esys_GetSysContext(context, &system) == TSS2_RC_SUCCESS, let system else { return }
        // HMAC sessions are 0x02xxxxxx, policy sessions 0x03xxxxxx; both are listed from the first.
        for first in [CTSS2_TRANSIENT_FIRST, CTSS2_LOADED_SESSION_FIRST] {
            var more = TPMI_YES_NO(0)
            var capabilities = TPMS_CAPABILITY_DATA()
            guard
                Tss2_Sys_GetCapability(
                    system, nil, TPM2_CAP(TPM2_CAP_HANDLES), first, CTSS2_MAX_CAP_HANDLES, &more, &capabilities, nil)
                    == TSS2_RC_SUCCESS
            else { continue }
            let handles = withUnsafeBytes(of: capabilities.data.handles.handle) {
                Array($0.bindMemory(to: TPM2_HANDLE.self).prefix(Int(capabilities.data.handles.count)))
            }
            let kinds: Set<UInt32> = first == CTSS2_TRANSIENT_FIRST ? [0x80] : [0x02, 0x03]
            for handle in handles where kinds.contains(handle >> 24) {
                _ = Tss2_Sys_FlushContext(system, handle)
            }
        }
    }

    deinit { close() }

    private func close() {
        for handle in transientHandles { Esys_FlushContext(context, handle) }
        transientHandles = []
        if context != nil { Esys_Finalize(&context) }
        if tcti != nil { Tss2_TctiLdr_Finalize(&tcti) }
    }

    /// Runs `body` on a fresh connection to `device` and closes it (flushing every object loaded).
    ///
    /// The whole operation runs on a thread of its own and must finish within
    /// ``TPMDevice/responseTimeout``: tpm2-tss's synchronous calls wait for the TPM without a
    /// limit, so a TPM that takes the connection and never answers would otherwise hang the open
    /// that holds the keychain's lock. On timeout the thread is abandoned (it closes its
    /// connection if the TPM ever answers) and the operation fails as unreachable. When the TPM
    /// reports its slots full, leftovers of killed clients are flushed and the operation runs once more.
    static func with<T>(_ device: TPMDevice, _ body: @escaping (TPMConnection) throws(TPMFailure) -> T)
        throws(TPMFailure) -> T
    {
        let lock = locks.withLock { locks in
            if let lock = locks[device.tcti] { return lock }
            let lock = Locked<Void>()
            locks[device.tcti] = lock
            return lock
        }
        func attempt(flushingFirst: Bool) -> Result<T, TPMFailure> {
            lock.withLock { () -> Result<T, TPMFailure> in
                do throws(TPMFailure) {
                    let connection = try TPMConnection(device)
                    defer { connection.close() }
                    if flushingFirst { connection.flushAbandonedHandles() }
                    return .success(try body(connection))
                } catch {
                    return .failure(error)
                }
            }
        }
        let operation = WatchedOperation<T> {
            let first = attempt(flushingFirst: false)
            if case .failure(let failure) = first, failure.isOutOfMemory { return attempt(flushingFirst: true) }
            return first
        }
        Thread.detachNewThread {
            let result = operation.run()
            operation.state.withLock { state in
                if !state.abandoned { state.result = result }
            }
            operation.done.signal()
        }
        let timeout = device.responseTimeout.components
        let answered =
            operation.done.wait(timeout: .now() + Double(timeout.seconds) + Double(timeout.attoseconds) / 1e18)
            == .success
        let result = operation.state.withLock { state -> Result<T, TPMFailure>? in
            guard answered, let result = state.result else {
                state.abandoned = true
                return nil
            }
            return result
        }
        guard let result else {
            var failure = TPMFailure(code: 0xa0009, operation: "Using the TPM (\(device.tcti))")  // TCTI "try again"
            failure.explanation = "The TPM at \(device.tcti) did not answer within \(device.responseTimeout)."
            throw failure
        }
        return try result.get()
    }

    /// Flushes an object or session when the connection closes.
    func flushOnClose(_ handle: ESYS_TR) { transientHandles.insert(handle, at: 0) }

    // MARK: - Storage primary key

    /// The storage primary key under which everything of the keychain is wrapped: the TCG
    /// template for an ECC P-256 storage root key (restricted decryption key, AES-128-CFB, no
    /// authorization), created from the owner hierarchy. Its TPM name identifies the TPM and
    /// owner seed that wrapped an object, so "another TPM" is told apart from damage.
    func storagePrimaryKey() throws(TPMFailure) -> (handle: ESYS_TR, name: Data) {
        var template = TPM2B_PUBLIC.p256(TPMA_OBJECT(TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT), storageKey: true)
        template.publicArea.unique.ecc.x.size = 32
        template.publicArea.unique.ecc.y.size = 32
        var sensitive = TPM2B_SENSITIVE_CREATE()
        var outsideInfo = TPM2B_DATA()
        var creationPCR = TPML_PCR_SELECTION()
        var handle = ESYS_TR(ESYS_TR_NONE)
        try tpmCheck(
            Esys_CreatePrimary(
                context, ESYS_TR(ESYS_TR_RH_OWNER), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
                ESYS_TR(ESYS_TR_NONE),
                &sensitive, &template, &outsideInfo, &creationPCR, &handle, nil, nil, nil, nil),
            "Creating the TPM storage key in the owner hierarchy")
        flushOnClose(handle)
        return (handle, try name(of: handle))
    }

    /// The storage primary key, checked to be the one named `expectedName` (the one that wrapped
    /// an object): another one means another TPM, or this TPM's owner hierarchy was cleared.
    func storagePrimaryKey(named expectedName: Data, wrapping what: String) throws(TPMFailure) -> ESYS_TR {
        let primary = try storagePrimaryKey()
        guard primary.name == expectedName else {
            throw TPMFailure(
                // parameter 1
                code: CTSS2_RC_INTEGRITY | 0x140, operation: "Finding the TPM storage key that wrapped \(what)")
        }
        return primary.handle
    }

    /// The TPM name (hash algorithm ‖ digest of the public area) of a loaded object.
    func name(of handle: ESYS_TR) throws(TPMFailure) -> Data {
        var name: UnsafeMutablePointer<TPM2B_NAME>?
        try tpmCheck(Esys_TR_GetName(context, handle, &name), "Reading a TPM object's name")
        defer { Esys_Free(name) }
        guard let name else { return Data() }
        return tpmBytes(of: name.pointee.name, count: Int(name.pointee.size))
    }

    // MARK: - Sessions

    /// An HMAC session salted with the storage primary key: authorization values are proven by
    /// an HMAC and never sent. With `encrypting` (the default) it also encrypts the first
    /// parameter of commands and responses with AES-128-CFB, so secrets cross the bus to the TPM
    /// only encrypted; commands whose first response parameter is not a sized buffer (Sign) take
    /// it without.
    func encryptedSession(saltedBy primary: ESYS_TR, type: TPM2_SE = TPM2_SE(TPM2_SE_HMAC), encrypting: Bool = true)
        throws(TPMFailure) -> ESYS_TR
    {
        try startSession(
            type, saltedBy: primary, boundTo: ESYS_TR(ESYS_TR_NONE),
            encrypting: encrypting ? TPMA_SESSION_DECRYPT | TPMA_SESSION_ENCRYPT : 0)
    }

    /// An HMAC session bound to a loaded object, for commands that use it: its session key
    /// comes from the object's authorization value, so the value is proven, never sent, and
    /// with `encrypting` the first response parameter travels encrypted (AES-128-CFB) under a
    /// key a sniffer cannot derive without that value. No ECDH salt is needed, so it costs about
    /// a millisecond less than ``encryptedSession(saltedBy:type:encrypting:)`` on a software TPM
    /// and far more on a chip. Only for objects whose authorization value is secret and random.
    func session(boundTo object: ESYS_TR, encrypting: Bool) throws(TPMFailure) -> ESYS_TR {
        try startSession(
            TPM2_SE(TPM2_SE_HMAC), saltedBy: ESYS_TR(ESYS_TR_NONE), boundTo: object,
            encrypting: encrypting ? TPMA_SESSION_ENCRYPT : 0)
    }

    /// A trial policy session, for computing a policy digest.
    func trialSession() throws(TPMFailure) -> ESYS_TR {
        var symmetric = TPMT_SYM_DEF()
        symmetric.algorithm = TPM2_ALG_ID(TPM2_ALG_NULL)
        return try startSession(
            TPM2_SE(TPM2_SE_TRIAL), symmetric: symmetric, saltedBy: ESYS_TR(ESYS_TR_NONE),
            boundTo: ESYS_TR(ESYS_TR_NONE), encrypting: 0)
    }

    /// Starts a SHA-256 session (AES-128-CFB for parameter encryption unless `symmetric` says
    /// otherwise), flushed when the connection closes, with `encrypting` session attributes.
    private func startSession(
        _ type: TPM2_SE, symmetric: TPMT_SYM_DEF? = nil, saltedBy salt: ESYS_TR, boundTo bind: ESYS_TR,
        encrypting: TPMA_SESSION
    ) throws(TPMFailure) -> ESYS_TR {
        var symmetric =
            symmetric
            ?? {
                var aes = TPMT_SYM_DEF()
                aes.algorithm = TPM2_ALG_ID(TPM2_ALG_AES)
                aes.keyBits.aes = 128
                aes.mode.aes = TPM2_ALG_ID(TPM2_ALG_CFB)
                return aes
            }()
        var session = ESYS_TR(ESYS_TR_NONE)
        try tpmCheck(
            Esys_StartAuthSession(
                context, salt, bind, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                nil, type, &symmetric, TPM2_ALG_ID(TPM2_ALG_SHA256), &session),
            "Starting a TPM session")
        flushOnClose(session)
        try tpmCheck(
            Esys_TRSess_SetAttributes(context, session, TPMA_SESSION(TPMA_SESSION_CONTINUESESSION) | encrypting, 0xff),
            "Configuring the TPM session")
        return session
    }

    // MARK: - Objects

    /// Creates an object from `template` under the storage primary key, with the sensitive part
    /// (`sensitive`, wiped afterwards) sent in an encrypted session: its wrapped blob.
    func create(
        _ template: TPM2B_PUBLIC, sensitive: inout TPM2B_SENSITIVE_CREATE, under primary: ESYS_TR,
        _ operation: String
    ) throws(TPMFailure) -> TPMObjectBlob {
        defer { SecretWiping.wipe(bytesOf: &sensitive) }
        var template = template
        var outsideInfo = TPM2B_DATA()
        var creationPCR = TPML_PCR_SELECTION()
        var privateArea: UnsafeMutablePointer<TPM2B_PRIVATE>?
        var publicArea: UnsafeMutablePointer<TPM2B_PUBLIC>?
        let session = try encryptedSession(saltedBy: primary)
        try tpmCheck(
            Esys_Create(
                context, primary, session, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                &sensitive, &template, &outsideInfo, &creationPCR, &privateArea, &publicArea, nil, nil, nil), operation)
        defer {
            Esys_Free(privateArea)
            Esys_Free(publicArea)
        }
        // TPM_RC_FAILURE
        guard let privateArea, let publicArea else { throw TPMFailure(code: 0x101, operation: operation) }
        return TPMObjectBlob(publicArea: publicArea.pointee, privateArea: privateArea.pointee)
    }

    /// Loads a wrapped object under `parent`, with its authorization value.
    func load(_ blob: TPMObjectBlob, under parent: ESYS_TR, authorization: Data = Data()) throws(TPMFailure) -> ESYS_TR
    {
        var privateArea = blob.privateArea
        var publicArea = blob.publicArea
        var handle = ESYS_TR(ESYS_TR_NONE)
        try tpmCheck(
            Esys_Load(
                context, parent, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &privateArea,
                &publicArea, &handle),
            "Loading a key into the TPM")
        flushOnClose(handle)
        var auth = TPM2B_AUTH()
        try setTPMBytes(&auth.buffer, size: &auth.size, authorization)
        try tpmCheck(Esys_TR_SetAuth(context, handle, &auth), "Setting a TPM object's authorization")
        SecretWiping.wipe(bytesOf: &auth)
        return handle
    }
}

extension TPM2B_PUBLIC {
    /// A template for a P-256 key made in the TPM (`fixedTPM`, `fixedParent`,
    /// `sensitiveDataOrigin`, `userWithAuth`, `noDA` and `attributes`), with SHA-256 names and no
    /// scheme or KDF (given per command); a storage key also gets AES-128-CFB for what it wraps.
    static func p256(_ attributes: TPMA_OBJECT, storageKey: Bool) -> TPM2B_PUBLIC {
        var template = TPM2B_PUBLIC()
        template.publicArea.type = TPM2_ALG_ID(TPM2_ALG_ECC)
        template.publicArea.nameAlg = TPM2_ALG_ID(TPM2_ALG_SHA256)
        template.publicArea.objectAttributes =
            TPMA_OBJECT(
                TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
                    | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA) | attributes
        if storageKey {
            template.publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_ID(TPM2_ALG_AES)
            template.publicArea.parameters.eccDetail.symmetric.keyBits.aes = 128
            template.publicArea.parameters.eccDetail.symmetric.mode.aes = TPM2_ALG_ID(TPM2_ALG_CFB)
        } else {
            template.publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_ID(TPM2_ALG_NULL)
        }
        template.publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_ID(TPM2_ALG_NULL)
        template.publicArea.parameters.eccDetail.curveID = TPM2_ECC_CURVE(TPM2_ECC_NIST_P256)
        template.publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_ID(TPM2_ALG_NULL)
        return template
    }
}

// MARK: - Byte helpers

/// The first `count` bytes of a TPM2B's fixed-size buffer (imported as a tuple).
func tpmBytes<Buffer>(of buffer: Buffer, count: Int) -> Data {
    withUnsafeBytes(of: buffer) { Data($0.prefix(count)) }
}

/// Copies `bytes` into a TPM2B's buffer and sets its size; fails when they do not fit.
func setTPMBytes<Buffer>(_ buffer: inout Buffer, size: inout UInt16, _ bytes: Data) throws(TPMFailure) {
    let fits = withUnsafeMutableBytes(of: &buffer) { destination -> Bool in
        guard bytes.count <= destination.count else { return false }
        destination.copyBytes(from: bytes)
        return true
    }
    // TPM_RC_SIZE
    guard fits else { throw TPMFailure(code: 0x1d5, operation: "Passing \(bytes.count) bytes to the TPM") }
    size = UInt16(bytes.count)
}

/// `bytes` left-padded with zeros to `length` (the TPM drops leading zeros of ECC coordinates).
func leftPadded(_ bytes: Data, to length: Int) -> Data {
    bytes.count >= length ? bytes : Data(count: length - bytes.count) + bytes
}

/// An operation run on its own thread and waited for with a timeout; after the timeout its
/// result, if it ever comes, is dropped.
private final class WatchedOperation<T>: @unchecked Sendable {
    /// Signalled when the thread is done: a signal waited for with a timeout, not a lock (``Locked`` cannot wait).
    let done = DispatchSemaphore(value: 0)
    /// The result once the thread has it, and whether the waiter gave up first (then the result
    /// is dropped).
    let state = Locked<(result: Result<T, TPMFailure>?, abandoned: Bool)>((nil, false))
    let run: () -> Result<T, TPMFailure>
    init(_ run: @escaping () -> Result<T, TPMFailure>) { self.run = run }
}
#endif
