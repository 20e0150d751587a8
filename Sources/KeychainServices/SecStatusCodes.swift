#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Every OSStatus of Apple's keychain and of Apple's `SecBase.h`, with the
// message `SecCopyErrorMessageString` returns for it.

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

// The rest of Apple's `SecBase.h`: the certificate, trust and CSSM ranges (-25240…-25264,
// -25318…, -67585…-67901), so code that names them compiles and prints Apple's messages.

/// `-25312`: A required component (data storage module) could not be loaded. You may need to restart your computer.
public let errSecNoStorageModule: OSStatus = -25312

/// `-25313`: A required component (certificate module) could not be loaded. You may need to restart your computer.
public let errSecNoCertificateModule: OSStatus = -25313

/// `-25314`: A required component (policy module) could not be loaded. You may need to restart your computer.
public let errSecNoPolicyModule: OSStatus = -25314

/// `-25318`: One or more certificates required to validate this certificate cannot be found.
public let errSecCreateChainFailed: OSStatus = -25318

/// `-25319`: The specified preferences domain is not valid.
public let errSecInvalidPrefsDomain: OSStatus = -25319

/// `-25240`: The specified access control list is not in standard (simple) form.
public let errSecACLNotSimple: OSStatus = -25240

/// `-25241`: The specified policy cannot be found.
public let errSecPolicyNotFound: OSStatus = -25241

/// `-25242`: The specified trust setting is invalid.
public let errSecInvalidTrustSetting: OSStatus = -25242

/// `-25245`: No trust results are available.
public let errSecTrustNotAvailable: OSStatus = -25245

/// `-25258`: Key material must be wrapped for export.
public let errSecKeyIsSensitive: OSStatus = -25258

/// `-25259`: An attempt was made to import multiple private keys.
public let errSecMultiplePrivKeys: OSStatus = -25259

/// `-25261`: The password reference was invalid.
public let errSecInvalidPasswordRef: OSStatus = -25261

/// `-25262`: The Trust Settings Record was corrupted.
public let errSecInvalidTrustSettings: OSStatus = -25262

/// `-25263`: No Trust Settings were found.
public let errSecNoTrustSettings: OSStatus = -25263

/// `-67586`: The client ID is not correct.
public let errSecInsufficientClientID: OSStatus = -67586

/// `-67587`: A device reset has occurred.
public let errSecDeviceReset: OSStatus = -67587

/// `-67588`: A device failure has occurred.
public let errSecDeviceFailed: OSStatus = -67588

/// `-67589`: Adding an application ACL subject failed.
public let errSecAppleAddAppACLSubject: OSStatus = -67589

/// `-67590`: The public key is incomplete.
public let errSecApplePublicKeyIncomplete: OSStatus = -67590

/// `-67591`: A signature mismatch has occurred.
public let errSecAppleSignatureMismatch: OSStatus = -67591

/// `-67592`: The specified key has an invalid start date.
public let errSecAppleInvalidKeyStartDate: OSStatus = -67592

/// `-67593`: The specified key has an invalid end date.
public let errSecAppleInvalidKeyEndDate: OSStatus = -67593

/// `-67594`: A conversion error has occurred.
public let errSecConversionError: OSStatus = -67594

/// `-67595`: A SSLv2 rollback error has occurred.
public let errSecAppleSSLv2Rollback: OSStatus = -67595

/// `-67596`: The quota was exceeded.
public let errSecQuotaExceeded: OSStatus = -67596

/// `-67597`: The file is too big.
public let errSecFileTooBig: OSStatus = -67597

/// `-67598`: The specified database has an invalid blob.
public let errSecInvalidDatabaseBlob: OSStatus = -67598

/// `-67599`: The specified database has an invalid key blob.
public let errSecInvalidKeyBlob: OSStatus = -67599

/// `-67600`: The specified database has an incompatible blob.
public let errSecIncompatibleDatabaseBlob: OSStatus = -67600

/// `-67601`: The specified database has an incompatible key blob.
public let errSecIncompatibleKeyBlob: OSStatus = -67601

/// `-67602`: A host name mismatch has occurred.
public let errSecHostNameMismatch: OSStatus = -67602

/// `-67603`: There is an unknown critical extension flag.
public let errSecUnknownCriticalExtensionFlag: OSStatus = -67603

/// `-67604`: No basic constraints were found.
public let errSecNoBasicConstraints: OSStatus = -67604

/// `-67605`: No basic CA constraints were found.
public let errSecNoBasicConstraintsCA: OSStatus = -67605

/// `-67606`: The authority key ID is not valid.
public let errSecInvalidAuthorityKeyID: OSStatus = -67606

/// `-67607`: The subject key ID is not valid.
public let errSecInvalidSubjectKeyID: OSStatus = -67607

/// `-67608`: The key usage is not valid for the specified policy.
public let errSecInvalidKeyUsageForPolicy: OSStatus = -67608

/// `-67609`: The extended key usage is not valid.
public let errSecInvalidExtendedKeyUsage: OSStatus = -67609

/// `-67610`: The ID linkage is not valid.
public let errSecInvalidIDLinkage: OSStatus = -67610

/// `-67611`: The path length constraint was exceeded.
public let errSecPathLengthConstraintExceeded: OSStatus = -67611

/// `-67612`: The root or anchor certificate is not valid.
public let errSecInvalidRoot: OSStatus = -67612

/// `-67613`: The CRL has expired.
public let errSecCRLExpired: OSStatus = -67613

/// `-67614`: The CRL is not yet valid.
public let errSecCRLNotValidYet: OSStatus = -67614

/// `-67615`: The CRL was not found.
public let errSecCRLNotFound: OSStatus = -67615

/// `-67616`: The CRL server is down.
public let errSecCRLServerDown: OSStatus = -67616

/// `-67617`: The CRL has a bad Uniform Resource Identifier.
public let errSecCRLBadURI: OSStatus = -67617

/// `-67618`: An unknown certificate extension was encountered.
public let errSecUnknownCertExtension: OSStatus = -67618

/// `-67619`: An unknown CRL extension was encountered.
public let errSecUnknownCRLExtension: OSStatus = -67619

/// `-67620`: The CRL is not trusted.
public let errSecCRLNotTrusted: OSStatus = -67620

/// `-67621`: The CRL policy failed.
public let errSecCRLPolicyFailed: OSStatus = -67621

/// `-67622`: The issuing distribution point was not valid.
public let errSecIDPFailure: OSStatus = -67622

/// `-67623`: An email address mismatch was encountered.
public let errSecSMIMEEmailAddressesNotFound: OSStatus = -67623

/// `-67624`: The appropriate extended key usage for SMIME was not found.
public let errSecSMIMEBadExtendedKeyUsage: OSStatus = -67624

/// `-67625`: The key usage is not compatible with SMIME.
public let errSecSMIMEBadKeyUsage: OSStatus = -67625

