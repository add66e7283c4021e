// The contract's events inside the core: services emit, transports (IPC, SSE) subscribe.
import type { EventName, Events } from '../../../../preload/contract';
import type { EventListener } from './contract-host';

/** A typed event fan-out; a failing listener never affects the others or the emitter. */
export class EventHub {
  private readonly listeners = new Set<EventListener>();

  emit<E extends EventName>(name: E, payload: Events[E]): void {
    for (const l of this.listeners) {
      try {
        l(name, payload);
      } catch {
        // A closed window or a broken stream must not stop the agent.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
