import Foundation

/// The fuzzer's bytes, consumed as a sequence of small decisions. Running out of bytes yields
/// zeros, so every input, however short, decodes to something.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: Data) { bytes = Array(data) }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number below `bound` (which must be positive).
    mutating func choice(_ bound: Int) -> Int { Int(byte()) % bound }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func integer() -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return Int64(bitPattern: value)
    }

    /// Up to `limit` raw bytes, the count taken from the input.
    mutating func data(limit: Int = 64) -> Data {
        let count = min(choice(limit + 1), bytes.count - min(position, bytes.count))
        defer { position += count }
        return Data(bytes[position..<position + count])
    }

    /// Everything not consumed yet.
    mutating func remainder() -> Data {
        defer { position = bytes.count }
        return Data(bytes[min(position, bytes.count)...])
    }
}
