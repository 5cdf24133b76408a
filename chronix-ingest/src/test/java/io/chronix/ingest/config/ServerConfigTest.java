package io.chronix.ingest.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {

  @TempDir Path dir;

  @Test
  void defaultsAreSane() {
    ServerConfig config = ServerConfig.defaults();
    assertEquals("127.0.0.1", config.host());
    assertEquals(8983, config.port());
    assertEquals(Path.of("./data"), config.dataDir());
    assertEquals("", config.solrUrl());
    assertEquals("chronix", config.collection());
    assertEquals(Duration.ofMinutes(10), config.chunkMaxAge());
    assertEquals(Duration.ofSeconds(1), config.chunkMaxWriteDelay());
    assertEquals(Duration.ZERO, config.with("chunk.maxWriteDelay", "0s").chunkMaxWriteDelay());
    assertEquals(Runtime.getRuntime().maxMemory() / 64, config.promqlLimits().maxSamples(),
        "a sample for every 64 bytes of the heap");
    assertEquals(50_000_000L, config.with("promql.maxSamples", "50000000").promqlLimits().maxSamples());
    assertEquals(Runtime.getRuntime().maxMemory() / 64, config.with("promql.maxSamples", "AUTO").promqlMaxSamples());
  }

  @Test
  void fileThenOptionsOverride() throws IOException {
    Path file = dir.resolve("chronix.properties");
    Files.writeString(file, "http.port=9000\nchunk.maxAge=30s\ndata.dir=/tmp/x\n");
    ServerConfig config = ServerConfig.defaults().withFile(file).with("http.port", "9100");
    assertEquals(9100, config.port());
    assertEquals(Duration.ofSeconds(30), config.chunkMaxAge());
    assertEquals(Path.of("/tmp/x"), config.dataDir());
  }

  @Test
  void badValuesNameTheKey() throws IOException {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.defaults().with("http.port", "eighty").port());
    assertTrue(e.getMessage().contains("http.port"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ServerConfig.defaults().with("chunk.maxAge", "soon").chunkMaxAge());
    assertTrue(e.getMessage().contains("chunk.maxAge"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.defaults().with("chunk.maxWriteDelay", "-1s").chunkMaxWriteDelay());
    assertTrue(e.getMessage().contains("chunk.maxWriteDelay") && e.getMessage().contains("-1s"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.defaults().with("chunk.maxWriteDelay", "1000y").chunkMaxWriteDelay());
    assertTrue(e.getMessage().contains("chunk.maxWriteDelay") && e.getMessage().contains("1000y"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> ServerConfig.defaults().with("promql.maxSamples", "lots").promqlLimits());
    assertTrue(e.getMessage().contains("promql.maxSamples") && e.getMessage().contains("lots"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ServerConfig.defaults().with("chunk.compression", "lzma").codec());
    assertTrue(e.getMessage().contains("chunk.compression"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ServerConfig.defaults().with("http.prot", "1"));
    assertTrue(e.getMessage().contains("unknown setting 'http.prot'"), e.getMessage());
    Path file = dir.resolve("bad.properties");
    Files.writeString(file, "chunk.maxpoints=5\n");
    e = assertThrows(IllegalArgumentException.class, () -> ServerConfig.defaults().withFile(file));
    assertTrue(e.getMessage().contains("chunk.maxpoints") && e.getMessage().contains(file.toString()), e.getMessage());
    Path missing = dir.resolve("missing.properties");
    e = assertThrows(IllegalArgumentException.class, () -> ServerConfig.defaults().withFile(missing));
    assertTrue(e.getMessage().contains("config file " + missing + " does not exist"), e.getMessage());
  }
}
