import Access
import ServiceSupport
import StoredAnswers
import UseCases

/// The use cases the console's pages call: the same ones the API and `subscriptionctl` call,
/// so an action in the console is judged, applied and audited as it is there.
public struct ConsoleServices: Sendable {
    public let sessions: ConsoleSessions
    public let reports: Reports
    public let answers: ReadAnswers
    public let profiles: CustomerProfile
    public let customers: CustomerDirectory
    public let grants: ManualGrants
    public let forgetting: SubscriberForgetting
    public let recheck: CustomerRecheck
    public let replay: DeadWorkReplay
    public let keys: APIKeys
    public let operations: OperationsLists
    public let pipeline: PipelineHealth
    /// This process's failed upstream requests over the last hour.
    public let upstreamErrors: UpstreamErrorWindow
    /// How far the read replica is behind (nil: no replica configured).
    public let replica: ReplicaRoute?

    public init(
        sessions: ConsoleSessions, reports: Reports, answers: ReadAnswers, profiles: CustomerProfile, customers: CustomerDirectory,
        grants: ManualGrants, forgetting: SubscriberForgetting, recheck: CustomerRecheck, replay: DeadWorkReplay, keys: APIKeys,
        operations: OperationsLists, pipeline: PipelineHealth, upstreamErrors: UpstreamErrorWindow, replica: ReplicaRoute?
    ) {
        self.sessions = sessions
        self.reports = reports
        self.answers = answers
        self.profiles = profiles
        self.customers = customers
        self.grants = grants
        self.forgetting = forgetting
        self.recheck = recheck
        self.replay = replay
        self.keys = keys
        self.operations = operations
        self.pipeline = pipeline
        self.upstreamErrors = upstreamErrors
        self.replica = replica
    }
}
