package io.chronix.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Resident memory and CPU time of a server process, read from {@code /proc}, so that every
 * throughput figure can stand next to what it cost. Peak RSS is the kernel's high-water mark
 * ({@code VmHWM}); {@link #resetPeak} starts a new phase (writing 5 to {@code clear_refs}).
 */
public record ProcessStats(long peakRssBytes, long rssBytes, double cpuSeconds) {

  /** Linux' USER_HZ; {@code /proc/<pid>/stat} counts CPU time in these ticks. */
  private static final double TICKS_PER_SECOND = 100.0;

  public static ProcessStats of(long pid) {
    try {
      long hwm = 0;
      long rss = 0;
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          hwm = kilobytes(line) * 1024;
        } else if (line.startsWith("VmRSS:")) {
          rss = kilobytes(line) * 1024;
        }
      }
      long ticks = cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
      return new ProcessStats(hwm, rss, ticks / TICKS_PER_SECOND);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /proc/" + pid + " (process gone?)", e);
    }
  }

  /**
   * CPU seconds of a process' threads so far, summed per thread name with digits dropped
   * ({@code C2 CompilerThread0} and {@code 1} count as one), to tell the JIT from the work.
   */
  public static Map<String, Double> cpuSecondsByThread(long pid) throws IOException {
    Map<String, Double> seconds = new TreeMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        try {
          String name = Files.readString(task.resolve("comm")).trim().replaceAll("[0-9]+", "N");
          seconds.merge(name, cpuTicks(Files.readString(task.resolve("stat"))) / TICKS_PER_SECOND, Double::sum);
        } catch (NoSuchFileException ended) {
          // the thread ended between listing and reading
        }
      }
    }
    return seconds;
  }

  private static long cpuTicks(String stat) {
    // the command name in parentheses may hold spaces: fields are counted after its ')'
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime (fields 14, 15)
  }

  /** Resets the process' peak RSS to its current RSS; quietly a no-op where the kernel refuses. */
  public static void resetPeak(long pid) {
    try {
      Files.writeString(Path.of("/proc", Long.toString(pid), "clear_refs"), "5");
    } catch (IOException notPermitted) {
      // the peak then covers the process' whole life, which only overstates it
    }
  }

  /** What a phase cost: CPU seconds between two readings, and the peak since the reset. */
  public ProcessStats since(ProcessStats before) {
    return new ProcessStats(peakRssBytes, rssBytes, cpuSeconds - before.cpuSeconds);
  }

  public double peakRssMb() {
    return peakRssBytes / 1e6;
  }

  private static long kilobytes(String line) {
    return Long.parseLong(line.replaceAll("[^0-9]", ""));
  }
}
