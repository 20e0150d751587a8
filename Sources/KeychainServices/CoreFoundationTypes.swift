#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
@_exported import Foundation

// CoreFoundation names that Keychain code uses, as aliases onto the Foundation classes that
// swift-corelibs-foundation provides. With them `query as CFDictionary`,
// `kSecClass as String` and `result as? Data` compile and work as on Apple platforms.

/// An `OSStatus` result code (`Int32`, as on Apple platforms).
public typealias OSStatus = Int32
/// Any CoreFoundation object.
public typealias CFTypeRef = AnyObject
/// `CFDictionary`, bridged to `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// `CFMutableDictionary`, bridged to `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// `CFString`, bridged to `NSString`.
public typealias CFString = NSString
/// `CFData`, bridged to `NSData`.
public typealias CFData = NSData
/// `CFNumber`, bridged to `NSNumber`.
public typealias CFNumber = NSNumber
/// `CFBoolean`, bridged to `NSNumber` (a boolean NSNumber).
public typealias CFBoolean = NSNumber
/// `CFArray`, bridged to `NSArray`.
public typealias CFArray = NSArray
/// `CFDate`, bridged to `NSDate`.
public typealias CFDate = NSDate
/// `CFError`, bridged to `NSError`.
public typealias CFError = NSError
/// `CFErrorDomain`, a string.
public typealias CFErrorDomain = CFString
/// `CFIndex`.
public typealias CFIndex = Int
/// `CFOptionFlags`.
public typealias CFOptionFlags = UInt
/// `CFTypeID`.
public typealias CFTypeID = UInt

/// A CoreFoundation allocator. Only the default allocator exists; pass `nil` or `kCFAllocatorDefault`.
public final class CFAllocator: Sendable {
    fileprivate init() {}
}

/// The default allocator (`nil` works the same).
public let kCFAllocatorDefault: CFAllocator? = nil

/// `kCFBooleanTrue`, implicitly unwrapped as on Apple platforms (callers write `kCFBooleanTrue!`).
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// `kCFBooleanFalse`, implicitly unwrapped as on Apple platforms.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)
/// `kCFBundleIdentifierKey` (`"CFBundleIdentifier"`).
nonisolated(unsafe) public let kCFBundleIdentifierKey: CFString! = "CFBundleIdentifier"
/// `noErr` (0).
public let noErr: OSStatus = 0

/// The error code of a `CFError`.
public func CFErrorGetCode(_ error: CFError) -> CFIndex { error.code }

/// The error domain of a `CFError` (`NSOSStatusErrorDomain` for keychain errors).
public func CFErrorGetDomain(_ error: CFError) -> CFErrorDomain! { NSString(string: error.domain) }

/// The user info of a `CFError`.
public func CFErrorCopyUserInfo(_ error: CFError) -> CFDictionary! { NSDictionary(dictionary: error.userInfo) }

/// The description of a `CFError`.
public func CFErrorCopyDescription(_ error: CFError) -> CFString! { NSString(string: error.localizedDescription) }
#endif
