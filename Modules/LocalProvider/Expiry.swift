import Foundation

/// When a stored value stops being valid. Expired values read as absent, in every store.
public enum Expiry: Sendable, Equatable {
    /// Never expires.
    case never
    /// Expires this many seconds after it is saved.
    case seconds(TimeInterval)
    /// Expires at this date.
    case date(Date)

    /// The expiry date for a value saved at `now`, or `nil` for never.
    public func date(from now: Date) -> Date? {
        switch self {
        case .never: nil
        case .seconds(let seconds): now.addingTimeInterval(seconds)
        case .date(let date): date
        }
    }

    /// ``date(from:)``, refusing what is not a point in time: a NaN would make a value expire
    /// at its first read, an infinity never.
    ///
    /// - Throws: ``StorageError/invalidExpiry(_:key:)``.
    func checkedDate(from now: Date, key: String) throws(StorageError) -> Date? {
        guard let date = date(from: now) else { return nil }
        guard date.timeIntervalSince1970.isFinite else { throw .invalidExpiry(self, key: key) }
        return date
    }
}
