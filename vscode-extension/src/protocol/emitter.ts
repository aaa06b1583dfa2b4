import { Disposable } from "./connection";

/** A list of listeners for one kind of value. A listener that throws does not stop the others. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  on(listener: (value: T) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        console.error("roundhouse: a listener failed", error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
