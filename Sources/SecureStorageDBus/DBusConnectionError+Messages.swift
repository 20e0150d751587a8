import SecureStorageFoundation

// Every message of a DBusConnectionError, in one place. Factories take only what a message may
// show: offsets, lengths, counts, errno values, header field names, signatures, member names,
// socket paths and texts made printable — never a message body, which may hold a secret.
extension DBusConnectionError {
    /// `text` with everything outside printable ASCII escaped and at most 80 characters kept,
    /// so that bytes a peer chose cannot drive a terminal or flood a log.
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(80) {
            if (0x20..<0x7F).contains(scalar.value), scalar != "\\" {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return text.unicodeScalars.count > 80 ? result + "…" : result
    }

    private static func describe(errno code: Int32) -> String {
        String(cString: strerror(code)) + " (errno \(code))"
    }

    // MARK: - Addresses and connecting

    static func addressEmpty() -> DBusConnectionError {
        DBusConnectionError(.invalidAddress, "The bus address is empty; set DBUS_SESSION_BUS_ADDRESS or pass one.")
    }

    static func addressEntryWithoutTransport() -> DBusConnectionError {
        DBusConnectionError(
            .invalidAddress,
            "A bus address entry has no transport (expected `transport:key=value,…`, e.g. unix:path=…).")
    }

    static func addressPairMalformed() -> DBusConnectionError {
        DBusConnectionError(.invalidAddress, "A bus address entry has a parameter without `key=value` form.")
    }

    static func addressKeyRepeated(_ key: String) -> DBusConnectionError {
        DBusConnectionError(.invalidAddress, "A bus address entry names the key \"\(printable(key))\" twice.")
    }

    static func addressEscapeMalformed() -> DBusConnectionError {
        DBusConnectionError(
            .invalidAddress, "A bus address holds a malformed percent-escape (expected % and two hex digits, UTF-8).")
    }

    static func addressWithoutSupportedEntry() -> DBusConnectionError {
        DBusConnectionError(
            .invalidAddress,
            "The bus address has no entry a client can connect to (only unix:path= and unix:abstract= are supported).")
    }

    static func socketPathTooLong(_ path: String, limit: Int) -> DBusConnectionError {
        DBusConnectionError(
            .invalidAddress,
            "The bus socket \(printable(path)) is longer than a Unix socket address allows (\(limit) bytes).")
    }

    static func socketFailed(errno code: Int32) -> DBusConnectionError {
        DBusConnectionError(.connectFailed, "Cannot set up a Unix socket: \(describe(errno: code)).")
    }

    static func connectFailed(_ path: String, errno code: Int32) -> DBusConnectionError {
        DBusConnectionError(
            .connectFailed,
            "Cannot connect to the bus at \(printable(path)): \(describe(errno: code)). Check that the bus is running "
                + "and that DBUS_SESSION_BUS_ADDRESS names its socket.")
    }

    static func connectTimedOut(_ path: String, seconds: Int) -> DBusConnectionError {
        DBusConnectionError(
            .timedOut, "The bus at \(printable(path)) did not accept the connection within \(seconds) s.")
    }

    static func authenticationRejected() -> DBusConnectionError {
        DBusConnectionError(
            .authenticationFailed,
            "The bus rejected EXTERNAL authentication as this user; it accepts only connections of the user it runs for."
        )
    }

    static func unexpectedAuthenticationReply(_ line: String) -> DBusConnectionError {
        DBusConnectionError(
            .authenticationFailed,
            "The bus answered authentication with \"\(printable(line))\"; is this a D-Bus socket?")
    }

    static func authenticationTimedOut() -> DBusConnectionError {
        DBusConnectionError(.timedOut, "The bus did not answer authentication within 5 s.")
    }

    static func closedDuringAuthentication() -> DBusConnectionError {
        DBusConnectionError(.authenticationFailed, "The bus closed the connection during authentication.")
    }

    static func authenticationLineTooLong() -> DBusConnectionError {
        DBusConnectionError(.authenticationFailed, "The bus sent an authentication line longer than 16 KiB.")
    }

    static func helloWithoutName() -> DBusConnectionError {
        DBusConnectionError(.authenticationFailed, "The bus answered Hello without a unique name.")
    }

    static func unexpectedBusReply(_ member: String) -> DBusConnectionError {
        DBusConnectionError(.bodyMismatch, "The bus answered \(member) with values of an unexpected type.")
    }

    // MARK: - The connection

    static func connectionClosed() -> DBusConnectionError {
        DBusConnectionError(.closed, "The D-Bus connection is closed; connect again.")
    }

    static func closedByBus() -> DBusConnectionError {
        DBusConnectionError(.closed, "The bus closed the connection (it exited or dropped us); connect again.")
    }

    static func callTimedOut(_ member: String, timeout: Duration) -> DBusConnectionError {
        DBusConnectionError(
            .timedOut, "No reply to \(printable(member)) within \(timeout.components.seconds) s; the peer may be hung.")
    }

    static func callCancelled(_ member: String) -> DBusConnectionError {
        DBusConnectionError(.cancelled, "The call to \(printable(member)) was cancelled before its reply came.")
    }

    static func fileDescriptorsNotSupported() -> DBusConnectionError {
        DBusConnectionError(.invalidValue, "The bus did not agree to pass file descriptors, so none can be sent.")
    }

    static func readFailed(errno code: Int32) -> DBusConnectionError {
        DBusConnectionError(.transportFailed, "Reading from the bus failed: \(describe(errno: code)).")
    }

    static func readTimedOut() -> DBusConnectionError {
        DBusConnectionError(.timedOut, "The bus sent nothing within the read timeout.")
    }

    static func writeFailed(errno code: Int32) -> DBusConnectionError {
        DBusConnectionError(
            .transportFailed, "Writing to the bus failed: \(describe(errno: code)); the connection is closed.")
    }

    static func writeTimedOut() -> DBusConnectionError {
        DBusConnectionError(
            .timedOut, "The bus did not read a message within 30 s; the connection is closed (the bus looks hung).")
    }

    static func tooManyDescriptors(limit: Int) -> DBusConnectionError {
        DBusConnectionError(
            .bodyMismatch, "The bus passed more than \(limit) file descriptors at once; the connection is closed.")
    }

    // MARK: - Values and signatures

    static func signatureTooLong(_ length: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidSignature, "A signature is \(length) bytes long; at most 255 are allowed.")
    }