/// `-67626`: The key usage extension is not marked as critical.
public let errSecSMIMEKeyUsageNotCritical: OSStatus = -67626

/// `-67627`: No email address was found in the certificate.
public let errSecSMIMENoEmailAddress: OSStatus = -67627

/// `-67628`: The subject alternative name extension is not marked as critical.
public let errSecSMIMESubjAltNameNotCritical: OSStatus = -67628

/// `-67629`: The appropriate extended key usage for SSL was not found.
public let errSecSSLBadExtendedKeyUsage: OSStatus = -67629

/// `-67630`: The OCSP response was incorrect or could not be parsed.
public let errSecOCSPBadResponse: OSStatus = -67630

/// `-67631`: The OCSP request was incorrect or could not be parsed.
public let errSecOCSPBadRequest: OSStatus = -67631

/// `-67632`: OCSP service is unavailable.
public let errSecOCSPUnavailable: OSStatus = -67632

/// `-67633`: The OCSP server did not recognize this certificate.
public let errSecOCSPStatusUnrecognized: OSStatus = -67633

/// `-67634`: An end-of-data was detected.
public let errSecEndOfData: OSStatus = -67634

/// `-67635`: An incomplete certificate revocation check occurred.
public let errSecIncompleteCertRevocationCheck: OSStatus = -67635

/// `-67636`: A network failure occurred.
public let errSecNetworkFailure: OSStatus = -67636

/// `-67637`: The OCSP response was not trusted to a root or anchor certificate.
public let errSecOCSPNotTrustedToAnchor: OSStatus = -67637

/// `-67638`: The record was modified.
public let errSecRecordModified: OSStatus = -67638

/// `-67639`: The OCSP response had an invalid signature.
public let errSecOCSPSignatureError: OSStatus = -67639

/// `-67640`: The OCSP response had no signer.
public let errSecOCSPNoSigner: OSStatus = -67640

/// `-67641`: The OCSP responder was given a malformed request.
public let errSecOCSPResponderMalformedReq: OSStatus = -67641

/// `-67642`: The OCSP responder encountered an internal error.
public let errSecOCSPResponderInternalError: OSStatus = -67642

/// `-67643`: The OCSP responder is busy, try again later.
public let errSecOCSPResponderTryLater: OSStatus = -67643

/// `-67644`: The OCSP responder requires a signature.
public let errSecOCSPResponderSignatureRequired: OSStatus = -67644

/// `-67645`: The OCSP responder rejected this request as unauthorized.
public let errSecOCSPResponderUnauthorized: OSStatus = -67645

/// `-67646`: The OCSP response nonce did not match the request.
public let errSecOCSPResponseNonceMismatch: OSStatus = -67646

/// `-67647`: Code signing encountered an incorrect certificate chain length.
public let errSecCodeSigningBadCertChainLength: OSStatus = -67647

/// `-67648`: Code signing found no basic constraints.
public let errSecCodeSigningNoBasicConstraints: OSStatus = -67648

/// `-67649`: Code signing encountered an incorrect path length constraint.
public let errSecCodeSigningBadPathLengthConstraint: OSStatus = -67649

/// `-67650`: Code signing found no extended key usage.
public let errSecCodeSigningNoExtendedKeyUsage: OSStatus = -67650

/// `-67651`: Code signing indicated use of a development-only certificate.
public let errSecCodeSigningDevelopment: OSStatus = -67651

/// `-67652`: Resource signing has encountered an incorrect certificate chain length.
public let errSecResourceSignBadCertChainLength: OSStatus = -67652

/// `-67653`: Resource signing has encountered an error in the extended key usage.
public let errSecResourceSignBadExtKeyUsage: OSStatus = -67653

/// `-67654`: The trust setting for this policy was set to Deny.
public let errSecTrustSettingDeny: OSStatus = -67654

/// `-67655`: An invalid certificate subject name was encountered.
public let errSecInvalidSubjectName: OSStatus = -67655

/// `-67656`: An unknown qualified certificate statement was encountered.
public let errSecUnknownQualifiedCertStatement: OSStatus = -67656

/// `-67657` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67657"`).
public let errSecMobileMeRequestQueued: OSStatus = -67657

/// `-67658` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67658"`).
public let errSecMobileMeRequestRedirected: OSStatus = -67658

/// `-67659` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67659"`).
public let errSecMobileMeServerError: OSStatus = -67659

/// `-67660` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67660"`).
public let errSecMobileMeServerNotAvailable: OSStatus = -67660

/// `-67661` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67661"`).
public let errSecMobileMeServerAlreadyExists: OSStatus = -67661

/// `-67662` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67662"`).
public let errSecMobileMeServerServiceErr: OSStatus = -67662

/// `-67663` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67663"`).
public let errSecMobileMeRequestAlreadyPending: OSStatus = -67663

/// `-67664` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67664"`).
public let errSecMobileMeNoRequestPending: OSStatus = -67664

/// `-67665` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67665"`).
public let errSecMobileMeCSRVerifyFailure: OSStatus = -67665

/// `-67666` (no message: `SecCopyErrorMessageString` gives `"OSStatus -67666"`).
public let errSecMobileMeFailedConsistencyCheck: OSStatus = -67666

/// `-67667`: A function was called without initializing CSSM.
public let errSecNotInitialized: OSStatus = -67667

/// `-67668`: The CSSM handle does not match with the service type.
public let errSecInvalidHandleUsage: OSStatus = -67668

/// `-67669`: A reference to the calling module was not found in the list of authorized callers.
public let errSecPVCReferentNotFound: OSStatus = -67669

/// `-67670`: A function address was not within the verified module.
public let errSecFunctionIntegrityFail: OSStatus = -67670

/// `-67671`: An internal error has occurred.
public let errSecInternalError: OSStatus = -67671

/// `-67672`: A memory error has occurred.
public let errSecMemoryError: OSStatus = -67672

/// `-67673`: Invalid data was encountered.
public let errSecInvalidData: OSStatus = -67673

/// `-67674`: A Module Directory Service error has occurred.
public let errSecMDSError: OSStatus = -67674

/// `-67675`: An invalid pointer was encountered.
public let errSecInvalidPointer: OSStatus = -67675

/// `-67676`: Self-check has failed.
public let errSecSelfCheckFailed: OSStatus = -67676

/// `-67677`: A function has failed.
public let errSecFunctionFailed: OSStatus = -67677

/// `-67678`: A module manifest verification failure has occurred.
public let errSecModuleManifestVerifyFailed: OSStatus = -67678

/// `-67679`: An invalid GUID was encountered.
public let errSecInvalidGUID: OSStatus = -67679

/// `-67680`: An invalid handle was encountered.
public let errSecInvalidHandle: OSStatus = -67680

/// `-67681`: An invalid DB list was encountered.
public let errSecInvalidDBList: OSStatus = -67681

