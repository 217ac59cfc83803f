import AppStoreSimulator
import ArgumentParser
import Foundation
import Logging

/// Where the verifyReceipt server listens.
struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(
        name: [.customLong("port"), .customLong("verify-port")],
        help: "Port to listen on; 0 picks a free one (see --port-file and the log line).")
    var port = 9000

    @Option(help: "Write the bound port to this file once listening.")
    var portFile: String?

    /// Starts the server and reports where it listens (stderr, and --port-file).
    func start(_ simulator: AppStoreSimulator) async throws -> SimulatorServer {
        var logger = Logger(label: "appstore-sim")
        logger.logLevel = .warning
        let server = try await SimulatorServer.start(simulator: simulator, host: host, port: port, logger: logger)
        if let portFile {
            try "\(server.port)\n".write(toFile: portFile, atomically: true, encoding: .utf8)
        }
        Console.log(
            "listening on \(server.baseURL.absoluteString): production \(server.productionURL.path), sandbox \(server.sandboxURL.path); App Store Server API \(server.apiProductionURL.absoluteString), sandbox \(server.apiSandboxURL.absoluteString)"
        )
        return server
    }
}

/// Human output goes to stderr, so stdout stays machine-readable.
enum Console {
    static func log(_ line: String) {
        FileHandle.standardError.write(Data("appstore-sim: \(line)\n".utf8))
    }
}
