package io.chronix.ingest.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code chronix <command> ...}: the subcommands parsed by picocli (help per command with
 * {@code --help}, suggestions for mistyped commands and options). Exit codes: 0 done, 1 failed,
 * 2 wrong usage or settings, 3 no server answers (commands that talk to a running server).
 */
// INHERIT: every command takes --help, as the usage and README promise, not only the top one
@Command(name = "chronix", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT,
    versionProvider = ChronixCli.Version.class,
    description = "Chronix: an operational time series store.",
    subcommands = {StartCommand.class, ImportCommand.class, TuneCommand.class, CredentialsCommands.Passwd.class,
        CredentialsCommands.Token.class, BackupCommands.Backup.class, BackupCommands.Restore.class,
        ExportCommand.class,
        CommandLine.HelpCommand.class})
public final class ChronixCli implements Runnable {

  static final int USAGE = CommandLine.ExitCode.USAGE;

  public static void main(String[] args) {
    // Solr's Jersey logs a harmless provider warning through java.util.logging at every start
    java.util.logging.Logger.getLogger("org.glassfish.jersey").setLevel(java.util.logging.Level.SEVERE);
    System.exit(run(args));
  }

  static int run(String[] args) {
    CommandLine cli = new CommandLine(new ChronixCli())
        .setOut(new PrintWriter(System.out, true))
        .setErr(new PrintWriter(System.err, true))
        .setExecutionExceptionHandler((e, command, parsed) -> {
          command.getErr().println("chronix: " + (e instanceof IllegalArgumentException ? e.getMessage() : e));
          return e instanceof IllegalArgumentException ? USAGE : CommandLine.ExitCode.SOFTWARE;
        });
    if (args.length == 0) {
      cli.usage(cli.getErr());
      return USAGE;
    }
    return cli.execute(args);
  }

  /** {@code chronix} alone: the usage. */
  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** The version in the server jar's manifest; none when run from classes (tests, IDEs). */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = ChronixCli.class.getPackage().getImplementationVersion();
      return new String[] {"chronix " + (version == null ? "(development build)" : version)};
    }
  }
}
