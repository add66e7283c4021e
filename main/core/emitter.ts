// The core's one typed listener list: a module that tells others about a change holds an Emitter
// and hands out its `subscribe`. Listeners run in the order they subscribed; one that throws never
// stops the others or the emitter (its error goes to `onError`, when given).

export type Unsubscribe = () => void;

export class Emitter<Args extends unknown[]> {
  private readonly listeners = new Set<(...args: Args) => void>();

  constructor(private readonly onError?: (error: unknown) => void) {}

  /** Adds `listener`; the function returned removes it. */
  subscribe(listener: (...args: Args) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(...args: Args): void {
    for (const l of this.listeners) {
      try {
        l(...args);
      } catch (e) {
        this.onError?.(e);
      }
    }
  }

  /** How many listeners are subscribed. */
  get size(): number {
    return this.listeners.size;
  }
}
