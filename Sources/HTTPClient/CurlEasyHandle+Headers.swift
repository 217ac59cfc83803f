import CCurl

extension CurlEasyHandle {
    /// The request's headers as a libcurl list; the caller frees it with `curl_slist_free_all`.
    ///
    /// Throws `.invalidURL` for a header that would split the request (CR, LF or NUL)
    /// rather than let it reach the wire.
    static func makeHeaderList(for request: HTTPRequest) throws -> UnsafeMutablePointer<curl_slist>? {
        var lines = try request.headers.map { header in
            guard isValidName(header.name), isValidValue(header.value) else {
                throw HTTPClientError(kind: .invalidURL, curlCode: nil, detail: "invalid request header")
            }
            // libcurl drops a header given as "Name:"; "Name;" is its spelling for an empty one.
            return header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
        }
        if request.method == .post || request.method == .put {
            // Without this, libcurl waits up to a second for "100 Continue" on larger bodies.
            lines.append("Expect:")
        }
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for line in lines {
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw HTTPClientError(kind: .transport, curlCode: nil, detail: "curl_slist_append failed")
            }
            list = appended
        }
        return list
    }

    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }
    }

    private static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 != 0 && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
    }
}
