// The core's typed listener list: listeners in subscription order, removable, and one that throws
// never stops the others or the emitter (its error is handed on when asked).
import { describe, expect, it } from 'vitest';
import { Emitter } from '@main/core/emitter';

describe('Emitter', () => {
  it('calls its listeners in order with the arguments, until they unsubscribe', () => {
    const e = new Emitter<[string, number]>();
    const heard: string[] = [];
    const stopA = e.subscribe((s, n) => heard.push(`a ${s} ${n}`));
    e.subscribe((s, n) => heard.push(`b ${s} ${n}`));
    e.emit('x', 1);
    stopA();
    e.emit('y', 2);
    expect(heard).toEqual(['a x 1', 'b x 1', 'b y 2']);
    expect(e.size).toBe(1);
  });

  it('keeps going past a listener that throws, and hands its error on', () => {
    const errors: unknown[] = [];
    const e = new Emitter<[number]>((err) => errors.push(err));
    const heard: number[] = [];
    e.subscribe(() => {
      throw new Error('closed window');
    });
    e.subscribe((n) => heard.push(n));
    expect(() => e.emit(7)).not.toThrow();
    expect(heard).toEqual([7]);
    expect(errors).toHaveLength(1);
  });

  it('lets a listener unsubscribe itself while it is called', () => {
    const e = new Emitter<[]>();
    let calls = 0;
    const stop = e.subscribe(() => {
      calls++;
      stop();
    });
    e.emit();
    e.emit();
    expect(calls).toBe(1);
  });
});
