/// Child view controllers, as UIKit's containment API.
///
/// To add a child: ``ViewController/addChild(_:)``, add its view to yours, then
/// ``ViewController/didMove(toParent:)``. If this controller is on screen, the child gets its
/// appearance callbacks then. To remove one: `willMove(toParent: nil)`, remove its view, then
/// ``ViewController/removeFromParent()``.
extension ViewController {
    /// Makes `child` a child of this controller, calling `child.willMove(toParent: self)`. A
    /// child of another controller moves here.
    public func addChild(_ child: ViewController) {
        guard child !== self, child.parent !== self else { return }
        if child.parent != nil { child.removeFromParent() }
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
    }

    /// Removes the controller from its parent, with its disappearance callbacks if it was on
    /// screen, then calls `didMove(toParent: nil)`.
    public func removeFromParent() {
        guard let parent else { return }
        if isAppearingOrAppeared {
            isMovingFromParent = true
            beginAppearanceTransition(false)
            endAppearanceTransition()
            isMovingFromParent = false
        }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }
}
