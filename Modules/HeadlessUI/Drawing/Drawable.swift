import Layout

/// A view that draws itself, as a `UIView` subclass overrides `draw(_:)`.
///
/// The renderer calls ``draw(in:)`` for every visible view that conforms, parents before their
/// subviews, so subviews draw on top. A plain `View` draws nothing: it only arranges its
/// subviews.
@MainActor
public protocol Drawable: View {
    /// Draws the view's own content into `context`, in the view's coordinates.
    func draw(in context: inout DrawingContext)
}
