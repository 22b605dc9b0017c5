import StoreBenchCommands

// storebench: the standard backends alone. A team's own binary calls the same entry point with its backends
// (docs/EXTENDING.md).
StoreBench.main(registering: [])
