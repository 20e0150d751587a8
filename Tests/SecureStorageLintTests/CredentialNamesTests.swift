import XCTest
@testable import SecureStorageLint

/// Credential-like names are matched word by word.
final class CredentialNamesTests: XCTestCase {
    func testWordsSplitAtCaseDigitsAndSeparators() {
        XCTAssertEqual(CredentialNames.words(of: "authToken"), ["auth", "token"])
        XCTAssertEqual(CredentialNames.words(of: "APIKey"), ["api", "key"])
        XCTAssertEqual(CredentialNames.words(of: "user_password"), ["user", "password"])
        XCTAssertEqual(CredentialNames.words(of: "OAuth2Client"), ["o", "auth", "2", "client"])
        XCTAssertEqual(CredentialNames.words(of: "api.key-v2"), ["api", "key", "v", "2"])
    }

    func testCredentialsAreRecognised() {
        for name in [
            "authToken", "user_password", "api_key", "APIKey", "refreshToken", "sessionCookie", "pinCode",
            "privateKeyPEM",
            "clientSecret", "passcode", "auth_token", "bearer", "Credentials", "sessionID", "accessToken",
            "tokenData", "token.json", "authorizationHeader", "api_key", "signingKey"
        ] {
            XCTAssertTrue(CredentialNames.isCredential(name), name)
        }
    }

    func testLookalikesAreNot() {
        for name in [
            "spinner", "pinned", "authorName", "mapping", "tokenizer", "key", "theme", "URLSession",
            "sessionConfiguration",
            "passage", "secretary", "keychainService", "author", "isPinnedToTop",
            "lastTokenRefreshCheck", "passwordHint", "tokenExpiry", "key.der", "passcode,biometry=approve",
            "encryptedPassword", "wrappedSecretKey", "hashedPin", "passwordHash"
        ] {
            XCTAssertFalse(CredentialNames.isCredential(name), name)
        }
    }

    func testPushTokensAreAddressesNotCredentials() {
        for name in ["pushToken", "deviceToken", "fcmToken", "apnsToken", "APNSToken", "voip_token", "push_tokens"] {
            XCTAssertFalse(CredentialNames.isCredential(name), name)
        }
        for name in ["authToken", "idToken", "sessionToken", "firebaseAuthToken"] {
            XCTAssertTrue(CredentialNames.isCredential(name), name)
        }
    }

    func testSessionSettingsAndCountsAreNot() {
        for name in [
            "sessionExpired", "isSessionActive", "sessionCount", "hasSession", "sessionDuration",
            "ttsActivateAudioSession", "AVCaptureSession", "wcSession", "backgroundSession"
        ] {
            XCTAssertFalse(CredentialNames.isCredential(name), name)
        }
        XCTAssertTrue(CredentialNames.isCredential("sessionID"))
    }
}
