import Access
import StoredAnswers
import UseCases

/// The use cases the console's pages call: the same ones the API and `subscriptionctl` call,
/// so an action in the console is judged, applied and audited as it is there.
public struct ConsoleServices: Sendable {
    public let sessions: ConsoleSessions
    public let reports: Reports
    public let answers: ReadAnswers
    public let eligibility: EligibilityService
    public let grants: ManualGrants
    public let forgetting: SubscriberForgetting
    public let recheck: CustomerRecheck
    public let replay: DeadWorkReplay
    public let keys: APIKeys

    public init(
        sessions: ConsoleSessions, reports: Reports, answers: ReadAnswers, eligibility: EligibilityService, grants: ManualGrants,
        forgetting: SubscriberForgetting, recheck: CustomerRecheck, replay: DeadWorkReplay, keys: APIKeys
    ) {
        self.sessions = sessions
        self.reports = reports
        self.answers = answers
        self.eligibility = eligibility
        self.grants = grants
        self.forgetting = forgetting
        self.recheck = recheck
        self.replay = replay
        self.keys = keys
    }
}
