import Foundation

// Facts about the machine that only the platform can tell. Linux reads /proc; elsewhere each says "unknown"
// (never a made-up value), and the report shows that.

extension WorkDirectory {
    /// The file-system type of `path` ("ext4", "tmpfs", …): the type of the longest mount point in
    /// `/proc/self/mounts` that contains the path's real location; "unknown" where that file is missing.
    public static func fileSystemType(of path: String) -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return "unknown" }
        var best: (mountPoint: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let mountPoint = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let contains = mountPoint == "/" || resolved == mountPoint || resolved.hasPrefix(mountPoint + "/")
            if contains, mountPoint.count >= (best?.mountPoint.count ?? -1) {
                best = (mountPoint, String(fields[2]))
            }
        }
        return best?.type ?? "unknown"
    }

}

extension MachineFacts {
    /// The CPU's model name from `/proc/cpuinfo`; "unknown" where that file is missing (every platform but Linux).
    public static var cpuModel: String {
        let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
    }

}
