import CommandLineSupport
import PureImage
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A deterministic part of a corpus, for running one conformance suite as independent jobs:
/// file i of the walk (over all roots, in order, companion files included) belongs to shard
/// `i mod count`. Shard K of N is written `K/N`, K from 1.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public static let whole = Shard(index: 0, count: 1)

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `K/N` with 1 ≤ K ≤ N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else { return nil }
        self.init(index: k - 1, count: n)
    }

    public var description: String { "\(index + 1)/\(count)" }

    func contains(_ fileIndex: Int) -> Bool { fileIndex % count == index }
}

/// Slots filled by worker threads: each claims the next unclaimed slot, stores its result, and
/// the values come back in slot order. Slots are handed out in `schedule` order when one is
/// given (e.g. largest input first, so one big file does not finish alone at the end).
final class ParallelResults<Value: Sendable>: Sendable {
    private struct State {
        var next = 0
        var done = 0
        var values: [Value?]
    }
    private let state: Mutex<State>
    private let schedule: [Int]

    init(count: Int, schedule: [Int]? = nil) {
        self.schedule = schedule ?? Array(0..<count)
        state = Mutex(State(values: Array(repeating: nil, count: count)))
    }

    func claim() -> Int? {
        state.withLock { state in
            guard state.next < schedule.count else { return nil }
            defer { state.next += 1 }
            return schedule[state.next]
        }
    }

    /// Stores a result; returns how many slots are done.
    func store(_ value: Value, at slot: Int) -> Int {
        state.withLock { state in
            state.values[slot] = value
            state.done += 1
            return state.done
        }
    }

    /// Every slot's value, in order (after all workers have finished).
    var values: [Value] { state.withLock { $0.values.compactMap { $0 } } }
}

/// Runs `body` on `count` threads at once and waits for all of them. Not Dispatch's
/// `concurrentPerform`, which runs no more threads than there are cores: `--jobs 8 --isolate`
/// on 2 cores must keep 8 child processes going.
func runWorkers(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    guard count > 1 else { body(); return }
    final class Work: @unchecked Sendable {   // handed to pthread_create as an opaque pointer
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var threads: [pthread_t] = []
    for _ in 0..<count {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            work.body()
            return nil
        }, context)
        if created == 0 {
            threads.append(thread)
        } else {
            // No thread: run this share here (the other workers still drain the queue).
            Unmanaged<Work>.fromOpaque(context).release()
            body()
        }
    }
    for thread in threads { pthread_join(thread, nil) }
}

