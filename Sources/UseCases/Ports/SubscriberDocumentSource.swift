import Foundation

/// The subscriber document a purchase's caller gets back once it is applied (`ReadAnswers` in production).
public protocol SubscriberDocumentSource: Sendable {
    /// The user's subscriber JSON as of `now`, an empty one for a user nothing is known of.
    func subscriberBodyEvenIfUnknown(appUserID: String, now: Date) async throws -> String
}
