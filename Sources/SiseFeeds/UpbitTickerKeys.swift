import Foundation

/// Key → field for the ticker decoder, as integer comparisons on the key's bytes (no tables,
/// no allocation). Generated from the DEFAULT and SIMPLE key lists; keys longer than 16 bytes
/// also check their middle bytes, so only the exact spellings match.
extension UpbitTickerFrameDecoder {
    @inline(__always)
    static func field(_ p: UnsafePointer<UInt8>, _ start: Int, _ length: Int) -> Field? {
        let raw = UnsafeRawPointer(p + start)
        switch length {
        case 1:
            switch word(raw, 1) {
            case 0x63: return .change  // c
            default: return nil
            }
        case 2:
            switch word(raw, 2) {
            case 0x7974: return .type  // ty
            case 0x6463: return .code  // cd
            case 0x7074: return .price  // tp
            case 0x7063: return .changePrice  // cp
            case 0x7263: return .changeRate  // cr
            case 0x706F: return .open  // op
            case 0x7068: return .high  // hp
            case 0x706C: return .low  // lp
            default: return nil
            }
        case 3:
            switch word(raw, 3) {
            case 0x706373: return .signedChangePrice  // scp
            case 0x726373: return .signedChangeRate  // scr
            case 0x706370: return .prevClose  // pcp
            case 0x736D74: return .timestamp  // tms
            default: return nil
            }
        case 4:
            switch word(raw, 4) {
            case 0x6570_7974: return .type  // type
            case 0x6564_6F63: return .code  // code
            case 0x736D_7474: return .tradeTimestamp  // ttms
            default: return nil
            }
        case 5:
            switch word(raw, 5) {
            case 0x70_7732_3568: return .high52  // h52wp
            case 0x70_7732_356C: return .low52  // l52wp
            default: return nil
            }
        case 6:
            switch word(raw, 6) {
            case 0x6567_6E61_6863: return .change  // change
            case 0x6834_3270_7461: return .value24h  // atp24h
            case 0x6834_3276_7461: return .volume24h  // atv24h
            case 0x7464_7732_3568: return .high52Date  // h52wdt
            case 0x7464_7732_356C: return .low52Date  // l52wdt
            default: return nil
            }
        case 9:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self)
            if head == 0x6369_7270_5F77_6F6C && tail == 0x6563_6972_705F_776F { return .low }  // low_price
            if head == 0x6D61_7473_656D_6974 && tail == 0x706D_6174_7365_6D69 { return .timestamp }  // timestamp
            return nil
        case 10:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 2, as: UInt64.self)
            if head == 0x6972_705F_6867_6968 && tail == 0x6563_6972_705F_6867 { return .high }  // high_price
            return nil
        case 11:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 3, as: UInt64.self)
            if head == 0x7270_5F65_6461_7274 && tail == 0x6563_6972_705F_6564 { return .price }  // trade_price
            if head == 0x725F_6567_6E61_6863 && tail == 0x6574_6172_5F65_676E { return .changeRate }  // change_rate
            return nil
        case 12:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 4, as: UInt64.self)
            if head == 0x705F_6567_6E61_6863 && tail == 0x6563_6972_705F_6567 { return .changePrice }  // change_price
            return nil
        case 13:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 5, as: UInt64.self)
            if head == 0x5F67_6E69_6E65_706F && tail == 0x6563_6972_705F_676E { return .open }  // opening_price
            return nil
        case 15:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 7, as: UInt64.self)
            if head == 0x6974_5F65_6461_7274 && tail == 0x706D_6174_7365_6D69 { return .tradeTimestamp }  // trade_timestamp
            return nil
        case 18:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 10, as: UInt64.self)
            if head == 0x635F_6465_6E67_6973 && tail == 0x6574_6172_5F65_676E && byte(raw, 8) == 104 && byte(raw, 9) == 97 {
                return .signedChangeRate
            }  // signed_change_rate
            // prev_closing_price
            if head == 0x6F6C_635F_7665_7270 && tail == 0x6563_6972_705F_676E && byte(raw, 8) == 115 && byte(raw, 9) == 105 { return .prevClose }
            return nil
        case 19:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 11, as: UInt64.self)
            if head == 0x635F_6465_6E67_6973 && tail == 0x6563_6972_705F_6567 && byte(raw, 8) == 104 && byte(raw, 9) == 97 && byte(raw, 10) == 110 {
                return .signedChangePrice
            }  // signed_change_price
            if head == 0x6461_7274_5F63_6361 && tail == 0x6834_325F_6563_6972 && byte(raw, 8) == 101 && byte(raw, 9) == 95 && byte(raw, 10) == 112 {
                return .value24h
            }  // acc_trade_price_24h
            if head == 0x355F_7473_6577_6F6C && tail == 0x6574_6164_5F6B_6565 && byte(raw, 8) == 50 && byte(raw, 9) == 95 && byte(raw, 10) == 119 {
                return .low52Date
            }  // lowest_52_week_date
            return nil
        case 20:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
            if head == 0x6461_7274_5F63_6361 && tail == 0x6834_325F_656D_756C && byte(raw, 8) == 101 && byte(raw, 9) == 95 && byte(raw, 10) == 118
                && byte(raw, 11) == 111
            {
                return .volume24h
            }  // acc_trade_volume_24h
            if head == 0x5F74_7365_6867_6968 && tail == 0x6574_6164_5F6B_6565 && byte(raw, 8) == 53 && byte(raw, 9) == 50 && byte(raw, 10) == 95
                && byte(raw, 11) == 119
            {
                return .high52Date
            }  // highest_52_week_date
            if head == 0x355F_7473_6577_6F6C && tail == 0x6563_6972_705F_6B65 && byte(raw, 8) == 50 && byte(raw, 9) == 95 && byte(raw, 10) == 119
                && byte(raw, 11) == 101
            {
                return .low52
            }  // lowest_52_week_price
            return nil
        case 21:
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 13, as: UInt64.self)
            if head == 0x5F74_7365_6867_6968 && tail == 0x6563_6972_705F_6B65 && byte(raw, 8) == 53 && byte(raw, 9) == 50 && byte(raw, 10) == 95
                && byte(raw, 11) == 119 && byte(raw, 12) == 101
            {
                return .high52
            }  // highest_52_week_price
            return nil
        default:
            return nil
        }
    }

    /// The first `count` (≤ 8) bytes as a little-endian integer.
    @inline(__always)
    private static func word(_ raw: UnsafeRawPointer, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<count { value |= UInt64(raw.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(i)) }
        return value
    }

    @inline(__always)
    private static func byte(_ raw: UnsafeRawPointer, _ offset: Int) -> UInt8 {
        raw.load(fromByteOffset: offset, as: UInt8.self)
    }
}
