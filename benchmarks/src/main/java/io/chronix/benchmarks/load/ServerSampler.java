package io.chronix.benchmarks.load;

import io.chronix.benchmarks.ProcessStats;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Samples the server while the load runs, so that growth shows as a trend and not only as a peak:
 * resident memory and CPU time from {@code /proc}, heap over JMX, and what {@code GET /status}
 * says is buffered. A sample that cannot be taken is recorded with -1 rather than ending the run.
 */
public final class ServerSampler implements AutoCloseable {

  /** One reading: the server's, and the CPU time of this JVM (the load generator) beside it. */
  public record Sample(long epochMillis, long rssBytes, double cpuSeconds, double clientCpuSeconds, long heapUsed,
      long heapAfterGc, long bufferBytes, long bufferPoints, long activeSeries, CollectorTotals collections) {}

  /**
   * The collector's collections since the server started and the time they took, as its
   * management beans count them; {@link #UNKNOWN} when they could not be read.
   */
  public record CollectorTotals(long count, long millis) {
    public static final CollectorTotals UNKNOWN = new CollectorTotals(-1, -1);

    boolean known() {
      return count >= 0 && millis >= 0;
    }
  }

  private static final Pattern BUFFERS = Pattern.compile("\"buffers\":\\{([^}]*)}");

  private final long pid;
  private final URI status;
  private final HeapProbe heap;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<Sample> samples = new ArrayList<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "server-sampler");
    thread.setDaemon(true);
    return thread;
  });

  /** {@code status} and {@code heap} null for a server that has neither. */
  private ServerSampler(long pid, URI status, HeapProbe heap) {
    this.pid = pid;
    this.status = status;
    this.heap = heap;
  }

  /** Starts sampling a Chronix server now and then every {@code interval}. */
  public static ServerSampler start(long pid, URI base, Duration interval) throws Exception {
    return scheduled(new ServerSampler(pid, base.resolve("/status"), HeapProbe.attach(pid)), interval);
  }

  /**
   * Starts sampling another server (no JVM to ask about its heap, no {@code /status}): resident
   * memory and CPU time only.
   */
  public static ServerSampler processOnly(long pid, Duration interval) {
    return scheduled(new ServerSampler(pid, null, null), interval);
  }

  private static ServerSampler scheduled(ServerSampler sampler, Duration interval) {
    sampler.timer.scheduleAtFixedRate(sampler::sample, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    return sampler;
  }

  private void sample() {
    try {
      take();
    } catch (RuntimeException serverGone) {
      // an exception would cancel the timer quietly; the run's end shows what happened
    }
  }

  private void take() {
    long now = System.currentTimeMillis();
    ProcessStats process = ProcessStats.of(pid);
    double clientCpu = ProcessStats.of(ProcessHandle.current().pid()).cpuSeconds();
    long heapUsed = -1;
    long heapAfterGc = -1;
    CollectorTotals collections = CollectorTotals.UNKNOWN;
    if (heap != null) {
      try {
        heapUsed = heap.used();
        heapAfterGc = heap.afterLastCollection();
        collections = heap.collections();
      } catch (RuntimeException unreachable) {
        // JMX hiccup under load: this sample has no heap figure
      }
    }
    long[] buffers = buffers();
    Sample sample = new Sample(now, process.rssBytes(), process.cpuSeconds(), clientCpu, heapUsed, heapAfterGc,
        buffers[2], buffers[0], buffers[1], collections);
    synchronized (samples) {
      samples.add(sample);
    }
  }

  /** points, activeSeries, memoryBytes of {@code /status}; -1 each when it does not answer. */
  private long[] buffers() {
    if (status == null) {
      return new long[] {-1, -1, -1};
    }
    try {
      HttpResponse<String> answer = http.send(HttpRequest.newBuilder(status).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      Matcher buffers = BUFFERS.matcher(answer.body());
      if (answer.statusCode() == 200 && buffers.find()) {
        String fields = buffers.group(1);
        return new long[] {field(fields, "points"), field(fields, "activeSeries"), field(fields, "memoryBytes")};
      }
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
    } catch (Exception notAnswered) {
      // a missing status is shown as -1; the load goes on
    }
    return new long[] {-1, -1, -1};
  }

  private static long field(String fields, String name) {
    Matcher value = Pattern.compile("\"" + name + "\":(\\d+)").matcher(fields);
    return value.find() ? Long.parseLong(value.group(1)) : -1;
  }

  public List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  @Override
  public void close() throws IOException {
    timer.shutdown();
    try {
      timer.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException stopping) {
      Thread.currentThread().interrupt();
    }
    if (heap != null) {
      heap.close();
    }
  }
}
