import AddTodo

// Todo's component is AddTodo's dependency (Uber's Component Extension); AddTodo needs nothing
// from it yet.
extension TodoComponent: AddTodoDependency {}
