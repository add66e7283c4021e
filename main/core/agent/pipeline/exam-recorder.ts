// The one place that remembers an uploaded study, for automatic and reviewed uploads alike: when
// the queue reports an exam ready, the share's done marker first (other workstations honour it;
// a crash right after it leaves a marker this agent also honours on restart), then the local
// ledger. It also holds this agent's claims on the share while their uploads are under way, and
// gives a claim up when its upload ends without an exam.
import type { UploadJobView } from '../../../../preload/contract';
import type { Claim, Ledger, LedgerKey } from '../../watch';
import { tryClaim, writeDoneMarker } from '../../watch';
import type { Logger } from '../../log';
import type { Inbox } from '../inbox/inbox';

export type ReadyInfo = {
  ledger: (LedgerKey & { files: number; bytes: number }) | null;
  result: { exam_id: string; files: number; bytes: number };
};

export class ExamRecorder {
  /** Claims this agent holds, by inbox item. */
  private readonly claims = new Map<string, Claim>();

  constructor(private readonly o: { ledger: Ledger; inbox: Inbox; agentId: string; log: Logger }) {}

  /**
   * Before staff's upload of a reviewed study: claims it on the share, as automatic uploads are
   * claimed, so that two workstations reviewing the same export make one exam. `force` (the study
   * changed since it was uploaded, and staff chose to upload it again) ignores the done marker.
   */
  async claimForReview(
    inboxId: string,
    exportPath: string,
    key: LedgerKey,
    force: boolean,
  ): Promise<{ kind: 'won'; claim: Claim | null } | { kind: 'done'; exam_id: string } | { kind: 'held'; by: string }> {
    if (this.claims.has(inboxId)) return { kind: 'won', claim: null };
    const outcome = await tryClaim(exportPath, key, { agentId: this.o.agentId, force });
    switch (outcome.kind) {
      case 'won':
        return { kind: 'won', claim: outcome.claim };
      case 'unclaimable':
        return { kind: 'won', claim: null };
      case 'held':
        return { kind: 'held', by: outcome.by };
      case 'done':
        // The same files went up from another workstation: this one records it too.
        if (outcome.same)
          await this.o.ledger.record(
            { ...key, files: outcome.marker.files, bytes: outcome.marker.bytes },
            outcome.marker.exam_id,
            'elsewhere',
          );
        return { kind: 'done', exam_id: outcome.marker.exam_id };
    }
  }

  /** Keeps `claim` until the item's upload ends; `onLost` runs if another computer takes it over. */
  hold(inboxId: string, claim: Claim, onLost: () => void): void {
    const old = this.claims.get(inboxId);
    if (old === claim) return;
    if (old) void old.release();
    this.claims.set(inboxId, claim);
    claim.lost.addEventListener(
      'abort',
      () => {
        if (this.claims.get(inboxId) === claim) this.claims.delete(inboxId);
        onLost();
      },
      { once: true },
    );
  }

  holds(inboxId: string): boolean {
    return this.claims.has(inboxId);
  }

  /** The exam is ready: done marker on the share, then the ledger. */
  async ready(view: UploadJobView, info: ReadyInfo): Promise<void> {
    const claim = view.inbox_id ? this.claims.get(view.inbox_id) : undefined;
    if (view.inbox_id) this.claims.delete(view.inbox_id);
    const key = info.ledger;
    if (!key) return;
    const { exam_id: examId, files, bytes } = info.result;
    const exportPath =
      claim?.exportDir ??
      (view.inbox_id && this.o.inbox.has(view.inbox_id) ? this.o.inbox.get(view.inbox_id).export_path : null);
    try {
      // A claim taken for earlier files of the study (superseded since) would mark the wrong file set.
      if (claim && claim.key.fingerprint === key.fingerprint) await claim.complete(examId, files, bytes);
      else if (claim) {
        await writeDoneMarker(claim.exportDir, key, { agentId: this.o.agentId, examId, files, bytes });
        await claim.release();
      } else if (exportPath) await writeDoneMarker(exportPath, key, { agentId: this.o.agentId, examId, files, bytes });
    } catch {
      // Paths name patients: the code of the failure only.
      this.o.log.warn('exam ready, but its done marker could not be written on the share', { exam_id: examId });
    }
    await this.o.ledger.record({ study_uid: key.study_uid, fingerprint: key.fingerprint, files, bytes }, examId);
  }

  /**
   * The upload ended without an exam (failed for good, or cancelled by staff): another computer may
   * take the study. (An upload superseded by the study's new files is not ended: its claim stays
   * for the upload that replaces it.)
   */
  async ended(view: UploadJobView): Promise<void> {
    if (view.inbox_id) await this.release(view.inbox_id);
  }

  /** Gives up the claim held for an inbox item, if any. */
  async release(inboxId: string): Promise<void> {
    const claim = this.claims.get(inboxId);
    if (!claim) return;
    this.claims.delete(inboxId);
    await claim.release();
  }

  /** On shutdown: the uploads resume on the next start, which claims again. */
  async releaseAll(): Promise<void> {
    const all = [...this.claims.values()];
    this.claims.clear();
    await Promise.allSettled(all.map((c) => c.release()));
  }
}
