import Composition
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a password: from the terminal without echo, asked twice, or one line of stdin for
/// scripts. Never printed, never logged.
enum PasswordPrompt {
    /// One line of standard input, without its line break.
    static func fromStandardInput() throws -> String {
        guard let line = readLine(strippingNewline: true) else { throw CommandFailure.usage("--password-stdin: standard input is empty") }
        return line
    }

    /// The password typed twice on the terminal, not echoed.
    static func fromTerminal(for name: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            throw CommandFailure.usage("no terminal to ask the password on: pipe it with --password-stdin")
        }
        let first = try read(prompt: "password for \(name): ")
        let second = try read(prompt: "again: ")
        guard first == second else { throw CommandFailure.usage("the two passwords differ; nothing was changed") }
        return first
    }

    private static func read(prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true) else { throw CommandFailure.usage("no password was typed") }
        return line
    }
}
