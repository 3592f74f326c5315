import CommandLineSupport
import Testing
@testable import PureImage
@testable import PureImageConformance

/// `pureimage conform --jobs N`, `--shard K/N` and `--merge`: the verdicts, their order and the
/// JSON do not depend on how the corpus was split or how many files ran at once.
@Suite(.enabled(if: GeneratedCorpus.isAvailable, "Conformance/generated has not been generated (scripts/test.sh does it)"))
struct ShardingTests {
    /// Two roots (the file index runs on across them) and one planted mismatch, so the merged
    /// JSON must also carry a first difference through.
    static let roots = [GeneratedCorpus.root + "/gif", GeneratedCorpus.root + "/handmade"]
    static let tamper: OutputTamper = { path, image in
        guard path == "delay10.gif", !image.samples.isEmpty else { return }
        image.samples[image.samples.count / 2] ^= 0x40
    }

    static func run(shard: Shard = .whole, jobs: Int) throws -> ConformanceRun {
        var run = ConformanceRun()
        run.shard = shard
        run.add(roots: roots, expectations: try ConformanceTests.projectExpectations(), tamper: tamper, jobs: jobs)
        return run
    }

    @Test func severalJobsGiveTheResultsOfOne() throws {
        let one = try Self.run(jobs: 1)
        let two = try Self.run(jobs: 2)
        let five = try Self.run(jobs: 5)
        #expect(one.reports.count > 90)
        #expect(one.reports.contains { $0.verdict == .mismatched && $0.relativePath == "delay10.gif" })
        #expect(two.json() == one.json())
        #expect(five.json() == one.json())
        #expect(one.reports.map(\.index) == one.reports.map(\.index).sorted())
    }

