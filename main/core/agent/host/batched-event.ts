// A contract event whose payload is only ever the latest value (the rate meter, the inbox's list):
// marked as often as it changes, pushed at most once per interval.
import type { EventName, Events } from '../../../../preload/contract';
import { ChangeBatcher } from './change-batcher';

export type BatchedEvent<T> = { mark(value: T): void; close(): void };

type Emit<E extends EventName> = (name: E, payload: Events[E]) => void;

export function batchedEvent<E extends EventName>(emit: Emit<E>, name: E, intervalMs: number): BatchedEvent<Events[E]> {
  const batcher = new ChangeBatcher<Events[E]>({
    intervalMs,
    push: ([latest]) => {
      if (latest) emit(name, latest);
    },
  });
  return { mark: (value) => batcher.mark(name, value), close: () => batcher.close() };
}
