import AppStoreSignature
import Logging
import ServiceSupport

/// A signed payload the app's backend forwards from the device (a StoreKit 2 transaction, an
/// AppTransaction), verified offline: the one place a verification failure becomes the
/// caller's refusal, named the way the request names the field.
struct DeviceSignedPayload {
    /// The request's field (`signed_transaction`).
    let field: String
    /// What it should be (`signed App Store transaction`).
    let kind: String
    /// What messages and logs call it (`signed transaction`).
    let noun: String

    /// `POST /v1/transactions`' `signed_transaction`.
    static let transaction = DeviceSignedPayload(
        field: "signed_transaction", kind: "signed App Store transaction", noun: "signed transaction")
    /// `POST /v1/app-transactions`' `signed_app_transaction`.
    static let appTransaction = DeviceSignedPayload(field: "signed_app_transaction", kind: "signed AppTransaction", noun: "AppTransaction")

    /// The verified payload; `malformed` when it is not a JWS of this kind, `unavailable` when
    /// it cannot be checked now (an OCSP responder is silent), else `signatureRejected`.
    func verified<Payload: SignedDatePayload>(
        _ jws: String, as type: Payload.Type, by signatures: SignedPayloadVerifier, logger: Logger
    ) async throws(UseCaseError) -> Payload {
        do {
            return try await signatures.verify(jws, as: type)
        } catch  where error.kind == .malformed {
            throw .malformed("\(field) is not a \(kind) (\(error.reason))")
        } catch  where error.kind == .unavailable {
            logger.warning("\(noun) not checkable now", metadata: [LogKey.error: "\(error.reason)"])
            throw .unavailable("the \(noun) cannot be checked now (an OCSP responder did not answer); try again")
        } catch {
            logger.info("\(noun) rejected", metadata: [LogKey.error: "\(error.reason)"])
            throw .signatureRejected("the \(noun) does not verify")
        }
    }
}
