package org.apache.spark.sql.connect;

/** Stands for a Spark Connect client session, which the stage cache recognizes by its package. */
public final class FakeConnectSession {}
