// A stored share rule (settings/share-rule.ts) as the window sees it: absent and null both mean
// "no one", and the view always says null.
import type { ShareRuleView } from '../../../preload/contract';
import type { ShareRule } from '../settings/share-rule';

/** The rule for the window, a copy (null when the source shares with no one). */
export function shareRuleView(rule: ShareRule | null | undefined): ShareRuleView | null {
  return rule ? { to: [...rule.to], locale: rule.locale } : null;
}
