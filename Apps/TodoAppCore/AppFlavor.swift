import Data
import Domain
import Foundation
import HeadlessUI
import TerminalCore

/// A build flavor of the TodoApp, fixed at compile time by the executable (`TodoAppDog`,
/// `TodoAppCat`), as the original RIBs-todo app fixed its two with build settings.
public struct AppFlavor: Sendable, Hashable {
    /// The app's name, shown in the window; also the folder name of its data and the prefix of
    /// its UserDefaults suite.
    let name: String
    /// The animal, which decides the API.
    let pet: Pet
    /// The colour the flavor draws its accents in.
    let accent: Color

    /// TodoApp-Dog, over the Dog CEO API.
    public static let dog = AppFlavor(name: "TodoApp-Dog", pet: .dog, accent: .yellow)
    /// TodoApp-Cat, over The Cat API.
    public static let cat = AppFlavor(name: "TodoApp-Cat", pet: .cat, accent: .magenta)

    var namespace: String { name }

    /// The public API the flavor's photos come from, unless `TODOAPP_API_BASE_URL` says otherwise.
    var publicAPI: URL {
        switch pet {
        case .dog: DogAPI.defaultBaseURL
        case .cat: CatAPI.defaultBaseURL
        }
    }
}
