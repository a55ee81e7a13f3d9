package io.joblib4j.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code joblib4j --version}: the jar's Implementation-Version. */
final class Version implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = Main.class.getPackage().getImplementationVersion();
    return new String[] {"joblib4j " + (v == null ? "(development build)" : v),
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
  }
}
