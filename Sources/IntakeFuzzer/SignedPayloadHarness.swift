import AppStore
import AppStoreSignature
import Dispatch
import Foundation
import JSON
import SigningTestSupport
import Synchronization

/// Runs an input through the version 2 verifier, the way intake meets a `signedPayload`:
/// compact JWS parsing, the payload decoders, the `signedDate` bounds, `x5c` chain building
/// to Apple's root at the payload's validation time, the ES256 check and every nested JWS.
///
/// Two input shapes reach it. `{"signedPayload": "<JWS>"}` (the genuine fixtures) goes in as
/// received. `{"jws": {"header": {…}, "payload": {…}, "signature": "<base64url>"}}` is a JWS
/// unpacked into JSON, so mutations land on the header's and payload's fields (a date, an
/// algorithm, a certificate) instead of on base64 text; a nested `signedTransactionInfo` or
/// `signedRenewalInfo` may itself be unpacked. `Fuzz/run.sh` writes such seeds from the
/// genuine fixtures, with `signedDate` at every edge.
enum SignedPayloadHarness {
    /// Apple Root CA – G3, as production trusts it, with the harness's fixed clock.
    static let verifier: SignedPayloadVerifier = {
        let path = ProcessInfo.processInfo.environment["FUZZ_ROOT_CERTIFICATE"] ?? "Certificates/AppleRootCA-G3.pem"
        guard let roots = try? AppleRootCertificates(paths: [path]) else {
            fatalError("cannot load \(path): run the fuzzer from the repository root or set FUZZ_ROOT_CERTIFICATE")
        }
        return SignedPayloadVerifier(roots: roots, cacheCapacity: 8, now: { IntakeHarness.now })
    }()

    /// How many JWS went through the verifier; printed when the process exits.
    static let verifications = Atomic<Int>(0)

    /// Prints the count at exit, so a run reports how often the verifier itself ran.
    static let reportAtExit: Void = {
        atexit { print("verifier runs: \(SignedPayloadHarness.verifications.load(ordering: .relaxed))") }
    }()

    /// Loads the roots and runs one verification, outside any input.
    static func warmUp() {
        _ = reportAtExit
        _ = template
        verify("warm.up.jws")
        verifications.store(0, ordering: .relaxed)
    }

    /// The genuine notification whose header and signature wrap bare payloads
    /// (`FUZZ_TEMPLATE_JWS_FILE`, a `{"signedPayload"}` file), or nil.
    static let template: (header: JSONValue, signature: String)? = {
        guard let path = ProcessInfo.processInfo.environment["FUZZ_TEMPLATE_JWS_FILE"],
            let data = FileManager.default.contents(atPath: path),
            let text = (try? StrictJSONParser.parse(Array(data)))?["signedPayload"]?.stringValue,
            let jws = try? CompactJWS(parsing: text), let algorithm = jws.algorithm, let chain = jws.certificateChain
        else { return nil }
        // Apple's header is exactly these two members.
        let header = JSONValue.object(["alg": .string(algorithm), "x5c": .array(chain.map(JSONValue.string))])
        return (header, TestJWS.base64URL(jws.signature))
    }()

    /// `make fuzz-verifier`: every input is one verification. JSON of either shape above goes
    /// in as such; any other JSON object is the payload under the template's genuine header
    /// and signature (so dates, ids and nested JWS are mutated behind a real chain); anything
    /// else is taken as compact JWS text.
    static func runEveryInput(_ bytes: [UInt8]) {
        guard let tree = try? StrictJSONParser.parse(bytes) else {
            verify(String(decoding: bytes, as: UTF8.self))
            return
        }
        if tree["signedPayload"]?.stringValue != nil || tree["jws"] != nil {
            run(tree)
        } else if let template, tree.objectMembers != nil,
            let jws = pack(.object(["header": template.header, "payload": tree, "signature": .string(template.signature)]))
        {
            verify(jws)
        } else {
            verify(String(decoding: bytes, as: UTF8.self))
        }
    }

    static func run(_ tree: JSONValue) {
        _ = reportAtExit
        if let jws = tree["signedPayload"]?.stringValue { verify(jws) }
        if let unpacked = tree["jws"], let jws = pack(unpacked) { verify(jws) }
    }

    /// Every entry point a JWS meets: a notification at intake, a transaction from an app.
    private static func verify(_ jws: String) {
        verifications.add(1, ordering: .relaxed)
        let done = DispatchSemaphore(value: 0)
        Task {
            _ = try? await verifier.verifyNotification(jws)
            _ = try? await verifier.verifyTransaction(jws)
            done.signal()
        }
        done.wait()
    }

    /// The compact JWS of an unpacked one; `nil` when its parts are not of the unpacked shape.
    static func pack(_ unpacked: JSONValue) -> String? {
        guard let header = unpacked["header"], let payload = unpacked["payload"] else { return nil }
        let signature = unpacked["signature"]?.stringValue ?? TestJWS.base64URL([UInt8](repeating: 0, count: 64))
        return TestJWS.base64URL(CanonicalJSONWriter.bytes(header)) + "."
            + TestJWS.base64URL(CanonicalJSONWriter.bytes(packNested(payload)))
            + "." + signature
    }

    /// The payload with any unpacked nested JWS in `data` packed again.
    private static func packNested(_ payload: JSONValue) -> JSONValue {
        guard case .object(var members) = payload, case .object(var data)? = members["data"] else { return payload }
        for key in ["signedTransactionInfo", "signedRenewalInfo"] {
            if let nested = data[key], nested.objectMembers != nil, let jws = pack(nested) { data[key] = .string(jws) }
        }
        members["data"] = .object(data)
        return .object(members)
    }
}
