import ServiceLifecycle

/// A client is a service of the process's `ServiceGroup`: it runs until graceful shutdown,
/// then stops its transfer thread (transfers still running fail). Placed before its users, it
/// stops after them (a group stops in reverse order).
extension CurlHTTPClient: Service {
    public func run() async throws {
        try? await gracefulShutdown()
        try await shutdown()
    }
}
