/// What a decoder read, in the order it read it: each chunk, marker, block or IFD entry with
/// its offset and decoded fields, the problems it recovered from, and where it stopped
/// (`pureimage inspect`). A decoder records into one only when one is attached
/// (`FormatDecoder.structureLog`); its calls are written `structureLog?.record(…)`, so without
/// a log the arguments — the descriptions — are never built.
final class StructureLog {
    private(set) var entries: [InspectionEntry] = []
    /// Entries kept; past it one note stands for the rest (a few megabytes of TIFF can chain
    /// a hundred thousand IFDs of ten entries each).
    let limit: Int

    init(limit: Int = 100_000) {
        self.limit = limit
    }

    func record(_ offset: Int, _ name: String, _ detail: String = "", level: Int = 0) {
        if entries.count < limit {
            entries.append(InspectionEntry(offset: offset, name: name, detail: detail, level: level))
        } else if entries.count == limit {
            entries.append(InspectionEntry(offset: offset, name: "note", detail: "further structures not listed (more than \(limit))"))
        }
    }

    /// How the walk ended (the error, truncation, trailing bytes, the end): kept past `limit`.
    func conclude(_ offset: Int, _ name: String, _ detail: String) {
        entries.append(InspectionEntry(offset: offset, name: name, detail: detail))
    }

    /// Adds to the detail of the latest entry at `offset` (named `name`, when given): a chunk
    /// whose CRC or fields are known only once its data has been read. Nothing when there is none.
    func amend(_ offset: Int, name: String? = nil, _ more: String) {
        guard !more.isEmpty,
              let index = entries.lastIndex(where: { $0.offset == offset && name.map($0.name.elementsEqual) ?? true }) else { return }
        entries[index].detail += entries[index].detail.isEmpty ? more : "  " + more
    }

    /// A recovered problem, at its offset (or where the walk had come to when it has none).
    func warning(_ offset: Int?, _ message: String) {
        record(offset ?? entries.last?.offset ?? 0, "warning", message)
    }
}
