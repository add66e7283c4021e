// The words for a run stopped by a transient fault say what happened: a failing service (5xx) is
// not "could not be reached", and an exam removed after a lost create answer in this run is not
// "left half-made by an interrupted run".
import { describe, expect, it } from 'vitest';
import { orphanRemovedMessage, transientFailureMessage } from '@main/core/upload/ports/failure-text';
import { ExamsPortError } from '@main/core/upload/ports/ports';

describe('failure texts', () => {
  it('tells a failing service from an unreachable one and from a slow one', () => {
    const failed = transientFailureMessage(
      new ExamsPortError('transient', 'The service had a problem.', { status: 500, code: 'internal_error' }),
    );
    expect(failed).toContain('The service failed');
    expect(failed).toContain('HTTP 500');
    expect(failed).not.toContain('could not be reached');
    expect(
      transientFailureMessage(new ExamsPortError('transient', 'connect ECONNREFUSED', { code: 'network' })),
    ).toContain('could not be reached');
    expect(transientFailureMessage(new ExamsPortError('transient', 'took too long', { code: 'timeout' }))).toContain(
      'did not answer in time',
    );
  });

  it('says whose create left the exam behind', () => {
    expect(orphanRemovedMessage('ex_1', true)).not.toContain('interrupted run');
    expect(orphanRemovedMessage('ex_1', true)).toContain('answer to the create request was lost');
    expect(orphanRemovedMessage('ex_1', false)).toContain('left half-made by an interrupted run');
  });
});
