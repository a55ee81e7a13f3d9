package io.joblib4j.spi.worker;

import org.apiguardian.api.API;

/**
 * What a worker reported about a batch that did not succeed, as it came off the wire: hand it to
 * {@link BatchCodec#failed}, which turns it into the caller's exception.
 *
 * @param kind what went wrong
 * @param task the index in the batch of the task concerned, or -1
 * @param message the worker's description
 * @param className the class at fault, or null
 * @param path the field path to the object at fault, or ""
 * @param exception the serialized exception, or empty if it could not be serialized
 * @param standIn a serialized {@link io.joblib4j.RemoteTaskException} standing in for it, or empty
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record FailureReport(FailureKind kind, int task, String message, String className, String path,
    byte[] exception, byte[] standIn) {}
