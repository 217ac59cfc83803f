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
        let path =
            ProcessInfo.processInfo.environment["SUBSCRIPTIONCTL_BINARY"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ".build/debug/subscriptionctl"
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : TestEnvironment.repositoryRoot().appendingPathComponent(path)
    }

    /// Runs the binary with stdout and stderr in pipes, and `input` (when given) on stdin.
    static func run(
        _ arguments: [String], databaseURL: String, environment: [String: String] = [:], input: String? = nil
    ) async throws
        -> Result
    {
        try await spawn(binary.path, arguments, databaseURL: databaseURL, environment: environment, interruptWhen: nil, input: input)
    }

    /// Runs `executable` with `DATABASE_URL` set, on a thread of its own (waiting for a child
    /// must not hold one of the few cooperative threads every other test needs); sends it
    /// `signal` (SIGINT: Ctrl-C) once `interruptWhen` returns true, polled every 20 ms while it runs.
    ///
    /// A child may start with SIGINT blocked or ignored, as the test process's thread that
    /// spawned it had it: a command that takes SIGINT over (`revalidate`) still sees it, one
    /// that does not may never notice. SIGKILL always ends it.
    static func spawn(
        _ executable: String, _ arguments: [String], databaseURL: String, environment: [String: String],
        interruptWhen: (@Sendable () -> Bool)?, signal: Int32 = SIGINT, input: String? = nil
    ) async throws -> CLI.Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Swift.Result {
                        let process = Process()
                        process.executableURL = URL(fileURLWithPath: executable)
                        process.arguments = arguments
                        var env = ["DATABASE_URL": databaseURL, "PATH": "/usr/bin:/bin"]
                        env.merge(environment) { _, new in new }
                        process.environment = env
                        let out = Pipe()
                        let err = Pipe()
                        process.standardOutput = out
                        process.standardError = err
                        let stdin = input.map { _ in Pipe() }
                        process.standardInput = stdin ?? FileHandle.nullDevice
                        try ChildProcesses.launch(process)
                        if let stdin, let input {
                            stdin.fileHandleForWriting.write(Data(input.utf8))
                            try stdin.fileHandleForWriting.close()
                        }
                        if let interruptWhen {
                            while process.isRunning && !interruptWhen() { Thread.sleep(forTimeInterval: 0.02) }
                            if process.isRunning { kill(process.processIdentifier, signal) }
                        }
                        // Both pipes are drained concurrently: a full one would block the child.
                        let stderrData = DataBox()
                        let drained = DispatchSemaphore(value: 0)
                        Thread.detachNewThread {
                            stderrData.data = ChildProcesses.readAll(err.fileHandleForReading)
                            drained.signal()
                        }
                        let stdout = ChildProcesses.readAll(out.fileHandleForReading)
                        process.waitUntilExit()
                        drained.wait()
                        return CLI.Result(
                            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                            stderr: String(decoding: stderrData.data, as: UTF8.self))
                    })
            }
        }
    }

}

/// Carries one thread's read result to another; the semaphore orders the accesses.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
