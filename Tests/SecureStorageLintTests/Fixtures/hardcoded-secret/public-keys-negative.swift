import Foundation

// Keys that identify a project and are public by design: shipped in every copy of the app,
// restricted by bundle identifier or only able to send events.
let apiKey = "phc_4xKq9ZpL2mWn7RtY1vBc8DfGhJkLs0AeIoUy3TrEw"
let stripeAPIKey = "pk_live_51HqLyjWDarjtT1zdp7dcAbCdEfGhIjKl"
let revenueCatAPIKey = "appl_aBcDeFgHiJkLmNoPqRsTuVwXyZ1"
let googleMaps = "https://maps.example.com/api?key=AIzaSyA1234567890abcdefghijklmnopqrstuv"
let firebaseAPIKey = "AIzaSyA1234567890abcdefghijklmnopqrstuv"
func configureAnalytics(options: FirebaseOptionsLike) {
    Mixpanel.initialize(token: "0f3c9a7e5b2d4e6f8a1c3b5d7e9f0a2b")
    Amplitude.instance.initialize(apiKey: "8e2a4c6b9d1f3e5a7c9b0d2f4e6a8c1b")
    _ = Amplitude(configuration: Configuration(apiKey: "8e2a4c6b9d1f3e5a7c9b0d2f4e6a8c1b"))
    Analytics.setup(with: AnalyticsConfiguration(writeKey: "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi"))
    SentrySDK.start { options in
        options.dsn = "https://4f1b9a2c7d3e8f60a5b1c2d3e4f5a6b7@o123456.ingest.sentry.io/7654321"
    }
    options.apiKey = "AIzaSyA1234567890abcdefghijklmnopqrstuv"
}

// PEM markers used to find or strip a key's header: no key body in the literal.
let pemHeader = "-----BEGIN PRIVATE KEY-----"
let rsaFooter = "-----END RSA PRIVATE KEY-----"
func stripHeaders(_ pem: String) -> String {
    pem.replacingOccurrences(of: "-----BEGIN RSA PRIVATE KEY-----", with: "")
        .replacingOccurrences(of: "-----BEGIN PRIVATE KEY-----\n", with: "")
}
