package dev.roundhouse.hub.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.undertow.connector.PooledByteBuffer;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The server's shared buffer pool: reuse, a bound, single release, and a closed pool keeping nothing. */
class SharedBufferPoolTest {
  @Test
  void aReleasedBufferIsHandedOutAgainClearedAndReleasedOnlyOnce() {
    SharedBufferPool pool = new SharedBufferPool(true, 1024, 4);
    PooledByteBuffer first = pool.allocate();
    ByteBuffer buffer = first.getBuffer();
    assertThat(buffer.isDirect()).isTrue();
    assertThat(buffer.capacity()).isEqualTo(1024);
    buffer.put((byte) 1).flip();

    first.close();
    first.close();
    assertThat(first.isOpen()).isFalse();
    assertThat(pool.pooled()).as("a second close releases nothing").isEqualTo(1);
    assertThatThrownBy(first::getBuffer).isInstanceOf(IllegalStateException.class);

    PooledByteBuffer second = pool.allocate();
    assertThat(second.getBuffer()).isSameAs(buffer);
    assertThat(second.getBuffer().position()).isZero();
    assertThat(second.getBuffer().limit()).isEqualTo(1024);
    assertThat(pool.pooled()).isZero();
  }

  @Test
  void atMostMaxPooledBuffersAreKeptAndAClosedPoolKeepsNone() {
    SharedBufferPool pool = new SharedBufferPool(false, 64, 2);
    PooledByteBuffer[] taken = {pool.allocate(), pool.allocate(), pool.allocate()};
    for (PooledByteBuffer each : taken) {
      each.close();
    }
    assertThat(pool.pooled()).isEqualTo(2);
    assertThat(pool.getArrayBackedPool()).isSameAs(pool);

    PooledByteBuffer held = pool.allocate();
    assertThat(pool.pooled()).isEqualTo(1);
    pool.close();
    assertThat(pool.pooled()).as("closing drops what it kept").isZero();
    held.close();
    assertThat(pool.pooled()).as("and keeps nothing released later").isZero();
    assertThat(new SharedBufferPool(true, 64, 2).getArrayBackedPool().isDirect()).isFalse();
  }
}
