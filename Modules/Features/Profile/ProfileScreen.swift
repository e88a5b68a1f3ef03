import DeclarativeUI
import Domain
import HeadlessUI
import Layout

/// The profile screen, written with the declarative layer, as the original RIBs-todo app wrote
/// Profile in SwiftUI: the person, the flavor's pet photo with its breed and size, and the
/// favourites.
struct ProfileScreen: Element {
    var state: ProfileState
    var onRefresh: @MainActor () -> Void
    var onFavorite: @MainActor () -> Void

    var body: some Element {
        VStack(alignment: .leading, spacing: 0) {
            Text(state.profile.name.isEmpty ? "No name yet (name <text>)" : state.profile.name).bold()
            Text(state.profile.bio.isEmpty ? "No bio yet (bio <text>)" : state.profile.bio)
            Divider()
            photo
            HStack(spacing: 2) {
                Button(state.isLoading ? "Loading…" : "Refresh", action: onRefresh).disabled(state.isLoading)
                Button(state.isFavorite ? "★ Favourite" : "☆ Favourite", action: onFavorite)
                    .disabled(state.photo == nil)
                Text("\(state.favoriteCount) kept")
            }
            if let status = state.status {
                Text(status).foregroundStyle(.yellow)
            }
        }
        .padding(EdgeInsets(top: 0, left: 1, bottom: 0, right: 1))
    }

    @ElementBuilder private var photo: ElementGroup {
        let title = state.pet == .dog ? "Your dog" : "Your cat"
        if let photo = state.photo {
            Picture(
                Image(url: photo.url.absoluteString, pixelSize: pixelSize(of: photo)),
                caption: photo.breed ?? "unknown breed"
            )
            .frame(height: 5)
            Text("\(title): \(photo.breed ?? "breed unknown") · \(photo.sizeDescription ?? "size unknown")")
            Text(photo.url.absoluteString)
        } else {
            Text(state.isLoading ? "\(title) is on the way…" : "\(title) could not be fetched.")
        }
    }

    private func pixelSize(of photo: PetPhoto) -> Size? {
        guard let width = photo.width, let height = photo.height else { return nil }
        return Size(width: Double(width), height: Double(height))
    }
}
