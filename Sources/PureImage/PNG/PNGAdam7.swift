/// PNG §8.2 Adam7: seven passes over the image, each a sub-image of every n-th pixel.
///
/// ```
///   1 6 4 6 2 6 4 6        pass  x0 y0 dx dy
///   7 7 7 7 7 7 7 7          1    0  0  8  8
///   5 6 5 6 5 6 5 6          2    4  0  8  8
///   7 7 7 7 7 7 7 7          3    0  4  4  8
///   3 6 4 6 3 6 4 6          4    2  0  4  4
///   7 7 7 7 7 7 7 7          5    0  2  2  4
///   5 6 5 6 5 6 5 6          6    1  0  2  2
///   7 7 7 7 7 7 7 7          7    0  1  1  2
/// ```
/// A pass whose sub-image has no columns or no rows is empty and has no scanlines at all
/// (not even filter bytes), e.g. passes 2, 4 and 6 of a 1-pixel-wide image.
struct PNGPass: Equatable {
    let xStart: Int, yStart: Int, xStep: Int, yStep: Int
    /// Pixels per row and rows of this pass's sub-image.
    let width: Int, height: Int

    var isEmpty: Bool { width == 0 || height == 0 }

    static let adam7Origins: [(x0: Int, y0: Int, dx: Int, dy: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The passes of an image: seven for Adam7, one covering everything otherwise.
    static func passes(width: Int, height: Int, interlaced: Bool) -> [PNGPass] {
        guard interlaced else {
            return [PNGPass(xStart: 0, yStart: 0, xStep: 1, yStep: 1, width: width, height: height)]
        }
        return adam7Origins.map { origin in
            // Count of x in x0, x0+dx, … below width: ceil((width − x0) / dx), or 0.
            let columns = width > origin.x0 ? (width - origin.x0 + origin.dx - 1) / origin.dx : 0
            let rows = height > origin.y0 ? (height - origin.y0 + origin.dy - 1) / origin.dy : 0
            return PNGPass(xStart: origin.x0, yStart: origin.y0, xStep: origin.dx, yStep: origin.dy, width: columns, height: rows)
        }
    }
}
