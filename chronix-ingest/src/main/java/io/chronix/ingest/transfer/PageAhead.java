package io.chronix.ingest.transfer;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * An export's next page, asked for on a thread of its own while the page before is written. The
 * export alternated between the store reading a page (its records' metadata, its points) and
 * writing that page's JSON, one of the two cores idle either way.
 *
 * <p>A page asked for and not taken (the client went away, the writing failed) is let finish and
 * dropped, not interrupted: an interrupt inside the store's reading may close files Lucene shares
 * with every other reader.
 */
final class PageAhead<T> implements AutoCloseable {

  private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
    Thread ahead = new Thread(task, "chronix-export-ahead");
    ahead.setDaemon(true);
    return ahead;
  });
  private Future<T> next;

  /** Starts asking for the next page. */
  void ask(Callable<T> page) {
    if (next != null) {
      throw new IllegalStateException("the page asked for before is not taken yet");
    }
    next = thread.submit(page);
  }

  /** The page asked for, once it is there; its failure as it failed. */
  T take() throws IOException {
    if (next == null) {
      throw new IllegalStateException("no page asked for");
    }
    try {
      return next.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException failure) {
        throw failure;
      }
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("export interrupted while its next page was read");
    } finally {
      next = null;
    }
  }

  @Override
  public void close() {
    if (next != null) {
      next.cancel(false);
    }
    thread.shutdown();
  }
}
