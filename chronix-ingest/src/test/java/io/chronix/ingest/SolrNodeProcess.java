package io.chronix.ingest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * A SolrCloud node in a JVM of its own whose class path holds Solr but none of Chronix: it can
 * only find the plugin in the directory named by {@code solr.sharedLib}, as a node of a real
 * deployment does (docs/scaling.md, docker/Dockerfile.solr).
 */
final class SolrNodeProcess implements AutoCloseable {

  private static final Pattern STARTED = Pattern.compile("^solr node at (http://\\S+)$");
  private static final String PLUGIN_CLASS = "io.chronix.solr.ChronixQueryComponent";
  /** Class path entries of Chronix's own modules: what a Solr node does not ship. */
  private static final Pattern CHRONIX_MODULE =
      Pattern.compile(".*chronix-(core|analysis|solr-plugin|ingest)([/\\\\]target[/\\\\]classes|-[^/\\\\]*\\.jar)$");

  private final Process process;
  private final String baseUrl;
  private final StringBuffer output;

  private SolrNodeProcess(Process process, String baseUrl, StringBuffer output) {
    this.process = process;
    this.baseUrl = baseUrl;
    this.output = output;
  }

  /** Starts a node on a free port of 127.0.0.1 that joins the cluster at {@code zkHost}. */
  static SolrNodeProcess start(Path solrHome, String zkHost, Path sharedLib) throws Exception {
    Files.createDirectories(solrHome);
    Files.writeString(solrHome.resolve("solr.xml"), """
        <?xml version="1.0" encoding="UTF-8" ?>
        <solr>
          <str name="sharedLib">${solr.sharedLib:}</str>
          <solrcloud>
            <str name="host">127.0.0.1</str>
            <int name="hostPort">${hostPort:0}</int>
            <str name="hostContext">/solr</str>
          </solrcloud>
        </solr>
        """);
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-Dsolr.sharedLib=" + sharedLib, "-DzkHost=" + zkHost, "-Dsolr.allowPaths=" + sharedLib,
        "-cp", solrClassPath(), SolrNodeProcess.class.getName(), solrHome.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    StringBuffer seen = new StringBuffer();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    String line;
    while (System.nanoTime() < deadline && (line = lines.readLine()) != null) {
      seen.append(line).append('\n');
      Matcher started = STARTED.matcher(line);
      if (started.find()) {
        Thread drain = new Thread(() -> lines.lines().forEach(more -> seen.append(more).append('\n')));
        drain.setDaemon(true);
        drain.start();
        return new SolrNodeProcess(process, started.group(1), seen);
      }
    }
    process.destroyForcibly();
    throw new AssertionError("the Solr node did not start:\n" + seen);
  }

  /** This JVM's class path without Chronix's modules. */
  private static String solrClassPath() {
    return Stream.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .filter(entry -> !CHRONIX_MODULE.matcher(entry).matches())
        .collect(Collectors.joining(java.io.File.pathSeparator));
  }

  String baseUrl() {
    return baseUrl;
  }

  String output() {
    return output.toString();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  /** The child: refuses to run if the plugin is on its class path, then serves until killed. */
  public static void main(String[] args) throws Exception {
    try {
      Class.forName(PLUGIN_CLASS, false, ClassLoader.getSystemClassLoader());
      System.out.println("the plugin is on the Solr node's class path: the test would prove nothing");
      System.exit(2);
    } catch (ClassNotFoundException expected) {
      System.out.println("the plugin is not on the class path");
    }
    JettySolrRunner jetty = new JettySolrRunner(args[0], new Properties(),
        JettyConfig.builder().setPort(0).setContext("/solr").build());
    jetty.start();
    System.out.println("solr node at " + jetty.getBaseUrl());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        jetty.stop();
      } catch (Exception e) {
        e.printStackTrace();
      }
    }));
    Thread.currentThread().join();
  }

  static void requireDirectory(Path dir, String hint) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IOException(dir + " is missing: " + hint);
    }
  }
}
