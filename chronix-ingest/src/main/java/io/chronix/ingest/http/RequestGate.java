package io.chronix.ingest.http;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Lets writes in until shutdown begins, then waits for those under way, so that the final flush
 * sees every point that was acknowledged.
 */
public final class RequestGate {

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private volatile boolean closed;

  /** @return false once closed; on true the caller must call {@link #exit()} */
  public boolean enter() {
    lock.readLock().lock();
    if (closed) {
      lock.readLock().unlock();
      return false;
    }
    return true;
  }

  public void exit() {
    lock.readLock().unlock();
  }

  /** Refuses new requests and waits up to the timeout for running ones. */
  public void close(long timeout, TimeUnit unit) throws InterruptedException {
    if (lock.writeLock().tryLock(timeout, unit)) {
      closed = true;
      lock.writeLock().unlock();
    } else {
      closed = true;
    }
  }
}
