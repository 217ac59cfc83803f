import HTTPClient
import Logging

/// Runs `body` with a fresh server and client, and shuts both down afterwards.
///
/// Each test gets its own pair so connection counts are not disturbed by tests
/// running in parallel.
func withServerAndClient(
    configuration: CurlHTTPClient.Configuration = .init(),
    _ body: (TestHTTPServer, CurlHTTPClient) async throws -> Void
) async throws {
    let server = try await TestHTTPServer.start()
    let client = CurlHTTPClient(configuration: configuration, logger: Logger(label: "HTTPClientTests"))
    do {
        try await body(server, client)
    } catch {
        try? await client.shutdown()
        try? await server.close()
        throw error
    }
    try await client.shutdown()
    try await server.close()
}
