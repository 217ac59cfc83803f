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
    static func underTerminal(
        _ arguments: [String], databaseURL: String, environment: [String: String] = [:]
    ) async throws -> TerminalResult {
        let command = ([CLI.binary.path] + arguments).map(shellQuoted).joined(separator: " ")
        let result = try await CLI.spawn(
            "/usr/bin/script", ["-qec", command, "/dev/null"], databaseURL: databaseURL,
            environment: environment, interruptWhen: nil)
        return TerminalResult(status: result.status, output: result.stdout + result.stderr)
    }

    /// Runs subscriptionctl in pipes and sends it SIGINT once `interruptWhen` returns true
    /// (polled every 20 ms while the process runs).
    static func interrupted(
        _ arguments: [String], databaseURL: String, environment: [String: String],
        when interruptWhen: @escaping @Sendable () -> Bool
    ) async throws -> CLI.Result {
        try await CLI.spawn(CLI.binary.path, arguments, databaseURL: databaseURL, environment: environment, interruptWhen: interruptWhen)
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
