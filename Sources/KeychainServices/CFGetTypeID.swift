#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

// Type identifiers for the `CFGetTypeID(x) == SecKeyGetTypeID()` checks keychain code makes on
// query results. The numbers are this module's own (Apple assigns them at run time, so code
// only ever compares them); each type has one, and values of other types get 0
// (`_kCFRuntimeNotATypeID`).

/// Identifiers of the types ``CFGetTypeID(_:)`` tells apart.
enum CFTypeIdentifier: CFTypeID {
    case string = 7, data = 20, boolean = 21, number = 22, dictionary = 18, array = 19, date = 42, error = 43
    case secKey = 1000, secAccessControl = 1001
}

/// The type identifier of `SecKey` objects.
public func SecKeyGetTypeID() -> CFTypeID { CFTypeIdentifier.secKey.rawValue }

/// The type identifier of `SecAccessControl` objects.
public func SecAccessControlGetTypeID() -> CFTypeID { CFTypeIdentifier.secAccessControl.rawValue }

/// The type identifier of `CFString` (strings).
public func CFStringGetTypeID() -> CFTypeID { CFTypeIdentifier.string.rawValue }

/// The type identifier of `CFData` (byte buffers).
public func CFDataGetTypeID() -> CFTypeID { CFTypeIdentifier.data.rawValue }

/// The type identifier of `CFBoolean` (boolean numbers such as `kCFBooleanTrue`).
public func CFBooleanGetTypeID() -> CFTypeID { CFTypeIdentifier.boolean.rawValue }

/// The type identifier of `CFNumber` (numbers other than booleans).
public func CFNumberGetTypeID() -> CFTypeID { CFTypeIdentifier.number.rawValue }

/// The type identifier of `CFDictionary`.
public func CFDictionaryGetTypeID() -> CFTypeID { CFTypeIdentifier.dictionary.rawValue }

/// The type identifier of `CFArray`.
public func CFArrayGetTypeID() -> CFTypeID { CFTypeIdentifier.array.rawValue }

/// The type identifier of `CFDate`.
public func CFDateGetTypeID() -> CFTypeID { CFTypeIdentifier.date.rawValue }

/// The type identifier of `CFError`.
public func CFErrorGetTypeID() -> CFTypeID { CFTypeIdentifier.error.rawValue }

/// The type identifier of a CoreFoundation object: one of the `…GetTypeID()` values above
/// (`SecKeyGetTypeID()`, `CFDataGetTypeID()`, …), or 0 for `nil` and objects of other types.
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    guard let cf else { return 0 }
    let identifier: CFTypeIdentifier? =
        switch cf {
        case is SecKey: .secKey
        case is SecAccessControl: .secAccessControl
        case is NSString, is String: .string
        case is NSData, is Data: .data
        case is NSNumber: SecValue.boolean(cf) != nil ? .boolean : .number
        case is NSDictionary: .dictionary
        case is NSArray: .array
        case is NSDate, is Date: .date
        case is NSError: .error
        default: nil
        }
    return identifier?.rawValue ?? 0
}
#endif
