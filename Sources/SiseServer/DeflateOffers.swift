import Foundation

/// The `permessage-deflate` offers of a `Sec-WebSocket-Extensions` request header, judged by
/// RFC 7692 §7.1 and by what the server's deflate can honour. An offer is declined (left out)
/// when it has a parameter the RFC does not define for an offer, one twice, a value where none
/// belongs, or a window size outside 8–15 — or asks for a window zlib cannot write or read (8
/// bits: zlib makes 9 at least; the compression library traps on 8). The offers of other
/// extensions are left out too: the server takes none. Read by hand, not by a library's
/// dictionary, which would keep the last of two same-named parameters and hide the repetition.
enum DeflateOffers {
    static let name = "permessage-deflate"

    /// The header as the server should read it: only the offers it accepts, in order; nil when
    /// none is left.
    static func accepted(_ values: [String]) -> String? {
        let kept = offers(values.joined(separator: ",")).filter(isAcceptable).map(\.text)
        return kept.isEmpty ? nil : kept.joined(separator: ", ")
    }

    struct Offer {
        var name: String
        var parameters: [(name: String, value: String?)]
        /// The offer as it was written (trimmed).
        var text: String
        /// Unreadable: an empty token, an unclosed quote.
        var malformed = false
    }

    /// The comma-separated offers, each split at its semicolons (quoted strings kept whole).
    static func offers(_ header: String) -> [Offer] {
        var offers: [Offer] = []
        for element in split(header, at: ",") {
            let text = element.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            let pieces = split(text, at: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            var offer = Offer(name: pieces.first?.lowercased() ?? "", parameters: [], text: text)
            offer.malformed = !isToken(offer.name) || text.hasSuffix(";")
            for piece in pieces.dropFirst() {
                let parts = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard let name = parts.first, isToken(name) else {
                    offer.malformed = true
                    continue
                }
                var value = parts.count > 1 ? parts[1] : nil
                if let quoted = value, quoted.hasPrefix("\"") {
                    guard quoted.count >= 2, quoted.hasSuffix("\"") else {
                        offer.malformed = true
                        continue
                    }
                    value = String(quoted.dropFirst().dropLast())
                }
                offer.parameters.append((name.lowercased(), value))
            }
            offers.append(offer)
        }
        return offers
    }

    static func isAcceptable(_ offer: Offer) -> Bool {
        guard offer.name == name, !offer.malformed else { return false }
        var seen: Set<String> = []
        for (parameter, value) in offer.parameters {
            guard seen.insert(parameter).inserted else { return false }
            switch parameter {
            case "server_no_context_takeover", "client_no_context_takeover":
                guard value == nil else { return false }
            case "server_max_window_bits":
                // Required value; 8 is legal but zlib cannot write it.
                guard let bits = value.flatMap(windowBits), bits >= 9 else { return false }
            case "client_max_window_bits":
                // No value: the client can take any the server names. A value of 8 would have the
                // server's inflater at 8 bits, which the library cannot make.
                if let value { guard let bits = windowBits(value), bits >= 9 else { return false } }
            default:
                return false
            }
        }
        return true
    }

    /// 8–15, written as plain digits (no sign, no leading zero).
    static func windowBits(_ text: String) -> Int? {
        guard (1...2).contains(text.count), text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), text.first != "0",
            let bits = Int(text), (8...15).contains(bits)
        else { return nil }
        return bits
    }

    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7F && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains(scalar)
            }
    }

    /// `text` cut at `separator` outside double quotes.
    private static func split(_ text: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if quoted && character == "\\" {
                escaped = true
                current.append(character)
                continue
            }
            if character == "\"" { quoted.toggle() }
            if character == separator && !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}
