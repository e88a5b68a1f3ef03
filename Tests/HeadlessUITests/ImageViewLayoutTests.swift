import HeadlessUI
import Images
import Layout
import LayoutDSL
import Testing

/// An image view's intrinsic size is a wish at the hugging (250) and compression-resistance
/// (750) priorities, as `UIImageView`'s is: required edges always win over it, in either
/// direction, and only constraints weaker than those priorities give way to it.
@MainActor
@Suite("ImageView layout: pinned edges beat the intrinsic size, as in UIKit")
struct ImageViewLayoutTests {
    /// A 64×48 picture with a caption 26 cells wide: an intrinsic size of 30×12 cells.
    private static func pictureView() throws -> ImageView {
        var rgba: [UInt8] = []
        for index in 0..<(64 * 48) { rgba += [UInt8(index & 0xFF), 90, 160, 255] }
        let view = ImageView()
        let bitmap = try #require(Bitmap(width: 64, height: 48, rgba: rgba))
        view.bitmap = bitmap
        view.caption = "an evening by the sea, 64x"
        return view
    }

    @Test(arguments: [Size(width: 60, height: 20), Size(width: 12, height: 5), Size(width: 30, height: 12)])
    func fourPinnedEdgesGiveThePinnedSize(size: Size) throws {
        let picture = try Self.pictureView()
        #expect(picture.intrinsicContentSize == Size(width: 30, height: 12))
        let container = View(frame: Rect(origin: .zero, size: size))
        container.addSubview(picture)
        try picture.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        try container.solveLayout()
        #expect(picture.frame == container.bounds)
        #expect(container.layoutReport.gaveWay.count == 0, "the intrinsic size is not a user constraint")
    }

    @Test func aPictureSetAfterLayoutKeepsThePinnedSize() throws {
        let container = View(frame: Rect(x: 0, y: 0, width: 50, height: 16))
        let picture = ImageView()
        container.addSubview(picture)
        picture.pinEdges(to: container)
        try container.solveLayout()
        #expect(picture.frame == container.bounds)
        let decoded = try Self.pictureView()
        picture.bitmap = decoded.bitmap
        picture.caption = decoded.caption
        try container.solveLayout()
        #expect(picture.frame == container.bounds)
    }

    @Test func inATabOfAWindowThePictureFillsItsViewController() throws {
        let controller = ViewController()
        let picture = try Self.pictureView()
        controller.view.addSubview(picture)
        try picture.ndl.makeConstraints { make in make.edges.equalToSuperview() }
        let tabs = TabBarController()
        tabs.viewControllers = [controller]
        let window = Window(size: Size(width: 100, height: 30))
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        _ = window.render()
        #expect(picture.frame.size == controller.view.frame.size)
        #expect(picture.frame.width == 100 && picture.frame.height > 12)
        window.resize(to: Size(width: 44, height: 12))
        _ = window.render()
        #expect(picture.frame.size == controller.view.frame.size)
        #expect(picture.frame.width == 44)
    }

    @Test func edgesWeakerThanCompressionResistanceGiveWayToTheIntrinsicSize() throws {
        let container = View(frame: Rect(x: 0, y: 0, width: 20, height: 8))
        let picture = try Self.pictureView()
        container.addSubview(picture)
        try picture.ndl.makeConstraints { make in
            make.top.left.equalToSuperview()
            make.right.bottom.equalToSuperview().priority(.defaultHigh - 1)
        }
        try container.solveLayout()
        #expect(
            picture.frame == Rect(x: 0, y: 0, width: 30, height: 12), "749 < 750: the picture keeps its size")

        try picture.ndl.remakeConstraints { make in
            make.top.left.equalToSuperview()
            make.right.bottom.equalToSuperview().priority(.defaultHigh + 1)
        }
        try container.solveLayout()
        #expect(picture.frame == container.bounds, "751 > 750: the edges win")
    }

    @Test func lessThanTwoEdgesOnAnAxisLeaveTheIntrinsicSizeOnIt() throws {
        let container = View(frame: Rect(x: 0, y: 0, width: 80, height: 24))
        let picture = try Self.pictureView()
        container.addSubview(picture)
        try picture.ndl.makeConstraints { make in
            make.left.right.equalToSuperview().inset(2)
            make.centerY.equalToSuperview()
        }
        try container.solveLayout()
        #expect(
            picture.frame == Rect(x: 2, y: 6, width: 76, height: 12), "hugging gives way to the edges only")
    }
}
