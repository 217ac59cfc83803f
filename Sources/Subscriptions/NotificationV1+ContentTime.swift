import AppStore
import Foundation

extension NotificationV1 {
    /// The latest moment the notification's own content speaks of: the newest of its
    /// purchase, cancellation and auto-renew-change dates. Renewal facts taken from a
    /// notification carry this time rather than the time it was processed, so that
    /// notifications processed out of order still let the newest information win.
    public var contentTime: Date? {
        var dates: [Date] = [autoRenewStatusChangeDate, cancellationDate].compactMap { $0 }
        for transaction in allTransactions {
            dates += [transaction.purchaseDate, transaction.cancellationDate].compactMap { $0 }
        }
        return dates.max()
    }
}
