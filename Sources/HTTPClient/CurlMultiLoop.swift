import CCurl
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one thread that drives all of a client's transfers through a libcurl multi handle.
///
/// Each turn it takes new work from the mailbox, starts waiting requests while fewer than
/// `maxConcurrentTransfers` run, lets libcurl do the ready I/O, hands out finished answers,
/// and sleeps in `curl_multi_poll` until a socket, a libcurl timer or a wakeup needs it.
/// All its state belongs to that thread: `@unchecked Sendable` only to be handed to it.
final class CurlMultiLoop: @unchecked Sendable {
    /// A request libcurl is working on, with what must live as long as its transfer.
    private struct Active {
        let request: CurlPendingRequest
        let handle: CurlEasyHandle
        let collector: CurlTransfer
        let headerList: UnsafeMutablePointer<curl_slist>?
    }

    private let multi: CurlMultiHandle
    private let mailbox: CurlMailbox
    private let configuration: CurlHTTPClient.Configuration
    private let logger: Logger
    private let handles: CurlHandlePool
    /// Requests waiting for a transfer slot, oldest first (bounded by the client's admission count).
    private var waiting = CircularBuffer<CurlPendingRequest>()
    private var active: [UnsafeMutableRawPointer: Active] = [:]
    private var activeByRequest: [ObjectIdentifier: UnsafeMutableRawPointer] = [:]
    private var lastQueueSweep = ContinuousClock.now

    /// How often waiting requests are checked for a passed deadline.
    private static let queueSweepInterval = Duration.milliseconds(100)

    init(multi: CurlMultiHandle, mailbox: CurlMailbox, configuration: CurlHTTPClient.Configuration, logger: Logger) {
        self.multi = multi
        self.mailbox = mailbox
        self.configuration = configuration
        self.logger = logger
        self.handles = CurlHandlePool(maxIdle: configuration.maxConcurrentTransfers)
    }

    /// Runs until the mailbox delivers the shutdown; then fails whatever is pending,
    /// closes every connection and returns.
    func run() {
        while true {
            let delivery = mailbox.take()
            for request in delivery.submitted {
                waiting.append(request)
            }
            for request in delivery.cancelled {
                stop(request)
            }
            if delivery.isShuttingDown {
                failEverything()
                return
            }
            let now = ContinuousClock.now
            expireWaiting(now: now)
            startWaiting(now: now)
            do {
                try multi.perform()
            } catch {
                logger.debug(
                    "libcurl cannot drive its transfers; failing them", metadata: [HTTPClientLogKey.error: "\(String(reflecting: error))"])
                failActive(with: error)
            }
            let freed = collectFinished()
            // Slots freed while requests wait: start them at once rather than after a poll.
            if freed > 0 && !waiting.isEmpty { continue }
            do {
                try multi.poll(timeoutMilliseconds: waiting.isEmpty ? 1_000 : 100)
            } catch {
                logger.debug("curl_multi_poll failed", metadata: [HTTPClientLogKey.error: "\(String(reflecting: error))"])
                // Never spin on a failing poll.
                usleep(10_000)
            }
        }
    }

    /// Starts waiting requests while there are free transfer slots.
    private func startWaiting(now: ContinuousClock.Instant) {
        while active.count < configuration.maxConcurrentTransfers, let request = waiting.popFirst() {
            guard !request.isFinished else { continue }
            let remaining = request.deadline - now
            guard remaining > .zero else {
                request.finish(.failure(Self.queueTimeout))
                continue
            }
            do {
                try start(request, timeout: remaining)
            } catch {
                request.finish(.failure(error))
            }
        }
    }

    private func start(_ request: CurlPendingRequest, timeout: Duration) throws {
        let handle = try handles.lease()
        let collector = CurlTransfer(maxResponseBytes: configuration.maxResponseBytes)
        let headerList: UnsafeMutablePointer<curl_slist>?
        do {
            headerList = try handle.prepare(request.request, timeout: timeout, configuration: configuration, collector: collector)
        } catch {
            handles.release(handle)
            throw error
        }
        do {
            try multi.add(handle)
        } catch {
            curl_slist_free_all(headerList)
            handles.release(handle)
            throw error
        }
        active[handle.raw] = Active(request: request, handle: handle, collector: collector, headerList: headerList)
        activeByRequest[ObjectIdentifier(request)] = handle.raw
    }

    /// Hands every finished transfer's answer to its caller; returns how many finished.
    private func collectFinished() -> Int {
        var finished = 0
        while let done = multi.nextFinished() {
            guard let transfer = detach(done.easy) else { continue }
            finished += 1
            transfer.request.finish(result(of: transfer, code: done.result))
            handles.release(transfer.handle)
        }
        return finished
    }

    private func result(of transfer: Active, code: CURLcode) -> Result<HTTPResponse, any Error> {
        guard code == CURLE_OK else {
            if transfer.collector.exceededLimit {
                return .failure(
                    HTTPClientError(kind: .responseTooLarge, curlCode: Int(code.rawValue), detail: transfer.handle.errorMessage))
            }
            return .failure(HTTPClientError(curlCode: code, message: transfer.handle.errorMessage))
        }
        let collector = transfer.collector
        return .success(HTTPResponse(status: transfer.handle.responseCode(), headers: collector.headers, body: collector.body))
    }

    /// Stops a cancelled request's transfer, closing its connection; its caller already
    /// got `CancellationError` from `CurlPendingRequest.cancel()`. A waiting one is skipped
    /// when its turn comes.
    private func stop(_ request: CurlPendingRequest) {
        request.finish(.failure(CancellationError()))
        guard let easy = activeByRequest[ObjectIdentifier(request)], let transfer = detach(easy) else { return }
        // Not pooled: libcurl may still hold state of the half-done exchange.
        withExtendedLifetime(transfer.handle) {}
    }

    /// Removes a transfer from the multi handle and frees what it needed.
    private func detach(_ easy: UnsafeMutableRawPointer) -> Active? {
        guard let transfer = active.removeValue(forKey: easy) else { return nil }
        activeByRequest[ObjectIdentifier(transfer.request)] = nil
        multi.remove(transfer.handle)
        curl_slist_free_all(transfer.headerList)
        return transfer
    }

    /// Fails waiting requests whose deadline passed and drops those whose callers gave up
    /// (cancelled), at most every `queueSweepInterval`, so the queue holds live requests only.
    private func expireWaiting(now: ContinuousClock.Instant) {
        guard !waiting.isEmpty, now - lastQueueSweep >= Self.queueSweepInterval else { return }
        lastQueueSweep = now
        var live = CircularBuffer<CurlPendingRequest>(initialCapacity: waiting.count)
        for request in waiting {
            if request.deadline <= now {
                request.finish(.failure(Self.queueTimeout))
            } else if !request.isFinished {
                live.append(request)
            }
        }
        waiting = live
    }

    private func failActive(with error: any Error) {
        for easy in Array(active.keys) {
            guard let transfer = detach(easy) else { continue }
            transfer.request.finish(.failure(error))
        }
    }

    /// Shutdown: every pending caller gets `CancellationError`, then connections close.
    private func failEverything() {
        failActive(with: CancellationError())
        while let request = waiting.popFirst() {
            request.finish(.failure(CancellationError()))
        }
        multi.close()
        handles.close()
    }

    /// The error of a request whose timeout passed before a transfer slot was free.
    private static let queueTimeout = HTTPClientError(
        kind: .timeout, curlCode: nil, detail: "the timeout passed while waiting for a free transfer slot"
    )
}
