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
}
