package io.joblib4j.internal.memory;

import java.nio.file.attribute.FileTime;
import java.util.Map;

/**
 * What one {@code stat} says of a regular file that changes whenever the file is replaced or
 * rewritten: its device and inode, size, modification time, and change time. The change time cannot
 * be set back by a user ({@code touch -r} sets the modification time and moves the change time
 * forward), so a file rewritten in place with the same size and its old modification time still
 * gets a new stamp. Two stamps are equal only for the same, unchanged file, provided the change
 * happened in a later clock tick of the file system than the stamp's change time ({@link
 * OutputCache} holds only files whose change time has settled).
 */
record FileStamp(Object device, Object inode, long size, FileTime modified, FileTime changed) {
  /** The attributes of the {@code unix} view a stamp is made of, read with one {@code stat}. */
  static final String ATTRIBUTES = "unix:dev,ino,size,lastModifiedTime,ctime,isRegularFile";

  /** The stamp in {@code attributes} (read with {@link #ATTRIBUTES}), or null if it is not a regular file. */
  static FileStamp of(Map<String, Object> attributes) {
    if (!Boolean.TRUE.equals(attributes.get("isRegularFile"))) {
      return null;
    }
    return new FileStamp(attributes.get("dev"), attributes.get("ino"), (Long) attributes.get("size"),
        (FileTime) attributes.get("lastModifiedTime"), (FileTime) attributes.get("ctime"));
  }
}
