#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One proxied connection: the client's socket, the target's socket, and the bytes read
/// from one side that still wait to be written to the other. Used only by the proxy
/// thread under the proxy's lock.
final class TCPProxyPair {
    /// Index 0 is the client, index 1 the target.
    let sockets: [Int32]
    /// `pending[side]`: bytes waiting to be written to `side`.
    private var pending: [[UInt8]] = [[], []]
    /// `finished[side]`: `side` closed its sending direction.
    private var finished = [false, false]

    init(client: Int32, upstream: Int32) {
        sockets = [client, upstream]
    }

    /// What to poll `side` for: reads only once the other side's backlog is written.
    func events(for side: Int) -> Int16 {
        var events: Int16 = 0
        if !finished[side], pending[1 - side].isEmpty { events |= Int16(POLLIN) }
        if !pending[side].isEmpty { events |= Int16(POLLOUT) }
        return events
    }

    /// Moves bytes for one poll result; false when the pair is done and must be closed.
    func handle(revents: Int16, side: Int) -> Bool {
        let other = 1 - side
        if revents & Int16(POLLERR | POLLNVAL) != 0 { return false }
        if revents & Int16(POLLIN | POLLHUP) != 0, !finished[side] {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = read(sockets[side], &buffer, buffer.count)
            if count > 0 {
                pending[other].append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                finished[side] = true
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return false
            }
        }
        if revents & Int16(POLLOUT) != 0, !pending[side].isEmpty {
            let written = TCPSocket.send(sockets[side], pending[side])
            if written > 0 {
                pending[side].removeFirst(written)
            } else if written < 0, errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return false
            }
        }
        // One side is gone and everything it sent has been delivered: end both.
        return !(finished[side] && pending[other].isEmpty) && !(finished[other] && pending[side].isEmpty)
    }

    /// Closes both sockets, with a reset when `abortively`.
    func close(abortively: Bool) {
        for socket in sockets {
            if abortively { TCPSocket.closeAbortively(socket) } else { TCPSocket.closeDescriptor(socket) }
        }
    }
}
