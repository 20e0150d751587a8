import Foundation
import Security
import os

func readToken(_ query: CFDictionary, logger: Logger) -> Data? {
    var result: AnyObject?
    let status = SecItemCopyMatching(query, &result)
    print("SecItemCopyMatching returned \(status)")
    guard status == errSecSuccess, let data = result as? Data else {
        print("no token (\(status))")
        return nil
    }
    print("token found, \(data.count) bytes")
    print("has token: \(result != nil)")
    logger.debug("token \(String(decoding: data, as: UTF8.self), privacy: .private)")
    return data
}

func migrate(keys: [String]) {
    for key in keys { print("Migrated \(key) to Keychain") }
}
