import SecretService
import XCTest

final class SecretServiceNamesTests: XCTestCase {
    func testPathsNestUnderTheServiceObject() {
        for prefix in [
            SecretServiceNames.collectionPrefix, SecretServiceNames.aliasPrefix, SecretServiceNames.sessionPrefix,
            SecretServiceNames.promptPrefix
        ] {
            XCTAssertTrue(prefix.hasPrefix(SecretServiceNames.servicePath + "/"), prefix)
            XCTAssertTrue(prefix.hasSuffix("/"), prefix)
        }
    }
}
