import Domain
import Foundation
import HeadlessUI

/// A build flavor of the TodoApp, fixed at compile time by the executable (`TodoAppDog`,
/// `TodoAppCat`), as the seeds' two build settings fixed theirs.
public struct AppFlavor: Sendable, Hashable {
    /// The app's name, shown in the window and used as the storage namespace.
    public let name: String
    /// Which animal, and so which API.
    public let pet: Pet
    /// The colour the flavor draws its accents in.
    public let accent: Color

    /// TodoApp-Dog, over the Dog CEO API.
    public static let dog = AppFlavor(name: "TodoApp-Dog", pet: .dog, accent: .yellow)
    /// TodoApp-Cat, over The Cat API.
    public static let cat = AppFlavor(name: "TodoApp-Cat", pet: .cat, accent: .magenta)

    /// The folder name for the flavor's data and the prefix of its UserDefaults suite.
    public var namespace: String { name }
}