extension ConformanceRun {
    public struct MergeError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The run that `json()` of each shard describes, put back together: every shard of one
    /// split exactly once, files in the order one run over the whole corpus gives them. The
    /// merged `json()` equals the JSON of that one run. Images are not in the JSON: reports come
    /// back without `ours`/`reference` (`HTMLReport` callers compare the listed files again).
    public init(merging documents: [JSONValue]) throws {
        self.init()
        var seen: [Int: Int] = [:]   // shard index -> document
        var count: Int?
        for (number, document) in documents.enumerated() {
            guard case .object = document, let files = document["files"]?.arrayValue else {
                throw MergeError(description: "document \(number + 1) is not the JSON of a conform run")
            }
            var shard = Shard.whole
            if let text = document["shard"] {
                guard let parsed = text.stringValue.flatMap(Shard.init(parsing:)) else {
                    throw MergeError(description: "document \(number + 1): shard \(text.serialized()) is not K/N")
                }
                shard = parsed
            }
            // Every shard must have walked the same corpus: the same roots, the same file count.
            let documentRoots = document["roots"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let documentWalked = document["walked"]?.intValue ?? -1
            if number == 0 {
                roots = documentRoots
                walked = documentWalked
            } else if documentRoots != roots || documentWalked != walked {
                throw MergeError(description: "document \(number + 1) walked \(documentWalked) files under \(documentRoots), "
                                 + "document 1 \(walked) under \(roots): the shards did not see the same corpus")
            }
            if let count, count != shard.count {
                throw MergeError(description: "document \(number + 1) is shard \(shard) of a split into \(shard.count), the others of one into \(count)")
            }
            count = shard.count
            if let earlier = seen[shard.index] {
                throw MergeError(description: "documents \(earlier + 1) and \(number + 1) are both shard \(shard)")
            }
            seen[shard.index] = number
            otherFiles += document["otherFiles"]?.intValue ?? 0
            for file in files { reports.append(try FileReport(json: file)) }
        }
        if let count, let missing = (0..<count).first(where: { seen[$0] == nil }) {
            throw MergeError(description: "shard \(missing + 1)/\(count) is missing")
        }
        reports.sort { $0.index < $1.index }
        for (earlier, later) in zip(reports, reports.dropFirst()) where earlier.index == later.index {
            throw MergeError(description: "file index \(later.index) appears twice (\(earlier.relativePath), \(later.relativePath))")
        }
    }
}

extension FileReport {
    /// One entry of the `files` array of `ConformanceRun.json()`.
    init(json: JSONValue) throws {
        guard let relative = json["path"]?.stringValue, let suite = json["suite"]?.stringValue,
              let format = json["format"]?.stringValue,
              let verdict = json["verdict"]?.stringValue.flatMap(Verdict.init(rawValue:)),
              let index = json["index"]?.intValue, let root = json["root"]?.stringValue else {
            throw ConformanceRun.MergeError(description: "a file entry lacks path, suite, format, verdict, index or root: \(json.serialized().prefix(200))")
        }
        self.init(path: root + "/" + relative, relativePath: relative, suite: suite, format: format, verdict: verdict,
                  detail: json["detail"]?.stringValue ?? "", frames: json["frames"]?.intValue ?? 0)
        self.root = root
        self.index = index
        expected = json["expected"]?.boolValue ?? false
        expectation = json["expectation"]?.stringValue
        oursDigest = json["oursDigest"]?.stringValue.flatMap { UInt32($0, radix: 16) }
        referenceDigest = json["referenceDigest"]?.stringValue.flatMap { UInt32($0, radix: 16) }
        if let first = json["firstDifference"], let x = first["x"]?.intValue, let y = first["y"]?.intValue,
           let channel = first["channel"]?.intValue, let ours = first["ours"]?.intValue, let reference = first["reference"]?.intValue,
           let maxDifference = json["maxDifference"]?.intValue, let differing = json["differingSamples"]?.intValue {
            difference = PixelDifference(x: x, y: y, channel: channel, ours: ours, reference: reference,
                                         maxDifference: maxDifference, differingSamples: differing)
            differingFrame = first["frame"]?.intValue
        }
    }
}

extension ConformanceRun {
    /// Merged reports carry no images; the HTML report wants them for every file that is not
    /// identical. Compares those files again (verdicts stay the merged ones).
    public mutating func compareAgainForImages(jobs: Int, tamper: OutputTamper? = nil) {
        // Not the crashed ones: compared again in this process, a crash would end the merge.
        let slots = reports.indices.filter { reports[$0].verdict != .identical && reports[$0].verdict != .crashed }
        let targets = slots.map { reports[$0] }
        let results = ParallelResults<FileReport?>(count: targets.count)
        let body: @Sendable () -> Void = {
            while let slot = results.claim() {
                let target = targets[slot]
                let fresh = (try? ImageFiles.read(target.path)).map {
                    FileComparison.compare(bytes: $0, path: target.path, relativePath: target.relativePath, suite: target.suite,
                                           tamper: tamper)
                }
                _ = results.store(fresh, at: slot)
            }
        }
        runWorkers(max(1, min(jobs, targets.count)), body)
        for (slot, fresh) in zip(slots, results.values) {
            guard let fresh else { continue }
            reports[slot].ours = fresh.ours
            reports[slot].reference = fresh.reference
            if reports[slot].difference == nil { reports[slot].difference = fresh.difference }
        }
    }
}
