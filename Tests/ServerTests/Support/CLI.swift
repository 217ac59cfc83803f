import Foundation
import TestSupport

/// Runs the built `subscriptionctl` binary the way an operator would.
enum CLI {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The binary under test: `$SUBSCRIPTIONCTL_BINARY` (absolute, or relative to the
    /// repository root) when set, else `.build/debug/subscriptionctl`.
    static var binary: URL {
        let path = ProcessInfo.processInfo.environment["SUBSCRIPTIONCTL_BINARY"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ".build/debug/subscriptionctl"
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : TestEnvironment.repositoryRoot().appendingPathComponent(path)
    }

    /// Runs on a thread of its own: waiting for a child process must not hold one of the
    /// few cooperative threads every other test needs.
    static func run(_ arguments: [String], databaseURL: String, environment: [String: String] = [:]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try runBlocking(arguments, databaseURL: databaseURL, environment: environment) })
            }
        }
    }

    private static func runBlocking(_ arguments: [String], databaseURL: String, environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ["DATABASE_URL": databaseURL, "PATH": "/usr/bin:/bin"]
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting: a full pipe would block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
