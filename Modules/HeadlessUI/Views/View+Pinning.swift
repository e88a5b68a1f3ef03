import Layout

extension View {
    /// Holds the view's edges at `insets` inside `container`'s with active constraints, and
    /// returns them in the order left, right, top, bottom. The view stops translating its frame
    /// into constraints. For this package's modules.
    @discardableResult
    package func pinEdges(
        to container: any LayoutItem, insets: EdgeInsets = .zero, identifier: String = "HeadlessUI-pin"
    ) -> [LayoutConstraint] {
        translatesAutoresizingMaskIntoConstraints = false
        let made = [
            (LayoutAttribute.left, insets.left), (.right, -insets.right), (.top, insets.top),
            (.bottom, -insets.bottom),
        ].map { attribute, constant in
            LayoutConstraint(
                item: self, attribute: attribute, relatedBy: .equal, toItem: container, attribute: attribute,
                constant: constant, identifier: identifier)
        }
        LayoutConstraint.activate(made)
        return made
    }
}
