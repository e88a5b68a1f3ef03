import Layout
import TerminalCore

/// Draws a tree of views into a ``Canvas``: one layout point is one cell.
///
/// ```swift
/// let canvas = Renderer.render(window)
/// print(canvas.text())
/// ```
///
/// The renderer lays the tree out first, then draws each visible view back to front, parents
/// before subviews. Frames are rounded to whole cells edge by edge, so neighbours never overlap
/// or leave a gap. Drawing is clipped to the view's frame and to every ancestor's; hidden views
/// and their subviews are skipped.
@MainActor
package enum Renderer {
    /// Lays out `view`'s tree and draws it into a canvas the size of `view`.
    ///
    /// On a terminal that draws pictures itself, a picture that a view is drawn over is drawn
    /// as half blocks instead (``ImagePlacement``): the tree is drawn a second time for that.
    package static func render(_ view: View) -> Canvas {
        view.layoutIfNeeded()
        let size = view.frame.size
        let capabilities = view.window?.capabilities ?? TerminalCapabilities()
        let canvas = draw(view, size: size, capabilities: capabilities, halfBlockImages: [])
        let covered = canvas.images.filter(\.isCovered).map(\.ordinal)
        guard !covered.isEmpty else { return canvas }
        return draw(view, size: size, capabilities: capabilities, halfBlockImages: Set(covered))
    }

    private static func draw(
        _ view: View, size: Size, capabilities: TerminalCapabilities, halfBlockImages: Set<Int>
    ) -> Canvas {
        var context = DrawingContext(canvas: Canvas(width: cells(size.width), height: cells(size.height)))
        context.capabilities = capabilities
        context.halfBlockImages = halfBlockImages
        let bounds = CellRect(x: 0, y: 0, width: context.canvas.width, height: context.canvas.height)
        draw(
            view, originX: 0, originY: 0, clip: bounds, direction: view.effectiveUserInterfaceLayoutDirection,
            into: &context)
        return context.canvas
    }

    private static func draw(
        _ view: View, originX: Double, originY: Double, clip: CellRect, direction inherited: LayoutDirection,
        into context: inout DrawingContext
    ) {
        guard !view.isHidden else { return }
        let direction = view.semanticLayoutDirection ?? inherited
        let size = view.frame.size
        let left = cells(originX)
        let top = cells(originY)
        let frame = CellRect(
            x: left, y: top, width: cells(originX + size.width) - left,
            height: cells(originY + size.height) - top)
        let visible = frame.intersection(clip)
        guard !visible.isEmpty else { return }
        if let drawable = view as? any Drawable {
            context.width = frame.width
            context.height = frame.height
            context.origin = (frame.x, frame.y)
            context.clip = visible
            context.layoutDirection = direction
            drawable.draw(in: &context)
        }
        for subview in view.subviews {
            let origin = subview.frame.origin
            draw(
                subview, originX: originX + origin.x, originY: originY + origin.y, clip: visible,
                direction: direction, into: &context)
        }
    }

    /// A coordinate rounded to the nearest cell edge.
    static func cells(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        return Int((value + 0.5).rounded(.down))
    }
}
