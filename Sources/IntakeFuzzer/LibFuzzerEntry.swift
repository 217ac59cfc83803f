#if INTAKE_LIBFUZZER
/// libFuzzer's driver (`int LLVMFuzzerRunDriver(int *, char ***, int (*)(const uint8_t *, size_t))`).
///
/// SwiftPM links an executable target with `main` renamed to `IntakeFuzzer_main` (so tests
/// can link executables), which shadows libFuzzer's own `main`; this entry point takes its
/// place and hands control to the driver, exactly as libFuzzer's `main` would.
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The fuzz build's entry point: runs libFuzzer over `LLVMFuzzerTestOneInput`.
@_cdecl("IntakeFuzzer_main")
public func intakeFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    // Builds the verifier and starts Swift's concurrency runtime before the first input, so
    // their lasting allocations are not taken for a leak of whichever input came first.
    SignedPayloadHarness.warmUp()
    var count = argc
    var arguments = argv
    return llvmFuzzerRunDriver(&count, &arguments) { data, size in
        intakeFuzzerTestOneInput(data, size)
    }
}
#endif
