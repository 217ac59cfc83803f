import CCurl

extension CurlEasyHandle {
    /// Sets every option for one request, ready for the multi handle to drive.
    ///
    /// `timeout` is what is left of the request's own timeout after it waited for a free
    /// transfer slot. Returns the header list, which the caller frees with
    /// `curl_slist_free_all` once the transfer is removed from the multi handle; `collector`
    /// must stay alive until then too.
    func prepare(
        _ request: HTTPRequest,
        timeout: Duration,
        configuration: CurlHTTPClient.Configuration,
        collector: CurlTransfer
    ) throws -> UnsafeMutablePointer<curl_slist>? {
        let headerList = try Self.makeHeaderList(for: request)
        do {
            try reset()
            try applyOptions(for: request, timeout: timeout, configuration: configuration)
            try set(CURLOPT_HTTPHEADER, list: headerList)
            try set(CURLOPT_WRITEFUNCTION, callback: CurlTransfer.writeBody)
            try set(CURLOPT_WRITEDATA, pointer: collector.userData)
            try set(CURLOPT_HEADERFUNCTION, callback: CurlTransfer.receiveHeader)
            try set(CURLOPT_HEADERDATA, pointer: collector.userData)
            try setBody(of: request)
        } catch {
            curl_slist_free_all(headerList)
            throw error
        }
        return headerList
    }

    private func applyOptions(
        for request: HTTPRequest, timeout: Duration, configuration: CurlHTTPClient.Configuration
    ) throws(HTTPClientError) {
        try set(CURLOPT_URL, request.url)
        // Signals would be unsafe in a multi-threaded process; timeouts still work without them.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_TIMEOUT_MS, timeout.curlMilliseconds)
        try set(CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.curlMilliseconds)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 0)
        // Verification is re-asserted on every request instead of trusting libcurl's defaults.
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caBundlePath = configuration.caBundlePath {
            try set(CURLOPT_CAINFO, caBundlePath)
        }
        // Lets libcurl refuse an oversized body from its Content-Length before reading it.
        try set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(configuration.maxResponseBytes))
    }

    private func setBody(of request: HTTPRequest) throws(HTTPClientError) {
        switch request.method {
        case .get:
            try set(CURLOPT_HTTPGET, 1)
        case .delete:
            // A GET without a body, named DELETE on the request line (reset with the handle).
            try set(CURLOPT_HTTPGET, 1)
            try set(CURLOPT_CUSTOMREQUEST, "DELETE")
        case .post, .put:
            if request.method == .put {
                // A POST with its body, named PUT on the request line (reset with the handle).
                try set(CURLOPT_CUSTOMREQUEST, "PUT")
            }
            try set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(request.body.count))
            guard !request.body.isEmpty else {
                // A NULL CURLOPT_POSTFIELDS would make libcurl read the body from stdin.
                try set(CURLOPT_COPYPOSTFIELDS, "")
                return
            }
            // Copied (with the size set above, so NUL bytes are kept): the transfer runs on
            // the loop's thread after this call returns.
            let code = request.body.withUnsafeBytes { bytes in
                sd_curl_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
            guard code == CURLE_OK else { throw HTTPClientError(curlCode: code, message: errorMessage) }
        }
    }
}
