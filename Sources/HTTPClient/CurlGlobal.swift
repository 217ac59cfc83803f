import CCurl

/// Process-wide libcurl initialisation.
enum CurlGlobal {
    /// The result of the one `curl_global_init` call; Swift runs a `static let`
    /// initialiser exactly once, thread-safely, which is what libcurl requires.
    private static let initResult: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Initialises libcurl on first use; later calls do nothing.
    static func ensureInitialized() {
        // Only fails when memory or the TLS library cannot be set up; nothing can work then.
        precondition(initResult == CURLE_OK, "curl_global_init failed: \(initResult.rawValue)")
    }
}
