/** The command line's -spark jar run by spark-submit on this Spark line (tests only). */
package io.joblib4j.cli.line;