/// `-67682`: An invalid passthrough ID was encountered.
public let errSecInvalidPassthroughID: OSStatus = -67682

/// `-67683`: An invalid network address was encountered.
public let errSecInvalidNetworkAddress: OSStatus = -67683

/// `-67684`: The certificate revocation list is already signed.
public let errSecCRLAlreadySigned: OSStatus = -67684

/// `-67685`: An invalid number of fields were encountered.
public let errSecInvalidNumberOfFields: OSStatus = -67685

/// `-67686`: A verification failure occurred.
public let errSecVerificationFailure: OSStatus = -67686

/// `-67687`: An unknown tag was encountered.
public let errSecUnknownTag: OSStatus = -67687

/// `-67688`: An invalid signature was encountered.
public let errSecInvalidSignature: OSStatus = -67688

/// `-67689`: An invalid name was encountered.
public let errSecInvalidName: OSStatus = -67689

/// `-67690`: An invalid certificate reference was encountered.
public let errSecInvalidCertificateRef: OSStatus = -67690

/// `-67691`: An invalid certificate group was encountered.
public let errSecInvalidCertificateGroup: OSStatus = -67691

/// `-67692`: The specified tag was not found.
public let errSecTagNotFound: OSStatus = -67692

/// `-67693`: The specified query was not valid.
public let errSecInvalidQuery: OSStatus = -67693

/// `-67694`: An invalid value was detected.
public let errSecInvalidValue: OSStatus = -67694

/// `-67695`: A callback has failed.
public let errSecCallbackFailed: OSStatus = -67695

/// `-67696`: An ACL delete operation has failed.
public let errSecACLDeleteFailed: OSStatus = -67696

/// `-67697`: An ACL replace operation has failed.
public let errSecACLReplaceFailed: OSStatus = -67697

/// `-67698`: An ACL add operation has failed.
public let errSecACLAddFailed: OSStatus = -67698

/// `-67699`: An ACL change operation has failed.
public let errSecACLChangeFailed: OSStatus = -67699

/// `-67700`: Invalid access credentials were encountered.
public let errSecInvalidAccessCredentials: OSStatus = -67700

/// `-67701`: An invalid record was encountered.
public let errSecInvalidRecord: OSStatus = -67701

/// `-67702`: An invalid ACL was encountered.
public let errSecInvalidACL: OSStatus = -67702

/// `-67703`: An invalid sample value was encountered.
public let errSecInvalidSampleValue: OSStatus = -67703

/// `-67704`: An incompatible version was encountered.
public let errSecIncompatibleVersion: OSStatus = -67704

/// `-67705`: The privilege was not granted.
public let errSecPrivilegeNotGranted: OSStatus = -67705

/// `-67706`: An invalid scope was encountered.
public let errSecInvalidScope: OSStatus = -67706

/// `-67707`: The PVC is already configured.
public let errSecPVCAlreadyConfigured: OSStatus = -67707

/// `-67708`: An invalid PVC was encountered.
public let errSecInvalidPVC: OSStatus = -67708

/// `-67709`: The EMM load has failed.
public let errSecEMMLoadFailed: OSStatus = -67709

/// `-67710`: The EMM unload has failed.
public let errSecEMMUnloadFailed: OSStatus = -67710

/// `-67711`: The add-in load operation has failed.
public let errSecAddinLoadFailed: OSStatus = -67711

/// `-67712`: An invalid key was encountered.
public let errSecInvalidKeyRef: OSStatus = -67712

/// `-67713`: An invalid key hierarchy was encountered.
public let errSecInvalidKeyHierarchy: OSStatus = -67713

/// `-67714`: The add-in unload operation has failed.
public let errSecAddinUnloadFailed: OSStatus = -67714

/// `-67715`: A library reference was not found.
public let errSecLibraryReferenceNotFound: OSStatus = -67715

/// `-67716`: An invalid add-in function table was encountered.
public let errSecInvalidAddinFunctionTable: OSStatus = -67716

/// `-67717`: An invalid service mask was encountered.
public let errSecInvalidServiceMask: OSStatus = -67717

/// `-67718`: A module was not loaded.
public let errSecModuleNotLoaded: OSStatus = -67718

/// `-67719`: An invalid subservice ID was encountered.
public let errSecInvalidSubServiceID: OSStatus = -67719

/// `-67720`: An attribute was not in the context.
public let errSecAttributeNotInContext: OSStatus = -67720

/// `-67721`: A module failed to initialize.
public let errSecModuleManagerInitializeFailed: OSStatus = -67721

/// `-67722`: A module was not found.
public let errSecModuleManagerNotFound: OSStatus = -67722

/// `-67723`: An event notification callback was not found.
public let errSecEventNotificationCallbackNotFound: OSStatus = -67723

/// `-67724`: An input length error was encountered.
public let errSecInputLengthError: OSStatus = -67724

/// `-67725`: An output length error was encountered.
public let errSecOutputLengthError: OSStatus = -67725

/// `-67726`: The privilege is not supported.
public let errSecPrivilegeNotSupported: OSStatus = -67726

/// `-67727`: A device error was encountered.
public let errSecDeviceError: OSStatus = -67727

/// `-67728`: The CSP handle was busy.
public let errSecAttachHandleBusy: OSStatus = -67728

/// `-67729`: You are not logged in.
public let errSecNotLoggedIn: OSStatus = -67729

/// `-67730`: An algorithm mismatch was encountered.
public let errSecAlgorithmMismatch: OSStatus = -67730

/// `-67731`: The key usage is incorrect.
public let errSecKeyUsageIncorrect: OSStatus = -67731

/// `-67732`: The key blob type is incorrect.
public let errSecKeyBlobTypeIncorrect: OSStatus = -67732

/// `-67733`: The key header is inconsistent.
public let errSecKeyHeaderInconsistent: OSStatus = -67733

/// `-67734`: The key header format is not supported.
public let errSecUnsupportedKeyFormat: OSStatus = -67734

/// `-67735`: The key size is not supported.
public let errSecUnsupportedKeySize: OSStatus = -67735

/// `-67736`: The key usage mask is not valid.
public let errSecInvalidKeyUsageMask: OSStatus = -67736

/// `-67737`: The key usage mask is not supported.
public let errSecUnsupportedKeyUsageMask: OSStatus = -67737

/// `-67738`: The key attribute mask is not valid.
public let errSecInvalidKeyAttributeMask: OSStatus = -67738

/// `-67739`: The key attribute mask is not supported.
public let errSecUnsupportedKeyAttributeMask: OSStatus = -67739

/// `-67740`: The key label is not valid.
public let errSecInvalidKeyLabel: OSStatus = -67740

/// `-67741`: The key label is not supported.
public let errSecUnsupportedKeyLabel: OSStatus = -67741

/// `-67742`: The key format is not valid.
public let errSecInvalidKeyFormat: OSStatus = -67742

