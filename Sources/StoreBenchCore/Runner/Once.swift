/// A throwing clean-up that runs at most once, however many paths call it (verify and the runner's finish).
final class Once {
  private var body: (() throws -> Void)?

  init(_ body: @escaping () throws -> Void) { self.body = body }

  func run() throws {
    guard let body else { return }
    self.body = nil
    try body()
  }
}
