import { useEffect, useState } from 'react';

/**
 * A form's draft of settings kept by the service. It takes the saved values each time they arrive
 * (or arrive again) until staff edit it, so an answer that comes late never wipes what was typed;
 * after a save (`saved`) it follows them again. `toDraft` must be a stable function.
 */
export function useSavedDraft<S, D extends object>(saved: S | undefined, toDraft: (saved: S) => D, empty: D) {
  const [draft, setDraft] = useState<D>(empty);
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (saved !== undefined && !edited) setDraft(toDraft(saved));
  }, [saved, edited, toDraft]);
  return {
    draft,
    edit: (patch: Partial<D>): void => {
      setEdited(true);
      setDraft((d) => ({ ...d, ...patch }));
    },
    saved: (): void => setEdited(false),
  };
}
