import CCurl

/// One libcurl multi handle: many transfers driven together, sharing one connection cache.
///
/// Only the multi loop's thread calls into it, except `wakeup()`, which libcurl documents
/// as safe from any thread; `CurlMailbox` makes sure no wakeup reaches it after `close()`.
/// That is why it is `@unchecked Sendable`.
final class CurlMultiHandle: @unchecked Sendable {
    /// The `CURLM *`, or nil once closed.
    private(set) var raw: UnsafeMutableRawPointer?

    /// Creates a multi handle with the configuration's connection limits, or returns nil
    /// when libcurl cannot allocate one.
    init?(configuration: CurlHTTPClient.Configuration) {
        CurlGlobal.ensureInitialized()
        guard let raw = curl_multi_init() else { return nil }
        self.raw = raw
        // Connections open at once and idle ones kept for reuse; an HTTP/2 connection
        // multiplexes many transfers (libcurl's default), an HTTP/1.1 one carries one at a time.
        _ = sd_curl_multi_setopt_long(raw, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maxConnections)
        _ = sd_curl_multi_setopt_long(raw, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = sd_curl_multi_setopt_long(raw, CURLMOPT_MAXCONNECTS, configuration.maxConnections)
    }

    deinit {
        close()
    }

    /// Starts driving an easy handle's transfer.
    func add(_ easy: CurlEasyHandle) throws(HTTPClientError) {
        guard let raw else { throw HTTPClientError(kind: .transport, curlCode: nil, detail: "the multi handle is closed") }
        let code = curl_multi_add_handle(raw, easy.raw)
        guard code == CURLM_OK else { throw Self.error("curl_multi_add_handle", code) }
    }

    /// Stops driving an easy handle (finished or not); its connection returns to the cache
    /// when the transfer was complete, and is closed otherwise.
    func remove(_ easy: CurlEasyHandle) {
        guard let raw else { return }
        _ = curl_multi_remove_handle(raw, easy.raw)
    }

    /// Does whatever I/O is ready without blocking; finished transfers show up in `nextFinished()`.
    func perform() throws(HTTPClientError) {
        guard let raw else { return }
        var running: Int32 = 0
        let code = curl_multi_perform(raw, &running)
        guard code == CURLM_OK else { throw Self.error("curl_multi_perform", code) }
    }

    /// Blocks until a socket is ready, libcurl's own next timeout, a `wakeup()`, or
    /// `timeoutMilliseconds`, whichever comes first.
    func poll(timeoutMilliseconds: Int32) throws(HTTPClientError) {
        guard let raw else { return }
        let code = curl_multi_poll(raw, nil, 0, timeoutMilliseconds, nil)
        guard code == CURLM_OK else { throw Self.error("curl_multi_poll", code) }
    }

    /// Makes a blocked `poll` return at once; safe from any thread while the handle is open.
    func wakeup() {
        guard let raw else { return }
        _ = curl_multi_wakeup(raw)
    }

    /// The next finished transfer's easy handle and result, or nil when none is left.
    func nextFinished() -> (easy: UnsafeMutableRawPointer, result: CURLcode)? {
        guard let raw else { return nil }
        var queued: Int32 = 0
        while let message = curl_multi_info_read(raw, &queued) {
            // Read before the handle is removed: the message does not outlive that.
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            return (easy, sd_curl_msg_result(message))
        }
        return nil
    }

    /// Closes every cached connection and frees the handle; later calls do nothing.
    /// Every easy handle must have been removed first.
    func close() {
        guard let raw else { return }
        self.raw = nil
        _ = curl_multi_cleanup(raw)
    }

    private static func error(_ call: String, _ code: CURLMcode) -> HTTPClientError {
        HTTPClientError(kind: .transport, curlCode: nil, detail: "\(call): \(String(cString: curl_multi_strerror(code)))")
    }
}
