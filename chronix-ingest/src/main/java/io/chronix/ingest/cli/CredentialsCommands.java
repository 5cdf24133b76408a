package io.chronix.ingest.cli;

import io.chronix.ingest.security.Credentials;
import io.chronix.ingest.security.PasswordHash;
import io.chronix.ingest.security.Role;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code passwd} and {@code token}: the settings of a user or an API token (docs/security.md). */
final class CredentialsCommands {

  private CredentialsCommands() {}

  @Command(name = "passwd", description = "Read a password (console or stdin) and print the user's settings.")
  static final class Passwd implements Callable<Integer> {

    @Parameters(paramLabel = "<user>", description = "letters, digits, '_' or '-'")
    String name;

    @Option(names = "--roles", paramLabel = "<list>", description = "roles to grant: read, write, admin (default read)")
    String roles = "read";

    @Override
    public Integer call() throws IOException {
      checkName(name, "passwd");
      Set<Role> granted = Role.parseList(roles, "--roles");
      char[] password = readPassword(name);
      if (password.length < 8) {
        throw new IllegalArgumentException("a password needs at least 8 characters");
      }
      System.out.println("auth.user." + name + ".roles=" + roleList(granted));
      System.out.println("auth.user." + name + ".password=" + PasswordHash.hash(password));
      Arrays.fill(password, '\0');
      return 0;
    }
  }

  @Command(name = "token", description = "Make an API token and print it with its settings.")
  static final class Token implements Callable<Integer> {

    @Parameters(paramLabel = "<name>", description = "letters, digits, '_' or '-'")
    String name;

    @Option(names = "--roles", paramLabel = "<list>", description = "roles to grant: read, write, admin (default write)")
    String roles = "write";

    @Override
    public Integer call() {
      checkName(name, "token");
      Set<Role> granted = Role.parseList(roles, "--roles");
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
      System.err.println("token (shown once; give it to the client as 'Authorization: Bearer <token>'):");
      System.out.println(token);
      System.err.println("settings for the server's config:");
      System.out.println("auth.token." + name + ".roles=" + roleList(granted));
      System.out.println("auth.token." + name + ".sha256=" + Credentials.hashToken(token));
      return 0;
    }
  }

  private static void checkName(String name, String command) {
    if (!name.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException(command + " needs one name of letters, digits, '_' or '-'");
    }
  }

  private static String roleList(Set<Role> roles) {
    return String.join(",", roles.stream().map(r -> r.name().toLowerCase(Locale.ROOT)).toList());
  }

  /** From the console without echo, or the first line of standard input (scripts). */
  private static char[] readPassword(String name) throws IOException {
    java.io.Console console = System.console();
    if (console != null) {
      char[] first = console.readPassword("password for %s: ", name);
      char[] again = console.readPassword("again: ");
      if (first == null || again == null || !Arrays.equals(first, again)) {
        throw new IllegalArgumentException("the passwords differ");
      }
      return first;
    }
    String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    if (line == null) {
      throw new IllegalArgumentException("no password on standard input");
    }
    return line.toCharArray();
  }
}
