import Todo

// The root component gives Todo the app's book and tracker (Uber's Component Extension).
extension RootComponent: TodoDependency {}
