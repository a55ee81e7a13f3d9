package io.joblib4j.cli;

import io.joblib4j.cli.internal.Cli;
import java.io.PrintStream;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The {@code joblib4j} command: {@code java -jar joblib4j-cli.jar ls hdfs://nn/cache}, or {@code
 * spark-submit --class io.joblib4j.cli.Main joblib4j-cli-<version>-spark.jar ls hdfs://nn/cache} on a
 * cluster. {@code joblib4j help} lists the commands.
 *
 * <h2>Exit codes</h2>
 *
 * A script can rely on these:
 *
 * <table>
 *   <caption>exit codes</caption>
 *   <tr><th>code</th><th>meaning</th></tr>
 *   <tr><td>{@value #OK}</td><td>done; nothing to report</td></tr>
 *   <tr><td>{@value #FINDINGS}</td><td>done, and found something a script should act on: {@code verify}
 *       found damaged entries or abandoned temporaries (and without {@code --repair} left them), {@code
 *       rm} or {@code show} matched nothing</td></tr>
 *   <tr><td>{@value #USAGE}</td><td>the command line is wrong: unknown command or option, a bad size,
 *       age or {@code --conf}, a URI no store serves; nothing was read or changed</td></tr>
 *   <tr><td>{@value #UNREACHABLE}</td><td>the location cannot be used: it does not exist, or it cannot be
 *       reached, read or written (an I/O error, a NameNode down, permission denied: the message names the
 *       path and the cause), or {@code verify} could not read some of the cache's files</td></tr>
 *   <tr><td>{@value #NO_CACHE}</td><td>a command that deletes ({@code rm}, {@code prune}, {@code verify
 *       --repair}, {@code stages rm/clear/prune/sweep}) was pointed at a location that holds no joblib4j
 *       cache; nothing was changed there</td></tr>
 * </table>
 *
 * The same situation has the same code in every command, Memory's and the stage cache's: nothing
 * matched ({@code rm} of an unknown function, key or stage, {@code stages clear} of an unknown stage)
 * is {@value #FINDINGS}.
 *
 * Results go to standard output (tables, or JSON with {@code --json}); messages, warnings and the
 * progress bar (only when standard error is a terminal) to standard error.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Main {
  /** Exit code: done, nothing to report. */
  public static final int OK = 0;
  /** Exit code: done, and found something to act on (damage found by {@code verify}, nothing matched). */
  public static final int FINDINGS = 1;
  /** Exit code: the command line is wrong; nothing was read or changed. */
  public static final int USAGE = 2;
  /** Exit code: the location does not exist or cannot be reached, read or written. */
  public static final int UNREACHABLE = 3;
  /** Exit code: a command that deletes found no joblib4j cache at the location, and changed nothing. */
  public static final int NO_CACHE = 4;

  private Main() {}

  /**
   * Runs the command and exits the JVM with its {@linkplain Main exit code}.
   *
   * @param args the command line, e.g. {@code ls /data/cache --json}
   */
  public static void main(String[] args) {
    int code = run(args, System.out, System.err, System.getenv());
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }

  /**
   * Runs the command in this JVM without exiting it.
   *
   * @param args the command line
   * @param out where results go (standard output)
   * @param err where messages go (standard error)
   * @param environment the environment to read {@code HADOOP_CONF_DIR} from
   * @return the {@linkplain Main exit code}
   */
  public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> environment) {
    return Cli.run(new Joblib4jCommand(), args, out, err, environment);
  }
}
