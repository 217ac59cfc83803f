import Hummingbird
import Intake
import Logging
import ServiceSupport
import Store
import UseCases

/// Maps every error a route throws to the contract's `{"error","message"}` answer, in one place:
/// `APIError` as is, a use case's refusal by its kind, Hummingbird's own errors (unknown
/// route, wrong method) by status, an unreachable or broken database and an overloaded
/// intake to 503, anything else to a logged 500.
public struct ErrorMappingMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Creates the middleware.
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw Self.answer(for: error, logger: context.logger, requestID: context.id)
        }
    }

    /// The answer `error` gets (logging what needs an operator's eye): for routes that must
    /// know it before the middleware does, such as intake counting its outcomes.
    static func answer(for error: any Error, logger: Logger, requestID: String) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as UseCaseError:
            return APIError(error)
        case let error as HTTPError:
            return APIError(error.status, code: code(for: error.status), message: error.body ?? error.status.reasonPhrase.lowercased())
        case let error as IntakeBatcherError:
            logger.warning("intake unavailable", metadata: [LogKey.error: "\(error)"])
            return APIError.unavailable("\(error); retry later")
        case _ where StoreFailure(error)?.canHeal == true:
            logger.warning("database unavailable", metadata: [LogKey.error: "\(error)"])
            return APIError.unavailable("the database is unavailable; retry later")
        case _ where StoreFailure(error) == .unstorableText:
            return APIError.malformed("a value contains a NUL character (\\u0000), which cannot be stored")
        default:
            // `description` only: a database error's detail can quote row values (a receipt).
            logger.error("request failed", metadata: [LogKey.error: "\(error)"])
            return APIError.internalError(requestID: requestID)
        }
    }

    private static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: return "not_found"
        case .methodNotAllowed: return "method_not_allowed"
        case .badRequest: return "malformed"
        case .contentTooLarge: return "too_large"
        case .unauthorized: return "unauthorized"
        default: return status.code >= 500 ? "internal" : "request_failed"
        }
    }
}
