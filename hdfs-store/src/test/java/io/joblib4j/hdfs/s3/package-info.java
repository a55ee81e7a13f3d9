/**
 * S3 in the tests: {@link io.joblib4j.hdfs.s3.S3Server} starts S3Proxy, a real S3 API server, in a
 * JVM of its own, and the ITs here run the store, its commit protocol and Memory against it through
 * hadoop-aws's S3A client.
 */
package io.joblib4j.hdfs.s3;
