import SwiftSyntax

/// The statements of each block, indexed once, so that looking back or ahead from a statement
/// costs the statements looked at rather than the length of the block (a block of ten thousand
/// statements would otherwise make every look-back linear, and the file quadratic).
final class StatementIndex {
    private struct Block {
        var items: [CodeBlockItemSyntax]
        var offsets: [SyntaxIdentifier: Int]
    }
    private var blocks: [SyntaxIdentifier: Block] = [:]

    /// Up to `limit` statements of `list` before `item`, nearest last.
    func statements(in list: CodeBlockItemListSyntax, before item: Syntax, limit: Int) -> ArraySlice<
        CodeBlockItemSyntax
    > {
        let block = indexed(list)
        guard let offset = block.offsets[item.id] else { return [] }
        return block.items[max(0, offset - limit)..<offset]
    }

    /// Up to `limit` statements of `list` after `item`, nearest first.
    func statements(in list: CodeBlockItemListSyntax, after item: Syntax, limit: Int) -> ArraySlice<CodeBlockItemSyntax>
    {
        let block = indexed(list)
        guard let offset = block.offsets[item.id] else { return [] }
        return block.items[(offset + 1)..<min(block.items.count, offset + 1 + limit)]
    }

    private func indexed(_ list: CodeBlockItemListSyntax) -> Block {
        if let block = blocks[list.id] { return block }
        let items = Array(list)
        var offsets: [SyntaxIdentifier: Int] = [:]
        offsets.reserveCapacity(items.count)
        for (offset, item) in items.enumerated() { offsets[item.id] = offset }
        let block = Block(items: items, offsets: offsets)
        blocks[list.id] = block
        return block
    }
}
