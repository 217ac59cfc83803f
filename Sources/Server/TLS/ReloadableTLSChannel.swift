import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// A child channel wrapped in TLS with the context current when its connection opens, so a
/// reloaded certificate serves every connection opened after the reload.
struct ReloadableTLSChannel<BaseChannel: ServerChildChannel>: ServerChildChannel {
    typealias Value = BaseChannel.Value

    let base: BaseChannel
    let contexts: TLSContextStore

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let context = contexts.context
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
