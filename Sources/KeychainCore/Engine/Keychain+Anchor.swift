import Foundation

extension Keychain {
    /// Phase two of a header change (see ``FormatAnchor``): once the change committed, the
    /// anchor keeps only the header MAC the file carries. A failure leaves the anchor accepting
    /// the previous header too until the next open settles it; it is logged.
    func settleAnchor() {
        for attempt in 1...3 {
            do {
                _ = try write { db in try HeaderAuthenticator.settleAnchor(db, location: self.location, deviceKey: self.keys.deviceKey) }
                return
            } catch where attempt < 3 {
                continue
            } catch {
                logger.warning("the format anchor could not be settled; until the next open or change settles it, the previous header is accepted too",
                               metadata: ["error": "\(error.code)"])
            }
        }
    }
}
