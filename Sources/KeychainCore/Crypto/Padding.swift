import Foundation

/// Length-hiding padding: `x ‖ 0x80 ‖ 0x00…` up to the next bucket —
/// 32-byte steps up to 256 bytes, then powers of two up to 64 KiB, then multiples of 64 KiB.
enum Padding {
    static func pad(_ bytes: Data) -> Data {
        var padded = Data(capacity: bucketSize(for: bytes.count + 1))
        padded.append(bytes)
        padded.append(0x80)
        padded.append(Data(count: bucketSize(for: padded.count) - padded.count))
        return padded
    }

    /// The bytes before the padding, in a buffer of their own (so the padded one can be wiped).
    static func unpad(_ padded: Data) -> Data? {
        padded.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Data? in
            var marker = buffer.count - 1
            while marker >= 0 && buffer[marker] == 0 { marker -= 1 }
            guard marker >= 0, buffer[marker] == 0x80 else { return nil }
            return Data(UnsafeRawBufferPointer(rebasing: buffer[..<marker]))
        }
    }

    static func bucketSize(for length: Int) -> Int {
        if length <= 256 { return max(32, (length + 31) / 32 * 32) }
        let largeBucket = 64 * 1024
        if length <= largeBucket {
            var size = 512
            while size < length { size *= 2 }
            return size
        }
        return (length + largeBucket - 1) / largeBucket * largeBucket
    }
}
