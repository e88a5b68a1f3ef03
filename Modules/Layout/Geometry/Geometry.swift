import ConstraintSolver

/// A position, in points: `CGPoint` without Core Graphics. In a terminal one point is one cell.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// The point `x` to the right of the origin and `y` below it: y grows downwards, as in UIKit.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = Point(x: 0, y: 0)

    /// `(x, y)`.
    public var description: String { "(\(formatted(x)), \(formatted(y)))" }
}

/// A width and a height, in points: `CGSize` without Core Graphics.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Across, in points; HeadlessUI draws one point as one terminal cell.
    public var width: Double
    /// Down, in points; a terminal cell is about twice as tall as it is wide.
    public var height: Double

    /// `width` across by `height` down, kept as given: nothing is rounded to whole cells or
    /// clamped at 0.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// No extent.
    public static let zero = Size(width: 0, height: 0)

    /// `WxH`.
    public var description: String { "\(formatted(width))x\(formatted(height))" }
}

/// A rectangle: an origin and a size, as `CGRect`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The extent.
    public var size: Size

    /// Creates a rectangle from its origin and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its coordinates.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(origin: .zero, size: .zero)

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge.
    public var minY: Double { origin.y }
    /// The right edge.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// The horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// ``size``'s width, so that `frame.width` reads as in UIKit.
    public var width: Double { size.width }
    /// ``size``'s height.
    public var height: Double { size.height }

    /// This rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }

    /// This rectangle shrunk by `insets` (grown where they are negative).
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: origin.x + insets.left, y: origin.y + insets.top,
            width: size.width - insets.left - insets.right, height: size.height - insets.top - insets.bottom)
    }

    /// The overlap of the two rectangles, or `nil` when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let left = max(minX, other.minX)
        let top = max(minY, other.minY)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right >= left, bottom >= top else { return nil }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether `point` lies inside (the right and bottom edges excluded).
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// `(x, y, WxH)`.
    public var description: String {
        "(\(formatted(origin.x)), \(formatted(origin.y)), \(size))"
    }
}
