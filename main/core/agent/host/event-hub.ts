// The contract's events inside the core: services emit, transports (IPC, SSE) subscribe.
import type { EventName, Events } from '../../../../preload/contract';
import type { EventListener } from './contract-host';
import { Emitter } from '../../emitter';

/** A typed event fan-out; a failing listener never affects the others or the emitter. */
export class EventHub {
  /** A closed window or a broken stream must not stop the agent. */
  private readonly events = new Emitter<[EventName, Events[EventName]]>();

  emit<E extends EventName>(name: E, payload: Events[E]): void {
    this.events.emit(name, payload);
  }

  subscribe(listener: EventListener): () => void {
    return this.events.subscribe(listener);
  }
}
