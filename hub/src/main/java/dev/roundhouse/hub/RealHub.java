package dev.roundhouse.hub;

import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.board.BoardOperations;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.store.Store;
import java.security.SecureRandom;

/** Wires the store, the event bus and the operations. Thread-safe. */
final class RealHub implements Hub {
  private final HubConfig config;
  private final HomeLock lock;
  private final Store store;
  private final EventBus events;
  private final Board board;
  private final OperationRegistry operations;
  private final String token;

  private RealHub(HubConfig config, HomeLock lock, Store store, EventBus events, String token) {
    this.config = config;
    this.lock = lock;
    this.store = store;
    this.events = events;
    this.token = token;
    this.board = new Board(store);
    this.operations = OperationRegistry.create();
    BoardOperations.register(operations, board);
  }

  static RealHub open(HubConfig config) {
    HomeLock lock = HomeLock.acquire(config.lockFile(), config.clock().instant());
    try {
      String token = LocalToken.loadOrCreate(config.tokenFile(), new SecureRandom());
      EventBus events = new EventBus();
      Store store = Store.sqlite(config.database(), config.clock(), config.maxBatch(), events);
      events.attach(store);
      return new RealHub(config, lock, store, events, token);
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  @Override
  public HubConfig config() {
    return config;
  }

  @Override
  public OperationRegistry operations() {
    return operations;
  }

  @Override
  public EventBus events() {
    return events;
  }

  @Override
  public Board board() {
    return board;
  }

  @Override
  public String token() {
    return token;
  }

  @Override
  public void publishUrl(String url) {
    lock.publishUrl(url);
  }

  @Override
  public void close() {
    try {
      store.close();
    } finally {
      lock.close();
    }
  }
}
