import NotesStorebench
import StoreBenchKit

// storebench with the app's notes store registered beside the standard backends: every command (run, report,
// compare, crash, advise, history, export, list, …) and every child process it starts know `notes`.
StoreBench.main(registering: [NotesBackend.descriptor])
