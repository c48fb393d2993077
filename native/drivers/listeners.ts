/**
 * A set of listeners where one throwing listener cannot starve the others or break the driver's read
 * loop: a UI handler's bug must not drop the next card swipe.
 */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();
  private readonly onListenerError: (err: unknown) => void;

  constructor(onListenerError: (err: unknown) => void = () => undefined) {
    this.onListenerError = onListenerError;
  }

  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(value: T): void {
    for (const l of [...this.set]) {
      try {
        l(value);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  get size(): number {
    return this.set.size;
  }

  clear(): void {
    this.set.clear();
  }
}
