// The editor's way back to the service: blank names and labels are left out, a draft the service
// would refuse is caught first, and an edit sends only the fields that changed.
import { describe, expect, it } from 'vitest';
import type { TemplateView } from '@preload/contract';
import {
  draftOf,
  draftProblems,
  MAX_SLOTS,
  newDraft,
  pagesInput,
  slotOf,
  templateChanges,
} from '@renderer/src/features/templates/editor-state';

const own: TemplateView = {
  id: 'tpl_1',
  name: 'Panorámica',
  description: null,
  is_default: false,
  pages: [
    {
      name: null,
      slots: [
        { x: 0.1, y: 0.1, w: 0.5, h: 0.3, label: 'Panorámica' },
        { x: 0.1, y: 0.5, w: 0.3, h: 0.3, label: null },
      ],
    },
  ],
};

describe('the draft as the contract takes it', () => {
  it('keeps coordinates as they are and leaves out blank names and labels', () => {
    expect(pagesInput(draftOf(own).pages)).toEqual([
      {
        slots: [
          { x: 0.1, y: 0.1, w: 0.5, h: 0.3, label: 'Panorámica' },
          { x: 0.1, y: 0.5, w: 0.3, h: 0.3 },
        ],
      },
    ]);
  });

  it('a new draft has one page with one box inside the page', () => {
    const [page] = newDraft().pages;
    expect(page?.slots).toHaveLength(1);
  });
});

describe('problems before saving', () => {
  it('names a missing layout name and each page left without boxes', () => {
    const d = newDraft();
    d.pages.push({ key: 'p2', name: '', slots: [] });
    expect(draftProblems(d)).toEqual([{ code: 'name_required' }, { code: 'page_without_slots', page: 2 }]);
  });

  it('stops a page with more boxes than the service accepts', () => {
    const d = { ...newDraft(), name: 'x' };
    const page = d.pages[0];
    if (!page) throw new Error('no page');
    page.slots = Array.from({ length: MAX_SLOTS + 1 }, () => slotOf({ x: 0, y: 0, w: 0.1, h: 0.1 }));
    expect(draftProblems(d)).toEqual([{ code: 'too_many_slots', page: 1 }]);
  });
});

describe('what an edit sends', () => {
  it('nothing when nothing changed', () => {
    expect(templateChanges(own, draftOf(own))).toEqual({});
  });

  it('only the name after a rename', () => {
    expect(templateChanges(own, { ...draftOf(own), name: ' Panorámica 2 ' })).toEqual({ name: 'Panorámica 2' });
  });

  it('the pages when a box moved', () => {
    const d = draftOf(own);
    const slot = d.pages[0]?.slots[1];
    if (!slot) throw new Error('no slot');
    slot.x = 0.2;
    expect(templateChanges(own, d)).toEqual({
      pages: [
        {
          slots: [
            { x: 0.1, y: 0.1, w: 0.5, h: 0.3, label: 'Panorámica' },
            { x: 0.2, y: 0.5, w: 0.3, h: 0.3 },
          ],
        },
      ],
    });
  });
});
