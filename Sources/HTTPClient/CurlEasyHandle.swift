import CCurl

/// One libcurl easy handle plus its error buffer.
///
/// Connections live in the multi handle's cache, not here; a handle is pooled only to
/// spare libcurl re-creating it. `@unchecked Sendable` because libcurl state is not
/// thread-safe: a handle is only ever used by the multi loop's thread.
final class CurlEasyHandle: @unchecked Sendable {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer
    /// Where libcurl writes its human-readable message for the last failure.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Creates a handle, or returns nil when libcurl cannot allocate one.
    init?() {
        CurlGlobal.ensureInitialized()
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Clears every option from the last transfer but keeps live connections and caches.
    func reset() throws(HTTPClientError) {
        curl_easy_reset(raw)
        errorBuffer[0] = 0
        // The reset also forgot the error buffer, so hand it over again.
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    /// libcurl's message for the last failure, or "" when it left none.
    var errorMessage: String { String(cString: errorBuffer) }

    /// Sets a `long` option.
    func set(_ option: CURLoption, _ value: Int) throws(HTTPClientError) {
        try check(sd_curl_easy_setopt_long(raw, option, value))
    }

    /// Sets a string option; libcurl copies the string.
    func set(_ option: CURLoption, _ value: String) throws(HTTPClientError) {
        try check(sd_curl_easy_setopt_string(raw, option, value))
    }

    /// Sets a `curl_off_t` option.
    func set(_ option: CURLoption, offset value: Int64) throws(HTTPClientError) {
        try check(sd_curl_easy_setopt_off_t(raw, option, curl_off_t(value)))
    }

    /// Sets a pointer option; the caller keeps the memory alive for the transfer.
    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(HTTPClientError) {
        try check(sd_curl_easy_setopt_pointer(raw, option, value))
    }

    /// Sets a header list; the caller frees it after the transfer.
    func set(_ option: CURLoption, list value: UnsafeMutablePointer<curl_slist>?) throws(HTTPClientError) {
        try check(sd_curl_easy_setopt_slist(raw, option, value))
    }

    /// Sets a write or header callback.
    func set(_ option: CURLoption, callback value: sd_curl_write_callback) throws(HTTPClientError) {
        try check(sd_curl_easy_setopt_write_callback(raw, option, value))
    }

    /// The status code of the last response, or 0 when none arrived.
    func responseCode() -> Int {
        var code = 0
        _ = sd_curl_easy_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// Turns a failed setup call into an error, e.g. an option this libcurl lacks.
    private func check(_ code: CURLcode) throws(HTTPClientError) {
        guard code != CURLE_OK else { return }
        throw HTTPClientError(curlCode: code, message: errorMessage)
    }
}
