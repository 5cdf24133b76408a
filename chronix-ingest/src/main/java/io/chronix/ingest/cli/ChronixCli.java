package io.chronix.ingest.cli;

import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import io.chronix.ingest.security.Credentials;
import io.chronix.ingest.security.PasswordHash;
import io.chronix.ingest.security.Role;
import io.chronix.ingest.tune.Tuner;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** {@code chronix start|import ...}; see {@link #USAGE}. */
public final class ChronixCli {

  static final String USAGE = String.join("\n",
      "usage: chronix start [options]            start the server (embedded Solr, data in ./data)",
      "       chronix import [options] <files>   load CSV files (or directories of them) into a running server",
      "       chronix tune [--out <file>] <files> measure chunk sizes and compressions on training data (CSV)",
      "                                          and recommend settings (load them with start --config <file>)",
      "       chronix passwd <user> [--roles r,w] read a password (console or stdin) and print the user's settings",
      "       chronix token <name> [--roles r,w]  make an API token and print it with its settings",
      "                                          (roles: read, write, admin; docs/security.md)",
      "",
      "options:",
      "  --config <file>        settings file (keys as in conf/chronix.properties)",
      "  --http-port <port>     HTTP port (default 8983); import: port of the running server",
      "  --host <address>       address to listen on / to reach (default 127.0.0.1)",
      "  --data-dir <dir>       where records and the embedded Solr index live (default ./data)",
      "  --solr-url <url>       use this external Solr instead of the embedded node",
      "  --zk <host:port[/root]> use this SolrCloud cluster (its ZooKeeper) instead (docs/scaling.md)",
      "  --set <key>=<value>    any other setting of conf/chronix.properties",
      "  --zone <zone>          import: zone of the CSV timestamps (default UTC)",
      "  --parallel <n>         import: files sent at once (default 2)",
      "  --token <token>        import: API token for a server with auth on (or CHRONIX_TOKEN)",
      "  --roles <list>         passwd, token: roles to grant (default: read for passwd, write for token)");

  private ChronixCli() {}

  public static void main(String[] args) {
    // Solr's Jersey logs a harmless provider warning through java.util.logging at every start
    java.util.logging.Logger.getLogger("org.glassfish.jersey").setLevel(java.util.logging.Level.SEVERE);
    System.exit(run(args));
  }

  static int run(String[] args) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      System.out.println(USAGE);
      return args.length == 0 ? 2 : 0;
    }
    try {
      Options options = Options.parse(args);
      switch (args[0]) {
        case "start":
          return start(options);
        case "import":
          return importFiles(options);
        case "tune":
          return tune(options);
        case "passwd":
          return passwd(options);
        case "token":
          return token(options);
        default:
          System.err.println("chronix: unknown command '" + args[0] + "'\n" + USAGE);
          return 2;
      }
    } catch (IllegalArgumentException e) {
      System.err.println("chronix: " + e.getMessage());
      return 2;
    } catch (Exception e) {
      System.err.println("chronix: " + e);
      return 1;
    }
  }

  private static int start(Options options) throws Exception {
    if (!options.files.isEmpty()) {
      throw new IllegalArgumentException("start takes no file arguments: " + options.files);
    }
    ChronixServer server = new ChronixServer(options.config()).start();
    CountDownLatch stopped = new CountDownLatch(1);
    // SIGTERM and Ctrl-C run this hook: buffered points are written before the JVM exits
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
      } catch (Exception e) {
        System.err.println("chronix: clean stop failed: " + e);
      } finally {
        stopped.countDown();
      }
    }, "chronix-shutdown"));
    System.out.println("Chronix server ready at " + server.baseUrl() + " (Solr at " + server.solrUrl() + ")");
    stopped.await();
    return 0;
  }

  private static int importFiles(Options options) throws Exception {
    if (options.files.isEmpty()) {
      throw new IllegalArgumentException("import needs at least one file or directory");
    }
    ServerConfig config = options.config();
    URI server = URI.create("http://" + config.host() + ":" + config.port());
    List<Path> files = CsvImporter.expand(options.files);
    CsvImporter importer = new CsvImporter(server, options.zone, System.err, System.console() != null)
        .withToken(options.token);
    CsvImporter.Summary summary;
    try {
      summary = importer.importFiles(files, options.parallel);
    } catch (ConnectException e) {
      System.err.println("chronix: no Chronix server answers at " + server
          + " (start one with ./chronix start, or pass the port it uses with --http-port)");
      return 3;
    }
    System.out.printf("imported %,d points from %d files in %.1f s (%,.0f points/s)%n", summary.points(),
        summary.files() - summary.failures().size(), summary.nanos() / 1e9, summary.pointsPerSecond());
    for (String failure : summary.failures()) {
      System.err.println("chronix: failed: " + failure);
    }
    return summary.failures().isEmpty() ? 0 : 1;
  }

  private static int tune(Options options) throws Exception {
    if (options.files.isEmpty()) {
      throw new IllegalArgumentException("tune needs training files or directories");
    }
    List<P4File> training = new ArrayList<>();
    for (Path file : CsvImporter.expand(options.files)) {
      training.add(new P4CsvReader(options.zone).read(file));
    }
    Tuner tuner = Tuner.standard();
    List<Tuner.Row> rows = tuner.measure(training);
    System.out.println("estimated bytes per point in the store, by metric pattern and chunk compression/points:");
    StringBuilder header = new StringBuilder(String.format("%-60s %6s %9s", "pattern", "series", "points"));
    for (Tuner.Candidate candidate : tuner.candidates()) {
      header.append(String.format(" %11s", candidate.label()));
    }
    System.out.println(header.append("  best"));
    for (Tuner.Row row : rows) {
      StringBuilder line = new StringBuilder(String.format("%-60s %6d %9d", abbreviate(row.pattern()), row.series(), row.points()));
      for (double cost : row.bytesPerPoint()) {
        line.append(String.format(" %11.3f", cost));
      }
      System.out.println(line.append("  ").append(row.best().label()));
    }
    Map<String, String> settings = tuner.recommendation(rows, training);
    String config = Tuner.properties(settings,
        "recommended by chronix tune from " + training.size() + " series");
    if (options.out != null) {
      Files.writeString(options.out, config);
      System.out.println("wrote " + options.out + "; use it with: chronix start --config " + options.out);
    } else {
      System.out.print(config);
    }
    return 0;
  }

  private static int passwd(Options options) throws IOException {
    String name = singleName(options, "passwd");
    Set<Role> roles = Role.parseList(options.roles == null ? "read" : options.roles, "--roles");
    char[] password = readPassword(name);
    if (password.length < 8) {
      throw new IllegalArgumentException("a password needs at least 8 characters");
    }
    System.out.println("auth.user." + name + ".roles=" + roleList(roles));
    System.out.println("auth.user." + name + ".password=" + PasswordHash.hash(password));
    java.util.Arrays.fill(password, '\0');
    return 0;
  }

  private static int token(Options options) {
    String name = singleName(options, "token");
    Set<Role> roles = Role.parseList(options.roles == null ? "write" : options.roles, "--roles");
    byte[] random = new byte[32];
    new java.security.SecureRandom().nextBytes(random);
    String token = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    System.err.println("token (shown once; give it to the client as 'Authorization: Bearer <token>'):");
    System.out.println(token);
    System.err.println("settings for the server's config:");
    System.out.println("auth.token." + name + ".roles=" + roleList(roles));
    System.out.println("auth.token." + name + ".sha256=" + Credentials.hashToken(token));
    return 0;
  }

  private static String singleName(Options options, String command) {
    if (options.files.size() != 1 || !options.files.get(0).toString().matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException(command + " needs one name of letters, digits, '_' or '-'");
    }
    return options.files.get(0).toString();
  }

  private static String roleList(Set<Role> roles) {
    return String.join(",", roles.stream().map(r -> r.name().toLowerCase(java.util.Locale.ROOT)).toList());
  }

  /** From the console without echo, or the first line of standard input (scripts). */
  private static char[] readPassword(String name) throws IOException {
    java.io.Console console = System.console();
    if (console != null) {
      char[] first = console.readPassword("password for %s: ", name);
      char[] again = console.readPassword("again: ");
      if (first == null || again == null || !java.util.Arrays.equals(first, again)) {
        throw new IllegalArgumentException("the passwords differ");
      }
      return first;
    }
    String line = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))
        .readLine();
    if (line == null) {
      throw new IllegalArgumentException("no password on standard input");
    }
    return line.toCharArray();
  }

  private static String abbreviate(String text) {
    return text.length() <= 60 ? text : text.substring(0, 28) + "..." + text.substring(text.length() - 29);
  }

  /** Parsed command line. */
  static final class Options {
    Path configFile;
    final Map<String, String> settings = new LinkedHashMap<>();
    final List<Path> files = new ArrayList<>();
    ZoneId zone = ZoneId.of("UTC");
    Path out;
    int parallel = 2;
    String roles;
    String token = System.getenv("CHRONIX_TOKEN");

    static Options parse(String[] args) {
      Options options = new Options();
      for (int i = 1; i < args.length; i++) {
        String arg = args[i];
        if (!arg.startsWith("--")) {
          options.files.add(Path.of(arg));
          continue;
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(arg + " needs a value");
        }
        String value = args[++i];
        switch (arg) {
          case "--config":
            options.configFile = Path.of(value);
            break;
          case "--http-port":
            options.settings.put("http.port", value);
            break;
          case "--host":
            options.settings.put("http.host", value);
            break;
          case "--data-dir":
            options.settings.put("data.dir", value);
            break;
          case "--solr-url":
            options.settings.put("solr.url", value);
            break;
          case "--zk":
            options.settings.put("solr.zkHost", value);
            break;
          case "--set": {
            int equals = value.indexOf('=');
            if (equals <= 0) {
              throw new IllegalArgumentException("--set needs key=value, not '" + value + "'");
            }
            options.settings.put(value.substring(0, equals).trim(), value.substring(equals + 1).trim());
            break;
          }
          case "--out":
            options.out = Path.of(value);
            break;
          case "--zone":
            options.zone = ZoneId.of(value);
            break;
          case "--parallel":
            options.parallel = Integer.parseInt(value);
            break;
          case "--roles":
            options.roles = value;
            break;
          case "--token":
            options.token = value;
            break;
          default:
            throw new IllegalArgumentException("unknown option " + arg + "\n" + USAGE);
        }
      }
      return options;
    }

    ServerConfig config() throws java.io.IOException {
      ServerConfig config = ServerConfig.defaults();
      if (configFile != null) {
        config = config.withFile(configFile);
      }
      ServerConfig result = config.with(settings);
      result.port(); // validate early, with the key's name in the message
      result.chunkMaxAge();
      result.flushInterval();
      result.codec();
      return result;
    }
  }
}
