import AppStore
import Foundation
import Subscriptions

extension EligibilityCase {
    static let groups: [EligibilityCase] = [
        .init(
            name: "group known only from the receipt's subscription_group_identifier",
            transactions: [purchase("1", of: "legacy.monthly", from: 0, to: 7, trial: true, group: EligibilityFixture.pro)],
            product: "pro.monthly", expected: .ineligible
        ),
        .init(
            name: "receipt group of an unlisted product, other group",
            transactions: [purchase("1", of: "old.monthly", from: 0, to: 7, trial: true, group: EligibilityFixture.lite)],
            product: "pro.monthly", expected: .eligible
        ),
        .init(
            name: "receipt group of an unlisted product, same group",
            transactions: [purchase("1", of: "old.monthly", from: 0, to: 7, trial: true, group: EligibilityFixture.lite)],
            product: "lite.monthly", expected: .ineligible
        ),
        .init(
            name: "unlisted product without any group cannot be tied to a group",
            transactions: [purchase("1", of: "old.monthly", from: 0, to: 7, trial: true)],
            product: "pro.monthly", expected: .eligible
        ),
        .init(
            name: "active unlisted product entitles in its reported group",
            transactions: [purchase("1", of: "legacy.monthly", from: 80, to: 110, group: EligibilityFixture.pro)],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "catalog group wins over a different reported group (offer elsewhere)",
            transactions: [purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true, group: EligibilityFixture.plus)],
            product: "plus.monthly", expected: .eligible
        ),
        .init(
            name: "catalog group wins over a different reported group (same catalog group)",
            transactions: [purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true, group: EligibilityFixture.plus)],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "sandbox and production passed together: a sandbox trial counts",
            transactions: [
                purchase("1", of: "pro.monthly", from: 0, to: 30),
                purchase("1", of: "pro.monthly", from: 0, to: 7, trial: true, environment: .sandbox),
            ],
            product: "pro.yearly", expected: .ineligible
        ),
        .init(
            name: "sandbox renewal info never applies to a production subscription with the same id",
            transactions: [purchase("1", of: "pro.monthly", from: 60, to: 90)],
            renewals: [retrying("1", graceUntil: 105, observedOn: 91, environment: .sandbox)],
            product: "pro.yearly", expected: .eligible
        ),
        .init(
            name: "sandbox subscription active while the production one with the same id expired",
            transactions: [
                purchase("1", of: "pro.monthly", from: 0, to: 30),
                purchase("1", of: "pro.monthly", from: 95, to: 105, environment: .sandbox),
            ],
            product: "pro.yearly", expected: .ineligible
        ),
    ]

    static let policies: [EligibilityCase] = [
        .init(
            name: "strict: lapsed without offer is ineligible",
            transactions: [purchase("1", of: "pro.monthly", from: 0, to: 30)],
            product: "pro.yearly", policy: .strict, expected: .ineligible
        ),
        .init(
            name: "strict: refunded purchase without offer is ineligible",
            transactions: [purchase("1", of: "pro.monthly", from: 80, to: 110, refundedOn: 85)],
            product: "pro.monthly", policy: .strict, expected: .ineligible
        ),
        .init(
            name: "strict: billing retry is ineligible",
            transactions: [purchase("1", of: "pro.monthly", from: 60, to: 90)],
            renewals: [retrying("1", graceUntil: nil, observedOn: 91)],
            product: "pro.monthly", policy: .strict, expected: .ineligible
        ),
        .init(
            name: "strict: a purchase in another group does not matter",
            transactions: [purchase("1", of: "plus.monthly", from: 0, to: 30)],
            product: "pro.monthly", policy: .strict, expected: .eligible
        ),
        .init(
            name: "strict: a consumable does not matter",
            transactions: [purchase("1", of: "coins.100", from: 50, to: nil)],
            product: "pro.monthly", policy: .strict, expected: .eligible
        ),
        .init(
            name: "strict: group known only from the receipt",
            transactions: [purchase("1", of: "legacy.monthly", from: 0, to: 30, group: EligibilityFixture.pro)],
            product: "pro.monthly", policy: .strict, expected: .ineligible
        ),
        .init(
            name: "strict: still unknown_product and no_intro_offer",
            transactions: [purchase("1", of: "pro.monthly", from: 0, to: 30)],
            product: "pro.weekly", policy: .strict, expected: .noIntroOffer
        ),
    ]
}