/// `-67743`: The vector of buffers is not supported.
public let errSecUnsupportedVectorOfBuffers: OSStatus = -67743

/// `-67744`: The input vector is not valid.
public let errSecInvalidInputVector: OSStatus = -67744

/// `-67745`: The output vector is not valid.
public let errSecInvalidOutputVector: OSStatus = -67745

/// `-67746`: An invalid context was encountered.
public let errSecInvalidContext: OSStatus = -67746

/// `-67747`: An invalid algorithm was encountered.
public let errSecInvalidAlgorithm: OSStatus = -67747

/// `-67748`: A key attribute was not valid.
public let errSecInvalidAttributeKey: OSStatus = -67748

/// `-67749`: A key attribute was missing.
public let errSecMissingAttributeKey: OSStatus = -67749

/// `-67750`: An init vector attribute was not valid.
public let errSecInvalidAttributeInitVector: OSStatus = -67750

/// `-67751`: An init vector attribute was missing.
public let errSecMissingAttributeInitVector: OSStatus = -67751

/// `-67752`: A salt attribute was not valid.
public let errSecInvalidAttributeSalt: OSStatus = -67752

/// `-67753`: A salt attribute was missing.
public let errSecMissingAttributeSalt: OSStatus = -67753

/// `-67754`: A padding attribute was not valid.
public let errSecInvalidAttributePadding: OSStatus = -67754

/// `-67755`: A padding attribute was missing.
public let errSecMissingAttributePadding: OSStatus = -67755

/// `-67756`: A random number attribute was not valid.
public let errSecInvalidAttributeRandom: OSStatus = -67756

/// `-67757`: A random number attribute was missing.
public let errSecMissingAttributeRandom: OSStatus = -67757

/// `-67758`: A seed attribute was not valid.
public let errSecInvalidAttributeSeed: OSStatus = -67758

/// `-67759`: A seed attribute was missing.
public let errSecMissingAttributeSeed: OSStatus = -67759

/// `-67760`: A passphrase attribute was not valid.
public let errSecInvalidAttributePassphrase: OSStatus = -67760

/// `-67761`: A passphrase attribute was missing.
public let errSecMissingAttributePassphrase: OSStatus = -67761

/// `-67762`: A key length attribute was not valid.
public let errSecInvalidAttributeKeyLength: OSStatus = -67762

/// `-67763`: A key length attribute was missing.
public let errSecMissingAttributeKeyLength: OSStatus = -67763

/// `-67764`: A block size attribute was not valid.
public let errSecInvalidAttributeBlockSize: OSStatus = -67764

/// `-67765`: A block size attribute was missing.
public let errSecMissingAttributeBlockSize: OSStatus = -67765

/// `-67766`: An output size attribute was not valid.
public let errSecInvalidAttributeOutputSize: OSStatus = -67766

/// `-67767`: An output size attribute was missing.
public let errSecMissingAttributeOutputSize: OSStatus = -67767

/// `-67768`: The number of rounds attribute was not valid.
public let errSecInvalidAttributeRounds: OSStatus = -67768

/// `-67769`: The number of rounds attribute was missing.
public let errSecMissingAttributeRounds: OSStatus = -67769

/// `-67770`: An algorithm parameters attribute was not valid.
public let errSecInvalidAlgorithmParms: OSStatus = -67770

/// `-67771`: An algorithm parameters attribute was missing.
public let errSecMissingAlgorithmParms: OSStatus = -67771

/// `-67772`: A label attribute was not valid.
public let errSecInvalidAttributeLabel: OSStatus = -67772

/// `-67773`: A label attribute was missing.
public let errSecMissingAttributeLabel: OSStatus = -67773

/// `-67774`: A key type attribute was not valid.
public let errSecInvalidAttributeKeyType: OSStatus = -67774

/// `-67775`: A key type attribute was missing.
public let errSecMissingAttributeKeyType: OSStatus = -67775

/// `-67776`: A mode attribute was not valid.
public let errSecInvalidAttributeMode: OSStatus = -67776

/// `-67777`: A mode attribute was missing.
public let errSecMissingAttributeMode: OSStatus = -67777

/// `-67778`: An effective bits attribute was not valid.
public let errSecInvalidAttributeEffectiveBits: OSStatus = -67778

/// `-67779`: An effective bits attribute was missing.
public let errSecMissingAttributeEffectiveBits: OSStatus = -67779

/// `-67780`: A start date attribute was not valid.
public let errSecInvalidAttributeStartDate: OSStatus = -67780

/// `-67781`: A start date attribute was missing.
public let errSecMissingAttributeStartDate: OSStatus = -67781

/// `-67782`: An end date attribute was not valid.
public let errSecInvalidAttributeEndDate: OSStatus = -67782

/// `-67783`: An end date attribute was missing.
public let errSecMissingAttributeEndDate: OSStatus = -67783

/// `-67784`: A version attribute was not valid.
public let errSecInvalidAttributeVersion: OSStatus = -67784

/// `-67785`: A version attribute was missing.
public let errSecMissingAttributeVersion: OSStatus = -67785

/// `-67786`: A prime attribute was not valid.
public let errSecInvalidAttributePrime: OSStatus = -67786

/// `-67787`: A prime attribute was missing.
public let errSecMissingAttributePrime: OSStatus = -67787

/// `-67788`: A base attribute was not valid.
public let errSecInvalidAttributeBase: OSStatus = -67788

/// `-67789`: A base attribute was missing.
public let errSecMissingAttributeBase: OSStatus = -67789

/// `-67790`: A subprime attribute was not valid.
public let errSecInvalidAttributeSubprime: OSStatus = -67790

/// `-67791`: A subprime attribute was missing.
public let errSecMissingAttributeSubprime: OSStatus = -67791

/// `-67792`: An iteration count attribute was not valid.
public let errSecInvalidAttributeIterationCount: OSStatus = -67792

/// `-67793`: An iteration count attribute was missing.
public let errSecMissingAttributeIterationCount: OSStatus = -67793

/// `-67794`: A database handle attribute was not valid.
public let errSecInvalidAttributeDLDBHandle: OSStatus = -67794

/// `-67795`: A database handle attribute was missing.
public let errSecMissingAttributeDLDBHandle: OSStatus = -67795

/// `-67796`: An access credentials attribute was not valid.
public let errSecInvalidAttributeAccessCredentials: OSStatus = -67796

/// `-67797`: An access credentials attribute was missing.
public let errSecMissingAttributeAccessCredentials: OSStatus = -67797

/// `-67798`: A public key format attribute was not valid.
public let errSecInvalidAttributePublicKeyFormat: OSStatus = -67798

/// `-67799`: A public key format attribute was missing.
public let errSecMissingAttributePublicKeyFormat: OSStatus = -67799

/// `-67800`: A private key format attribute was not valid.
public let errSecInvalidAttributePrivateKeyFormat: OSStatus = -67800

