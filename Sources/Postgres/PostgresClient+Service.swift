import ServiceLifecycle

/// A client is a service of the process's `ServiceGroup`: it runs until graceful shutdown,
/// then closes its connections. Placed before its users, it stops after them (a group stops
/// in reverse order).
extension PostgresClient: Service {
    public func run() async throws {
        try? await gracefulShutdown()
        try await shutdown()
    }
}
