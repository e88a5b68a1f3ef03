import Layout
import LayoutDSL

extension ViewController {
    /// Runs code that makes the view's constraints with `ndl`, as `viewDidLoad` does. Layout
    /// refuses a constraint it cannot use with a `LayoutError` instead of crashing, as SnapKit
    /// would; here the refusal goes to ``HeadlessUIDiagnostics/misuseHandler`` as
    /// ``UIMisuse/invalidConstraints(controller:reason:)``, and the screen shows what it can.
    ///
    /// ```swift
    /// makeLayout {
    ///     _ = try titleLabel.ndl.makeConstraints { make in make.top.leading.equalToSuperview() }
    /// }
    /// ```
    public func makeLayout(_ build: () throws -> Void) {
        do {
            try build()
        } catch {
            HeadlessUIDiagnostics.report(.invalidConstraints(controller: debugName, reason: "\(error)"))
        }
    }
}