/// `-67801`: A private key format attribute was missing.
public let errSecMissingAttributePrivateKeyFormat: OSStatus = -67801

/// `-67802`: A symmetric key format attribute was not valid.
public let errSecInvalidAttributeSymmetricKeyFormat: OSStatus = -67802

/// `-67803`: A symmetric key format attribute was missing.
public let errSecMissingAttributeSymmetricKeyFormat: OSStatus = -67803

/// `-67804`: A wrapped key format attribute was not valid.
public let errSecInvalidAttributeWrappedKeyFormat: OSStatus = -67804

/// `-67805`: A wrapped key format attribute was missing.
public let errSecMissingAttributeWrappedKeyFormat: OSStatus = -67805

/// `-67806`: A staged operation is in progress.
public let errSecStagedOperationInProgress: OSStatus = -67806

/// `-67807`: A staged operation was not started.
public let errSecStagedOperationNotStarted: OSStatus = -67807

/// `-67808`: A cryptographic verification failure has occurred.
public let errSecVerifyFailed: OSStatus = -67808

/// `-67809`: The query size is unknown.
public let errSecQuerySizeUnknown: OSStatus = -67809

/// `-67810`: A block size mismatch occurred.
public let errSecBlockSizeMismatch: OSStatus = -67810

/// `-67811`: The public key was inconsistent.
public let errSecPublicKeyInconsistent: OSStatus = -67811

/// `-67812`: A device verification failure has occurred.
public let errSecDeviceVerifyFailed: OSStatus = -67812

/// `-67813`: An invalid login name was detected.
public let errSecInvalidLoginName: OSStatus = -67813

/// `-67814`: The user is already logged in.
public let errSecAlreadyLoggedIn: OSStatus = -67814

/// `-67815`: An invalid digest algorithm was detected.
public let errSecInvalidDigestAlgorithm: OSStatus = -67815

/// `-67816`: An invalid CRL group was detected.
public let errSecInvalidCRLGroup: OSStatus = -67816

/// `-67817`: The certificate cannot operate.
public let errSecCertificateCannotOperate: OSStatus = -67817

/// `-67818`: An expired certificate was detected.
public let errSecCertificateExpired: OSStatus = -67818

/// `-67819`: The certificate is not yet valid.
public let errSecCertificateNotValidYet: OSStatus = -67819

/// `-67820`: The certificate was revoked.
public let errSecCertificateRevoked: OSStatus = -67820

/// `-67821`: The certificate was suspended.
public let errSecCertificateSuspended: OSStatus = -67821

/// `-67822`: Insufficient credentials were detected.
public let errSecInsufficientCredentials: OSStatus = -67822

/// `-67823`: The action was not valid.
public let errSecInvalidAction: OSStatus = -67823

/// `-67824`: The authority was not valid.
public let errSecInvalidAuthority: OSStatus = -67824

/// `-67825`: A verify action has failed.
public let errSecVerifyActionFailed: OSStatus = -67825

/// `-67826`: The certificate authority was not valid.
public let errSecInvalidCertAuthority: OSStatus = -67826

/// `-67827`: The CRL authority was not valid.
public let errSecInvaldCRLAuthority: OSStatus = -67827

/// `-67828`: The CRL encoding was not valid.
public let errSecInvalidCRLEncoding: OSStatus = -67828

/// `-67829`: The CRL type was not valid.
public let errSecInvalidCRLType: OSStatus = -67829

/// `-67830`: The CRL was not valid.
public let errSecInvalidCRL: OSStatus = -67830

/// `-67831`: The form type was not valid.
public let errSecInvalidFormType: OSStatus = -67831

/// `-67832`: The ID was not valid.
public let errSecInvalidID: OSStatus = -67832

/// `-67833`: The identifier was not valid.
public let errSecInvalidIdentifier: OSStatus = -67833

/// `-67834`: The index was not valid.
public let errSecInvalidIndex: OSStatus = -67834

/// `-67835`: The policy identifiers are not valid.
public let errSecInvalidPolicyIdentifiers: OSStatus = -67835

/// `-67836`: The time specified was not valid.
public let errSecInvalidTimeString: OSStatus = -67836

/// `-67837`: The trust policy reason was not valid.
public let errSecInvalidReason: OSStatus = -67837

/// `-67838`: The request inputs are not valid.
public let errSecInvalidRequestInputs: OSStatus = -67838

/// `-67839`: The response vector was not valid.
public let errSecInvalidResponseVector: OSStatus = -67839

/// `-67840`: The stop-on policy was not valid.
public let errSecInvalidStopOnPolicy: OSStatus = -67840

/// `-67841`: The tuple was not valid.
public let errSecInvalidTuple: OSStatus = -67841

/// `-67842`: Multiple values are not supported.
public let errSecMultipleValuesUnsupported: OSStatus = -67842

/// `-67843`: The certificate was not trusted.
public let errSecNotTrusted: OSStatus = -67843

/// `-67844`: No default authority was detected.
public let errSecNoDefaultAuthority: OSStatus = -67844

/// `-67845`: The trust policy had a rejected form.
public let errSecRejectedForm: OSStatus = -67845

/// `-67846`: The request was lost.
public let errSecRequestLost: OSStatus = -67846

/// `-67847`: The request was rejected.
public let errSecRequestRejected: OSStatus = -67847

/// `-67848`: The address type is not supported.
public let errSecUnsupportedAddressType: OSStatus = -67848

/// `-67849`: The service is not supported.
public let errSecUnsupportedService: OSStatus = -67849

/// `-67850`: The tuple group was not valid.
public let errSecInvalidTupleGroup: OSStatus = -67850

/// `-67851`: The base ACLs are not valid.
public let errSecInvalidBaseACLs: OSStatus = -67851

/// `-67852`: The tuple credentials are not valid.
public let errSecInvalidTupleCredendtials: OSStatus = -67852

/// `-67853`: The encoding was not valid.
public let errSecInvalidEncoding: OSStatus = -67853

/// `-67854`: The validity period was not valid.
public let errSecInvalidValidityPeriod: OSStatus = -67854

/// `-67855`: The requestor was not valid.
public let errSecInvalidRequestor: OSStatus = -67855

/// `-67856`: The request descriptor was not valid.
public let errSecRequestDescriptor: OSStatus = -67856

/// `-67857`: The bundle information was not valid.
public let errSecInvalidBundleInfo: OSStatus = -67857

/// `-67858`: The CRL index was not valid.
public let errSecInvalidCRLIndex: OSStatus = -67858

/// `-67859`: No field values were detected.
public let errSecNoFieldValues: OSStatus = -67859

/// `-67860`: The field format is not supported.
public let errSecUnsupportedFieldFormat: OSStatus = -67860

/// `-67861`: The index information is not supported.
public let errSecUnsupportedIndexInfo: OSStatus = -67861

/// `-67862`: The locality is not supported.
public let errSecUnsupportedLocality: OSStatus = -67862