    static func signatureEndsEarly(_ signature: String) -> DBusConnectionError {
        DBusConnectionError(
            .invalidSignature, "The signature \"\(printable(signature))\" ends inside a container type.")
    }

    static func signatureNestsTooDeeply(_ signature: String) -> DBusConnectionError {
        DBusConnectionError(
            .nestingTooDeep, "The signature \"\(printable(signature))\" nests more than 32 arrays or 32 structures.")
    }

    static func emptyStructureInSignature(_ signature: String) -> DBusConnectionError {
        DBusConnectionError(.invalidSignature, "The signature \"\(printable(signature))\" holds an empty structure.")
    }

    static func dictKeyNotBasic(_ signature: String) -> DBusConnectionError {
        DBusConnectionError(
            .invalidSignature,
            "The signature \"\(printable(signature))\" has a dict entry whose key is not a basic type.")
    }

    static func dictEntryNotTwoTypes(_ signature: String) -> DBusConnectionError {
        DBusConnectionError(
            .invalidSignature, "The signature \"\(printable(signature))\" has a dict entry without exactly two types.")
    }

    static func unexpectedSignatureCode(_ code: UInt8, at offset: Int, in signature: String) -> DBusConnectionError {
        DBusConnectionError(
            .invalidSignature,
            "The signature \"\(printable(signature))\" has an unexpected byte 0x\(String(code, radix: 16)) at \(offset) "
                + "(a dict entry outside an array, a stray closing bracket or an unknown type code).")
    }

    static func notSingleCompleteType(_ signature: String, count: Int) -> DBusConnectionError {
        DBusConnectionError(
            .invalidSignature,
            "A variant's signature \"\(printable(signature))\" holds \(count) complete types; it must hold exactly one."
        )
    }

    static func valueDoesNotMatchSignature(expected: String) -> DBusConnectionError {
        DBusConnectionError(
            .invalidValue,
            "A value does not match its signature \"\(printable(expected))\" (an array element of another type?).")
    }

    static func valueHoldsNUL() -> DBusConnectionError {
        DBusConnectionError(.invalidString, "A string value holds a NUL character, which D-Bus strings cannot carry.")
    }

    static func valueTooLong(_ length: Int, limit: Int) -> DBusConnectionError {
        DBusConnectionError(.lengthOutOfRange, "A value is \(length) bytes long; at most \(limit) fit in D-Bus.")
    }

    static func valueNestsTooDeeply() -> DBusConnectionError {
        DBusConnectionError(
            .nestingTooDeep, "A value nests more than 32 arrays, 32 structures or 64 containers (variants included).")
    }

    static func invalidObjectPathValue(_ path: String) -> DBusConnectionError {
        DBusConnectionError(.invalidObjectPath, "\"\(printable(path))\" is not a valid D-Bus object path.")
    }

    // MARK: - Bytes from the wire

