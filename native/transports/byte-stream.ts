/**
 * The one byte-level contract every device speaks through: a driver or a simulator takes a ByteStream,
 * so the same code runs over a real serial port, a socat pty, an in-memory pair or a recorded replay
 * (the node-serialport binding/binding-mock split).
 */
export type ByteStream = {
  readonly label: string;
  readonly isOpen: boolean;
  write(data: Uint8Array): Promise<void>;
  /** Returns an unsubscribe function. */
  onData(listener: (chunk: Uint8Array) => void): () => void;
  /** Fires once when the stream ends: unplugged, closed by the peer or by us. */
  onClose(listener: (reason: Error | undefined) => void): () => void;
  close(): Promise<void>;
};

type Side = {
  stream: ByteStream;
  deliver(chunk: Uint8Array): void;
  end(reason: Error | undefined): void;
};

function createSide(label: string, peer: () => Side): Side {
  const dataListeners = new Set<(chunk: Uint8Array) => void>();
  const closeListeners = new Set<(reason: Error | undefined) => void>();
  let open = true;
  const side: Side = {
    stream: {
      label,
      get isOpen() {
        return open;
      },
      write(data) {
        if (!open) return Promise.reject(new Error(`${label} is closed`));
        const copy = Uint8Array.from(data);
        // Deliver asynchronously, as a real port does, so callers never re-enter themselves.
        setImmediate(() => peer().deliver(copy));
        return Promise.resolve();
      },
      onData(listener) {
        dataListeners.add(listener);
        return () => dataListeners.delete(listener);
      },
      onClose(listener) {
        closeListeners.add(listener);
        return () => closeListeners.delete(listener);
      },
      close() {
        side.end(undefined);
        peer().end(new Error('peer closed'));
        return Promise.resolve();
      },
    },
    deliver(chunk) {
      if (!open) return;
      for (const l of dataListeners) l(chunk);
    },
    end(reason) {
      if (!open) return;
      open = false;
      for (const l of closeListeners) l(reason);
    },
  };
  return side;
}

/** Two connected in-process streams: what one writes, the other receives. */
export function createMemoryPair(labelA = 'memory-a', labelB = 'memory-b'): [ByteStream, ByteStream] {
  const a: Side = createSide(labelA, () => b);
  const b: Side = createSide(labelB, () => a);
  return [a.stream, b.stream];
}
