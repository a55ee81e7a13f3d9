/**
 * engine-api's implementation of the worker protocol of {@link io.joblib4j.spi.worker}, installed
 * as its {@link io.joblib4j.spi.worker.WorkerProtocol}: {@link io.joblib4j.internal.worker.ServingLoop}
 * on the worker side, {@link io.joblib4j.internal.worker.Link} and {@link
 * io.joblib4j.internal.worker.Codec} on the parent's, the frames ({@code Frames}), Java
 * serialization with class checks ({@code WireOutput}, {@code WireInput}), the plain encodings of
 * batches and results that need no Java serialization ({@code PlainBatches}, {@code PlainResults},
 * {@code CompactTasks}, {@code CompactValues}, {@code TaggedValues}), and the field-path
 * diagnosis of what cannot travel ({@code Diagnosis}, {@code ObjectPaths}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
package io.joblib4j.internal.worker;

import org.apiguardian.api.API;
