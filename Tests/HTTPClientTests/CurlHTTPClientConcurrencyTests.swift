import HTTPClient
import Synchronization
import Testing

/// Many transfers on the client's one multi loop at once, and failures of one among them.
@Suite struct CurlHTTPClientConcurrencyTests {
    @Test func twoHundredSlowTransfersRunAtOnce() async throws {
        let configuration = CurlHTTPClient.Configuration(maxConcurrentTransfers: 256)
        try await withServerAndClient(configuration: configuration) { server, client in
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 {
                    group.addTask { try await client.execute(.get(url: server.url("/slow/2000"), timeout: .seconds(120))).status }
                }
                for try await status in group {
                    #expect(status == 200)
                }
            }
            // One at a time would take 400 s and a handful of threads would open a handful of
            // connections; in flight together, each transfer needs its own HTTP/1.1 connection.
            #expect(server.peakOpenConnections > 100)
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test func oneTimeoutLeavesTheOthersInFlight() async throws {
        let configuration = CurlHTTPClient.Configuration(maxConcurrentTransfers: 32)
        try await withServerAndClient(configuration: configuration) { server, client in
            let slowFinished = Tally()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let response = try await client.execute(.get(url: server.url("/slow/3000"), timeout: .seconds(60)))
                        #expect(response.status == 200)
                        slowFinished.add()
                    }
                }
                let error = await #expect(throws: HTTPClientError.self) {
                    try await client.execute(.get(url: server.url("/slow/30000"), timeout: .milliseconds(300)))
                }
                #expect(error?.kind == .timeout)
                #expect(slowFinished.value == 0)
                try await group.waitForAll()
            }
            #expect(slowFinished.value == 10)
        }
    }

    @Test func requestWaitingForASlotTimesOut() async throws {
        let configuration = CurlHTTPClient.Configuration(maxConcurrentTransfers: 1)
        try await withServerAndClient(configuration: configuration) { server, client in
            async let busy = client.execute(.get(url: server.url("/slow/3000"), timeout: .seconds(60)))
            #expect(await server.eventually { $0.openConnections == 1 })
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.execute(.get(url: server.url("/status/200"), timeout: .milliseconds(300)))
            }
            #expect(error?.kind == .timeout)
            let busyStatus = try await busy.status
            #expect(busyStatus == 200)
        }
    }

    @Test func oversizeResponseLeavesTheOthersInFlight() async throws {
        let configuration = CurlHTTPClient.Configuration(maxConcurrentTransfers: 16, maxResponseBytes: 1024 * 1024)
        try await withServerAndClient(configuration: configuration) { server, client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await client.execute(.get(url: server.url("/slow/1000"), timeout: .seconds(60)))
                        #expect(response.body == Array("slow".utf8))
                    }
                }
                for route in ["/large", "/chunked"] {
                    let error = await #expect(throws: HTTPClientError.self) {
                        try await client.execute(.get(url: server.url("\(route)/\(4 * 1024 * 1024)"), timeout: .seconds(30)))
                    }
                    #expect(error?.kind == .responseTooLarge)
                }
                try await group.waitForAll()
            }
        }
    }
}

/// A count shared by concurrent test tasks.
private final class Tally: Sendable {
    private let count = Atomic<Int>(0)

    func add() {
        count.add(1, ordering: .relaxed)
    }

    var value: Int { count.load(ordering: .relaxed) }
}