/// `-67863`: The number of attributes is not supported.
public let errSecUnsupportedNumAttributes: OSStatus = -67863

/// `-67864`: The number of indexes is not supported.
public let errSecUnsupportedNumIndexes: OSStatus = -67864

/// `-67865`: The number of record types is not supported.
public let errSecUnsupportedNumRecordTypes: OSStatus = -67865

/// `-67866`: Too many fields were specified.
public let errSecFieldSpecifiedMultiple: OSStatus = -67866

/// `-67867`: The field format was incompatible.
public let errSecIncompatibleFieldFormat: OSStatus = -67867

/// `-67868`: The parsing module was not valid.
public let errSecInvalidParsingModule: OSStatus = -67868

/// `-67869`: The database is locked.
public let errSecDatabaseLocked: OSStatus = -67869

/// `-67870`: The data store is open.
public let errSecDatastoreIsOpen: OSStatus = -67870

/// `-67871`: A missing value was detected.
public let errSecMissingValue: OSStatus = -67871

/// `-67872`: The query limits are not supported.
public let errSecUnsupportedQueryLimits: OSStatus = -67872

/// `-67873`: The number of selection predicates is not supported.
public let errSecUnsupportedNumSelectionPreds: OSStatus = -67873

/// `-67874`: The operator is not supported.
public let errSecUnsupportedOperator: OSStatus = -67874

/// `-67875`: The database location is not valid.
public let errSecInvalidDBLocation: OSStatus = -67875

/// `-67876`: The access request is not valid.
public let errSecInvalidAccessRequest: OSStatus = -67876

/// `-67877`: The index information is not valid.
public let errSecInvalidIndexInfo: OSStatus = -67877

/// `-67878`: The new owner is not valid.
public let errSecInvalidNewOwner: OSStatus = -67878

/// `-67879`: The modify mode is not valid.
public let errSecInvalidModifyMode: OSStatus = -67879

/// `-67880`: A required certificate extension is missing.
public let errSecMissingRequiredExtension: OSStatus = -67880

/// `-67881`: The extended key usage extension was not marked critical.
public let errSecExtendedKeyUsageNotCritical: OSStatus = -67881

/// `-67882`: A timestamp was expected but was not found.
public let errSecTimestampMissing: OSStatus = -67882

/// `-67883`: The timestamp was not valid.
public let errSecTimestampInvalid: OSStatus = -67883

/// `-67884`: The timestamp was not trusted.
public let errSecTimestampNotTrusted: OSStatus = -67884

/// `-67885`: The timestamp service is not available.
public let errSecTimestampServiceNotAvailable: OSStatus = -67885

/// `-67886`: An unrecognized or unsupported Algorithm Identifier in timestamp.
public let errSecTimestampBadAlg: OSStatus = -67886

/// `-67887`: The timestamp transaction is not permitted or supported.
public let errSecTimestampBadRequest: OSStatus = -67887

/// `-67888`: The timestamp data submitted has the wrong format.
public let errSecTimestampBadDataFormat: OSStatus = -67888

/// `-67889`: The time source for the Timestamp Authority is not available.
public let errSecTimestampTimeNotAvailable: OSStatus = -67889

/// `-67890`: The requested policy is not supported by the Timestamp Authority.
public let errSecTimestampUnacceptedPolicy: OSStatus = -67890

/// `-67891`: The requested extension is not supported by the Timestamp Authority.
public let errSecTimestampUnacceptedExtension: OSStatus = -67891

/// `-67892`: The additional information requested is not available.
public let errSecTimestampAddInfoNotAvailable: OSStatus = -67892

/// `-67893`: The timestamp request cannot be handled due to system failure.
public let errSecTimestampSystemFailure: OSStatus = -67893

/// `-67894`: A signing time was expected but was not found.
public let errSecSigningTimeMissing: OSStatus = -67894

/// `-67895`: A timestamp transaction was rejected.
public let errSecTimestampRejection: OSStatus = -67895

/// `-67896`: A timestamp transaction is waiting.
public let errSecTimestampWaiting: OSStatus = -67896

/// `-67897`: A timestamp authority revocation warning was issued.
public let errSecTimestampRevocationWarning: OSStatus = -67897

/// `-67898`: A timestamp authority revocation notification was issued.
public let errSecTimestampRevocationNotification: OSStatus = -67898

/// `-67899`: The requested policy is not allowed for this certificate.
public let errSecCertificatePolicyNotAllowed: OSStatus = -67899

/// `-67900`: The requested name is not allowed for this certificate.
public let errSecCertificateNameNotAllowed: OSStatus = -67900

/// `-67901`: The validity period in the certificate exceeds the maximum allowed.
public let errSecCertificateValidityPeriodTooLong: OSStatus = -67901

