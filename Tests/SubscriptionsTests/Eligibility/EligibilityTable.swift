import AppStore
import Foundation
import Subscriptions

extension EligibilityCase {
    /// The table; "now" is day 100 unless a row says otherwise.
    static let table: [EligibilityCase] = basics + offersUsed + entitlement + groups + policies

    static let basics: [EligibilityCase] = [
        .init(name: "new customer", product: "pro.monthly", expected: .eligible),
        .init(name: "new customer, strict", product: "pro.monthly", policy: .strict, expected: .eligible),
        .init(name: "no offer configured", product: "pro.weekly", expected: .noIntroOffer),
        .init(
            name: "no offer configured wins over ineligible history",
            transactions: [purchase("1", of: "pro.monthly", from: 95, to: 102, trial: true)],
            product: "pro.weekly", expected: .noIntroOffer
        ),
        .init(name: "consumable has no offer", product: "coins.100", expected: .noIntroOffer),
        .init(name: "product unknown", product: "com.example.nope", expected: .unknownProduct),
        .init(
            name: "product unknown even when the receipt mentions it",
            transactions: [purchase("1", of: "legacy.monthly", from: 0, to: 30, group: EligibilityFixture.pro)],
            product: "legacy.monthly", expected: .unknownProduct
        ),
    ]

    static let offersUsed: [EligibilityCase] = [
        .init(
            name: "active free trial, same product",
            transactions: [purchase("1", of: "pro.monthly", from: 95, to: 102, trial: true)],
            product: "pro.monthly", expected: .ineligible
        ),
        .init(
            name: "active free trial, another product of the group",
            transactions: [purchase("1", of: "pro.monthly", from: 95, to: 102, trial: true)],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "expired trial in the same group",
            transactions: [purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true)],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "pay-as-you-go intro used in another group",
            transactions: [purchase("1", of: "plus.monthly", from: 0, to: 30, intro: true)],
            product: "pro.monthly", expected: .eligible
        ),
        .init(
            name: "pay-up-front intro used in another group",
            transactions: [purchase("1", of: "pro.yearly", from: 0, to: 90, intro: true)],
            product: "plus.monthly", expected: .eligible
        ),
        .init(
            name: "pay-up-front intro used in the same group",
            transactions: [purchase("1", of: "pro.yearly", from: 0, to: 90, intro: true)],
            product: "pro.monthly", expected: .ineligible
        ),
        .init(
            name: "only is_in_intro_offer_period set still counts",
            transactions: [purchase("1", of: "plus.monthly", from: 0, to: 30, intro: true)],
            product: "plus.monthly", expected: .ineligible
        ),
        .init(
            name: "refunded intro still counts",
            transactions: [purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true, refundedOn: 3)],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "family-shared trial counts",
            transactions: [purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true, familyShared: true)],
            product: "pro.monthly", expected: .ineligible
        ),
        .init(
            name: "lapsed without offer",
            transactions: [
                purchase("1", of: "pro.monthly", from: 0, to: 30), purchase("2", of: "pro.monthly", original: "1", from: 30, to: 60),
            ],
            product: "pro.yearly", expected: .eligible
        ),
        .init(
            name: "refunded purchase without offer, apple",
            transactions: [purchase("1", of: "pro.monthly", from: 80, to: 110, refundedOn: 85)],
            product: "pro.monthly", expected: .eligible
        ),
    ]

    static let entitlement: [EligibilityCase] = [
        .init(
            name: "active in group, asking for another product (crossgrade)",
            transactions: [purchase("1", of: "pro.monthly", from: 80, to: 110)],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "active in group, asking for the same product",
            transactions: [purchase("1", of: "pro.monthly", from: 80, to: 110)],
            product: "pro.monthly", expected: .ineligible
        ),
        .init(
            name: "active in another group",
            transactions: [purchase("1", of: "pro.monthly", from: 80, to: 110)],
            product: "plus.monthly", expected: .eligible
        ),
        .init(
            name: "family-shared active subscription counts",
            transactions: [purchase("1", of: "pro.monthly", from: 80, to: 110, familyShared: true)],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "upgrade: old period ended, new product active",
            transactions: [
                purchase("1", of: "pro.monthly", from: 70, to: 100, upgraded: true),
                purchase("2", of: "pro.yearly", original: "1", from: 90, to: 455),
            ],
            product: "pro.monthly", expected: .ineligible
        ),
        .init(
            name: "grace period counts as entitled",
            transactions: [purchase("1", of: "pro.monthly", from: 60, to: 90)],
            renewals: [retrying("1", graceUntil: 105, observedOn: 91)],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "billing retry does not count",
            transactions: [purchase("1", of: "pro.monthly", from: 60, to: 90)],
            renewals: [retrying("1", graceUntil: 95, observedOn: 91)],
            product: "pro.yearly", expected: .eligible
        ),
        .init(
            name: "expired at exactly now is no longer entitled",
            transactions: [purchase("1", of: "pro.monthly", from: 70, to: 100)],
            product: "pro.yearly", expected: .eligible
        ),
        .init(
            name: "multiple original transactions: lapsed here, intro elsewhere",
            transactions: [
                purchase("1", of: "pro.monthly", from: 0, to: 30),
                purchase("5", of: "plus.monthly", from: 40, to: 70, intro: true),
            ],
            product: "pro.monthly", expected: .eligible
        ),
        .init(
            name: "multiple original transactions: one of two in the group used a trial",
            transactions: [
                purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true),
                purchase("5", of: "pro.yearly", from: 20, to: 50),
                purchase("6", of: "plus.monthly", from: 40, to: 70),
            ],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "multiple original transactions: the active one decides",
            transactions: [
                purchase("1", of: "plus.monthly", from: 0, to: 30),
                purchase("5", of: "plus.monthly", from: 90, to: 120),
            ],
            product: "plus.monthly", expected: .ineligible
        ),
    ]
}
