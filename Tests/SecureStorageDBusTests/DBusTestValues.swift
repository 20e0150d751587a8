import SecureStorageDBus

/// Values of every type, for round trips through the marshaller and through a bus.
enum DBusTestValues {
    /// One value of each basic type, with the edges of their ranges.
    static let basics: [DBusValue] = [
        .byte(0), .byte(255), .boolean(true), .boolean(false), .int16(.min), .uint16(.max), .int32(.min),
        .uint32(.max), .int64(.min), .uint64(.max), .double(-1.5e300), .double(0), .string(""),
        .string("héllo wörld ✓ 𝄞"), .objectPath("/"), .objectPath("/org/example/Obj_1"), .signature(""),
        .signature("a{sv}(iu)")
    ]

    /// Containers: empty and full arrays and dictionaries, structures, nested variants.
    static let containers: [DBusValue] = [
        .array(elementSignature: "s", []),
        .array(elementSignature: "y", [.byte(1), .byte(2), .byte(3)]),
        .array(elementSignature: "x", [.int64(1), .int64(-2)]),
        .array(elementSignature: "(yt)", [.structure([.byte(1), .uint64(2)]), .structure([.byte(3), .uint64(4)])]),
        .dictionary(keySignature: "s", valueSignature: "v", []),
        .dictionary(
            keySignature: "s", valueSignature: "v",
            [
                DBusDictionaryEntry(key: .string("a"), value: .variant(.int32(1))),
                DBusDictionaryEntry(key: .string("b"), value: .variant(.array(elementSignature: "s", [.string("x")]))),
                DBusDictionaryEntry(key: .string("a"), value: .variant(.string("repeated keys stay")))
            ]),
        .dictionary(
            keySignature: "t", valueSignature: "a{by}",
            [
                DBusDictionaryEntry(
                    key: .uint64(7),
                    value: .dictionary(
                        keySignature: "b", valueSignature: "y",
                        [DBusDictionaryEntry(key: .boolean(true), value: .byte(9))]))
            ]),
        .structure([.byte(1), .structure([.int16(-2), .string("s")]), .variant(.variant(.variant(.uint16(3))))]),
        .variant(.structure([.objectPath("/a"), .array(elementSignature: "y", []), .string("text/plain")])),
        .variant(.dictionary(keySignature: "s", valueSignature: "s", [])),
        .array(elementSignature: "v", [.variant(.byte(1)), .variant(.string("two")), .variant(.double(3))]),
        .array(elementSignature: "aa{sv}", [.array(elementSignature: "a{sv}", [])])
    ]

    /// 32 nested arrays around 32 nested structures: the deepest a signature may nest.
    static var deepest: DBusValue {
        var value = DBusValue.byte(7)
        for _ in 0..<32 { value = .structure([value]) }
        for _ in 0..<32 { value = .array(elementSignature: value.signature, [value]) }
        return value
    }

    /// `depth` variants, each inside the next.
    static func nestedVariants(_ depth: Int) -> DBusValue {
        var value = DBusValue.int32(1)
        for _ in 0..<depth { value = .variant(value) }
        return value
    }
}

extension DBusTestValues {
    /// `depth` variants around the byte 42.
    static func nestedVariantsOfByte(_ depth: Int) -> DBusValue {
        var value = DBusValue.byte(42)
        for _ in 0..<depth { value = .variant(value) }
        return value
    }
}
