#if !canImport(Security)
// Every OSStatus of `spec/keychain-semantics.md` §5.7, with the message
// `SecCopyErrorMessageString` returns for it.

/// `0`: No error.
public let errSecSuccess: OSStatus = 0

/// `-4`: Function or operation not implemented.
public let errSecUnimplemented: OSStatus = -4

/// `-34`: The disk is full.
public let errSecDiskFull: OSStatus = -34

/// `-36`: I/O error.
public let errSecIO: OSStatus = -36

/// `-49`: File already open with write permission.
public let errSecOpWr: OSStatus = -49

/// `-50`: One or more parameters passed to a function were not valid.
public let errSecParam: OSStatus = -50

/// `-61`: Write permissions error.
public let errSecWrPerm: OSStatus = -61

/// `-108`: Failed to allocate memory.
public let errSecAllocate: OSStatus = -108

/// `-128`: User canceled the operation.
public let errSecUserCanceled: OSStatus = -128

/// `-909`: Bad parameter or invalid state for operation.
public let errSecBadReq: OSStatus = -909

/// `-2070`: no message string (SecCopyErrorMessageString returns "OSStatus -2070")
public let errSecInternalComponent: OSStatus = -2070

/// `-4960`: no message string (SecCopyErrorMessageString returns "OSStatus -4960")
public let errSecCoreFoundationUnknown: OSStatus = -4960

/// `-25291`: No keychain is available. You may need to restart your computer.
public let errSecNotAvailable: OSStatus = -25291

/// `-25292`: This keychain cannot be modified.
public let errSecReadOnly: OSStatus = -25292

/// `-25293`: The user name or passphrase you entered is not correct.
public let errSecAuthFailed: OSStatus = -25293

/// `-25294`: The specified keychain could not be found.
public let errSecNoSuchKeychain: OSStatus = -25294

/// `-25295`: The specified keychain is not a valid keychain file.
public let errSecInvalidKeychain: OSStatus = -25295

/// `-25296`: A keychain with the same name already exists.
public let errSecDuplicateKeychain: OSStatus = -25296

/// `-25297`: The specified callback function is already installed.
public let errSecDuplicateCallback: OSStatus = -25297

/// `-25298`: The specified callback function is not valid.
public let errSecInvalidCallback: OSStatus = -25298

/// `-25299`: The specified item already exists in the keychain.
public let errSecDuplicateItem: OSStatus = -25299

/// `-25300`: The specified item could not be found in the keychain.
public let errSecItemNotFound: OSStatus = -25300

/// `-25301`: There is not enough memory available to use the specified item.
public let errSecBufferTooSmall: OSStatus = -25301

/// `-25302`: This item contains information which is too large or in a format that cannot be displayed.
public let errSecDataTooLarge: OSStatus = -25302

/// `-25303`: The specified attribute does not exist.
public let errSecNoSuchAttr: OSStatus = -25303

/// `-25304`: The specified item is no longer valid. It may have been deleted from the keychain.
public let errSecInvalidItemRef: OSStatus = -25304

/// `-25305`: Unable to search the current keychain.
public let errSecInvalidSearchRef: OSStatus = -25305

/// `-25306`: The specified item does not appear to be a valid keychain item.
public let errSecNoSuchClass: OSStatus = -25306

/// `-25307`: A default keychain could not be found.
public let errSecNoDefaultKeychain: OSStatus = -25307

/// `-25308`: User interaction is not allowed.
public let errSecInteractionNotAllowed: OSStatus = -25308

/// `-25309`: The specified attribute could not be modified.
public let errSecReadOnlyAttr: OSStatus = -25309

/// `-25310`: This keychain was created by a different version of the system software and cannot be opened.
public let errSecWrongSecVersion: OSStatus = -25310

/// `-25311`: This item specifies a key size which is too large or too small.
public let errSecKeySizeNotAllowed: OSStatus = -25311

/// `-25315`: User interaction is required, but is currently not allowed.
public let errSecInteractionRequired: OSStatus = -25315

/// `-25316`: The contents of this item cannot be retrieved.
public let errSecDataNotAvailable: OSStatus = -25316

/// `-25317`: The contents of this item cannot be modified.
public let errSecDataNotModifiable: OSStatus = -25317

/// `-25320`: In dark wake, no UI possible
public let errSecInDarkWake: OSStatus = -25320

/// `-25330`: Auth is needed before the requested action can be performed.
public let errSecAuthNeeded: OSStatus = -25330

/// `-25243`: The specified item has no access control.
public let errSecNoAccessForItem: OSStatus = -25243

/// `-25244`: Invalid attempt to change the owner of this item.
public let errSecInvalidOwnerEdit: OSStatus = -25244

/// `-25256`: Import/Export format unsupported.
public let errSecUnsupportedFormat: OSStatus = -25256

/// `-25257`: Unknown format in import.
public let errSecUnknownFormat: OSStatus = -25257

/// `-25260`: Passphrase is required for import/export.
public let errSecPassphraseRequired: OSStatus = -25260

/// `-25264`: MAC verification failed during PKCS12 import (wrong password?)
public let errSecPkcs12VerifyFailure: OSStatus = -25264

/// `-26267`: A certificate was not signed by its proposed parent.
public let errSecNotSigner: OSStatus = -26267

