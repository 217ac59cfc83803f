import Foundation
import ServiceSupport
import TestSupport
import Testing

@Suite("sd_notify: READY, STOPPING and WATCHDOG datagrams to $NOTIFY_SOCKET")
struct SystemdNotifierTests {
    @Test("a state reaches a socket bound at a path, and one in the abstract namespace (@name)", arguments: [false, true])
    func sends(abstract: Bool) throws {
        let socket = try NotifySocket(abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name])
        #expect(notifier.notify("READY=1"))
        #expect(socket.receive() == "READY=1")
        #expect(notifier.notify("STOPPING=1"))
        #expect(socket.receive() == "STOPPING=1")
    }

    @Test("without $NOTIFY_SOCKET nothing is sent and there is no watchdog; a path too long for sun_path is refused")
    func absent() {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "1000000"])
        #expect(notifier.socketPath == nil && notifier.watchdogInterval == nil)
        #expect(!notifier.notify("READY=1"))
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "/tmp/" + String(repeating: "x", count: 200)]).notify("READY=1"))
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify.sock"]).notify("READY=1"))
    }

    @Test("the watchdog is due every half of $WATCHDOG_USEC, only for the process $WATCHDOG_PID names")
    func watchdogInterval() {
        let socket = ["NOTIFY_SOCKET": "@x"]
        #expect(SystemdNotifier(environment: socket.merging(["WATCHDOG_USEC": "90000000"]) { $1 }).watchdogInterval == .seconds(45))
        #expect(
            SystemdNotifier(environment: socket.merging(["WATCHDOG_USEC": "2000", "WATCHDOG_PID": "41"]) { $1 }, processID: 41)
                .watchdogInterval == .milliseconds(1))
        #expect(
            SystemdNotifier(environment: socket.merging(["WATCHDOG_USEC": "2000", "WATCHDOG_PID": "41"]) { $1 }, processID: 42)
                .watchdogInterval == nil)
        #expect(SystemdNotifier(environment: socket.merging(["WATCHDOG_USEC": "0"]) { $1 }).watchdogInterval == nil)
    }
}
