import Data
import Domain
import Foundation
import HeadlessUI
import LocalProvider
import Root
import TerminalCore

/// The app's objects over real files in one folder, for the app's tests and `bench app`: the
/// todos in the journaled store the app keeps, and the profile, favourites and screen preferences
/// in a property-list store beside them. Unlike `AppComponent`'s, the settings are not in
/// `UserDefaults` but in the folder too, so that a test or benchmark touches nothing outside it.
@MainActor
package final class StoredAppDependency: RootDependency {
    package let appName = "TodoApp-Dog"
    package let accentColor = Color.yellow
    package let todoRepository: any TodoRepository
    package let profileRepository: any ProfileRepository
    package let screenPreferences: any ScreenPreferencesRepository
    package let favoritePhotos: FavoritePhotos
    package let petPhotoRepository: any PetPhotoRepository

    /// The objects over the files in `folder`, with photos from `petPhotoRepository`.
    ///
    /// - Parameter lockTimeout: The longest a todo change waits for another process holding
    ///   the folder's lock (the app's 5 s by default); a test that holds the lock itself for as
    ///   long as it takes to look gives a bound it cannot reach on a loaded machine.
    /// - Throws: What opening `folder`'s property-list store throws.
    package init(
        folder: URL, petPhotoRepository: any PetPhotoRepository, lockTimeout: Duration = .seconds(5)
    ) throws {
        let store = try PlistFileStore(root: folder, format: .binary)
        todoRepository = StoredTodoRepository(folder: folder, lockTimeout: lockTimeout)
        profileRepository = StoredProfileRepository(store: store)
        screenPreferences = StoredScreenPreferencesRepository(store: store)
        favoritePhotos = FavoritePhotos(repository: StoredFavoritePhotoRepository(store: store))
        self.petPhotoRepository = petPhotoRepository
    }
}
