/// A file's bytes with a line table, turning byte offsets into lines and columns.
package struct SourceText: Sendable {
    /// The file's UTF-8 bytes.
    package let bytes: [UInt8]
    /// The byte offset where each line starts; line 1 starts at offset 0.
    private let lineStarts: [Int]

    /// Indexes the lines of `bytes`.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        starts.reserveCapacity(bytes.count / 32 + 1)
        // Lines end at LF, CR LF or a lone CR, as the Swift compiler counts them.
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: "\r")
                    && (offset + 1 == bytes.count || bytes[offset + 1] != UInt8(ascii: "\n")))
            {
                starts.append(offset + 1)
            }
        }
        lineStarts = starts
    }

    /// The number of lines.
    package var lineCount: Int { lineStarts.count }

    /// The line and columns of a byte offset.
    package func position(ofOffset offset: Int) -> SourcePosition {
        let clamped = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= clamped { low = middle } else { high = middle - 1 }
        }
        let lineStart = lineStarts[low]
        var utf16Units = 0
        var index = lineStart
        while index < clamped {
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 {
                // A leading byte: four-byte sequences are two UTF-16 units (a surrogate pair).
                utf16Units += byte >= 0xF0 ? 2 : 1
            }
            index += 1
        }
        return SourcePosition(line: low + 1, column: clamped - lineStart + 1, utf16Column: utf16Units + 1)
    }

    /// The 1-based line of a byte offset.
    package func line(ofOffset offset: Int) -> Int { position(ofOffset: offset).line }

    /// Whether the file contains `needle` anywhere (a cheap filter before a rule's walk).
    package func contains(_ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { pattern in
            guard let first = pattern.first, pattern.count <= bytes.count else { return false }
            var start = 0
            let lastStart = bytes.count - pattern.count
            return bytes.withUnsafeBufferPointer { haystack in
                while start <= lastStart {
                    if haystack[start] == first {
                        var matched = 1
                        while matched < pattern.count && haystack[start + matched] == pattern[matched] { matched += 1 }
                        if matched == pattern.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
