// What the agent does when the queue reports on a job: a ready exam marks its inbox item uploaded,
// notifies, tells the activity and the recorder; a job that ends sends the item back for review and
// notifies a failure; a superseded job leaves the item and its claim to the upload that replaces it.
import { describe, expect, it } from 'vitest';
import type { InboxItem, UploadJobView } from '@preload/contract';
import type { UploadNotice } from '@main/core/agent/host/upload-notices';
import { ActivityHub, type JobOrigin } from '@main/core/agent/pipeline/agent-activity';
import { jobOrigin, queueHooks } from '@main/core/agent/queue-hooks';
import type { UploadResult } from '@main/core/upload/job/engine';

const fields = {
  id: 'item-1',
  folder_id: 'folder-1',
  export_path: '/exports/a',
  study_uid: '1.2.3',
  status: 'queued',
} as const;
const item = fields as unknown as InboxItem;
const viewOf = (over: Partial<UploadJobView>): UploadJobView =>
  ({ id: 'job-1', inbox_id: 'item-1', name: 'CBCT', phase: 'ready', ...over }) as UploadJobView;

function setUp() {
  const statuses: [string, InboxItem['status'], string | null][] = [];
  const items = new Map([[item.id, item]]);
  const inbox = {
    has: (id: string) => items.has(id),
    get: (id: string) => items.get(id) ?? item,
    setStatus: (id: string, status: InboxItem['status'], jobId: string | null) =>
      void statuses.push([id, status, jobId]),
  };
  const recorded: string[] = [];
  const recorder = {
    ready: async (view: UploadJobView) => void recorded.push(`ready ${view.id}`),
    ended: async (view: UploadJobView) => void recorded.push(`ended ${view.id}`),
  };
  const activity = new ActivityHub();
  const seen: string[] = [];
  const see = (name: string) => (e: { origin: JobOrigin }) => void seen.push(`${name} ${e.origin?.folderId ?? 'none'}`);
  activity.on('upload:ready', see('upload:ready'));
  activity.on('upload:ended', see('upload:ended'));
  activity.on('upload:struggling', see('upload:struggling'));
  const notices: UploadNotice[] = [];
  const shares = { sweep: async () => void recorded.push('share sweep') };
  const hooks = queueHooks({ inbox, recorder, activity, notify: (kind) => notices.push(kind), shares });
  return { hooks, statuses, recorded, seen, notices };
}

describe('queue hooks', () => {
  it('record a ready exam: inbox item uploaded, a notice, the activity with its origin, the recorder', async () => {
    const t = setUp();
    const result = { files: 3, bytes: 300 } as UploadResult;
    await t.hooks.onReady(viewOf({}), { source: 'review', ledger: null, result });
    expect(t.statuses).toEqual([['item-1', 'uploaded', 'job-1']]);
    expect(t.notices).toEqual(['exam_ready']);
    expect(t.seen).toEqual(['upload:ready folder-1']);
    // Then the e-mails the uploads asked for (share-on-ready).
    expect(t.recorded).toEqual(['ready job-1', 'share sweep']);
  });

  it('send a failed job back to review with a notice, and a cancelled one without', () => {
    const t = setUp();
    t.hooks.onEnded(viewOf({ phase: 'failed' }), { source: 'auto', superseded: false });
    t.hooks.onEnded(viewOf({ phase: 'cancelled' }), { source: 'auto', superseded: false });
    expect(t.statuses).toEqual([
      ['item-1', 'review', null],
      ['item-1', 'review', null],
    ]);
    expect(t.notices).toEqual(['upload_failed']);
    expect(t.recorded).toEqual(['ended job-1', 'ended job-1']);
  });

  it('leave a superseded job to its successor: no review, no release, no notice', () => {
    const t = setUp();
    t.hooks.onEnded(viewOf({ phase: 'cancelled' }), { source: 'auto', superseded: true });
    expect(t.seen).toEqual(['upload:ended folder-1']);
    expect(t.statuses).toEqual([]);
    expect(t.recorded).toEqual([]);
    expect(t.notices).toEqual([]);
  });

  it('tell a struggling job to the activity and the user', () => {
    const t = setUp();
    t.hooks.onStruggling(viewOf({ phase: 'failed' }));
    expect(t.seen).toEqual(['upload:struggling folder-1']);
    expect(t.notices).toEqual(['upload_retrying']);
  });

  it('give no origin to a job without an inbox item, or whose item is gone', () => {
    const inbox = { has: (id: string) => id === 'item-1', get: () => item };
    expect(jobOrigin(inbox, viewOf({}))).toEqual({
      folderId: 'folder-1',
      exportPath: '/exports/a',
      study_uid: '1.2.3',
    });
    expect(jobOrigin(inbox, viewOf({ inbox_id: null }))).toBeNull();
    expect(jobOrigin(inbox, viewOf({ inbox_id: 'item-2' }))).toBeNull();
  });
});
