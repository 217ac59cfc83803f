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
