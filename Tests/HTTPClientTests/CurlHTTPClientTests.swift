import HTTPClient
import Testing

/// Successful exchanges against the local test server.
@Suite struct CurlHTTPClientTests {
    @Test func postJSONRoundTrip() async throws {
        try await withServerAndClient { server, client in
            let json = Array(#"{"transactionId":"2000000123","amount":4.99}"#.utf8)
            let request = HTTPRequest.postJSON(url: server.url("/echo"), body: json, timeout: .seconds(5))
            let response = try await client.executeExpectingSuccess(request)
            #expect(response.status == 200)
            #expect(response.body == json)
            #expect(response.headers.first(named: "X-Echo-Content-Type") == "application/json")
            #expect(response.headers.first(named: "x-echo-accept") == "application/json")
            #expect(response.headers.first(named: "content-length") == "\(json.count)")
        }
    }

    @Test func putSendsItsBody() async throws {
        try await withServerAndClient { server, client in
            let json = Array(#"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#.utf8)
            let request = HTTPRequest(
                method: .put, url: server.url("/echo"), headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: json,
                timeout: .seconds(5))
            let response = try await client.executeExpectingSuccess(request)
            #expect(response.headers.first(named: "x-echo-method") == "PUT")
            #expect(response.body == json)
            // The handle is reused: the next POST is a POST again.
            let post = try await client.executeExpectingSuccess(
                HTTPRequest.postJSON(url: server.url("/echo"), body: json, timeout: .seconds(5)))
            #expect(post.headers.first(named: "x-echo-method") == "POST")
        }
    }

    @Test func emptyPostBodyIsSent() async throws {
        try await withServerAndClient { server, client in
            let request = HTTPRequest(method: .post, url: server.url("/echo"), timeout: .seconds(5))
            let response = try await client.execute(request)
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
    }

    @Test(arguments: [500, 503, 404])
    func nonSuccessStatusIsReturnedByExecute(status: Int) async throws {
        try await withServerAndClient { server, client in
            let response = try await client.execute(.get(url: server.url("/status/\(status)"), timeout: .seconds(5)))
            #expect(response.status == status)
            #expect(response.body == Array("status".utf8))
        }
    }

    @Test(arguments: [500, 503, 404])
    func nonSuccessStatusIsThrownByExecuteExpectingSuccess(status: Int) async throws {
        try await withServerAndClient { server, client in
            let request = HTTPRequest.get(url: server.url("/status/\(status)"), timeout: .seconds(5))
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.executeExpectingSuccess(request)
            }
            #expect(error?.kind == .httpStatus(status))
            #expect(error?.isRetryable == (status >= 500))
        }
    }

    @Test(arguments: ["/large", "/chunked"])
    func largeBodyArrivesIntact(route: String) async throws {
        let size = 5 * 1024 * 1024
        try await withServerAndClient { server, client in
            let response = try await client.execute(.get(url: server.url("\(route)/\(size)"), timeout: .seconds(30)))
            #expect(response.status == 200)
            #expect(response.body.count == size)
            #expect(response.body == TestPayload.bytes(size))
        }
    }

    @Test func hundredConcurrentRequestsAllSucceed() async throws {
        try await withServerAndClient { server, client in
            try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let body = Array("{\"request\":\(index)}".utf8)
                        let request = HTTPRequest.postJSON(url: server.url("/echo"), body: body, timeout: .seconds(30))
                        return (index, try await client.executeExpectingSuccess(request).body)
                    }
                }
                var seen = Set<Int>()
                for try await (index, body) in group {
                    #expect(body == Array("{\"request\":\(index)}".utf8))
                    seen.insert(index)
                }
                #expect(seen.count == 100)
            }
            // Four transfer slots (the default) use at most four connections, one per slot.
            #expect(server.connectionCount <= 4)
        }
    }

    @Test func sequentialRequestsReuseConnections() async throws {
        try await withServerAndClient { server, client in
            for _ in 0..<20 {
                let response = try await client.execute(.get(url: server.url("/status/200"), timeout: .seconds(5)))
                #expect(response.status == 200)
            }
            #expect(server.connectionCount >= 1)
            #expect(server.connectionCount <= 2)
        }
    }
}
