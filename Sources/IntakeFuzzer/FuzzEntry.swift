/// libFuzzer's per-input callback: always built, called by libFuzzer in the fuzz build and
/// by the replay `main` otherwise.
@_cdecl("LLVMFuzzerTestOneInput")
public func intakeFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else {
        IntakeHarness.run([])
        return 0
    }
    IntakeHarness.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