    static func truncatedValue(at offset: Int) -> DBusConnectionError {
        DBusConnectionError(.truncated, "The message ends at byte \(offset), inside a value it announces.")
    }

    static func nonZeroPadding(at offset: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidPadding, "Padding byte \(offset) of the message is not zero.")
    }

    static func arrayTooLong(_ length: Int, at offset: Int) -> DBusConnectionError {
        DBusConnectionError(
            .lengthOutOfRange, "The array at byte \(offset) claims \(length) bytes; at most 64 MiB are allowed.")
    }

    static func arrayLengthMismatch(at offset: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidPadding, "The array at byte \(offset) ends inside its last element.")
    }

    static func messageTooLong(_ length: Int) -> DBusConnectionError {
        DBusConnectionError(.lengthOutOfRange, "A message of \(length) bytes exceeds D-Bus's limit of 128 MiB.")
    }

    static func trailingBytes(_ count: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidPadding, "\(count) bytes follow the end of the message.")
    }

    static func invalidBooleanValue(_ value: UInt32, at offset: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidBoolean, "The boolean at byte \(offset) is \(value); only 0 and 1 are allowed.")
    }

    static func fileDescriptorIndexOutOfRange(_ index: UInt32, count: Int, at offset: Int) -> DBusConnectionError {
        DBusConnectionError(
            .bodyMismatch, "The file descriptor index at byte \(offset) is \(index), but the message carries \(count).")
    }

    static func invalidObjectPathOnWire(at offset: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidObjectPath, "The object path at byte \(offset) is not valid.")
    }

    static func stringNotTerminated(at offset: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidString, "The string at byte \(offset) is not followed by a NUL byte.")
    }

    static func stringHoldsNUL(at offset: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidString, "The string at byte \(offset) holds a NUL byte.")
    }

    static func stringNotUTF8(at offset: Int) -> DBusConnectionError {
        DBusConnectionError(.invalidString, "The string at byte \(offset) is not valid UTF-8.")
    }

    // MARK: - Headers

    static func invalidEndianness(_ byte: UInt8) -> DBusConnectionError {
        DBusConnectionError(
            .invalidHeader, "The message starts with byte 0x\(String(byte, radix: 16)), neither 'l' nor 'B'.")
    }

    static func unknownMessageType(_ type: UInt8) -> DBusConnectionError {
        DBusConnectionError(.invalidHeader, "The message type \(type) is not one of 1–4.")
    }

    static func unsupportedProtocolVersion(_ version: UInt8) -> DBusConnectionError {
        DBusConnectionError(.invalidHeader, "The message is of protocol version \(version); only 1 is supported.")
    }

    static func zeroSerial() -> DBusConnectionError {
        DBusConnectionError(.invalidHeader, "The message's serial is 0, which D-Bus forbids.")
    }

    static func duplicateHeaderField(_ name: String) -> DBusConnectionError {
        DBusConnectionError(.invalidHeaderField, "The header field \(name) appears twice.")
    }

    static func headerFieldOfWrongType(_ name: String, signature: String) -> DBusConnectionError {
        DBusConnectionError(
            .invalidHeaderField, "The header field \(name) holds a value of type \"\(printable(signature))\".")
    }

    static func missingHeaderField(_ name: String, kind: DBusMessage.Kind) -> DBusConnectionError {
        DBusConnectionError(.invalidHeaderField, "A message of type \(kind) lacks the header field \(name).")
    }

    static func invalidHeaderName(_ name: String) -> DBusConnectionError {
        DBusConnectionError(.invalidName, "The header field \(name) is not a valid name or path.")
    }

    static func reservedInterface() -> DBusConnectionError {
        DBusConnectionError(.invalidName, "The interface org.freedesktop.DBus.Local is reserved and cannot be sent.")
    }

    static func fileDescriptorCountMismatch(announced: Int, received: Int) -> DBusConnectionError {
        DBusConnectionError(
            .bodyMismatch,
            "The message announces \(announced) file descriptors (UNIX_FDS) but \(received) came with it.")
    }

    static func bodyWithoutSignature(_ length: Int) -> DBusConnectionError {
        DBusConnectionError(.bodyMismatch, "The message has a body of \(length) bytes but no SIGNATURE header field.")
    }

    static func bodyShorterThanSignature(_ signature: String) -> DBusConnectionError {
        DBusConnectionError(
            .bodyMismatch, "The body ends before the values of its signature \"\(printable(signature))\".")
    }

    static func bodyLongerThanSignature(_ signature: String) -> DBusConnectionError {
        DBusConnectionError(
            .bodyMismatch, "The body has bytes left after the values of its signature \"\(printable(signature))\".")
    }
}