/// `-26270`: The certificate chain was not trusted due to a policy not accepting it.
public let errSecPolicyDenied: OSStatus = -26270

/// `-26275`: Unable to decode the provided data.
public let errSecDecode: OSStatus = -26275

/// `-26276`: An internal error occured in the Security framework.
public let errSecInternal: OSStatus = -26276

/// `-34017`: This operation is incomplete, until the callback is invoked (not an error).
public let errSecWaitForCallback: OSStatus = -34017

/// `-34018`: A required entitlement isn't present.
public let errSecMissingEntitlement: OSStatus = -34018

/// `-34019`: Error returned if keychain database needs a schema migration but the device is locked, clients should wait for a device unlock notification and retry the command.
public let errSecUpgradePending: OSStatus = -34019

/// `-34020`: Client is restricted and is not permitted to perform this operation.
public let errSecRestrictedAPI: OSStatus = -34020

/// `-67585`: The required service is not available.
public let errSecServiceNotAvailable: OSStatus = -67585

// MARK: - Aliases

/// `-4`, an alias.
public let errSecUnsupportedOperation: OSStatus = -4

/// `-4`, an alias.
public let errSecUnsupportedAlgorithm: OSStatus = -4

/// `-26275`, an alias.
public let errSecInvalidKey: OSStatus = -26275

/// `-26275`, an alias.
public let errSecInvalidCertificate: OSStatus = -26275

/// `-50`, an alias.
public let errSecItemInvalidKey: OSStatus = -50

/// `-50`, an alias.
public let errSecItemInvalidKeyType: OSStatus = -50

/// `-50`, an alias.
public let errSecItemInvalidValue: OSStatus = -50

/// `-50`, an alias.
public let errSecItemClassMissing: OSStatus = -50

/// `-50`, an alias.
public let errSecItemMatchUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecUseItemListUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecUseKeychainUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecUseKeychainListUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecReturnDataUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecReturnAttributesUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecReturnRefUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecReturnPersitentRefUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecValueRefUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecValuePersistentRefUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecReturnMissingPointer: OSStatus = -50

/// `-50`, an alias.
public let errSecMatchLimitUnsupported: OSStatus = -50

/// `-50`, an alias.
public let errSecItemIllegalQuery: OSStatus = -50

/// The message of each status that has one, as in Apple's `SecErrorMessages.strings`.
let securityErrorMessages: [OSStatus: String] = [
    0: "No error.",
    -4: "Function or operation not implemented.",
    -34: "The disk is full.",
    -36: "I/O error.",
    -49: "File already open with write permission.",
    -50: "One or more parameters passed to a function were not valid.",
    -61: "Write permissions error.",
    -108: "Failed to allocate memory.",
    -128: "User canceled the operation.",
    -909: "Bad parameter or invalid state for operation.",
    -25291: "No keychain is available. You may need to restart your computer.",
    -25292: "This keychain cannot be modified.",
    -25293: "The user name or passphrase you entered is not correct.",
    -25294: "The specified keychain could not be found.",
    -25295: "The specified keychain is not a valid keychain file.",
    -25296: "A keychain with the same name already exists.",
    -25297: "The specified callback function is already installed.",
    -25298: "The specified callback function is not valid.",
    -25299: "The specified item already exists in the keychain.",
    -25300: "The specified item could not be found in the keychain.",
    -25301: "There is not enough memory available to use the specified item.",
    -25302: "This item contains information which is too large or in a format that cannot be displayed.",
    -25303: "The specified attribute does not exist.",
    -25304: "The specified item is no longer valid. It may have been deleted from the keychain.",
    -25305: "Unable to search the current keychain.",
    -25306: "The specified item does not appear to be a valid keychain item.",
    -25307: "A default keychain could not be found.",
    -25308: "User interaction is not allowed.",
    -25309: "The specified attribute could not be modified.",
    -25310: "This keychain was created by a different version of the system software and cannot be opened.",
    -25311: "This item specifies a key size which is too large or too small.",
    -25315: "User interaction is required, but is currently not allowed.",
    -25316: "The contents of this item cannot be retrieved.",
    -25317: "The contents of this item cannot be modified.",
    -25320: "In dark wake, no UI possible",
    -25330: "Auth is needed before the requested action can be performed.",
    -25243: "The specified item has no access control.",
    -25244: "Invalid attempt to change the owner of this item.",
    -25256: "Import/Export format unsupported.",
    -25257: "Unknown format in import.",
    -25260: "Passphrase is required for import/export.",
    -25264: "MAC verification failed during PKCS12 import (wrong password?)",
    -26267: "A certificate was not signed by its proposed parent.",
    -26270: "The certificate chain was not trusted due to a policy not accepting it.",
    -26275: "Unable to decode the provided data.",
    -26276: "An internal error occured in the Security framework.",
    -34017: "This operation is incomplete, until the callback is invoked (not an error).",
    -34018: "A required entitlement isn't present.",
    -34019: "Error returned if keychain database needs a schema migration but the device is locked, clients should wait for a device unlock notification and retry the command.",
    -34020: "Client is restricted and is not permitted to perform this operation.",
    -67585: "The required service is not available.",
]
#endif
