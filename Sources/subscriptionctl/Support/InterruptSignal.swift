import Dispatch
import Foundation
import Synchronization

/// Ctrl-C for long commands: the first SIGINT asks the command to stop after the work in
/// flight (so nothing is left half-applied and the bookkeeping is right); a second one
/// quits at once with the shell's usual status 130.
final class InterruptSignal: Sendable {
    private let requested = Atomic<Bool>(false)
    // Dispatch sources are thread-safe, but the overlay does not mark them Sendable.
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    /// Takes over SIGINT until `cancel()`; `onFirst` runs once, on the first Ctrl-C.
    init(onFirst: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        self.source = source
        source.setEventHandler { [weak self] in
            guard let self else { return }
            if self.requested.exchange(true, ordering: .sequentiallyConsistent) {
                Output.error("\nsubscriptionctl: interrupted twice: quitting now")
                exit(130)
            }
            onFirst()
        }
        source.resume()
    }

    /// True once Ctrl-C was pressed.
    var isRequested: Bool { requested.load(ordering: .sequentiallyConsistent) }

    /// Gives SIGINT back to its default action.
    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
