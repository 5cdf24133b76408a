package io.chronix.ingest.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Segment files on a disk that can fill up or fail fsync, switched by the test: writes beyond the
 * room left fail half-way as a full disk makes them, fsync and directory sync fail on demand.
 */
public final class FaultyFiles implements SegmentFiles {

  /** Bytes that may still be written; negative for unlimited. */
  public final AtomicLong room = new AtomicLong(-1);
  public final AtomicBoolean failFsync = new AtomicBoolean();
  public final AtomicBoolean failCreate = new AtomicBoolean();
  public final AtomicInteger directorySyncs = new AtomicInteger();
  /** Runs at each segment fsync, before it (a test looks at what is buffered meanwhile). */
  public volatile Runnable atFsync = () -> { };
  /** Segment fsyncs that went through. */
  public final AtomicInteger fsyncs = new AtomicInteger();

  @Override
  public FileChannel create(Path file) throws IOException {
    if (failCreate.get()) {
      throw new IOException("No space left on device (creating " + file.getFileName() + ")");
    }
    return new Channel(SegmentFiles.DISK.create(file));
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    if (failFsync.get()) {
      throw new IOException("Input/output error (directory fsync)");
    }
    directorySyncs.incrementAndGet();
    SegmentFiles.DISK.syncDirectory(dir);
  }

  @Override
  public void delete(Path file) throws IOException {
    SegmentFiles.DISK.delete(file);
  }

  private final class Channel extends FileChannel {
    private final FileChannel real;

    Channel(FileChannel real) {
      this.real = real;
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
      long left = room.get();
      if (left >= 0 && source.remaining() > left) {
        // a full disk takes what fits, then fails
        ByteBuffer part = source.slice().limit((int) left);
        int written = real.write(part);
        source.position(source.position() + written);
        room.set(0);
        throw new IOException("No space left on device");
      }
      int written = real.write(source);
      if (left >= 0) {
        room.addAndGet(-written);
      }
      return written;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      atFsync.run();
      if (failFsync.get()) {
        throw new IOException("Input/output error (fsync)");
      }
      real.force(metaData);
      fsyncs.incrementAndGet();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return real.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return real.read(dsts, offset, length);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      long total = 0;
      for (int i = offset; i < offset + length; i++) {
        total += write(srcs[i]);
      }
      return total;
    }

    @Override
    public long position() throws IOException {
      return real.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      real.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return real.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      real.truncate(size);
      return this;
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
      return real.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
      throw new IOException("not used by the log");
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return real.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      throw new IOException("not used by the log");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      throw new IOException("not used by the log");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return real.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return real.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      real.close();
    }
  }
}
