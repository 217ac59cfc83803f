import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP proxy on `127.0.0.1` for fault tests: it forwards to a target until told to go
/// silent (`blackhole()`), to resume (`forward()`), or to cut every connection (`resetAll()`).
///
/// One thread polls the listener and every connection. While blackholed the proxy reads
/// and writes nothing, in either direction, but keeps every socket open and still accepts
/// new connections: a client sees a peer that acknowledges TCP and never answers, which is
/// what a stalled userspace proxy or load balancer looks like. `forward()` resumes the
/// flow for new and existing connections alike (bytes held in the kernel's buffers while
/// blackholed are delivered then). Call `close()` when done: it stops the thread and
/// closes every socket.
public final class TCPProxy: @unchecked Sendable {
    // @unchecked: all mutable state is guarded by `condition`; sockets are read and
    // written only by the proxy thread while it holds the lock.
    private let condition = NSCondition()
    private let listener: Int32
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let target: sockaddr_in
    private var pairs: [UInt64: TCPProxyPair] = [:]
    private var nextPairID: UInt64 = 0
    private var isForwarding = true
    private var isRunning = true
    private var threadFinished = false

    /// The port the proxy listens on, on 127.0.0.1.
    public let port: Int

    /// Starts a proxy to `host:port`; `host` must be an IPv4 address or `localhost`.
    public init(targetHost: String, targetPort: Int) throws {
        target = try TCPSocket.address(host: targetHost == "localhost" ? "127.0.0.1" : targetHost, port: targetPort)
        let (listener, port) = try TCPSocket.listenOnLoopback()
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            TCPSocket.closeDescriptor(listener)
            throw TCPSocket.Failure(operation: "pipe", code: errno)
        }
        self.listener = listener
        self.port = port
        wakeReader = pipeEnds[0]
        wakeWriter = pipeEnds[1]
        TCPSocket.setNonBlocking(wakeReader)
        TCPSocket.setNonBlocking(listener)
        let thread = Thread { [self] in run() }
        thread.name = "TCPProxy:\(port)"
        thread.start()
    }

    /// Stops forwarding in both directions; every socket stays open. Takes effect before it returns.
    public func blackhole() {
        setForwarding(false)
    }

    /// Resumes forwarding for existing and new connections.
    public func forward() {
        setForwarding(true)
    }

    /// Closes every connection (an abortive close: clients see a reset); the proxy keeps listening.
    public func resetAll() {
        condition.lock()
        for pair in pairs.values { pair.close(abortively: true) }
        pairs.removeAll()
        condition.unlock()
        wake()
    }

    /// Stops the proxy thread and closes every socket; safe to call more than once.
    public func close() {
        condition.lock()
        guard isRunning else {
            condition.unlock()
            return
        }
        isRunning = false
        condition.unlock()
        wake()
        condition.lock()
        while !threadFinished { condition.wait() }
        for pair in pairs.values { pair.close(abortively: false) }
        pairs.removeAll()
        condition.unlock()
        TCPSocket.closeDescriptor(listener)
        TCPSocket.closeDescriptor(wakeReader)
        TCPSocket.closeDescriptor(wakeWriter)
    }

    private func setForwarding(_ forwarding: Bool) {
        condition.lock()
        isForwarding = forwarding
        condition.unlock()
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    /// The proxy thread: poll outside the lock, then act under it, rechecking the state
    /// that another thread may have changed while it was polling.
    private func run() {
        while true {
            condition.lock()
            guard isRunning else {
                threadFinished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            var descriptors = [
                pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            ]
            var owners: [(UInt64, Int)] = []
            if isForwarding {
                for (id, pair) in pairs {
                    for side in 0..<2 {
                        descriptors.append(pollfd(fd: pair.sockets[side], events: pair.events(for: side), revents: 0))
                        owners.append((id, side))
                    }
                }
            }
            condition.unlock()
            _ = poll(&descriptors, nfds_t(descriptors.count), 1000)
            condition.lock()
            if descriptors[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                while read(wakeReader, &buffer, buffer.count) > 0 {}
            }
            if isRunning, descriptors[1].revents & Int16(POLLIN) != 0 {
                acceptConnections()
            }
            if isRunning, isForwarding {
                for (offset, (id, side)) in owners.enumerated() {
                    let revents = descriptors[offset + 2].revents
                    guard revents != 0, let pair = pairs[id] else { continue }
                    if !pair.handle(revents: revents, side: side) {
                        pair.close(abortively: false)
                        pairs[id] = nil
                    }
                }
            }
            condition.unlock()
        }
    }

    /// Accepts every pending client and connects each to the target.
    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard let upstream = TCPSocket.connect(to: target) else {
                TCPSocket.closeAbortively(client)
                continue
            }
            TCPSocket.setNonBlocking(client)
            TCPSocket.setNonBlocking(upstream)
            pairs[nextPairID] = TCPProxyPair(client: client, upstream: upstream)
            nextPairID += 1
        }
    }
}
