import HeadlessUI
import Images

/// A picture with a caption; a HeadlessUI ``ImageView``. With decoded pixels it draws them as
/// half blocks; with only an ``Image`` (an address, a size) it draws a captioned stand-in.
public struct Picture: Element, PrimitiveElement {
    /// The picture, if known.
    public var image: Image?
    /// The decoded pixels, if any.
    public var bitmap: Bitmap?
    /// The line under the pixels, or inside the stand-in's box; `nil` for none.
    public var caption: String?

    /// A stand-in for `image` with a caption.
    public init(_ image: Image?, caption: String? = nil) {
        self.image = image
        self.caption = caption
    }

    /// The pixels of `bitmap` with a caption.
    public init(_ bitmap: Bitmap, caption: String? = nil) {
        self.bitmap = bitmap
        self.caption = caption
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        let node = ElementNode(element: self, view: ImageView())
        update(node, in: context)
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        guard let view = node.view as? ImageView else { return }
        view.image = image
        view.bitmap = bitmap
        view.caption = caption
    }
}
