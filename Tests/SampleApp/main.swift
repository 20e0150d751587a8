// A stand-in for a server or app that reads what the `keychain` tool stored, through the
// SecureStorage facade, with whatever identity its environment configures
// (KEYCHAIN_APPLICATION_IDENTIFIER, KEYCHAIN_ACCESS_GROUPS) or none.
//
//   secure-storage-sample get <service> <key>     prints the value; exit 44 when absent
//   secure-storage-sample keys <service>          prints the keys, one per line
//   secure-storage-sample identity                prints the identity in use
import Foundation
import KeychainServices
import SecureStorage

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "get" where arguments.count == 3:
        guard let value = try SecureStorage(service: arguments[1]).string(for: arguments[2]) else { exit(44) }
        print(value)
    case "keys" where arguments.count == 2:
        for key in try SecureStorage(service: arguments[1]).allKeys().sorted() { print(key) }
    case "identity" where arguments.count == 1:
        print(SecItemEnvironment.applicationIdentity.defaultAccessGroup)
    default:
        FileHandle.standardError.write(Data("usage: secure-storage-sample get <service> <key> | keys <service> | identity\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("secure-storage-sample: \(error)\n".utf8))
    exit(1)
}
