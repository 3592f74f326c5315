#if canImport(Glibc)
import Glibc
#endif

/// Regular files under a folder, sorted by their bytes, following no symbolic links.
public enum CorpusWalk {
    public static func files(under root: String) -> [String] {
        var result: [String] = []
        var pending = [root]
        while let folder = pending.popLast() {
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." || name.hasPrefix(".") { continue }
                let path = folder + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG: result.append(path)
                default: break
                }
            }
        }
        // Byte order, not String order: String's comparison treats canonically equivalent names
        // (NFC and NFD spellings) as equal, leaving their order to readdir; shards computed on
        // different machines must agree on every file's position.
        return result.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The size of a file in bytes (0 when it cannot be read).
    public static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// True for a path that is a folder.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
