import Foundation
import StoreBenchCore
import StoreBenchSQLWorkloads

/// The data the checks store beside the generated articles.
public enum ContractData {
  /// Articles whose text and uids carry every awkward piece the generator knows and a few more: quotes, SQL,
  /// combining marks beside their precomposed forms, emoji sequences, control characters, markup, the empty string.
  public static func awkwardArticles() -> [Article] {
    let pieces = [
      "Bobby \"Tables\"", "'); DROP TABLE article;--", "Ünïcödé", "e\u{301} vs \u{e9}", "🚀👩‍💻🏳️‍🌈",
      "tab\there", "line\nbreak\r\nCRLF", "<xml> & </xml>", "\\back\\slash", "=SUM(A1)", "", " leading space",
    ]
    return pieces.enumerated().map { index, piece in
      Article(
        uid: "awkward-\(index)-\(piece)", feedID: Int64(index), title: piece, summary: "summary: \(piece)",
        published: Date(millisecondsSince1970: 1_700_000_000_123 + Int64(index)), read: false)
    }
  }

  /// Byte-for-byte equality (Swift's `==` on strings ignores Unicode normalization: "e\u{301}" == "\u{e9}").
  public static func sameBytes(_ a: String, _ b: String) -> Bool { Array(a.utf8) == Array(b.utf8) }
}

extension ContractData {
  /// A small `sql` workload file the suite runs on every backend that plays the SQL role (and checks the others
  /// refuse): folders and notes with a foreign key, every kind of generator, a reading operation of two statements
  /// and a writing one with its check. Its checksums must equal the reference's (sqlite's).
  static let sqlFile = """
    name: contract
    size: notes
    parameters:
      notes: {default: 300, min: 1, smoke: 120}
      folders: {default: 12, min: 1, smoke: 6}
      count: {default: 20, min: 1, smoke: 8}
    schema: |
      CREATE TABLE folder(id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL);
      CREATE TABLE note(id INTEGER PRIMARY KEY, folder_id INTEGER NOT NULL REFERENCES folder(id),
                        body TEXT NOT NULL, edited INTEGER NOT NULL, weight REAL, extra BLOB);
      CREATE INDEX note_by_folder ON note(folder_id, edited DESC);
    fill:
      - table: folder
        rows: folders
        columns:
          id: {sequence: {start: 1}}
          name: {words: {bytes: {uniform: [5, 30]}}}
          kind: {choice: {values: [inbox, archive, "7"], weights: [3, 1, 1]}}
      - table: note
        rows: notes
        columns:
          id: {sequence: {start: 1}}
          folder_id: {existing: {table: folder, column: id}}
          body: {words: {bytes: {median: 120, max: 900}}}
          edited: {timestamp: {days: 30}}
          weight: {null: true}
          extra: {value: 'x'}
    operations:
      - name: open-folder
        count: count
        statements:
          - name: folder
            sql: SELECT id, name, kind FROM folder WHERE id = :folder
            parameters:
              folder: {uniform: [1, folders]}
          - name: newest
            sql: SELECT id, body, edited, weight FROM note WHERE folder_id = :folder ORDER BY edited DESC, id LIMIT 20
            parameters:
              folder: {existing: {table: folder, column: id}}
      - name: save-note
        count: count
        sql: INSERT INTO note(id, folder_id, body, edited) VALUES (:id, :folder, :body, :edited)
        parameters:
          id: {sequence: {start: notes + 1}}
          folder: {existing: {table: folder, column: id}}
          body: {words: {bytes: 200}}
          edited: {timestamp: {days: 1}}
        check: {sql: "SELECT count(*), sum(length(body)) FROM note", expect: notes + count}
    """

  /// The workloads of ``sqlFile``.
  static let sqlWorkloads: [SQLWorkload] = {
    do {
      return try SQLWorkloadParser().parse(data: Data(sqlFile.utf8), file: "contract.yaml").workloads
    } catch {
      preconditionFailure("the contract suite's own sql workload file is invalid: \(error)")
    }
  }()
}
