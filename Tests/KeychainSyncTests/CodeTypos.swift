@testable import KeychainSync

/// The typos a check group must catch, for the code tests.
enum CodeTypos {
    /// Every code one substituted character or two swapped neighbours away from `code`, grouped
    /// in fours as printed (swapped neighbours may sit on either side of a dash).
    static func of(_ code: String) -> [String] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        let characters = Array(CircleCode.normalized(code))
        var typos: [[Character]] = []
        for index in characters.indices {
            for replacement in alphabet where replacement != characters[index] {
                var typo = characters
                typo[index] = replacement
                typos.append(typo)
            }
            if index + 1 < characters.count, characters[index] != characters[index + 1] {
                var typo = characters
                typo.swapAt(index, index + 1)
                typos.append(typo)
            }
        }
        return typos.map { typo in
            stride(from: 0, to: typo.count, by: 4).map { String(typo[$0..<min($0 + 4, typo.count)]) }.joined(
                separator: "-")
        }
    }
}
