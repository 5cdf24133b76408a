package io.chronix.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class GatlingJvmTest {

  private static String jarOf(Class<?> type) throws Exception {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /**
   * The load's JVM gets every Netty jar of this classpath at Gatling's version, and each of them is
   * in the local repository: a fresh machine once had only the jars Maven picked (4.1), and the load
   * failed on a missing {@code io.netty.handler.ssl.OpenSsl}.
   */
  @Test
  void everyNettyJarIsReplacedByGatlingsVersionThatExists() throws Exception {
    String solrsHandler = jarOf(io.netty.handler.ssl.OpenSsl.class);
    String solrsCommon = jarOf(io.netty.util.Version.class);
    String gatlingsHttpCodec = jarOf(io.netty.handler.codec.http.HttpMethod.class);
    String other = jarOf(GatlingJvm.class);
    String classpath = String.join(File.pathSeparator, other, solrsHandler, solrsCommon, gatlingsHttpCodec);

    List<String> result = List.of(GatlingJvm.oneNetty(classpath).split(File.pathSeparator));

    String version = gatlingsHttpCodec.replaceAll(".*netty-codec-http-(.+)\\.jar$", "$1");
    assertEquals(4, result.size(), () -> "each jar once: " + result);
    assertEquals(other, result.get(0));
    assertTrue(result.get(1).endsWith("netty-handler-" + version + ".jar"), result.get(1));
    assertTrue(result.get(2).endsWith("netty-common-" + version + ".jar"), result.get(2));
    for (String jar : result.subList(1, result.size())) {
      assertTrue(Files.isRegularFile(Path.of(jar)), jar + " exists");
    }
  }
}
