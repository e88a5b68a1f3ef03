/// Supplies a ``TableView``'s rows, as `UITableViewDataSource` (one section).
@MainActor
public protocol TableViewDataSource: AnyObject {
    /// How many rows the table has.
    func numberOfRows(in tableView: TableView) -> Int

    /// The configured cell for `row`; get it from
    /// ``TableView/dequeueReusableCell(withIdentifier:)``. The table asks only for visible rows,
    /// each time the visible rows change.
    func tableView(_ tableView: TableView, cellForRowAt row: Int) -> TableViewCell
}

/// Hears what happens to a ``TableView``'s rows, as `UITableViewDelegate`.
@MainActor
public protocol TableViewDelegate: AnyObject {
    /// The user selected `row` (see ``TableView/tapRow(at:)``). Selecting in code does not call
    /// this, as in UIKit.
    func tableView(_ tableView: TableView, didSelectRowAt row: Int)

    /// The visible rows changed after scrolling.
    func tableViewDidScroll(_ tableView: TableView)
}

extension TableViewDelegate {
    /// Does nothing.
    public func tableView(_ tableView: TableView, didSelectRowAt row: Int) {}
    /// Does nothing.
    public func tableViewDidScroll(_ tableView: TableView) {}
}
