import CCurl

/// Collects one response while libcurl delivers it through C callbacks.
///
/// Handed to libcurl as an unretained pointer (CURLOPT_WRITEDATA / CURLOPT_HEADERDATA);
/// the multi loop keeps it alive until the transfer is removed from the multi handle.
final class CurlTransfer {
    /// Body bytes received so far.
    private(set) var body: [UInt8] = []
    /// Header fields of the latest response block.
    private(set) var headers: [HTTPHeader] = []
    /// Set when the body went over `maxResponseBytes` and the transfer was aborted.
    private(set) var exceededLimit = false
    private let maxResponseBytes: Int

    init(maxResponseBytes: Int) {
        self.maxResponseBytes = maxResponseBytes
    }

    /// The value libcurl hands back to the callbacks.
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// CURLOPT_WRITEFUNCTION: appends body bytes; returning less than given aborts.
    static let writeBody: sd_curl_write_callback = { data, size, count, userData in
        guard let userData else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
        let length = size * count
        guard transfer.body.count + length <= transfer.maxResponseBytes else {
            transfer.exceededLimit = true
            return 0
        }
        if let data, length > 0 {
            transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        }
        return length
    }

    /// CURLOPT_HEADERFUNCTION: called once per header line, status lines included.
    static let receiveHeader: sd_curl_write_callback = { data, size, count, userData in
        guard let userData else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData).takeUnretainedValue()
        let length = size * count
        if let data {
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            transfer.receive(headerLine: line)
        }
        return length
    }

    private func receive(headerLine line: String) {
        // A status line starts a new response (after a 100 Continue, say): keep only the last.
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingWhitespace()
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        headers.append(HTTPHeader(name: name, value: value))
    }
}

extension Substring {
    /// The text without leading and trailing spaces, tabs, CR and LF.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }),
            let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
