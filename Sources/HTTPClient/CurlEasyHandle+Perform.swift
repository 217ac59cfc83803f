import CCurl

extension CurlEasyHandle {
    /// Runs one request to completion on the calling thread, which blocks until it is done.
    func perform(_ request: HTTPRequest, configuration: CurlHTTPClient.Configuration) throws -> HTTPResponse {
        let headerList = try Self.makeHeaderList(for: request)
        defer { curl_slist_free_all(headerList) }
        let transfer = CurlTransfer(maxResponseBytes: configuration.maxResponseBytes)

        try reset()
        try applyOptions(for: request, configuration: configuration)
        try set(CURLOPT_HTTPHEADER, list: headerList)
        try set(CURLOPT_WRITEFUNCTION, callback: CurlTransfer.writeBody)
        try set(CURLOPT_WRITEDATA, pointer: transfer.userData)
        try set(CURLOPT_HEADERFUNCTION, callback: CurlTransfer.receiveHeader)
        try set(CURLOPT_HEADERDATA, pointer: transfer.userData)

        let code = try withExtendedLifetime(transfer) { try performWithBody(request) }
        guard code == CURLE_OK else {
            if transfer.exceededLimit {
                throw HTTPClientError(kind: .responseTooLarge, curlCode: Int(code.rawValue), detail: errorMessage)
            }
            throw HTTPClientError(curlCode: code, message: errorMessage)
        }
        return HTTPResponse(status: responseCode(), headers: transfer.headers, body: transfer.body)
    }

    private func applyOptions(for request: HTTPRequest, configuration: CurlHTTPClient.Configuration) throws {
        try set(CURLOPT_URL, request.url)
        // Signals would be unsafe in a multi-threaded process; timeouts still work without them.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_TIMEOUT_MS, request.timeout.curlMilliseconds)
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

    private func performWithBody(_ request: HTTPRequest) throws -> CURLcode {
        switch request.method {
        case .get:
            try set(CURLOPT_HTTPGET, 1)
            return curl_easy_perform(raw)
        case .post:
            try set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(request.body.count))
            guard !request.body.isEmpty else {
                // A NULL CURLOPT_POSTFIELDS would make libcurl read the body from stdin.
                try set(CURLOPT_COPYPOSTFIELDS, "")
                return curl_easy_perform(raw)
            }
            return try request.body.withUnsafeBytes { bytes in
                // libcurl does not copy CURLOPT_POSTFIELDS: the bytes must stay put until perform returns.
                try set(CURLOPT_POSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                return curl_easy_perform(raw)
            }
        }
    }
}
