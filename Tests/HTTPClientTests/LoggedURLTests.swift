import Testing

@testable import HTTPClient

/// Logs name an upstream by its origin: never a password in userinfo, a token in a path or query.
@Suite struct LoggedURLTests {
    @Test(arguments: [
        ("https://user:s3cret@hooks.example.com/T000/B000/XXXXtoken?x=1", "https://hooks.example.com"),
        ("https://buy.itunes.apple.com/verifyReceipt", "https://buy.itunes.apple.com"),
        ("http://127.0.0.1:9000/prod/inApps/v1/history/1?revision=abc", "http://127.0.0.1:9000"),
        ("https://a@b@host.example:8443#frag", "https://host.example:8443"),
        ("http://[::1]:8080/x", "http://[::1]:8080"),
        ("not a url at all", "(not a URL)"),
    ])
    func originOnly(url: String, logged: String) {
        #expect(LoggedURL.origin(of: url) == logged)
    }
}