/// `-34`, the old spelling of ``errSecDiskFull``.
@available(*, deprecated, renamed: "errSecDiskFull")
public let errSecDskFull: OSStatus = -34

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
    -25312: "A required component (data storage module) could not be loaded. You may need to restart your computer.",
    -25313: "A required component (certificate module) could not be loaded. You may need to restart your computer.",
    -25314: "A required component (policy module) could not be loaded. You may need to restart your computer.",
    -25318: "One or more certificates required to validate this certificate cannot be found.",
    -25319: "The specified preferences domain is not valid.",
    -25240: "The specified access control list is not in standard (simple) form.",
    -25241: "The specified policy cannot be found.",
    -25242: "The specified trust setting is invalid.",
    -25245: "No trust results are available.",
    -25258: "Key material must be wrapped for export.",
    -25259: "An attempt was made to import multiple private keys.",
    -25261: "The password reference was invalid.",
    -25262: "The Trust Settings Record was corrupted.",
    -25263: "No Trust Settings were found.",
    -67586: "The client ID is not correct.",
    -67587: "A device reset has occurred.",
    -67588: "A device failure has occurred.",
    -67589: "Adding an application ACL subject failed.",
    -67590: "The public key is incomplete.",
    -67591: "A signature mismatch has occurred.",
    -67592: "The specified key has an invalid start date.",
    -67593: "The specified key has an invalid end date.",
    -67594: "A conversion error has occurred.",
    -67595: "A SSLv2 rollback error has occurred.",
    -67596: "The quota was exceeded.",
    -67597: "The file is too big.",
    -67598: "The specified database has an invalid blob.",
    -67599: "The specified database has an invalid key blob.",
    -67600: "The specified database has an incompatible blob.",
    -67601: "The specified database has an incompatible key blob.",
    -67602: "A host name mismatch has occurred.",
    -67603: "There is an unknown critical extension flag.",
    -67604: "No basic constraints were found.",
    -67605: "No basic CA constraints were found.",
    -67606: "The authority key ID is not valid.",
    -67607: "The subject key ID is not valid.",
    -67608: "The key usage is not valid for the specified policy.",
    -67609: "The extended key usage is not valid.",
    -67610: "The ID linkage is not valid.",
    -67611: "The path length constraint was exceeded.",
    -67612: "The root or anchor certificate is not valid.",
    -67613: "The CRL has expired.",
    -67614: "The CRL is not yet valid.",
    -67615: "The CRL was not found.",
    -67616: "The CRL server is down.",
    -67617: "The CRL has a bad Uniform Resource Identifier.",
    -67618: "An unknown certificate extension was encountered.",
    -67619: "An unknown CRL extension was encountered.",
    -67620: "The CRL is not trusted.",
    -67621: "The CRL policy failed.",
    -67622: "The issuing distribution point was not valid.",
    -67623: "An email address mismatch was encountered.",
    -67624: "The appropriate extended key usage for SMIME was not found.",
    -67625: "The key usage is not compatible with SMIME.",
    -67626: "The key usage extension is not marked as critical.",
    -67627: "No email address was found in the certificate.",
    -67628: "The subject alternative name extension is not marked as critical.",
    -67629: "The appropriate extended key usage for SSL was not found.",
    -67630: "The OCSP response was incorrect or could not be parsed.",
    -67631: "The OCSP request was incorrect or could not be parsed.",
    -67632: "OCSP service is unavailable.",
    -67633: "The OCSP server did not recognize this certificate.",
    -67634: "An end-of-data was detected.",
    -67635: "An incomplete certificate revocation check occurred.",
    -67636: "A network failure occurred.",
    -67637: "The OCSP response was not trusted to a root or anchor certificate.",
    -67638: "The record was modified.",
    -67639: "The OCSP response had an invalid signature.",
    -67640: "The OCSP response had no signer.",
    -67641: "The OCSP responder was given a malformed request.",
    -67642: "The OCSP responder encountered an internal error.",
    -67643: "The OCSP responder is busy, try again later.",
    -67644: "The OCSP responder requires a signature.",
    -67645: "The OCSP responder rejected this request as unauthorized.",
    -67646: "The OCSP response nonce did not match the request.",
    -67647: "Code signing encountered an incorrect certificate chain length.",
    -67648: "Code signing found no basic constraints.",
    -67649: "Code signing encountered an incorrect path length constraint.",
    -67650: "Code signing found no extended key usage.",
    -67651: "Code signing indicated use of a development-only certificate.",
    -67652: "Resource signing has encountered an incorrect certificate chain length.",
    -67653: "Resource signing has encountered an error in the extended key usage.",
    -67654: "The trust setting for this policy was set to Deny.",
    -67655: "An invalid certificate subject name was encountered.",
    -67656: "An unknown qualified certificate statement was encountered.",
    -67667: "A function was called without initializing CSSM.",
    -67668: "The CSSM handle does not match with the service type.",
    -67669: "A reference to the calling module was not found in the list of authorized callers.",
    -67670: "A function address was not within the verified module.",
    -67671: "An internal error has occurred.",
    -67672: "A memory error has occurred.",
    -67673: "Invalid data was encountered.",
    -67674: "A Module Directory Service error has occurred.",
    -67675: "An invalid pointer was encountered.",
    -67676: "Self-check has failed.",
    -67677: "A function has failed.",
    -67678: "A module manifest verification failure has occurred.",
    -67679: "An invalid GUID was encountered.",
    -67680: "An invalid handle was encountered.",
    -67681: "An invalid DB list was encountered.",
    -67682: "An invalid passthrough ID was encountered.",
    -67683: "An invalid network address was encountered.",
    -67684: "The certificate revocation list is already signed.",
    -67685: "An invalid number of fields were encountered.",
    -67686: "A verification failure occurred.",
    -67687: "An unknown tag was encountered.",
    -67688: "An invalid signature was encountered.",
    -67689: "An invalid name was encountered.",
    -67690: "An invalid certificate reference was encountered.",
    -67691: "An invalid certificate group was encountered.",
    -67692: "The specified tag was not found.",
    -67693: "The specified query was not valid.",
    -67694: "An invalid value was detected.",
    -67695: "A callback has failed.",
    -67696: "An ACL delete operation has failed.",
    -67697: "An ACL replace operation has failed.",
    -67698: "An ACL add operation has failed.",
    -67699: "An ACL change operation has failed.",
    -67700: "Invalid access credentials were encountered.",
    -67701: "An invalid record was encountered.",
    -67702: "An invalid ACL was encountered.",
    -67703: "An invalid sample value was encountered.",
    -67704: "An incompatible version was encountered.",
    -67705: "The privilege was not granted.",
    -67706: "An invalid scope was encountered.",
    -67707: "The PVC is already configured.",
    -67708: "An invalid PVC was encountered.",
    -67709: "The EMM load has failed.",
    -67710: "The EMM unload has failed.",
    -67711: "The add-in load operation has failed.",
    -67712: "An invalid key was encountered.",
    -67713: "An invalid key hierarchy was encountered.",
    -67714: "The add-in unload operation has failed.",
    -67715: "A library reference was not found.",
    -67716: "An invalid add-in function table was encountered.",
    -67717: "An invalid service mask was encountered.",
    -67718: "A module was not loaded.",
    -67719: "An invalid subservice ID was encountered.",
    -67720: "An attribute was not in the context.",
    -67721: "A module failed to initialize.",
    -67722: "A module was not found.",
    -67723: "An event notification callback was not found.",
    -67724: "An input length error was encountered.",
    -67725: "An output length error was encountered.",
    -67726: "The privilege is not supported.",
    -67727: "A device error was encountered.",
    -67728: "The CSP handle was busy.",
    -67729: "You are not logged in.",
    -67730: "An algorithm mismatch was encountered.",
    -67731: "The key usage is incorrect.",
    -67732: "The key blob type is incorrect.",
    -67733: "The key header is inconsistent.",
    -67734: "The key header format is not supported.",
    -67735: "The key size is not supported.",
    -67736: "The key usage mask is not valid.",
    -67737: "The key usage mask is not supported.",
    -67738: "The key attribute mask is not valid.",
    -67739: "The key attribute mask is not supported.",
    -67740: "The key label is not valid.",
    -67741: "The key label is not supported.",
    -67742: "The key format is not valid.",
    -67743: "The vector of buffers is not supported.",
    -67744: "The input vector is not valid.",
    -67745: "The output vector is not valid.",
    -67746: "An invalid context was encountered.",
    -67747: "An invalid algorithm was encountered.",
    -67748: "A key attribute was not valid.",
    -67749: "A key attribute was missing.",
    -67750: "An init vector attribute was not valid.",
    -67751: "An init vector attribute was missing.",
    -67752: "A salt attribute was not valid.",
    -67753: "A salt attribute was missing.",
    -67754: "A padding attribute was not valid.",
    -67755: "A padding attribute was missing.",
    -67756: "A random number attribute was not valid.",
    -67757: "A random number attribute was missing.",
    -67758: "A seed attribute was not valid.",
    -67759: "A seed attribute was missing.",
    -67760: "A passphrase attribute was not valid.",
    -67761: "A passphrase attribute was missing.",
    -67762: "A key length attribute was not valid.",
    -67763: "A key length attribute was missing.",
    -67764: "A block size attribute was not valid.",
    -67765: "A block size attribute was missing.",
    -67766: "An output size attribute was not valid.",
    -67767: "An output size attribute was missing.",
    -67768: "The number of rounds attribute was not valid.",
    -67769: "The number of rounds attribute was missing.",
    -67770: "An algorithm parameters attribute was not valid.",
    -67771: "An algorithm parameters attribute was missing.",
    -67772: "A label attribute was not valid.",
    -67773: "A label attribute was missing.",
    -67774: "A key type attribute was not valid.",
    -67775: "A key type attribute was missing.",
    -67776: "A mode attribute was not valid.",
    -67777: "A mode attribute was missing.",
    -67778: "An effective bits attribute was not valid.",
    -67779: "An effective bits attribute was missing.",
    -67780: "A start date attribute was not valid.",
    -67781: "A start date attribute was missing.",
    -67782: "An end date attribute was not valid.",
    -67783: "An end date attribute was missing.",
    -67784: "A version attribute was not valid.",
    -67785: "A version attribute was missing.",
    -67786: "A prime attribute was not valid.",
    -67787: "A prime attribute was missing.",
    -67788: "A base attribute was not valid.",
    -67789: "A base attribute was missing.",
    -67790: "A subprime attribute was not valid.",
    -67791: "A subprime attribute was missing.",
    -67792: "An iteration count attribute was not valid.",
    -67793: "An iteration count attribute was missing.",
    -67794: "A database handle attribute was not valid.",
    -67795: "A database handle attribute was missing.",
    -67796: "An access credentials attribute was not valid.",
    -67797: "An access credentials attribute was missing.",
    -67798: "A public key format attribute was not valid.",
    -67799: "A public key format attribute was missing.",
    -67800: "A private key format attribute was not valid.",
    -67801: "A private key format attribute was missing.",
    -67802: "A symmetric key format attribute was not valid.",
    -67803: "A symmetric key format attribute was missing.",
    -67804: "A wrapped key format attribute was not valid.",
    -67805: "A wrapped key format attribute was missing.",
    -67806: "A staged operation is in progress.",
    -67807: "A staged operation was not started.",
    -67808: "A cryptographic verification failure has occurred.",
    -67809: "The query size is unknown.",
    -67810: "A block size mismatch occurred.",
    -67811: "The public key was inconsistent.",
    -67812: "A device verification failure has occurred.",
    -67813: "An invalid login name was detected.",
    -67814: "The user is already logged in.",
    -67815: "An invalid digest algorithm was detected.",
    -67816: "An invalid CRL group was detected.",
    -67817: "The certificate cannot operate.",
    -67818: "An expired certificate was detected.",
    -67819: "The certificate is not yet valid.",
    -67820: "The certificate was revoked.",
    -67821: "The certificate was suspended.",
    -67822: "Insufficient credentials were detected.",
    -67823: "The action was not valid.",
    -67824: "The authority was not valid.",
    -67825: "A verify action has failed.",
    -67826: "The certificate authority was not valid.",
    -67827: "The CRL authority was not valid.",
    -67828: "The CRL encoding was not valid.",
    -67829: "The CRL type was not valid.",
    -67830: "The CRL was not valid.",
    -67831: "The form type was not valid.",
    -67832: "The ID was not valid.",
    -67833: "The identifier was not valid.",
    -67834: "The index was not valid.",
    -67835: "The policy identifiers are not valid.",
    -67836: "The time specified was not valid.",
    -67837: "The trust policy reason was not valid.",
    -67838: "The request inputs are not valid.",
    -67839: "The response vector was not valid.",
    -67840: "The stop-on policy was not valid.",
    -67841: "The tuple was not valid.",
    -67842: "Multiple values are not supported.",
    -67843: "The certificate was not trusted.",
    -67844: "No default authority was detected.",
    -67845: "The trust policy had a rejected form.",
    -67846: "The request was lost.",
    -67847: "The request was rejected.",
    -67848: "The address type is not supported.",
    -67849: "The service is not supported.",
    -67850: "The tuple group was not valid.",
    -67851: "The base ACLs are not valid.",
    -67852: "The tuple credentials are not valid.",
    -67853: "The encoding was not valid.",
    -67854: "The validity period was not valid.",
    -67855: "The requestor was not valid.",
    -67856: "The request descriptor was not valid.",
    -67857: "The bundle information was not valid.",
    -67858: "The CRL index was not valid.",
    -67859: "No field values were detected.",
    -67860: "The field format is not supported.",
    -67861: "The index information is not supported.",
    -67862: "The locality is not supported.",
    -67863: "The number of attributes is not supported.",
    -67864: "The number of indexes is not supported.",
    -67865: "The number of record types is not supported.",
    -67866: "Too many fields were specified.",
    -67867: "The field format was incompatible.",
    -67868: "The parsing module was not valid.",
    -67869: "The database is locked.",
    -67870: "The data store is open.",
    -67871: "A missing value was detected.",
    -67872: "The query limits are not supported.",
    -67873: "The number of selection predicates is not supported.",
    -67874: "The operator is not supported.",
    -67875: "The database location is not valid.",
    -67876: "The access request is not valid.",
    -67877: "The index information is not valid.",
    -67878: "The new owner is not valid.",
    -67879: "The modify mode is not valid.",
    -67880: "A required certificate extension is missing.",
    -67881: "The extended key usage extension was not marked critical.",
    -67882: "A timestamp was expected but was not found.",
    -67883: "The timestamp was not valid.",
    -67884: "The timestamp was not trusted.",
    -67885: "The timestamp service is not available.",
    -67886: "An unrecognized or unsupported Algorithm Identifier in timestamp.",
    -67887: "The timestamp transaction is not permitted or supported.",
    -67888: "The timestamp data submitted has the wrong format.",
    -67889: "The time source for the Timestamp Authority is not available.",
    -67890: "The requested policy is not supported by the Timestamp Authority.",
    -67891: "The requested extension is not supported by the Timestamp Authority.",
    -67892: "The additional information requested is not available.",
    -67893: "The timestamp request cannot be handled due to system failure.",
    -67894: "A signing time was expected but was not found.",
    -67895: "A timestamp transaction was rejected.",
    -67896: "A timestamp transaction is waiting.",
    -67897: "A timestamp authority revocation warning was issued.",
    -67898: "A timestamp authority revocation notification was issued.",
    -67899: "The requested policy is not allowed for this certificate.",
    -67900: "The requested name is not allowed for this certificate.",
    -67901: "The validity period in the certificate exceeds the maximum allowed.",
]
#endif
