import HTTPClient
import Testing

/// Failures, each mapped to the error kind a caller decides retries on.
@Suite struct CurlHTTPClientFailureTests {
    @Test func slowResponseTimesOut() async throws {
        try await withServerAndClient { server, client in
            let request = HTTPRequest.get(url: server.url("/slow/2000"), timeout: .milliseconds(200))
            let error = await #expect(throws: HTTPClientError.self) { try await client.execute(request) }
            #expect(error?.kind == .timeout)
            #expect(error?.isRetryable == true)
        }
    }

    @Test func closedPortIsConnectionRefused() async throws {
        let server = try await TestHTTPServer.start()
        let url = server.url("/status/200")
        try await server.close()
        try await withServerAndClient { _, client in
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.execute(.get(url: url, timeout: .seconds(5)))
            }
            #expect(error?.kind == .connectionRefused)
        }
    }

    /// A handshake that breaks off (here: a plain-HTTP answer to the ClientHello) is
    /// `CURLE_SSL_CONNECT_ERROR`: retried, since resets mid-handshake are usually passing.
    @Test func httpsAgainstPlainHTTPServerIsHandshakeFailure() async throws {
        try await withServerAndClient { server, client in
            let url = "https://127.0.0.1:\(server.port)/status/200"
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.execute(.get(url: url, timeout: .seconds(5)))
            }
            #expect(error?.kind == .tlsHandshake)
            #expect(error?.isRetryable == true)
        }
    }

    /// A peer that resets the connection as soon as the ClientHello arrives.
    @Test func resetDuringHandshakeIsRetryable() async throws {
        let listener = try ResettingListener()
        defer { listener.close() }
        try await withServerAndClient { _, client in
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.execute(.get(url: "https://127.0.0.1:\(listener.port)/", timeout: .seconds(5)))
            }
            #expect(error?.kind == .tlsHandshake || error?.kind == .transport, "\(String(describing: error?.debugDescription))")
            #expect(error?.isRetryable == true)
        }
    }

    @Test(arguments: ["/large", "/chunked"])
    func bodyOverLimitIsResponseTooLarge(route: String) async throws {
        let configuration = CurlHTTPClient.Configuration(maxResponseBytes: 1024 * 1024)
        try await withServerAndClient(configuration: configuration) { server, client in
            let request = HTTPRequest.get(url: server.url("\(route)/\(5 * 1024 * 1024)"), timeout: .seconds(30))
            let error = await #expect(throws: HTTPClientError.self) { try await client.execute(request) }
            #expect(error?.kind == .responseTooLarge)

            // The aborted transfer must leave its pooled handle usable.
            let small = try await client.execute(.get(url: server.url("\(route)/1000"), timeout: .seconds(5)))
            #expect(small.body == TestPayload.bytes(1000))
        }
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "http://[::1"])
    func unsupportedOrMalformedURLIsInvalid(url: String) async throws {
        try await withServerAndClient { _, client in
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.execute(.get(url: url, timeout: .seconds(5)))
            }
            #expect(error?.kind == .invalidURL)
        }
    }

    @Test func headerWithLineBreakIsRejected() async throws {
        try await withServerAndClient { server, client in
            var request = HTTPRequest.get(url: server.url("/status/200"), timeout: .seconds(5))
            request.headers.append(HTTPHeader(name: "X-Test", value: "a\r\nX-Injected: 1"))
            let error = await #expect(throws: HTTPClientError.self) { try await client.execute(request) }
            #expect(error?.kind == .invalidURL)
            #expect(server.connectionCount == 0)
        }
    }
}
