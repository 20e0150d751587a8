/// Writes D-Bus values in the wire format, little-endian, aligned from the start of the buffer
/// (a message body starts on an 8-byte boundary, so its alignment is the message's). Every value
/// is checked against its type first: a value that the peer would reject is never sent.
package struct DBusMarshaller {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty buffer.
    package init() {}

    /// Appends zero bytes up to the next multiple of `alignment`.
    package mutating func pad(to alignment: Int) {
        let remainder = bytes.count % alignment
        if remainder != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - remainder)) }
    }

    /// Appends an integer, aligned to its width, least significant byte first.
    package mutating func append<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` as its own type (``DBusValue/signature``).
    package mutating func append(_ value: DBusValue) throws {
        try append(value, as: try DBusSignature.parseSingle(value.signature), depth: Depth())
    }

    /// Appends `values` one after another (a message body).
    package mutating func append(_ values: [DBusValue]) throws {
        for value in values { try append(value) }
    }

    /// Overwrites the 32-bit integer at `offset` (an array length written after its elements).
    mutating func overwrite(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }

    private mutating func appendString(_ text: String, limit: Int) throws {
        let utf8 = Array(text.utf8)
        guard !utf8.contains(0) else { throw DBusConnectionError.valueHoldsNUL() }
        guard utf8.count <= limit else { throw DBusConnectionError.valueTooLong(utf8.count, limit: limit) }
        if limit == DBusSignature.maximumLength {
            bytes.append(UInt8(utf8.count))
        } else {
            append(UInt32(utf8.count))
        }
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    private mutating func append(_ value: DBusValue, as type: DBusType, depth: Depth) throws {
        pad(to: type.alignment)
        switch (type, value) {
        case (.byte, .byte(let byte)): bytes.append(byte)
        case (.boolean, .boolean(let flag)): append(UInt32(flag ? 1 : 0))
        case (.int16, .int16(let number)): append(number)
        case (.uint16, .uint16(let number)): append(number)
        case (.int32, .int32(let number)): append(number)
        case (.uint32, .uint32(let number)): append(number)
        case (.int64, .int64(let number)): append(number)
        case (.uint64, .uint64(let number)): append(number)
        case (.double, .double(let number)): append(number.bitPattern)
        case (.unixFD, .unixFD(let index)): append(index)
        case (.string, .string(let text)): try appendString(text, limit: DBusUnmarshaller.maximumArrayLength)
        case (.objectPath, .objectPath(let path)):
            guard DBusNames.isValidObjectPath(path) else { throw DBusConnectionError.invalidObjectPathValue(path) }
            try appendString(path, limit: DBusUnmarshaller.maximumArrayLength)
        case (.signature, .signature(let signature)):
            _ = try DBusSignature.parse(signature)
            try appendString(signature, limit: DBusSignature.maximumLength)
        case (.variant, .variant(let inner)):
            let innerSignature = inner.signature
            let innerType = try DBusSignature.parseSingle(innerSignature)
            try appendString(innerSignature, limit: DBusSignature.maximumLength)
            try append(inner, as: innerType, depth: try depth.entering(.variant))
        case (.array(let elementType), .array(_, let elements)):
            try appendArray(elementType: elementType, count: elements.count, depth: depth) { marshaller, index in
                try marshaller.append(elements[index], as: elementType, depth: try depth.entering(.array))
            }
        case (.dictionary(let keyType, let valueType), .dictionary(_, _, let entries)):
            let entryType = DBusType.structure([keyType, valueType])
            try appendArray(elementType: entryType, count: entries.count, depth: depth) { marshaller, index in
                let inner = try depth.entering(.array).entering(.structure)
                marshaller.pad(to: 8)
                try marshaller.append(entries[index].key, as: keyType, depth: inner)
                try marshaller.append(entries[index].value, as: valueType, depth: inner)
            }
        case (.dictionary, .array(_, let elements)) where elements.isEmpty:
            try appendArray(elementType: .structure([.byte]), count: 0, depth: depth) { _, _ in }
        case (.structure(let fieldTypes), .structure(let fields)) where fieldTypes.count == fields.count:
            let inner = try depth.entering(.structure)
            for (field, fieldType) in zip(fields, fieldTypes) { try append(field, as: fieldType, depth: inner) }
        default:
            throw DBusConnectionError.valueDoesNotMatchSignature(expected: type.signature)
        }
    }

    private mutating func appendArray(
        elementType: DBusType, count: Int, depth: Depth, element: (inout DBusMarshaller, Int) throws -> Void
    ) throws {
        _ = try depth.entering(.array)
        append(UInt32(0))
        let lengthOffset = bytes.count - 4
        pad(to: elementType.alignment)
        let start = bytes.count
        for index in 0..<count { try element(&self, index) }
        let length = bytes.count - start
        guard length <= DBusUnmarshaller.maximumArrayLength else {
            throw DBusConnectionError.valueTooLong(length, limit: DBusUnmarshaller.maximumArrayLength)
        }
        overwrite(UInt32(length), at: lengthOffset)
    }
}

/// How deeply the value being read or written is nested: at most 32 arrays, 32 structures
/// (dict entries included) and 64 containers in all (variants included).
struct Depth {
    /// A kind of container.
    enum Container { case array, structure, variant }

    private(set) var arrays = 0
    private(set) var structures = 0
    private(set) var total = 0

    /// This depth inside one more container, or `nestingTooDeep`.
    func entering(_ container: Container) throws -> Depth {
        var inner = self
        switch container {
        case .array: inner.arrays += 1
        case .structure: inner.structures += 1
        case .variant: break
        }
        inner.total += 1
        guard inner.arrays <= DBusSignature.maximumDepth, inner.structures <= DBusSignature.maximumDepth,
            inner.total <= 2 * DBusSignature.maximumDepth
        else { throw DBusConnectionError.valueNestsTooDeeply() }
        return inner
    }
}
