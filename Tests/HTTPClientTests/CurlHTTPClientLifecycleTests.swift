import HTTPClient
import Logging
import Testing

/// Task cancellation and shutdown while transfers are in flight or waiting for a slot.
@Suite struct CurlHTTPClientLifecycleTests {
    @Test func cancellationStopsTheTransfer() async throws {
        try await withServerAndClient { server, client in
            let task = Task { try await client.execute(.get(url: server.url("/slow/30000"), timeout: .seconds(60))) }
            #expect(await server.eventually { $0.openConnections == 1 })
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            // The loop removed the transfer from the multi handle, which closed its connection.
            #expect(await server.eventually { $0.openConnections == 0 })
            let response = try await client.execute(.get(url: server.url("/status/200"), timeout: .seconds(5)))
            #expect(response.status == 200)
        }
    }

    @Test func cancelledTaskSendsNothing() async throws {
        try await withServerAndClient { server, client in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.execute(.get(url: server.url("/status/200"), timeout: .seconds(5)))
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(server.connectionCount == 0)
        }
    }

    @Test func shutdownFailsPendingTransfers() async throws {
        let server = try await TestHTTPServer.start()
        let client = CurlHTTPClient(configuration: .init(maxConcurrentTransfers: 2), logger: Logger(label: "HTTPClientTests"))
        // Two in flight, three waiting for a slot.
        let tasks = (0..<5).map { _ in
            Task { try await client.execute(.get(url: server.url("/slow/30000"), timeout: .seconds(60))) }
        }
        #expect(await server.eventually { $0.openConnections == 2 })
        try await client.shutdown()
        for task in tasks {
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        #expect(await server.eventually { $0.openConnections == 0 })
        await #expect(throws: CancellationError.self) {
            try await client.execute(.get(url: server.url("/status/200"), timeout: .seconds(5)))
        }
        try await server.close()
    }
}
