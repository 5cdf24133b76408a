package io.chronix.ingest.http;

import io.chronix.ingest.protocol.MalformedBodyException;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;

/**
 * Bounds the memory of write request bodies in flight (http.maxBodyBytesInFlight): every request
 * gets a lease, and {@link RequestBodies} charges it for each part of the body it reads, several
 * times over for the copies a body makes (text, points, log entry) before it is stored. A body
 * that cannot get its share within the wait is answered 503 and stored not at all.
 */
public final class BodyBudget implements Filter {

  static final String LEASE = BodyBudget.class.getName() + ".lease";
  /** Bytes of a body read, the decoded text, the parsed points and the log entry: about four copies. */
  static final int COPIES = 4;
  private static final int KIB = 1024;

  private final Semaphore kibibytes;
  private final long waitMillis;
  private final long totalBytes;

  public BodyBudget(long bytes, long waitMillis) {
    this.totalBytes = bytes;
    this.kibibytes = new Semaphore((int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes / KIB)), true);
    this.waitMillis = waitMillis;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Lease lease = new Lease();
    request.setAttribute(LEASE, lease);
    try {
      chain.doFilter(request, response);
    } finally {
      lease.release();
    }
  }

  /** What one request holds. */
  final class Lease {
    private int held;

    /** Charges {@code bytes} of body read; waits for room, then refuses with a 503. */
    void charge(long bytes) throws MalformedBodyException {
      int wanted = (int) Math.min(Integer.MAX_VALUE, (bytes * COPIES + KIB - 1) / KIB);
      boolean granted;
      try {
        granted = kibibytes.tryAcquire(wanted, waitMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        granted = false;
      }
      if (!granted) {
        throw MalformedBodyException.busy("request bodies in flight fill their memory budget ("
            + (totalBytes >> 20) + " MB, http.maxBodyBytesInFlight): nothing stored, retry shortly");
      }
      held += wanted;
    }

    void release() {
      kibibytes.release(held);
      held = 0;
    }
  }

  /** The lease of a request, or null outside the filter. */
  static Lease leaseOf(javax.servlet.ServletRequest request) {
    return (Lease) request.getAttribute(LEASE);
  }

}
