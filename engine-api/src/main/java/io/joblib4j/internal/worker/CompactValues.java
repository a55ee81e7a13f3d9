package io.joblib4j.internal.worker;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;
import java.io.StreamCorruptedException;

/**
 * Stands in, inside a serialized outcome, for the batch's array of results, written through
 * {@link TaggedValues} (see {@link CompactTasks} for why); read back, it is the array again.
 */
final class CompactValues implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  private transient Object[] values;

  CompactValues(Object[] values) {
    this.values = values;
  }

  @Serial
  private void writeObject(ObjectOutputStream out) throws IOException {
    out.writeInt(values.length);
    for (Object v : values) {
      TaggedValues.write(out, v);
    }
  }

  @Serial
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    int n = in.readInt();
    if (n < 0) {
      throw new StreamCorruptedException("negative result count " + n);
    }
    values = new Object[n];
    for (int i = 0; i < n; i++) {
      values[i] = TaggedValues.read(in);
    }
  }

  @Serial
  private Object readResolve() throws ObjectStreamException {
    return values;
  }
}
