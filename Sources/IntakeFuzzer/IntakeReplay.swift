#if !INTAKE_LIBFUZZER
import Foundation

/// Without libFuzzer (a plain `swift build`), the target is a replayer: it runs the harness
/// on each file named on the command line, e.g. a crash input from `Fuzz/crashes-found/`.
///
/// The fuzz build (`make fuzz`) defines `INTAKE_LIBFUZZER`, dropping this `main` so
/// libFuzzer's own `main` drives `LLVMFuzzerTestOneInput`.
@main
struct IntakeReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                continue
            }
            IntakeHarness.run(Array(data))
            print("ok \(path)")
        }
    }
}
#endif
