/// Overflow-checked size arithmetic for everything a file's header controls (stb_image's
/// `mad3sizes_valid`). Every allocation sized from input goes through `allocationSize`,
/// which also enforces `DecodeLimits` — so a lie in a header fails here, before any memory
/// is touched.
enum SizeMath {
    /// `a × b × …`, or nil when any factor is negative or the product overflows `Int`.
    static func product(_ factors: Int...) -> Int? {
        var result = 1
        for factor in factors {
            guard factor >= 0 else { return nil }
            let (next, overflow) = result.multipliedReportingOverflow(by: factor)
            if overflow { return nil }
            result = next
        }
        return result
    }

    /// Bytes of `ceil(width × bitsPerPixel / 8)`, or nil on overflow.
    static func rowBytes(width: Int, bitsPerPixel: Int) -> Int? {
        guard let bits = product(width, bitsPerPixel) else { return nil }
        return bits / 8 + (bits % 8 == 0 ? 0 : 1)
    }

    /// Checks an image's pixel count and an allocation's byte count against `limits`,
    /// returning the byte count. `offset` is where the size was read (for the error).
    static func checkImage(width: Int, height: Int, bytesPerPixel: Int, limits: DecodeLimits,
                           format: ImageFormat, offset: Int?) throws(DecodeError) -> Int {
        guard let pixels = product(width, height), pixels <= limits.maxPixels else {
            throw DecodeError(.limitExceeded, format: format, offset: offset,
                              LimitReason.tooManyPixels(width: width, height: height, limit: limits.maxPixels))
        }
        return try allocationSize(pixels, bytesPerPixel, limits: limits, format: format, offset: offset)
    }

    /// `a × b × …` bytes, checked against `limits.maxMemoryBytes` (one buffer alone; what a
    /// decode holds in all is `MemoryBudget`'s to check).
    static func allocationSize(_ factors: Int..., limits: DecodeLimits, format: ImageFormat?, offset: Int?) throws(DecodeError) -> Int {
        var result = 1
        var overflowed = false
        for factor in factors {
            let (next, overflow) = result.multipliedReportingOverflow(by: Swift.max(0, factor))
            if overflow { overflowed = true; break }
            result = next
        }
        guard !overflowed, result <= limits.maxMemoryBytes else {
            throw DecodeError(.limitExceeded, format: format, offset: offset,
                              LimitReason.allocationTooLarge(bytes: overflowed ? nil : result, limit: limits.maxMemoryBytes))
        }
        return result
    }
}
