import ServiceLifecycle

/// A service that does nothing until graceful shutdown, then releases a resource
/// (a database pool, an HTTP client). Placed before its users in the ServiceGroup, it
/// runs after them on shutdown, which goes in reverse order.
struct ShutdownService: Service {
    let name: String
    let onShutdown: @Sendable () async throws -> Void

    func run() async throws {
        try? await gracefulShutdown()
        try await onShutdown()
    }
}
