import Foundation

/// Ways of running subscriptionctl that `CLI.run` does not cover: under a pseudo-terminal
/// (util-linux `script`), and interrupted with Ctrl-C (SIGINT) part-way.
enum OperatorProcess {
    /// Output of a run under a terminal: stdout and stderr both went to the terminal.
    struct TerminalResult: Sendable {
        let status: Int32
        let output: String
    }

    /// Runs subscriptionctl with stdout and stderr on a pseudo-terminal, as an operator at a
    /// terminal would: `script -qec "<command>" /dev/null`.
    static func underTerminal(_ arguments: [String], databaseURL: String, environment: [String: String] = [:]) async throws -> TerminalResult {
        let command = ([CLI.binary.path] + arguments).map(shellQuoted).joined(separator: " ")
        let result = try await spawn("/usr/bin/script", ["-qec", command, "/dev/null"], databaseURL: databaseURL,
                                     environment: environment, interruptWhen: nil)
        return TerminalResult(status: result.status, output: result.stdout + result.stderr)
    }

    /// Runs subscriptionctl in pipes and sends it SIGINT once `interruptWhen` returns true
    /// (polled every 20 ms while the process runs).
    static func interrupted(_ arguments: [String], databaseURL: String, environment: [String: String],
                            when interruptWhen: @escaping @Sendable () -> Bool) async throws -> CLI.Result {
        try await spawn(CLI.binary.path, arguments, databaseURL: databaseURL, environment: environment, interruptWhen: interruptWhen)
    }

    private static func spawn(_ executable: String, _ arguments: [String], databaseURL: String, environment: [String: String],
                              interruptWhen: (@Sendable () -> Bool)?) async throws -> CLI.Result {
        try await withCheckedThrowingContinuation { continuation in
            // A thread of its own: waiting for a child must not hold a cooperative thread.
            Thread.detachNewThread {
                continuation.resume(with: Result {
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
                    process.standardInput = FileHandle.nullDevice
                    try process.run()
                    if let interruptWhen {
                        while process.isRunning && !interruptWhen() { Thread.sleep(forTimeInterval: 0.02) }
                        if process.isRunning { process.interrupt() }
                    }
                    // Both pipes are drained concurrently: a full one would block the child.
                    let stderrData = DataBox()
                    let drained = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        stderrData.data = err.fileHandleForReading.readDataToEndOfFile()
                        drained.signal()
                    }
                    let stdout = out.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    drained.wait()
                    return CLI.Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                      stderr: String(decoding: stderrData.data, as: UTF8.self))
                })
            }
        }
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Carries one thread's read result to another; the semaphore orders the accesses.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
