import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The simulator's HTTP server on loopback: Apple's two verifyReceipt URLs, the App Store
/// Server API (production under `/api`, sandbox under `/api-sandbox`) plus control
/// endpoints (`/control/faults`, `/control/stats`, `/control/truth`).
public final class SimulatorServer: Sendable {
    /// The simulator it serves.
    public let simulator: AppStoreSimulator
    /// The address it listens on.
    public let host: String
    /// The bound port (the real one when started with port 0).
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(simulator: AppStoreSimulator, host: String, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.simulator = simulator
        self.host = host
        self.port = port
        self.group = group
        self.task = task
    }

    /// Logs warnings and errors only: the simulator is a test tool, not the system under test.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "appstore-sim")
        logger.logLevel = .warning
        return logger
    }

    /// `http://host:port`.
    public var baseURL: URL {
        URL(string: "http://\(host):\(port)")!
    }

    /// `POST` here like `https://buy.itunes.apple.com/verifyReceipt`.
    public var productionURL: URL {
        baseURL.appendingPathComponent("verifyReceipt")
    }

    /// `POST` here like `https://sandbox.itunes.apple.com/verifyReceipt`.
    public var sandboxURL: URL {
        baseURL.appendingPathComponent("sandbox").appendingPathComponent("verifyReceipt")
    }

    /// The App Store Server API's production base URL, like `https://api.storekit.apple.com`
    /// (`<base>/inApps/v1/...`).
    public var apiProductionURL: URL {
        baseURL.appendingPathComponent(SimulatorRoutes.apiBasePath(.production))
    }

    /// The App Store Server API's sandbox base URL, like `https://api.storekit-sandbox.apple.com`.
    public var apiSandboxURL: URL {
        baseURL.appendingPathComponent(SimulatorRoutes.apiBasePath(.sandbox))
    }

    /// Starts serving `simulator` on `host:port` (0 picks a free port) and returns once bound.
    public static func start(
        simulator: AppStoreSimulator,
        host: String = "127.0.0.1",
        port: Int = 0,
        logger: Logger = SimulatorServer.defaultLogger
    ) async throws -> SimulatorServer {
        let (bound, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: SimulatorRoutes.router(for: simulator),
            configuration: .init(address: .hostname(host, port: port), serverName: "appstore-sim"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? port)
                continuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = bound.makeAsyncIterator()
        guard let boundPort = await iterator.next() else {
            try await task.value
            throw SimulatorError("appstore-sim could not listen on \(host):\(port)")
        }
        return SimulatorServer(simulator: simulator, host: host, port: boundPort, group: group, task: task)
    }

    /// Stops serving: lets requests in flight finish for up to `grace`, then cancels the rest
    /// (hangs included).
    public func shutdown(grace: Duration = .seconds(2)) async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let watchdog = Task {
            try await Task.sleep(for: grace)
            task.cancel()
        }
        _ = try? await task.value
        watchdog.cancel()
    }

    /// Waits until the server stops, rethrowing what stopped it (not cancellation).
    public func waitUntilStopped() async throws {
        do {
            try await task.value
        } catch is CancellationError {
            return
        }
    }
}
