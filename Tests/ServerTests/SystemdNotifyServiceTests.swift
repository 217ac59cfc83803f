import Logging
import ServiceLifecycle
import ServiceSupport
import Synchronization
import TestSupport
import Testing

@testable import Server

@Suite("systemd watchdog: WATCHDOG=1 while healthy, none while not, STOPPING=1 at graceful shutdown")
struct SystemdNotifyServiceTests {
    @Test("pings every half of WATCHDOG_USEC after each healthy check, holds back while unhealthy, says STOPPING=1 on shutdown")
    func watchdog() async throws {
        let socket = try NotifySocket()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name, "WATCHDOG_USEC": "100000"])
        let healthy = Atomic(true)
        let checks = Atomic(0)
        let service = SystemdNotifyService(
            notifier: notifier,
            isHealthy: {
                checks.add(1, ordering: .relaxed)
                return healthy.load(ordering: .relaxed)
            },
            logger: Logger(label: "test"))
        let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            #expect(await socket.receiveAsync() == "WATCHDOG=1")
            #expect(await socket.receiveAsync() == "WATCHDOG=1")
            // Unhealthy: the checks go on, the pings stop (systemd would restart the process).
            healthy.store(false, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(150))  // a check already under way may still ping
            while socket.receiveNow() != nil {}
            let before = checks.load(ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(300))
            #expect(checks.load(ordering: .relaxed) > before)
            #expect(socket.receiveNow() == nil, "no WATCHDOG=1 while unhealthy")
            await group.triggerGracefulShutdown()
            #expect(await socket.receiveAsync() == "STOPPING=1")
            try await tasks.waitForAll()
        }
    }

    @Test("without WATCHDOG_USEC only STOPPING=1 is sent, at graceful shutdown")
    func noWatchdog() async throws {
        let socket = try NotifySocket(abstract: true)
        let service = SystemdNotifyService(
            notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name]), isHealthy: { true }, logger: Logger(label: "test"))
        let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await Task.sleep(for: .milliseconds(100))
            await group.triggerGracefulShutdown()
            #expect(await socket.receiveAsync() == "STOPPING=1")
            try await tasks.waitForAll()
        }
    }
}
