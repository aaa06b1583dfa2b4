package dev.roundhouse.hub.http;

import io.undertow.connector.ByteBufferPool;
import io.undertow.connector.PooledByteBuffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Undertow's I/O buffers in one queue that every thread shares. Requests run on virtual threads, one per request,
 * so a per-thread cache never hits; and Undertow's {@code DefaultByteBufferPool}, even with its per-thread caches
 * off, looks the releasing thread up in a synchronized {@code WeakHashMap} on every release, which for a new
 * virtual thread means a lock and a fresh identity hash per request (4.5 % of the samples of
 * {@code roundhouse bench mcp}). Buffers beyond {@code maxPooled} are left to the garbage collector.
 *
 * <p>Thread-safe: a lock-free queue and counter; each pooled buffer is released at most once.
 */
final class SharedBufferPool implements ByteBufferPool {
  private final boolean direct;
  private final int bufferSize;
  private final int maxPooled;
  private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();
  private final AtomicInteger pooled = new AtomicInteger();
  private final SharedBufferPool arrayBacked;
  private volatile boolean closed;

  SharedBufferPool(boolean direct, int bufferSize, int maxPooled) {
    this.direct = direct;
    this.bufferSize = bufferSize;
    this.maxPooled = maxPooled;
    this.arrayBacked = direct ? new SharedBufferPool(false, bufferSize, maxPooled) : this;
  }

  @Override
  public PooledByteBuffer allocate() {
    ByteBuffer buffer = free.poll();
    if (buffer == null) {
      buffer = direct ? ByteBuffer.allocateDirect(bufferSize) : ByteBuffer.allocate(bufferSize);
    } else {
      pooled.decrementAndGet();
      buffer.clear();
    }
    return new Pooled(buffer);
  }

  private void release(ByteBuffer buffer) {
    if (closed) {
      return;
    }
    if (pooled.incrementAndGet() > maxPooled) {
      pooled.decrementAndGet();
      return;
    }
    free.offer(buffer);
  }

  @Override
  public ByteBufferPool getArrayBackedPool() {
    return arrayBacked;
  }

  @Override
  public void close() {
    closed = true;
    while (free.poll() != null) {
      pooled.decrementAndGet();
    }
    if (arrayBacked != this) {
      arrayBacked.close();
    }
  }

  @Override
  public int getBufferSize() {
    return bufferSize;
  }

  @Override
  public boolean isDirect() {
    return direct;
  }

  int pooled() {
    return pooled.get();
  }

  /** One allocation: released to the pool by its first {@link #close()}. */
  private final class Pooled implements PooledByteBuffer {
    private static final VarHandle OPEN;

    static {
      try {
        OPEN = MethodHandles.lookup().findVarHandle(Pooled.class, "open", boolean.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final ByteBuffer buffer;
    @SuppressWarnings("unused") // through OPEN
    private volatile boolean open = true;

    Pooled(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public ByteBuffer getBuffer() {
      if (!open) {
        throw new IllegalStateException("the buffer was returned to the pool");
      }
      return buffer;
    }

    @Override
    public void close() {
      if (OPEN.compareAndSet(this, true, false)) {
        release(buffer);
      }
    }

    @Override
    public boolean isOpen() {
      return open;
    }
  }
}
