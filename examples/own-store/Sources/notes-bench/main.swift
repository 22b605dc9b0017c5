import NotesStorebench
import StoreBenchKit

// storebench with the app's notes store registered beside the standard backends, and the app's own `triage`
// workload beside the standard workloads: every command (run, report, compare, crash, advise, history, export,
// list, …) and every child process it starts know `notes` and `triage`.
StoreBench.main(registering: [NotesBackend.descriptor], workloads: [TriageWorkload()])
