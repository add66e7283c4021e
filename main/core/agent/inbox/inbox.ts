// The front desk's inbox: every study a watcher found, with its prefill, the edits staff made and
// the series they left out. A study found again (restart, more files) keeps the edits; fields
// staff did not touch follow the new prefill.
import { createHash } from 'node:crypto';
import type { InboxFields, InboxItem, InboxStatus, Language, ReceivedFromView } from '../../../../preload/contract';
import type { Skipped, Study } from '../../dicom';
import { scanFolder, studyFingerprint } from '../../dicom';
import type { ExamFields } from '../../upload/ports';
import { type IncompleteFile, studyIncompleteFiles } from '../../upload/plan';
import type { WatchFolderConfig } from '../../watch';
import { ContractFailure } from '../host/contract-host';
import type { InboxRecord, InboxStore } from './inbox-store';
import { inboxSeries, prefillFields, skippedUnder, studyWarnings } from './inbox-prefill';
import type { UploadRequest } from '../queue/upload-queue';
import { type ShareRule, shareIntentOf } from '../../settings/share-rule';

export type PrefillSettings = {
  template: string;
  language: Language;
  defaultExpirationDays: number | null;
  /** The share rule of a watch folder (settings), by its id. */
  shareRule?: (folderId: string) => ShareRule | null;
};

export type Detection = {
  folder: WatchFolderConfig;
  exportPath: string;
  study: Study;
  /** The export's skipped files (not DICOM, unreadable…); those under the study's folder are counted. */
  skipped: readonly Skipped[];
  /** The study was uploaded before with other files. */
  changedSinceUpload: boolean;
  /** A study a scanner sent to the DICOM listener: the sender, and whether it stopped mid-way. */
  receivedFrom?: ReceivedFromView;
};

/** The inbox id of a study in an export: stable across restarts, reveals nothing. */
export function inboxId(exportPath: string, studyUid: string): string {
  return `in_${createHash('sha256').update(`${exportPath}\0${studyUid}`, 'utf8').digest('hex').slice(0, 20)}`;
}

/** Exam fields for the engine: empty optional values are left out rather than sent empty. */
export function examFieldsOf(f: InboxFields): ExamFields {
  const out: ExamFields = { name: f.name.trim(), exam_type: f.exam_type };
  if (f.patient_name.trim()) out.patient_name = f.patient_name.trim();
  if (f.patient_id.trim()) out.patient_id = f.patient_id.trim();
  if (f.birth_date) out.birth_date = f.birth_date;
  if (f.reason.trim()) out.reason = f.reason.trim();
  return out;
}

export class Inbox {
  /** The scanned studies behind the items, while this process has seen them. */
  private readonly studies = new Map<string, Study>();
  /** Files of those studies that cannot be read whole (with their paths, to leave them out on request). */
  private readonly incomplete = new Map<string, IncompleteFile[]>();

  constructor(
    private readonly store: InboxStore,
    private readonly prefill: () => PrefillSettings,
    private readonly onChange: (items: InboxItem[]) => void,
  ) {}

  list(): InboxItem[] {
    return this.store.list();
  }

  /**
   * Adds or refreshes the item of a detected study; `status` applies to new or re-opened items.
   * A study staff dismissed stays out while its files are the same (null then), unless it is
   * being uploaded automatically.
   */
  detected(d: Detection, status: Exclude<InboxStatus, 'uploaded'> = 'review'): InboxItem | null {
    const id = inboxId(d.exportPath, d.study.study_uid);
    const fingerprint = studyFingerprint(d.study);
    if (status === 'review' && this.store.isDismissed(id, fingerprint)) return null;
    this.studies.set(id, d.study);
    const incomplete = studyIncompleteFiles(d.study, d.skipped);
    this.incomplete.set(id, incomplete);
    const old = this.store.get(id);
    const p = this.prefill();
    const proposed = prefillFields(d.study, {
      folderExamType: d.folder.exam_type,
      template: p.template,
      language: p.language,
      defaultExpirationDays: p.defaultExpirationDays,
    });
    const skipped = skippedUnder(d.study.root, d.skipped);
    const sameFiles = old?.fingerprint === fingerprint;
    const sameSource = JSON.stringify(old?.item.received_from) === JSON.stringify(d.receivedFrom);
    if (old && sameFiles && sameSource && old.item.status !== 'review') return old.item;

    const edited = new Set(old?.edited ?? []);
    const fields = { ...proposed };
    if (old) for (const k of edited) (fields as Record<string, unknown>)[k] = old.item.fields[k];
    const excluded = new Set((old?.item.series ?? []).filter((s) => s.excluded).map((s) => s.series_uid));
    const item: InboxItem = {
      id,
      folder_id: d.folder.id,
      export_path: d.exportPath,
      study_uid: d.study.study_uid,
      detected_at: old && sameFiles ? old.item.detected_at : new Date().toISOString(),
      study_date: d.study.study_date,
      modality: d.study.modality,
      description: d.study.description === '' ? null : d.study.description,
      fields,
      series: inboxSeries(d.study, excluded),
      files: d.study.files,
      bytes: d.study.bytes,
      skipped,
      warnings: studyWarnings(d.study, skipped, d.changedSinceUpload),
      incomplete: incomplete.map(({ name, reason }) => ({ name, reason })),
      status: old && sameFiles ? old.item.status : status,
      job_id: old && sameFiles ? old.item.job_id : null,
      ...(d.receivedFrom ? { received_from: d.receivedFrom } : {}),
    };
    const record: InboxRecord = { item, fingerprint, edited: [...edited] };
    this.store.put(record);
    this.changed();
    return item;
  }

