import AddTodo
import Domain

// Todo's component gives AddTodo the same book (Uber's Component Extension).
extension TodoComponent: AddTodoDependency {}
