import Foundation

/// Locale-independent number text: `.` for decimals, `,` every three digits, never `-0`.
public enum NumberText {
    /// `value` rounded to `decimals` places with thousands separators, e.g. `103,493,000`.
    public static func grouped(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        // Printed into a stack buffer and grouped byte by byte: this runs for every changed row of
        // every live batch and every frame of the terminal board.
        return printed(value, decimals: decimals, group) ?? "-"
    }

    /// `value` with `decimals` places (0–12) exactly as C's `%.*f` spells it — no grouping, the
    /// sign kept on a negative that rounds to zero, `inf`/`nan` as printf writes them: how the
    /// simulator spells exchanges' numbers, thousands a second in every demo server.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        printed(value, decimals: decimals) { String(decoding: $0, as: UTF8.self) } ?? String(value)
    }

    /// `value` printed as printf's `%.*f` prints it (exact value, ties to even; never the process
    /// locale) with `decimals` clamped to 0–12, handed to `body`; nil if printf fails.
    private static func printed(_ value: Double, decimals: Int, _ body: (UnsafeRawBufferPointer) -> String) -> String? {
        let places = max(0, min(decimals, FixedPoint.maxPlaces))
        return withUnsafeTemporaryAllocation(byteCount: printCapacity, alignment: 1) { buffer in
            if let written = FixedPoint.print(value, places: places, into: buffer) {
                return body(UnsafeRawBufferPointer(rebasing: buffer[..<written]))
            }
            // Not finite, or beyond 128 bits once scaled (above ≈ 10^26): printf itself.
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
            let written = withVaList([Int32(places), value]) { vsnprintf(base, buffer.count, "%.*f", $0) }
            guard written > 0, Int(written) < buffer.count else { return nil }
            return body(UnsafeRawBufferPointer(start: base, count: Int(written)))
        }
    }

    /// Like `grouped`, with an explicit `+` on positive values: `+1,076,000`, `-3,000`, `0`.
    public static func signed(_ value: Double, decimals: Int) -> String {
        let text = grouped(value, decimals: decimals)
        let isZero = !text.contains(where: { $0 >= "1" && $0 <= "9" })
        if isZero { return grouped(0, decimals: decimals) }
        return text.hasPrefix("-") ? text : "+" + text
    }

    /// The largest finite double printed with 12 decimals is 309 + 1 + 12 characters and a sign.
    private static let printCapacity = 352

    /// `-1234567.50` → `-1,234,567.50`; a negative that rounds to zero loses its sign.
    private static func group(_ printed: UnsafeRawBufferPointer) -> String {
        let negative = printed.first == UInt8(ascii: "-")
        let digitsStart = negative ? 1 : 0
        let point = printed[digitsStart...].firstIndex(of: UInt8(ascii: ".")) ?? printed.count
        let integerCount = point - digitsStart
        let keepSign = negative && printed[digitsStart...].contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
        let capacity = printed.count + integerCount / 3 + 1
        return String(unsafeUninitializedCapacity: capacity) { out in
            var count = 0
            if keepSign {
                out[count] = UInt8(ascii: "-")
                count += 1
            }
            for offset in 0..<integerCount {
                if offset > 0 && (integerCount - offset) % 3 == 0 {
                    out[count] = UInt8(ascii: ",")
                    count += 1
                }
                out[count] = printed[digitsStart + offset]
                count += 1
            }
            for byte in printed[point...] {
                out[count] = byte
                count += 1
            }
            return count
        }
    }
}
