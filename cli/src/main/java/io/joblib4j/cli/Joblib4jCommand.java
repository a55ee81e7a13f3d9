package io.joblib4j.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;

/** {@code joblib4j}: the top command, with the subcommands. */
@Command(name = "joblib4j", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "Inspect and clean joblib4j caches on local disk, HDFS or any Hadoop FileSystem.",
    subcommands = {HelpCommand.class, LsCommand.class, DuCommand.class, ShowCommand.class, ExplainCommand.class,
        RmCommand.class, PruneCommand.class, VerifyCommand.class, StagesCommand.class},
    footerHeading = "%nExit codes:%n",
    footer = {"  0  done", "  1  done, with findings (verify found damage; rm or show matched nothing)",
        "  2  usage error (nothing was read or changed)", "  3  the location does not exist or cannot be reached",
        "", "Hadoop settings: $HADOOP_CONF_DIR/core-site.xml and hdfs-site.xml, then --conf KEY=VALUE."})
final class Joblib4jCommand implements Runnable {
  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a command is required (ls, du, show, ...)");
  }
}
