import StoreBenchCore
import Yams

extension AppProfile {
  /// The operations that each commit one save of the app's data: what a loss window counts the app's saves in
  /// (``savesPerDay``). `mark_read` is one record of a bulk change and `cache` mostly reads, so neither counts.
  public static let savingOperations: [Operation] = [.save, .edit, .tagChange, .setting, .parentRead]

  /// How many saves the app commits a day (``savingOperations`` and ``declaredSavingOperations``): the pace a lost
  /// save waits at for a later one.
  public var savesPerDay: Double {
    (Self.savingOperations + declaredSavingOperations).reduce(0) { $0 + (perDay[$1] ?? 0) }
  }

  /// When the app's saves come: its `save_cadence`, or steadily at ``savesPerDay``.
  public var cadence: SaveCadence { saveCadence ?? .steady(savesPerDay: savesPerDay) }

  /// The durability the profile asks for, for sentences: "survives power loss", or "survives a killed app, and a
  /// power cut loses no save older than 1 s".
  public var needPhrase: String {
    guard let window = lossWindowMilliseconds else { return need.phrase }
    return "survives a killed app, and a power cut loses no save older than \(LossWindow.age(window))"
  }

  static let durabilityKeys = ["survive", "loss_window_ms"]

  /// `durability: kill`, `durability: power-loss`, or `durability: {survive: power-loss, loss_window_ms: 1000}`.
  static func durability(_ node: Node?, reader: NodeReader) throws -> (Need, Double?) {
    guard let node else { throw reader.error("durability", "required key is missing") }
    guard case .mapping = node else { return (try need(reader.scalar(node, at: "durability"), reader), nil) }
    let fields = Dictionary(
      uniqueKeysWithValues: try reader.mapping(node, at: "durability", allowed: durabilityKeys))
    let need = try need(
      reader.string(fields["survive"], at: "durability.survive", required: true)!, reader,
      at: "durability.survive")
    let window = try reader.decimal(
      fields["loss_window_ms"], at: "durability.loss_window_ms", range: 1...86_400_000)
    if window != nil && need != .powerLoss {
      throw reader.error(
        "durability.loss_window_ms", "a loss window bounds what a power cut loses: give survive: power-loss")
    }
    return (need, window)
  }

  private static func need(_ text: String, _ reader: NodeReader, at path: String = "durability") throws -> Need {
    guard let need = Need(rawValue: text) else {
      throw reader.error(
        path, "'\(text)'; allowed: kill (survives a killed app), power-loss (survives power loss)")
    }
    return need
  }
}
