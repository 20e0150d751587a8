// keychain-lint:disable-file logged-secret -- printing the item it found, secret included when asked (-w, -g), is this command's job
import Foundation
import KeychainCore

/// One `find-generic-password` or `find-internet-password`, as plain values: what both the
/// argument parser's commands and ``DirectFindParser`` produce, and what prints the match.
struct FindRequest {
    var itemClass: ItemClass
    var query: Query
    var keychain: KeychainChoice
    var printed: FoundOutput
    var json: Bool

    /// Prints the first match: attributes (`-g` adds the password), or only the password (`-w`).
    func run() throws {
        if keychain.isFreshDefault {  // nothing stored yet: not found, as an empty keychain
            _ = try reportingErrors { () throws(KeychainError) -> Int in
                throw KeychainError.noKeychainForFind(path: self.keychain.location.databaseURL.path)
            }
        }
        let keychain = try self.keychain.open(.reading)
        var query = query
        query.limit = .one
        let returning: ReturnOptions =
            printed == .attributes ? .attributes : printed == .secretOnly ? .data : [.attributes, .data]
        guard
            let item = try reportingErrors(
                searching: query, in: keychain, { try keychain.find(query, returning: returning) }
            ).first
        else { return }
        switch (printed, json) {
        case (.secretOnly, false):
            FileHandle.standardOutput.write((item.data ?? Data()) + Data("\n".utf8))
        case (.secretOnly, true):
            print(try JSONText.render(["password": JSONText.secret(item.data ?? Data())]))
        case (_, true):
            var object = JSONText.item(item)
            if printed == .attributesAndSecret { object["password"] = JSONText.secret(item.data ?? Data()) }
            print(try JSONText.render(object))
        case (_, false):
            print(ItemText.render(item))
            // As macOS `security -g`: the password goes to standard error, the attributes to standard output.
            if printed == .attributesAndSecret { printError("password: \(ItemText.secret(item.data ?? Data()))") }
        }
    }
}
