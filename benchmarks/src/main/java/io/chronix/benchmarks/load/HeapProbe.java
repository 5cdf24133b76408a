package io.chronix.benchmarks.load;

import com.sun.management.GarbageCollectorMXBean;
import com.sun.management.GcInfo;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The server's heap, read over JMX from outside: the server reports no heap of its own, and a
 * {@code jstat} per sample would start a JVM every few seconds on the two cores under load.
 * Attaching starts the server's local management agent once (no port, no settings). Heap used
 * swings with every young collection, so the heap left after the last collection is read too: it
 * is what grows when something is retained.
 */
final class HeapProbe implements AutoCloseable {

  private final JMXConnector connector;
  private final MemoryMXBean memory;
  private final List<GarbageCollectorMXBean> collectors;
  private final Set<String> heapPools;

  private HeapProbe(JMXConnector connector) throws Exception {
    this.connector = connector;
    MBeanServerConnection connection = connector.getMBeanServerConnection();
    this.memory = ManagementFactory.newPlatformMXBeanProxy(connection, ManagementFactory.MEMORY_MXBEAN_NAME,
        MemoryMXBean.class);
    this.collectors = ManagementFactory.getPlatformMXBeans(connection, GarbageCollectorMXBean.class);
    this.heapPools = ManagementFactory.getPlatformMXBeans(connection, MemoryPoolMXBean.class).stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP)
        .map(MemoryPoolMXBean::getName)
        .collect(Collectors.toSet());
  }

  static HeapProbe attach(long pid) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
    String address;
    try {
      address = vm.startLocalManagementAgent();
    } finally {
      vm.detach();
    }
    return new HeapProbe(JMXConnectorFactory.connect(new JMXServiceURL(address)));
  }

  long used() {
    return memory.getHeapMemoryUsage().getUsed();
  }

  /** Heap used right after the most recent collection of any collector; -1 before the first. */
  long afterLastCollection() {
    GcInfo latest = null;
    for (GarbageCollectorMXBean collector : collectors) {
      GcInfo info = collector.getLastGcInfo();
      if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
        latest = info;
      }
    }
    if (latest == null) {
      return -1;
    }
    long used = 0;
    for (var pool : latest.getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        MemoryUsage usage = pool.getValue();
        used += usage.getUsed();
      }
    }
    return used;
  }

  /**
   * Collections of every collector so far and their time. For G1 and the parallel collector each
   * is a pause of the whole server (G1's concurrent marking is not counted, its remark and cleanup
   * pauses neither), which is what a query that meets one waits for.
   */
  ServerSampler.CollectorTotals collections() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean collector : collectors) {
      count += Math.max(0, collector.getCollectionCount());
      millis += Math.max(0, collector.getCollectionTime());
    }
    return new ServerSampler.CollectorTotals(count, millis);
  }

  @Override
  public void close() throws IOException {
    connector.close();
  }
}
