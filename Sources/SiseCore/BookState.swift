/// How fresh an order book on screen is: `live` from the exchange's stream (or read over REST
/// where it has none), `delayed` read over REST while the stream is silent, `stale` the last book
/// when nothing fresh can be had. One failed read does not make a book stale; its age does (the
/// silence bound).
public enum BookState: String, Sendable, Equatable {
    case live, delayed, stale
}
