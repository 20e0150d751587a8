/// Reads D-Bus values from the wire format in either byte order, validating everything the
/// specification requires of a receiver: zero padding, lengths within the input and within
/// 64 MiB for arrays, valid UTF-8 strings without NUL and NUL-terminated, valid object paths
/// and signatures, booleans 0 or 1, file descriptor indexes within the message's count, and
/// nesting within 32 arrays, 32 structures and 64 containers. Every failure is a
/// ``DBusConnectionError`` naming the offset; nothing traps and nothing is allocated beyond
/// what the input holds.
package struct DBusUnmarshaller {
    /// The longest message the specification allows: 128 MiB.
    package static let maximumMessageLength = 1 << 27
    /// The longest array the specification allows, in bytes: 64 MiB.
    package static let maximumArrayLength = 1 << 26

    private let bytes: [UInt8]
    private let bigEndian: Bool
    private let fileDescriptorCount: Int
    /// Where the next read starts, from the start of the input.
    package private(set) var offset: Int

    /// A reader of `bytes` from `offset`, in big-endian order when `bigEndian`; `unixFD` values
    /// must be below `fileDescriptorCount`.
    package init(bytes: [UInt8], offset: Int = 0, bigEndian: Bool = false, fileDescriptorCount: Int = 0) {
        self.bytes = bytes
        self.offset = offset
        self.bigEndian = bigEndian
        self.fileDescriptorCount = fileDescriptorCount
    }

    /// Whether every byte was read.
    package var isAtEnd: Bool { offset == bytes.count }

    /// Skips the padding up to the next multiple of `alignment`, which must be zero bytes.
    package mutating func align(to alignment: Int) throws {
        let remainder = offset % alignment
        guard remainder != 0 else { return }
        let padding = alignment - remainder
        guard bytes.count - offset >= padding else { throw DBusConnectionError.truncatedValue(at: offset) }
        for index in offset..<offset + padding where bytes[index] != 0 {
            throw DBusConnectionError.nonZeroPadding(at: index)
        }
        offset += padding
    }

    /// The next integer of `T`'s width, aligned to it.
    package mutating func readInteger<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        try align(to: size)
        guard bytes.count - offset >= size else { throw DBusConnectionError.truncatedValue(at: offset) }
        var value: T = 0
        for index in 0..<size {
            let byte = T(truncatingIfNeeded: bytes[offset + (bigEndian ? index : size - 1 - index)])
            value = value << 8 | byte
        }
        offset += size
        return value
    }

    /// The next byte.
    package mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw DBusConnectionError.truncatedValue(at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next values of `types`, in order.
    package mutating func read(_ types: [DBusType]) throws -> [DBusValue] {
        try types.map { try read($0, depth: Depth()) }
    }

    /// The next value of `type`.
    package mutating func read(_ type: DBusType) throws -> DBusValue { try read(type, depth: Depth()) }

    private mutating func read(_ type: DBusType, depth: Depth) throws -> DBusValue {
        switch type {
        case .byte: return .byte(try readByte())
        case .boolean:
            let start = offset
            switch try readInteger(UInt32.self) {
            case 0: return .boolean(false)
            case 1: return .boolean(true)
            case let other: throw DBusConnectionError.invalidBooleanValue(other, at: start)
            }
        case .int16: return .int16(try readInteger(Int16.self))
        case .uint16: return .uint16(try readInteger(UInt16.self))
        case .int32: return .int32(try readInteger(Int32.self))
        case .uint32: return .uint32(try readInteger(UInt32.self))
        case .int64: return .int64(try readInteger(Int64.self))
        case .uint64: return .uint64(try readInteger(UInt64.self))
        case .double: return .double(Double(bitPattern: try readInteger(UInt64.self)))
        case .unixFD:
            let start = offset
            let index = try readInteger(UInt32.self)
            guard Int(index) < fileDescriptorCount else {
                throw DBusConnectionError.fileDescriptorIndexOutOfRange(index, count: fileDescriptorCount, at: start)
            }
            return .unixFD(index)
        case .string: return .string(try readString())
        case .objectPath:
            let start = offset
            let path = try readString()
            guard DBusNames.isValidObjectPath(path) else {
                throw DBusConnectionError.invalidObjectPathOnWire(at: start)
            }
            return .objectPath(path)
        case .signature:
            let signature = try readSignatureText()
            _ = try DBusSignature.parse(signature)
            return .signature(signature)
        case .variant:
            let signature = try readSignatureText()
            let inner = try DBusSignature.parseSingle(signature)
            return .variant(try read(inner, depth: try depth.entering(.variant)))
        case .array(let elementType):
            let inner = try depth.entering(.array)
            var elements: [DBusValue] = []
            try readArray(elementType: elementType) { reader in
                elements.append(try reader.read(elementType, depth: inner))
            }
            return .array(elementSignature: elementType.signature, elements)
        case .dictionary(let keyType, let valueType):
            let inner = try depth.entering(.array).entering(.structure)
            var entries: [DBusDictionaryEntry] = []
            try readArray(elementType: .structure([keyType, valueType])) { reader in
                try reader.align(to: 8)
                let key = try reader.read(keyType, depth: inner)
                entries.append(DBusDictionaryEntry(key: key, value: try reader.read(valueType, depth: inner)))
            }
            return .dictionary(keySignature: keyType.signature, valueSignature: valueType.signature, entries)
        case .structure(let fieldTypes):
            let inner = try depth.entering(.structure)
            try align(to: 8)
            return .structure(try fieldTypes.map { try read($0, depth: inner) })
        }
    }

    private mutating func readArray(elementType: DBusType, element: (inout DBusUnmarshaller) throws -> Void) throws {
        let start = offset
        let length = Int(try readInteger(UInt32.self))
        guard length <= Self.maximumArrayLength else { throw DBusConnectionError.arrayTooLong(length, at: start) }
        try align(to: elementType.alignment)
        guard bytes.count - offset >= length else { throw DBusConnectionError.truncatedValue(at: offset) }
        let end = offset + length
        while offset < end { try element(&self) }
        guard offset == end else { throw DBusConnectionError.arrayLengthMismatch(at: start) }
    }

    private mutating func readString() throws -> String {
        let start = offset
        let length = Int(try readInteger(UInt32.self))
        return try readText(length: length, start: start)
    }

    private mutating func readSignatureText() throws -> String {
        let start = offset
        let length = Int(try readByte())
        return try readText(length: length, start: start)
    }

    private mutating func readText(length: Int, start: Int) throws -> String {
        guard bytes.count - offset > length else { throw DBusConnectionError.truncatedValue(at: start) }
        let text = bytes[offset..<offset + length]
        guard bytes[offset + length] == 0 else { throw DBusConnectionError.stringNotTerminated(at: start) }
        guard !text.contains(0) else { throw DBusConnectionError.stringHoldsNUL(at: start) }
        guard let string = String(validatingUTF8Bytes: text) else { throw DBusConnectionError.stringNotUTF8(at: start) }
        offset += length + 1
        return string
    }
}

extension String {
    /// The text of `bytes` if they are valid UTF-8 (macOS 13 lacks `String(validating:as:)`).
    init?(validatingUTF8Bytes bytes: ArraySlice<UInt8>) {
        var decoder = UTF8()
        var input = bytes.makeIterator()
        while true {
            switch decoder.decode(&input) {
            case .scalarValue: continue
            case .emptyInput:
                self = String(decoding: bytes, as: UTF8.self)
                return
            case .error: return nil
            }
        }
    }
}
