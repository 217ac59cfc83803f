import Foundation
import TestSupport

/// A PostgreSQL cluster of a test's own (Deploy/local/postgres.sh under .local/), for server
/// settings no test may change on the shared cluster; removed with `remove()`.
struct ThrowawayCluster {
    let name: String
    let url: String

    /// Starts a new cluster named after `prefix` and a random tag.
    init(prefix: String) async throws {
        name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        try await Self.script("start", name: name)
        let env = try String(contentsOf: Self.state(name).appendingPathComponent("env"), encoding: .utf8)
        guard let line = env.split(separator: "\n").first(where: { $0.hasPrefix("export DATABASE_URL=") }) else {
            throw ThrowawayClusterFailure(message: "no DATABASE_URL in \(name)'s env")
        }
        url = String(line.dropFirst("export DATABASE_URL=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// Stops the cluster and removes its files.
    func remove() async {
        try? await Self.script("stop", name: name)
        try? FileManager.default.removeItem(at: Self.state(name))
    }

    private static func state(_ name: String) -> URL {
        TestEnvironment.repositoryRoot().appendingPathComponent(".local/\(name)")
    }

    /// Runs postgres.sh `command` for the cluster `name`; a failure says how the script ended
    /// and the end of what it and the server wrote.
    private static func script(_ command: String, name: String) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-sh-\(name)-\(command).log")
        defer { try? FileManager.default.removeItem(at: log) }
        // Descriptors above 2 are closed first, so the server left running holds none of this
        // test process's pipes or sockets open.
        let ending = try await ChildProcesses.runScript(
            [
                "env", "LOCAL_POSTGRES_NAME=\(name)", "bash", "-c",
                #"for fd in /proc/self/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; exec bash "$0" "$1""#,
                TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/local/postgres.sh").path, command,
            ],
            log: log)
        guard ending == .exited(0) else {
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let server = (try? String(contentsOf: state(name).appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            let lines = [
                "postgres.sh \(command) \(name): \(ending)", said, server.split(separator: "\n").suffix(10).joined(separator: "\n"),
            ]
            throw ThrowawayClusterFailure(message: lines.joined(separator: "\n").replacingOccurrences(of: "\n", with: " ⏎ "))
        }
    }
}

private struct ThrowawayClusterFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
