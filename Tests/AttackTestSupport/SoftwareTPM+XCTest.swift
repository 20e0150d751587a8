import TPMTestSupport
import XCTest

extension XCTestCase {
    /// A software TPM for this test, stopped and deleted when the test ends. Skips the test when
    /// `swtpm` is not installed, except under `REQUIRE_TPM_SIMULATOR` (`scripts/test` sets it),
    /// where that fails it: CI runs every TPM test.
    public func startSoftwareTPM() throws -> SoftwareTPM {
        do {
            let tpm = try SoftwareTPM()
            addTeardownBlock { tpm.stop() }
            return tpm
        } catch let error as SoftwareTPMUnavailable
            where error.isMissing && ProcessInfo.processInfo.environment["REQUIRE_TPM_SIMULATOR"] == nil
        {
            throw XCTSkip("\(error.message); the TPM tests need it.")
        }
    }
}
