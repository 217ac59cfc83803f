import Foundation

extension Date {
    /// Whole seconds since 1970 for a claim (`iat`), clamped to 1970…2100 so that no clock
    /// value can trap the conversion.
    var claimSeconds: Int64 {
        Int64(timeIntervalSince1970.rounded(.down).clamped(to: 0...4_102_444_800))
    }

    /// Milliseconds since 1970 (the v1 promotional offer's `timestamp`), clamped the same way.
    var claimMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down).clamped(to: 0...4_102_444_800_000))
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
