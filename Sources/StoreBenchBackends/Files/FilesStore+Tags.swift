import Foundation
import StoreBenchContract

/// The `tags` part of ``FilesStore``: the app's own index records (``TagIndex``), one small binary file each under
/// `tags/` (fan-out as for records, `.index`), replaced atomically like every record, fsynced with fsync=each.
extension FilesStore: TaggingStore {
    private struct Records: TagRecords {
        let store: FilesStore
        func record(_ key: [UInt8]) throws -> [UInt8]? {
            let url = try store.url(kind: "tags", key: key, extension: "index")
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return Array(try FileWriter.read(url))
        }
        func put(_ value: [UInt8], for key: [UInt8]) throws {
            try FileWriter.replace(try store.url(kind: "tags", key: key, extension: "index"), with: Data(value),
                                   durable: store.durable)
        }
        func article(uid: String) throws -> Article? { try store.article(uid: uid) }
    }

    func load(articles batch: [Article], tags notes: [NoteTags]) throws {
        try load(articles: batch)
        for (key, value) in TagIndex.records(for: notes) {
            try FileWriter.replace(try url(kind: "tags", key: key, extension: "index"), with: Data(value), durable: false)
        }
        try FileWriter.syncFileSystem(of: root)
    }

    func tagsWithUnarchivedNotes() throws -> [Int64] { try TagIndex.tagsWithUnarchivedNotes(in: Records(store: self)) }

    func newestNotes(tag: Int64, limit: Int) throws -> [Article] {
        try TagIndex.newestNotes(tag: tag, limit: limit, in: Records(store: self))
    }

    func apply(_ change: TagChange) throws { try TagIndex.apply(change, to: Records(store: self)) }

    func allNoteTags() throws -> [NoteTags] {
        try allUIDs().map { try TagIndex.note($0, in: Records(store: self)) }.filter { $0.archived || !$0.tags.isEmpty }
    }

    func tagQueryPlans() throws -> [String] {
        ["index files kept by the app (tags/…/63<tag>.index): a count of unarchived notes per tag, one file read per tag",
         "index files kept by the app (tags/…/6d<tag>.index): the tag's member list, each member's file read, newest kept"]
    }
}
