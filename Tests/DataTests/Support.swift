import Domain

/// A book over `repository`, opened as the app opens it.
@MainActor
func openedBook(_ repository: any TodoRepository) async -> TodoBook {
    let book = TodoBook(repository: repository)
    await book.open()
    return book
}
