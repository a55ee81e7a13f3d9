package io.joblib4j.internal.processes;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * The parent's deserialization of what workers send back, with {@link ClassDescriptors}. Classes
 * are looked up in the calling thread's context class loader first — where Spark and notebooks put
 * user classes — since the default would use joblib4j's own loader, which may not see them.
 */
final class ResultInput extends ObjectInputStream {
  private final ClassLoader loader;

  ResultInput(byte[] bytes, ClassLoader loader) throws IOException {
    super(new ByteArrayInputStream(bytes));
    this.loader = loader;
    enableResolveObject(true);
  }

  /** A result that is the user's mapped NDArray comes back mapped on the same file. */
  @Override
  protected Object resolveObject(Object obj) {
    return obj instanceof SharedNDArrayRef ref ? io.joblib4j.array.NDArray.map(ref.mapping()) : obj;
  }

  @Override
  protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
    return ClassDescriptors.read(this, loader);
  }

  @Override
  protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
    return ClassDescriptors.load(desc.getName(), loader);
  }
}
