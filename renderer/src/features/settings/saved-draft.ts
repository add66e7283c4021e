import { useEffect, useState } from 'react';
import type { CheckedForm } from '../../components/checked-form';

/**
 * A form over settings kept by the service. The form takes the saved values each time they arrive
 * (or arrive again) until staff edit it, so an answer that comes late never wipes what was typed;
 * after a save (`saved`) it follows them again. `edited` goes on the form's `onChange`, which only
 * what staff type or pick reaches. `toValues` must be a stable function.
 */
export function useSavedDraft<S, V extends Record<string, unknown>>(
  form: CheckedForm<V>,
  saved: S | undefined,
  toValues: (saved: S) => Partial<V>,
) {
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    // `form` is left out of the dependencies on purpose: it is a new object at every render, and
    // setValues writes through the form's own store.
    if (saved !== undefined && !edited) form.setValues(toValues(saved));
  }, [saved, edited, toValues]);
  return { edited: (): void => setEdited(true), saved: (): void => setEdited(false) };
}