    @Test func mergedShardsEqualOneRun() throws {
        let whole = try Self.run(jobs: 1)
        // Each shard as `--json` writes it, read back as `--merge` reads it, in any order.
        let documents = try [3, 1, 2].map { k in
            let shard = try #require(Shard(parsing: "\(k)/3"))
            return try JSONValue(parsing: try Self.run(shard: shard, jobs: 2).json().serialized())
        }
        let counts = try documents.map { try #require($0["files"]?.arrayValue?.count) }
        #expect(counts.allSatisfy { $0 > 0 } && counts.reduce(0, +) == whole.reports.count)
        let merged = try ConformanceRun(merging: documents)
        #expect(merged.json() == whole.json())
        #expect(merged.json().serialized() == whole.json().serialized())
        #expect(merged.table() == whole.table())
        #expect(merged.unexpected.map(\.relativePath) == whole.unexpected.map(\.relativePath))

        // A split with a shard missing or given twice is refused, saying which.
        #expect(throws: ConformanceRun.MergeError.self) { try ConformanceRun(merging: Array(documents.prefix(2))) }
        #expect(throws: ConformanceRun.MergeError.self) { try ConformanceRun(merging: [documents[0], documents[0], documents[1], documents[2]]) }
        do {
            _ = try ConformanceRun(merging: [documents[1], documents[2]])
            Issue.record("a split without shard 3/3 was merged")
        } catch let error as ConformanceRun.MergeError {
            #expect(error.description == "shard 3/3 is missing")
        }
    }

    /// --report after --merge: the merged reports get their images back by comparing the
    /// non-identical files again.
    @Test func mergedRunGetsItsImagesBack() throws {
        let whole = try Self.run(jobs: 1)
        var merged = try ConformanceRun(merging: [JSONValue(parsing: whole.json().serialized())])
        #expect(merged.reports.allSatisfy { $0.ours == nil && $0.reference == nil })
        merged.compareAgainForImages(jobs: 2, tamper: Self.tamper)
        let planted = try #require(merged.reports.first { $0.relativePath == "delay10.gif" })
        let original = try #require(whole.reports.first { $0.relativePath == "delay10.gif" })
        #expect(planted.verdict == .mismatched)
        #expect(planted.ours != nil && planted.ours?.samples == original.ours?.samples)
        #expect(planted.reference != nil && planted.reference?.samples == original.reference?.samples)
        #expect(planted.difference == original.difference)
    }

    /// Shards that walked different corpora (another root, a file added between jobs) or a
    /// document whose shard is not K/N are refused rather than merged into a wrong whole.
    @Test func shardsOfDifferentCorporaAreRefused() throws {
        let first = try #require(Shard(parsing: "1/2")), second = try #require(Shard(parsing: "2/2"))
        let one = try JSONValue(parsing: Self.run(shard: first, jobs: 1).json().serialized())
        var other = ConformanceRun()
        other.shard = second
        other.add(roots: [Self.roots[0]], expectations: Expectations())
        let two = try JSONValue(parsing: other.json().serialized())
        let error = #expect(throws: ConformanceRun.MergeError.self) { try ConformanceRun(merging: [one, two]) }
        #expect(error?.description.contains("did not see the same corpus") == true)

        guard case .object(var object) = one else { Issue.record("not an object"); return }
        object["shard"] = .string("0/3")
        #expect(throws: ConformanceRun.MergeError.self) { try ConformanceRun(merging: [.object(object)]) }
    }

    @Test func shardsParse() {
        #expect(Shard(parsing: "1/1") == .whole)
        #expect(Shard(parsing: "3/8")?.description == "3/8")
        for bad in ["0/3", "4/3", "3", "1/0", "a/b", "1/2/3", "", "/2"] {
            #expect(Shard(parsing: bad) == nil, "\(bad)")
        }
    }
}

/// The JSON reader behind `--merge`, against what the writer produces.
@Suite struct JSONReaderTests {
    @Test func writtenValuesReadBack() throws {
        var object = JSONObject()
        object["text"] = .string("quote \" backslash \\ newline \n tab \t control \u{01} é 😀")
        object["numbers"] = .array([.int(0), .int(-42), .int(Int.max), .double(0.5), .double(-1.25e-7)])
        object["flags"] = .array([.bool(true), .bool(false), .null])
        object["nested"] = .object({ var inner = JSONObject(); inner["z"] = .int(1); inner["a"] = .array([]); return inner }())
        object["empty"] = .object(JSONObject())
        let value = JSONValue.object(object)
        #expect(try JSONValue(parsing: value.serialized()) == value)
        // Key order is kept: it is part of the text.
        #expect(try JSONValue(parsing: value.serialized()).serialized() == value.serialized())
    }

    @Test func foreignSpellingsRead() throws {
        let value = try JSONValue(parsing: " { \"a\" : [ 1 , 2.0 , \"\\u00e9\\ud83d\\ude00\\/\" ] , \"b\":null }\n")
        #expect(value["a"]?.arrayValue == [.int(1), .double(2), .string("é😀/")])
        #expect(value["b"] == .null)
        #expect(try JSONValue(parsing: "\"\\ud800x\"") == .string("\u{FFFD}x"))
    }

    @Test func malformedTextSaysWhere() {
        let cases: [(String, Int)] = [("", 0), ("{", 1), ("{\"a\" 1}", 5), ("[1,]", 3), ("[1 2]", 3), ("tru", 0),
                                      ("\"open", 5), ("{} x", 3), ("\"\\u12\"", 3), ("-", 0),
                                      // Strict RFC 8259: its number grammar, its escapes, no raw control characters.
                                      ("+1", 0), ("01", 0), (".5", 0), ("1.", 0), ("1e", 0), ("1e400", 0),
                                      ("\"\\q\"", 2), ("\"\\u+041\"", 3), ("\"a\u{01}b\"", 2)]
        for (text, offset) in cases {
            do {
                _ = try JSONValue(parsing: text)
                Issue.record("\(text) was read")
            } catch let error as JSONValue.ParseError {
                #expect(error.offset == offset, "\(text): \(error)")
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
        // Deep nesting is refused, not recursed into.
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: String(repeating: "[", count: 100_000)) }
    }
}
