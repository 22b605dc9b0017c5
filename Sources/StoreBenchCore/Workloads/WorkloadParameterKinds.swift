/// The names of the standard workloads' parameters, each spelt once.
extension ParameterName {
    public static let archivedPercent = ParameterName("archived_percent")
    public static let batch = ParameterName("batch")
    public static let capacity = ParameterName("capacity")
    public static let churnPercent = ParameterName("churn_percent")
    public static let count = ParameterName("count")
    public static let editPercent = ParameterName("edit_percent")
    public static let getPercent = ParameterName("get_percent")
    public static let keys = ParameterName("keys")
    public static let limit = ParameterName("limit")
    public static let messageBytes = ParameterName("message_bytes")
    public static let messages = ParameterName("messages")
    public static let emptyParents = ParameterName("empty_parents")
    public static let extensions = ParameterName("extensions")
    public static let parents = ParameterName("parents")
    public static let pauseMicroseconds = ParameterName("pause_us")
    public static let parentSkew = ParameterName("parent_skew")
    public static let unreadPercent = ParameterName("unread_percent")
    public static let rate = ParameterName("rate")
    public static let readPercent = ParameterName("read_percent")
    public static let retries = ParameterName("retries")
    public static let rounds = ParameterName("rounds")
    public static let screen = ParameterName("screen")
    public static let stored = ParameterName("stored")
    public static let summaryBytes = ParameterName("summary_bytes")
    public static let summaryMaxBytes = ParameterName("summary_max_bytes")
    public static let tags = ParameterName("tags")
    public static let tagsPerNote = ParameterName("tags_per_note")
    public static let titleWords = ParameterName("title_words")
    public static let ttl = ParameterName("ttl")
    public static let updatePercent = ParameterName("update_percent")
    public static let users = ParameterName("users")
    public static let valueBytes = ParameterName("value_bytes")
}

/// The parameters several workloads share, each defined once with its range.
extension WorkloadParameter {
    /// `count`: how many app operations a case does, 1…`max`.
    public static func count(_ defaultValue: Int, _ summary: String, max: Int = 10_000_000) -> WorkloadParameter {
        WorkloadParameter(.count, default: defaultValue, range: 1...max, summary: summary)
    }

    /// `stored`: the articles in the store before the timed operation; 0 only when `allowEmpty`; `optional`: left
    /// out of a row's parameters unless a scenario sets it (``WorkloadParameter/optional``).
    public static func stored(
        _ defaultValue: Int, _ summary: String = "articles in the store",
        allowEmpty: Bool = false, optional: Bool = false
    ) -> WorkloadParameter {
        WorkloadParameter(
            .stored, default: defaultValue, range: (allowEmpty ? 0 : 1)...10_000_000, summary: summary,
            optional: optional)
    }

    /// `screen`: the newest articles a launch list shows (default 50).
    public static func screen(_ summary: String) -> WorkloadParameter {
        WorkloadParameter(.screen, default: 50, range: 1...10_000, summary: summary)
    }

    /// Throws unless `screen` fits in `stored` (a list cannot show more articles than the store holds).
    static func validateScreen(_ parameters: WorkloadParameters) throws {
        guard parameters[.screen] <= parameters[.stored] else {
            throw ParameterError("screen (\(parameters[.screen])) must not exceed stored (\(parameters[.stored]))")
        }
    }

    /// A share in percent, 0…100.
    public static func percent(_ name: ParameterName, _ defaultValue: Int, _ summary: String) -> WorkloadParameter {
        WorkloadParameter(name, default: defaultValue, range: 0...100, summary: summary)
    }

    /// The timeline's `messages`, `users` and `screen` (the newest messages a screen shows, with their authors).
    public static func timeline(messages: Int, users: Int, screen: Int = 200) -> [WorkloadParameter] {
        [
            WorkloadParameter(
                .messages, default: messages, range: 1...10_000_000, summary: "timeline messages stored"),
            WorkloadParameter(.users, default: users, range: 1...1_000_000, summary: "timeline users stored"),
            WorkloadParameter(.screen, default: screen, range: 1...10_000, summary: "newest messages on a screen"),
        ] + RecordShape.messageParameters
    }
}
