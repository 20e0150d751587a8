import Foundation

/// The insecure stores a migration reads.
public enum SourceFormat: String, Sendable, Hashable, CaseIterable {
    /// Apple `UserDefaults` / `NSUserDefaults` property lists, XML or binary.
    case propertyList = "plist"
    /// Android `SharedPreferences` XML (`shared_prefs/*.xml`).
    case sharedPreferences = "shared-prefs"
    /// `.env` files.
    case dotEnv = "env"
    /// JSON files, flat or nested.
    case json

    /// The format of `contents`, from its first bytes and the file name.
    public static func detect(contents: Data, fileName: String) -> SourceFormat? {
        let head = String(decoding: contents.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if contents.starts(with: Data("bplist".utf8)) || head.contains("<plist") || head.contains("<!DOCTYPE plist") {
            return .propertyList
        }
        if head.hasPrefix("<?xml") || head.hasPrefix("<map") {
            return head.contains("<plist") ? .propertyList : .sharedPreferences
        }
        if head.hasPrefix("{") || head.hasPrefix("[") { return .json }
        let name = fileName.lowercased()
        if name.hasSuffix(".plist") { return .propertyList }
        if name.hasSuffix(".json") { return .json }
        if name.hasSuffix(".xml") { return .sharedPreferences }
        if name == ".env" || name.hasPrefix(".env.") || name.hasSuffix(".env") { return .dotEnv }
        return nil
    }
}

/// A parsed source: its entries, and its contents without some of them.
protocol SourceDocument {
    /// Every migratable entry, in file order.
    var entries: [SourceEntry] { get }
    /// The file's contents with `keys` removed and everything else kept (equal in meaning; for
    /// `.env`, every other line byte for byte).
    func removing(_ keys: Set<String>) throws -> Data
}

enum SourceParser {
    static func parse(_ contents: Data, format: SourceFormat, file: String) throws(MigrationError) -> any SourceDocument
    {
        switch format {
        case .propertyList: try PropertyListDocument(contents, file: file)
        case .sharedPreferences: try SharedPreferencesDocument(contents, file: file)
        case .dotEnv: try DotEnvDocument(contents, file: file)
        case .json: try JSONDocument(contents, file: file)
        }
    }
}
