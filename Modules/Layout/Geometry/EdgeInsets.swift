import ConstraintSolver

/// Distances in from each edge, as `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// From the top edge.
    public var top: Double
    /// From the left edge.
    public var left: Double
    /// From the bottom edge.
    public var bottom: Double
    /// From the right edge.
    public var right: Double

    /// Insets from each edge; an edge not named is not inset.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge.
    public init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }

    /// No insets.
    public static let zero = EdgeInsets()

    /// `{top, left, bottom, right}`, as UIKit prints them.
    public var description: String {
        "{\(formatted(top)), \(formatted(left)), \(formatted(bottom)), \(formatted(right))}"
    }
}

/// Distances in from each edge, with leading and trailing that follow the layout direction, as
/// `NSDirectionalEdgeInsets`.
public struct DirectionalEdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// From the top edge.
    public var top: Double
    /// From the leading edge.
    public var leading: Double
    /// From the bottom edge.
    public var bottom: Double
    /// From the trailing edge.
    public var trailing: Double

    /// Insets from each edge; an edge not named is not inset. Leading and trailing follow the
    /// view's layout direction: left and right from left to right, the other way round from
    /// right to left.
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// No insets.
    public static let zero = DirectionalEdgeInsets()

    /// The left-and-right insets these become in `direction`.
    public func resolved(in direction: LayoutDirection) -> EdgeInsets {
        switch direction {
        case .leftToRight: EdgeInsets(top: top, left: leading, bottom: bottom, right: trailing)
        case .rightToLeft: EdgeInsets(top: top, left: trailing, bottom: bottom, right: leading)
        }
    }

    /// `{top, leading, bottom, trailing}`.
    public var description: String {
        "{\(formatted(top)), \(formatted(leading)), \(formatted(bottom)), \(formatted(trailing))}"
    }
}

/// Which way text and leading-to-trailing layouts run, as `UIUserInterfaceLayoutDirection`.
public enum LayoutDirection: Sendable, Hashable {
    /// Leading is left (English).
    case leftToRight
    /// Leading is right (Arabic, Hebrew).
    case rightToLeft
}

/// A layout axis, as `NSLayoutConstraint.Axis`.
public enum LayoutAxis: Sendable, Hashable, CaseIterable {
    /// Left to right: widths, x positions.
    case horizontal
    /// Top to bottom: heights, y positions.
    case vertical
}
