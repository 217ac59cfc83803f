import Foundation
import Synchronization

/// A one-line progress bar on stderr, redrawn in place: bar, count, percentage, rate and
/// ETA. Drawn only when stderr is a terminal, so logs and pipes never see it.
final class ProgressBar: Sendable {
    private struct State {
        var done: Int
        var doneHere = 0
        var lastDrawn: ContinuousClock.Instant?
        var finished = false
    }

    private let total: Int
    private let label: String
    private let started = ContinuousClock.now
    private let state: Mutex<State>
    let isEnabled: Bool

    /// A bar over `total` items of which `alreadyDone` were done before this process (a resumed run).
    init(total: Int, alreadyDone: Int = 0, label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.label = label
        self.state = Mutex(State(done: alreadyDone))
        self.isEnabled = enabled
    }

    /// Draws the bar for the first time.
    func start() {
        state.withLock { draw(&$0, force: true) }
    }

    /// Counts `items` (default one) as done; redraws at most ten times a second.
    func advance(by items: Int = 1) {
        state.withLock { state in
            state.done += items
            state.doneHere += items
            draw(&state, force: state.done >= total)
        }
    }

    /// Draws the final state and ends the line.
    func finish() {
        state.withLock { state in
            guard isEnabled, !state.finished else { return }
            draw(&state, force: true)
            state.finished = true
            FileHandle.standardError.write(Data("\n".utf8))
        }
    }

    /// Prints a line on stderr; while the bar is up it goes above the bar, which is
    /// redrawn on the next update (under the lock, so the two never interleave).
    func note(_ text: String) {
        state.withLock { state in
            let prefix = isEnabled && state.lastDrawn != nil && !state.finished ? "\r\u{1B}[K" : ""
            FileHandle.standardError.write(Data((prefix + text + "\n").utf8))
            state.lastDrawn = nil
        }
    }

    private func draw(_ state: inout State, force: Bool) {
        guard isEnabled, !state.finished else { return }
        let now = ContinuousClock.now
        if !force, let last = state.lastDrawn, now - last < .milliseconds(100) { return }
        state.lastDrawn = now
        let line = Self.line(
            label: label, done: state.done, total: total, doneHere: state.doneHere,
            elapsed: (now - started).secondsValue)
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    /// `revalidating [#######-------------]  37/120  31%  12.4/s  ETA 6s`.
    static func line(label: String, done: Int, total: Int, doneHere: Int, elapsed: Double, width: Int = 24) -> String {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = elapsed > 0 ? Double(doneHere) / elapsed : 0
        let eta: String
        if done >= total {
            eta = "ETA 0s"
        } else if rate > 0 {
            eta = "ETA " + TimeText.duration(Double(total - done) / rate)
        } else {
            eta = "ETA --"
        }
        let percent = Int((fraction * 100).rounded(.down))
        return "\(label) [\(bar)] \(done)/\(total)  \(percent)%  \(String(format: "%.1f", rate))/s  \(eta)"
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
