package io.chronix.benchmarks.load;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM that Gatling can run in. {@code benchmarks/run} starts the benchmarks classpath as Maven
 * resolves it, and two things there break Gatling 3.15, so a main class that runs Gatling starts
 * itself once more, with the JVM options it was given, when it finds them:
 *
 * <ul>
 *   <li>Gatling's log writer and reader read {@code String}'s internals, which Java 17 allows only
 *       with {@code --add-opens java.base/java.lang} (Gatling's own launchers pass it);
 *   <li>Maven's nearest-wins mixes Netty versions: Solr's 4.1 handler, codec, resolver and epoll
 *       jars win over Gatling's 4.2 ones, next to Gatling's 4.2 common, buffer and transport.
 *       Gatling's epoll transport then fails to load (no EpollIoHandler), and on Java NIO its
 *       HTTP client sends nothing (every request ends with "premature close" when the server's
 *       idle timeout hits). The load's JVM needs no Solr, so it gets Gatling's Netty only: each older
 *       Netty jar is replaced by the same artifact at the newest version from the same local
 *       repository, or dropped where 4.2 has none (4.1's netty-codec is 4.2's codec-base and
 *       codec-compression, already there).
 * </ul>
 */
public final class GatlingJvm {

  private static final String OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";
  /** .../io/netty/artifact/version/artifact-version[-classifier].jar; tcnative has versions of its own. */
  private static final Pattern NETTY_JAR = Pattern.compile(
      "(.*/io/netty/)(netty-(?!tcnative)[^/]+)/([^/]+)/\\2-\\3(-[^/]+)?\\.jar");

  private GatlingJvm() {}

  /** Whether Gatling can run in this JVM as it is. */
  public static boolean ready() {
    String classpath = System.getProperty("java.class.path");
    return String.class.getModule().isOpen("java.lang", GatlingJvm.class.getModule())
        && oneNetty(classpath).equals(classpath);
  }

  /** Runs {@code main} with {@code args} in a JVM Gatling can run in; returns its exit status. */
  public static int relaunch(Class<?> main, String[] args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.add(OPENS);
    command.add("-cp");
    command.add(oneNetty(System.getProperty("java.class.path")));
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).inheritIO().start().waitFor();
  }

  /** The classpath with every Netty jar at the newest Netty version on it. */
  static String oneNetty(String classpath) {
    List<String> entries = Arrays.asList(classpath.split(File.pathSeparator));
    Optional<String> newest = entries.stream()
        .map(NETTY_JAR::matcher)
        .filter(Matcher::matches)
        .map(jar -> jar.group(3))
        .max(Comparator.comparing(GatlingJvm::versionKey));
    if (newest.isEmpty()) {
      return classpath;
    }
    Set<String> result = new LinkedHashSet<>();
    for (String entry : entries) {
      Matcher jar = NETTY_JAR.matcher(entry);
      if (!jar.matches() || jar.group(3).equals(newest.get())) {
        result.add(entry);
        continue;
      }
      String classifier = jar.group(4) == null ? "" : jar.group(4);
      String file = jar.group(2) + "-" + newest.get() + classifier + ".jar";
      Path sibling = Path.of(jar.group(1), jar.group(2), newest.get(), file);
      if (Files.isRegularFile(sibling)) {
        result.add(sibling.toString());
      }
    }
    return String.join(File.pathSeparator, result);
  }

  /** 4.2.14.Final sorts after 4.1.119.Final: numeric parts zero-padded. */
  private static String versionKey(String version) {
    StringBuilder key = new StringBuilder();
    for (String part : version.split("\\.")) {
      key.append(part.matches("\\d+") ? String.format("%08d", Integer.parseInt(part)) : part).append('.');
    }
    return key.toString();
  }
}
