import Data
import Domain
import Foundation
import HeadlessUI
import LocalProvider
import NetworkProvider
import RIBs
import Root
import TerminalCore

/// The composition root: it opens the stores, picks the flavor's photos (the API, or the
/// shipped samples offline), and
/// makes each object the RIBs share once, with `shared { }`. Only the app sees Data; features
/// see Domain's protocols.
@MainActor
final class AppComponent: Component<any EmptyDependency>, RootDependency {
    let configuration: AppConfiguration
    private let dataStore: PlistFileStore
    private let settingsStore: UserDefaultsStore

    /// Opens the flavor's stores.
    ///
    /// - Throws: ``AppError/cannotOpen(_:)`` when the data folder cannot be created or read.
    init(configuration: AppConfiguration) throws(AppError) {
        self.configuration = configuration
        do {
            dataStore = try PlistFileStore(
                root: configuration.dataDirectory, format: .binary, durability: .durable)
            settingsStore = try UserDefaultsStore(suiteName: "\(configuration.flavor.namespace).profile")
        } catch {
            throw .cannotOpen("cannot open the data folder \(configuration.dataDirectory.path): \(error)")
        }
        super.init(dependency: EmptyComponent())
    }

    var appName: String { configuration.flavor.name }

    var accentColor: Color { configuration.flavor.accent }

    var todoRepository: any TodoRepository {
        shared {
            StoredTodoRepository(folder: configuration.dataDirectory)
        }
    }

    var favoritePhotos: FavoritePhotos {
        shared { FavoritePhotos(repository: StoredFavoritePhotoRepository(store: dataStore)) }
    }

    var profileRepository: any ProfileRepository {
        shared { StoredProfileRepository(store: settingsStore) }
    }

    var screenPreferences: any ScreenPreferencesRepository {
        shared { StoredScreenPreferencesRepository(store: settingsStore) }
    }

    var petPhotoRepository: any PetPhotoRepository {
        shared { makePetPhotoRepository() }
    }

    private func makePetPhotoRepository() -> any PetPhotoRepository {
        if configuration.isOffline { return SamplePhotoRepository(pet: configuration.flavor.pet) }
        let baseURL = configuration.apiBaseURL ?? configuration.flavor.publicAPI
        let timeout = configuration.requestTimeout
        switch configuration.flavor.pet {
        case .dog:
            return DogPhotoRepository(
                provider: makeProvider(), imageProvider: makeProvider(), baseURL: baseURL, timeout: timeout)
        case .cat:
            return CatPhotoRepository(
                provider: makeProvider(), imageProvider: makeProvider(), baseURL: baseURL,
                apiKey: configuration.catAPIKey, timeout: timeout)
        }
    }

    /// A provider that asks the network. No retries: a status line says what failed, and
    /// `refresh` tries again.
    private func makeProvider<Target: TargetType>() -> NetworkProvider<Target> {
        NetworkProvider(retryPolicy: .never)
    }
}
