import HeadlessUI
import Layout

/// Rows made from data, scrolling, as SwiftUI's `List`; a HeadlessUI ``TableView``.
///
/// ```swift
/// List(favourites, id: \.url) { photo in
///     Text(photo.breed)
/// } onSelect: { photo in show(photo) }
/// ```
///
/// Only the rows on screen are made, so a list of 10,000 rows costs what one screenful does.
public struct List<Item>: Element, PrimitiveElement {
    /// The rows' data.
    public var items: [Item]
    let rowContent: @MainActor (Item) -> any Element
    let onSelect: (@MainActor (Item) -> Void)?

    /// A list of `items`, each shown by `rowContent`; `onSelect` hears a row being tapped.
    public init(
        _ items: [Item], @ElementBuilder rowContent: @escaping @MainActor (Item) -> ElementGroup,
        onSelect: (@MainActor (Item) -> Void)? = nil
    ) {
        self.items = items
        self.rowContent = { rowContent($0) }
        self.onSelect = onSelect
    }

    func makeNode(in context: ElementContext) -> ElementNode {
        let table = TableView()
        table.register(HostingCell.self, forCellReuseIdentifier: ListSource<Item>.reuseIdentifier)
        let source = ListSource<Item>()
        let node = ElementNode(element: self, view: table, storage: source)
        update(node, in: context)
        table.dataSource = source
        table.delegate = source
        return node
    }

    func update(_ node: ElementNode, in context: ElementContext) {
        guard let source = node.storage as? ListSource<Item>, let table = node.view as? TableView else {
            return
        }
        source.items = items
        source.rowContent = rowContent
        source.onSelect = onSelect
        source.context = context
        table.reloadData()
    }
}

/// A list's data source: each visible row's cell hosts the node of its row element.
@MainActor
final class ListSource<Item>: TableViewDataSource, TableViewDelegate {
    static var reuseIdentifier: String { "DeclarativeUI.List" }
    var items: [Item] = []
    var rowContent: (@MainActor (Item) -> any Element)?
    var onSelect: (@MainActor (Item) -> Void)?
    var context = ElementContext()

    func numberOfRows(in tableView: TableView) -> Int { items.count }

    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: Self.reuseIdentifier)
        guard let rowContent, items.indices.contains(row), let hosting = cell as? HostingCell else {
            return cell
        }
        hosting.show(rowContent(items[row]), in: context)
        return hosting
    }

    func tableView(_ tableView: TableView, didSelectRowAt row: Int) {
        guard items.indices.contains(row) else { return }
        onSelect?(items[row])
    }
}

/// A table cell that shows a row element in its content view.
final class HostingCell: TableViewCell {
    private var node: ElementNode?

    func show(_ element: any Element, in context: ElementContext) {
        if let node {
            let oldView = node.view
            let updated = node.updated(to: element, in: context)
            if updated.view !== oldView {
                oldView.removeFromSuperview()
                attach(updated.view)
            }
            self.node = updated
        } else {
            let made = ElementNode.make(element, in: context)
            attach(made.view)
            node = made
        }
    }

    private func attach(_ view: View) {
        contentView.addSubview(view)
        view.pinEdges(to: contentView, insets: EdgeInsets(left: 1, right: 1), identifier: "DeclarativeUI-row")
    }
}
