// The editor's working copy of a template and its way back to the service: pages and slots with
// stable keys for React, what to send on create, and only what changed on update.
import type { TemplateView } from '../../../../preload/contract';
import type { Rect } from './geometry';
import { clampRect, newSlotRect } from './geometry';

export type EditorSlot = Rect & { key: string; label: string };
export type EditorPage = { key: string; name: string; slots: EditorSlot[] };
export type EditorDraft = { name: string; description: string; pages: EditorPage[] };

export const MAX_PAGES = 20;
export const MAX_SLOTS = 48;

let counter = 0;
export const newKey = (): string => `k${(counter += 1)}`;

export function slotOf(r: Rect, label = ''): EditorSlot {
  return { ...clampRect(r), key: newKey(), label };
}

export function emptyPage(): EditorPage {
  return { key: newKey(), name: '', slots: [slotOf(newSlotRect(0))] };
}

/** A draft from a template (to edit it, or to start a copy of it). */
export function draftOf(t: TemplateView, copyName?: string): EditorDraft {
  return {
    name: copyName ?? t.name,
    description: t.description ?? '',
    pages: t.pages.map((p) => ({
      key: newKey(),
      name: p.name ?? '',
      slots: p.slots.map((s) => ({ x: s.x, y: s.y, w: s.w, h: s.h, key: newKey(), label: s.label ?? '' })),
    })),
  };
}

export function newDraft(): EditorDraft {
  return { name: '', description: '', pages: [emptyPage()] };
}

export type PageInput = { name?: string; slots: { x: number; y: number; w: number; h: number; label?: string }[] };

/** Pages as the contract takes them: blank names and labels left out. */
export function pagesInput(pages: EditorPage[]): PageInput[] {
  return pages.map((p) => ({
    ...(p.name.trim() ? { name: p.name.trim() } : {}),
    slots: p.slots.map((s) => ({
      x: s.x,
      y: s.y,
      w: s.w,
      h: s.h,
      ...(s.label.trim() ? { label: s.label.trim() } : {}),
    })),
  }));
}

export type DraftProblem = {
  code: 'name_required' | 'page_without_slots' | 'too_many_slots' | 'too_many_pages';
  page?: number;
};

/** What stops the draft from being saved (the service would refuse it). */
export function draftProblems(d: EditorDraft): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (!d.name.trim()) problems.push({ code: 'name_required' });
  if (d.pages.length > MAX_PAGES) problems.push({ code: 'too_many_pages' });
  d.pages.forEach((p, i) => {
    if (p.slots.length === 0) problems.push({ code: 'page_without_slots', page: i + 1 });
    if (p.slots.length > MAX_SLOTS) problems.push({ code: 'too_many_slots', page: i + 1 });
  });
  return problems;
}

export type TemplateChanges = { name?: string; description?: string; pages?: PageInput[] };

/** The fields of an own template that differ from what the service has. */
export function templateChanges(original: TemplateView, d: EditorDraft): TemplateChanges {
  const changes: TemplateChanges = {};
  if (d.name.trim() !== original.name) changes.name = d.name.trim();
  if (d.description.trim() !== (original.description ?? '')) changes.description = d.description.trim();
  const pages = pagesInput(d.pages);
  if (JSON.stringify(pages) !== JSON.stringify(pagesInput(draftOf(original).pages))) changes.pages = pages;
  return changes;
}
