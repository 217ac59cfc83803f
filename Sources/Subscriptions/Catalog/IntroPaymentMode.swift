/// How the customer pays during an introductory offer (APPSTORE.md, "Introductory offers").
public enum IntroPaymentMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A reduced price each period for N periods of the base subscription's length.
    case payAsYouGo = "pay_as_you_go"
    /// One reduced payment for the whole intro duration.
    case payUpFront = "pay_up_front"
    /// Free for 3 days up to 1 year.
    case freeTrial = "free_trial"
}
