#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// The key's attributes, as Apple's `SecKeyCopyAttributes` gives them.
///
/// Keys are raw names (`"kcls"`, `"type"`, …, usable as `kSecAttr…` constants): `class` =
/// `kSecClassKey`; `kcls` and `type` as the **string** constants (`"1"` private, `"0"` public;
/// `"73"` EC, `"42"` RSA), unlike SecItem results, which give numbers; `bsiz` and `esiz`
/// (numbers: the curve size, or the modulus size in bits); `klbl` (SHA-1 of the public key as
/// Apple serialises it: X9.63 for EC, PKCS#1 `RSAPublicKey` DER for RSA); `perm` (whether the
/// key is stored in the keychain);
/// the usage flags (`sign`, `vrfy`, `decr`, `encr`, `drve`, `wrap`, `unwp`, …) and
/// `sens`/`extr`; for a key from the keychain also its item's `atag`, `labl`, `agrp`, `pdmn`,
/// `tkid` and `accc`. As on Apple platforms `v_Data` holds the external representation of a
/// software key (what ``SecKeyCopyExternalRepresentation(_:_:)`` returns); a key generated
/// inside the keychain has no `v_Data` — its private key never leaves the keychain.
///
/// RSA keys carry Apple's RSA flags: `drve` false for both halves, and `decr` true for a public
/// key too (Apple's RSA public keys report that they can decrypt); otherwise as for EC keys.
///
/// - Returns: the dictionary; never `nil` on this platform.
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    let dictionary = NSMutableDictionary()
    func set(_ name: String, _ value: AnyObject) { dictionary[NSString(string: name)] = value }
    func flag(_ value: Bool) -> NSNumber { NSNumber(value: value) }
    let isPrivate = key.isPrivate
    let bits = NSNumber(value: key.keySizeInBits)
    let isRSA = key.rsaPublicMaterial != nil
    set("class", NSString(string: ItemClass.key.rawValue))
    set("kcls", NSString(string: isPrivate ? "1" : "0"))
    set("type", NSString(string: String(key.keyType)))
    set("bsiz", bits)
    set("esiz", bits)
    set("klbl", NSData(data: key.applicationLabel))
    set("perm", flag(key.storedItem != nil))
    set("priv", flag(true))
    set("modi", flag(true))
    set("sens", flag(key.isTokenKey))
    set("asen", flag(key.isTokenKey))
    set("extr", flag(!key.isTokenKey))
    set("next", flag(key.isTokenKey))
    set("encr", flag(!isPrivate))
    set("decr", flag(isPrivate || isRSA))
    set("drve", flag(isPrivate && !isRSA))
    set("sign", flag(isPrivate))
    set("vrfy", flag(!isPrivate))
    set("snrc", flag(false))
    set("vyrc", flag(false))
    set("wrap", flag(!isPrivate))
    set("unwp", flag(isPrivate))
    if let item = key.storedItem {
        for name in [AttributeKey.applicationTag, .label, .accessGroup, .accessible, .tokenID] {
            if let value = item.attributes[name] { set(name.rawValue, SecValue.object(value)) }
        }
        if let accessibility = item.attributes[.accessible]?.stringValue.flatMap(Accessibility.init(rawValue:)) {
            set("accc", SecAccessControl(accessibility: accessibility, policy: item.accessPolicy))
        }
    }
    switch key.kind {
    case .publicKey: set("v_Data", NSData(data: key.publicKeyX963))
    case .softwarePrivate(let material):
        if let bytes = try? material.x963Representation() { set("v_Data", NSData(data: bytes)) }
    case .tokenPrivate: break
    case .rsaPrivate(let material): set("v_Data", NSData(data: material.pkcs1))
    case .rsaPublic(let material): set("v_Data", NSData(data: material.pkcs1))
    }
    return dictionary
}

/// The key's block size in bytes: for an EC key the size of a coordinate (32 for P-256, 48 for
/// P-384, 66 for P-521), as Apple's EC keys report it; for an RSA key the modulus size (256
/// for 2048 bits), the size of its signatures and ciphertexts.
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    key.rsaPublicMaterial?.modulusByteCount ?? key.curve.coordinateByteCount
}
#endif