  /**
   * The language or the name template changed: studies still waiting for review get the new
   * proposal (in the window's language) for every field staff have not edited.
   */
  reprefill(): void {
    const p = this.prefill();
    let changed = false;
    for (const item of this.store.list()) {
      const rec = this.store.get(item.id);
      const study = this.studies.get(item.id);
      if (!rec || !study || item.status !== 'review') continue;
      // The item's type is the folder's or the DICOM's already (or staff's, which stays).
      const proposed = prefillFields(study, {
        folderExamType: item.fields.exam_type,
        template: p.template,
        language: p.language,
        defaultExpirationDays: p.defaultExpirationDays,
      });
      const fields = { ...item.fields };
      for (const k of Object.keys(proposed) as (keyof InboxFields)[])
        if (!rec.edited.includes(k)) (fields as Record<string, unknown>)[k] = proposed[k];
      if (JSON.stringify(fields) === JSON.stringify(item.fields)) continue;
      this.store.put({ ...rec, item: { ...item, fields } });
      changed = true;
    }
    if (changed) this.changed();
  }

  /** Staff edits (fields and excluded series). */
  update(id: string, fields: Partial<InboxFields> | undefined, excluded: readonly string[] | undefined): InboxItem {
    const rec = this.require(id);
    if (rec.item.status === 'queued')
      throw new ContractFailure('conflict', 'This study is being uploaded; cancel the upload to change it.');
    if (excluded) {
      const known = new Set(rec.item.series.map((s) => s.series_uid));
      const unknown = excluded.filter((uid) => !known.has(uid));
      if (unknown.length > 0)
        throw new ContractFailure('invalid_args', 'Unknown series.', [
          { field: 'excluded_series', message: `${unknown.length} series are not part of this study` },
        ]);
    }
    const item = this.store.edit(id, fields, excluded);
    this.changed();
    return item ?? this.require(id).item;
  }

  setStatus(id: string, status: InboxItem['status'], jobId: string | null): void {
    if (this.store.setStatus(id, status, jobId)) this.changed();
  }

  dismiss(id: string): void {
    const rec = this.require(id);
    if (rec.item.status === 'queued')
      throw new ContractFailure('conflict', 'This study is being uploaded; cancel the upload first.');
    this.store.dismiss(id);
    this.studies.delete(id);
    this.incomplete.delete(id);
    this.changed();
  }

  /** An export folder disappeared: its studies still waiting for review go too. */
  exportRemoved(exportPath: string): void {
    let removed = false;
    for (const item of this.store.list()) {
      if (item.export_path === exportPath && item.status === 'review') {
        this.store.remove(item.id);
        this.studies.delete(item.id);
        removed = true;
      }
    }
    if (removed) this.changed();
  }

  /** What to upload for an item: the files of the series not left out, with the fields as edited. */
  async uploadRequest(id: string, source: 'review' | 'auto', allowIncomplete = false): Promise<UploadRequest> {
    const rec = this.require(id);
    const study = this.studies.get(id) ?? (await this.rescan(rec));
    // An exam is whole or it is not sent: a study with files that cannot be read whole goes only
    // when staff confirmed it, without those files. An automatic upload waits for them instead.
    const incomplete = this.incomplete.get(id) ?? [];
    if (incomplete.length > 0 && !allowIncomplete) {
      if (source === 'auto') this.setStatus(id, 'review', null);
      throw new ContractFailure(
        'incomplete_study',
        `${incomplete.length} file(s) of this study cannot be read whole; confirm to upload it without them, or wait.`,
      );
    }
    const leftOut = new Set(incomplete.map((f) => f.path));
    const excluded = new Set(rec.item.series.filter((s) => s.excluded).map((s) => s.series_uid));
    const series = study.series.filter((s) => !excluded.has(s.series_uid));
    const files = series
      .flatMap((s) => s.file_list)
      .filter((f) => !leftOut.has(f.path))
      .map((f) => ({ path: f.path, name: f.relative_path }));
    if (files.length === 0)
      throw new ContractFailure('no_series', 'Every series is left out; select at least one series to upload.');
    const { fields } = rec.item;
    const rule = rec.item.folder_id ? (this.prefill().shareRule?.(rec.item.folder_id) ?? null) : null;
    const share = shareIntentOf(rule, fields.share_to, fields.share_locale);
    return {
      ...(share ? { share } : {}),
      inboxId: id,
      source,
      root: study.root,
      files,
      fields: examFieldsOf(rec.item.fields),
      expirationDays: rec.item.fields.expiration_days,
      ledger: {
        study_uid: study.study_uid,
        fingerprint: studyFingerprint(study),
        files: study.files,
        bytes: study.bytes,
      },
    };
  }

  get(id: string): InboxItem {
    return this.require(id).item;
  }

  has(id: string): boolean {
    return this.store.get(id) !== undefined;
  }

  flush(): Promise<void> {
    return this.store.flush();
  }

  private async rescan(rec: InboxRecord): Promise<Study> {
    try {
      const result = await scanFolder(rec.item.export_path);
      const study = result.studies.find((s) => s.study_uid === rec.item.study_uid);
      if (study) {
        this.studies.set(rec.item.id, study);
        this.incomplete.set(rec.item.id, studyIncompleteFiles(study, result.skipped));
        return study;
      }
    } catch {
      // Folder gone: reported below.
    }
    throw new ContractFailure('files_missing', 'The files of this study are no longer in its folder.');
  }

  private require(id: string): InboxRecord {
    const rec = this.store.get(id);
    if (!rec) throw new ContractFailure('not_found', 'This study is no longer in the inbox.');
    return rec;
  }

  private changed(): void {
    this.onChange(this.store.list());
  }
}
