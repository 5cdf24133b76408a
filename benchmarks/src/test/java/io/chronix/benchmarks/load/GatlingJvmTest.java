package io.chronix.benchmarks.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class GatlingJvmTest {

  /**
   * The load's JVM gets every Netty jar of the benchmarks classpath (as {@code benchmarks/run} has
   * it: the local repository's jars, Solr's Netty 4.1 beside Gatling's 4.2) at Gatling's version,
   * and each of them is in the local repository: a fresh machine once had only the jars Maven
   * picked (4.1), and the load failed on a missing {@code io.netty.handler.ssl.OpenSsl}.
   */
  @Test
  void everyNettyJarIsReplacedByGatlingsVersionThatExists() throws Exception {
    // Gatling's HTTP codec comes from the local repository, whatever else the build puts first
    Path gatlingsHttpCodec = Path.of(io.netty.handler.codec.http.HttpMethod.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI());
    Path netty = gatlingsHttpCodec.getParent().getParent().getParent(); // .../io/netty
    String gatlings = gatlingsHttpCodec.getParent().getFileName().toString();
    String solrs = io.netty.handler.ssl.OpenSsl.class.getPackage().getImplementationVersion() != null
        ? io.netty.handler.ssl.OpenSsl.class.getPackage().getImplementationVersion() : "4.1.119.Final";
    String other = "/somewhere/else/classes";
    String classpath = String.join(File.pathSeparator, other, repositoryJar(netty, "netty-handler", solrs),
        repositoryJar(netty, "netty-common", solrs), gatlingsHttpCodec.toString());

    List<String> result = List.of(GatlingJvm.oneNetty(classpath).split(File.pathSeparator));

    assertEquals(4, result.size(), () -> "each jar once: " + result);
    assertEquals(other, result.get(0));
    assertEquals(repositoryJar(netty, "netty-handler", gatlings), result.get(1));
    assertEquals(repositoryJar(netty, "netty-common", gatlings), result.get(2));
    for (String jar : result.subList(1, result.size())) {
      assertTrue(Files.isRegularFile(Path.of(jar)), jar + " exists");
    }
  }

  private static String repositoryJar(Path netty, String artifact, String version) {
    return netty.resolve(artifact).resolve(version).resolve(artifact + "-" + version + ".jar").toString();
  }
}
