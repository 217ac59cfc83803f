import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Safe ways to start children and read their pipes from many test threads at once.
///
/// swift-corelibs-foundation's `Process.run()` races with itself when several threads
/// launch at the same moment (seen as a crash inside it), and `FileHandle`'s reads trap on
/// `EINTR`, which a child's SIGCHLD can cause. Launches are serialised here and pipes are
/// read with read(2), retrying interrupted calls.
public enum ChildProcesses {
    private static let launchLock = NSLock()

    /// Starts `process`, one launch at a time in this test process.
    public static func launch(_ process: Process) throws {
        launchLock.lock()
        defer { launchLock.unlock() }
        try process.run()
    }

    /// The next bytes from a pipe, or nil at its end.
    public static func readChunk(_ handle: FileHandle) -> Data? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count == 0 { return nil }
            if errno != EINTR { return nil }
        }
    }

    /// Everything a pipe delivers until its end.
    public static func readAll(_ handle: FileHandle) -> Data {
        var data = Data()
        while let chunk = readChunk(handle) { data.append(chunk) }
        return data
    }

    /// Runs `arguments` (a command found through PATH) to its end, in `directory` when given;
    /// its exit status and its stdout and stderr together.
    public static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try launch(process)
        let data = readAll(output.fileHandleForReading)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// How a child started by `runScript` ended.
    public enum Ending: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// Runs `arguments` (the first found through PATH) with `stdout` and `stderr` to the file
    /// at `log`, on a thread of its own, and waits for its end with waitpid(2).
    ///
    /// For scripts that leave a daemon running (`pg_ctl start`): `Process` learns of a child's
    /// end through a descriptor the child inherits, which such a daemon keeps open, or which a
    /// script that closes its descriptors ends too early. waitpid knows only the child.
    public static func runScript(_ arguments: [String], log: URL) async throws -> Ending {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try spawnAndWait(arguments, log: log) })
            }
        }
    }

    private static func spawnAndWait(_ arguments: [String], log: URL) throws -> Ending {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw ScriptFailure(message: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw ScriptFailure(message: "waitpid: \(String(cString: strerror(errno)))") }
        }
        // The <sys/wait.h> macros, which Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    public struct ScriptFailure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Kills `process` (SIGKILL: some servers ignore SIGTERM), waits for it, and removes
    /// `directory`, its scratch files.
    public static func stop(_ process: Process, removing directory: URL) {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
