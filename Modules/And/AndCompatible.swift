/// A type that can be configured inline with ``and(_:)``, copied with ``with(_:)`` and
/// used in a block with ``do(_:)``.
///
/// `And` is Then's idea under Ribcage's name: it keeps set-up code next to the value it sets up.
///
/// ```swift
/// let label = Label().and {
///     $0.text = "Hello"
///     $0.textAlignment = .center
/// }
///
/// let request = URLRequest(url: url).with {
///     $0.httpMethod = "POST"
///     $0.timeoutInterval = 5
/// }
/// ```
///
/// Conform your own types with an empty extension: `extension MyType: AndCompatible {}`.
/// Every method rethrows, so a throwing block needs `try` and a non-throwing one does not.
public protocol AndCompatible {}

extension AndCompatible {
    /// Returns a copy of `self` changed by `transform`.
    ///
    /// For a value type the original is left untouched. For a reference type the "copy" is the
    /// same reference, so `transform` changes the original object too; use ``and(_:)`` to say
    /// that plainly.
    ///
    /// - Parameter transform: Changes the copy in place.
    /// - Returns: The changed copy.
    @inlinable
    public func with(_ transform: (inout Self) throws -> Void) rethrows -> Self {
        var copy = self
        try transform(&copy)
        return copy
    }

    /// Runs `body` with `self`, for scoping work on a value without naming it.
    ///
    /// ```swift
    /// UserDefaults.standard.do {
    ///     $0.set("Dog", forKey: "flavor")
    ///     $0.synchronize()
    /// }
    /// ```
    ///
    /// - Parameter body: Work to do with `self`.
    @inlinable
    public func `do`(_ body: (Self) throws -> Void) rethrows {
        try body(self)
    }
}

extension AndCompatible where Self: AnyObject {
    /// Configures this object with `configure` and returns the same instance.
    ///
    /// - Parameter configure: Sets the object up; it receives `self`.
    /// - Returns: `self`, now configured, so that creation and set-up read as one expression.
    @inlinable
    public func and(_ configure: (Self) throws -> Void) rethrows -> Self {
        try configure(self)
        return self
    }
}
