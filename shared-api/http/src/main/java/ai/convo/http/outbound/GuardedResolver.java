package ai.convo.http.outbound;

import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.resolver.InetSocketAddressResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;

/**
 * Name resolution for outbound connections through {@link OutboundGuard}: the addresses a connection is made to are
 * the ones that were checked, so a name cannot be re-pointed between a check and the connect (DNS rebinding).
 */
public final class GuardedResolver extends AddressResolverGroup<InetSocketAddress> {

    private final OutboundGuard guard;

    public GuardedResolver(OutboundGuard guard) {
        this.guard = guard;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new InetSocketAddressResolver(executor, new InetNameResolver(executor) {
            @Override
            protected void doResolve(String host, Promise<InetAddress> promise) {
                try {
                    promise.setSuccess(guard.resolve(host)[0]);
                } catch (Exception e) {
                    promise.setFailure(e);
                }
            }

            @Override
            protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                try {
                    promise.setSuccess(Arrays.asList(guard.resolve(host)));
                } catch (Exception e) {
                    promise.setFailure(e);
                }
            }
        });
    }
}
