import Hummingbird
import Intake
import Logging
import Store
import SubscriptiondCore
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
        } catch let error as APIError {
            throw error
        } catch let error as UseCaseError {
            throw APIError(error)
        } catch let error as HTTPError {
            throw APIError(error.status, code: Self.code(for: error.status), message: error.body ?? error.status.reasonPhrase.lowercased())
        } catch let error as IntakeBatcherError {
            context.logger.warning("intake unavailable", metadata: [LogKey.error: "\(error)"])
            throw APIError.unavailable("\(error); retry later")
        } catch where DatabaseFailure(error) == .unavailable {
            context.logger.warning("database unavailable", metadata: [LogKey.error: "\(error)"])
            throw APIError.unavailable("the database is unavailable; retry later")
        } catch where DatabaseFailure(error) == .unstorableText {
            throw APIError.malformed("a value contains a NUL character (\\u0000), which cannot be stored")
        } catch {
            // `description` only: a database error's detail can quote row values (a receipt).
            context.logger.error("request failed", metadata: [LogKey.error: "\(error)"])
            throw APIError.internalError(requestID: context.id)
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
