import { describe, expect, it } from 'vitest';
import { PushClock } from '@renderer/src/app/push-clock';

describe('PushClock', () => {
  it('answers the read when no push came while it ran', async () => {
    const clock = new PushClock();
    clock.mark(['inbox']);
    expect(
      await clock.read(
        ['inbox'],
        async () => 'read',
        () => 'pushed',
      ),
    ).toBe('read');
  });

  it('keeps the pushed state when a push arrived during the read', async () => {
    const clock = new PushClock();
    const value = await clock.read(
      ['inbox'],
      async () => {
        clock.mark(['inbox']);
        return 'read (older)';
      },
      () => 'pushed (newer)',
    );
    expect(value).toBe('pushed (newer)');
  });

  it('counts each cache key on its own', async () => {
    const clock = new PushClock();
    const value = await clock.read(
      ['settings'],
      async () => {
        clock.mark(['inbox']);
        return 'read';
      },
      () => 'pushed',
    );
    expect(value).toBe('read');
  });
});
