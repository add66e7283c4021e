import type { App } from '../core/app';
import { randomDigits } from '../core/ids';

/** A fresh 6-digit PIN not used by any other exam of the account (PINs pick the exam on its public page). */
export function uniquePin(app: App, accountId: string): string {
  const taken = new Set(app.store.state.exams.filter((e) => e.account_id === accountId).map((e) => e.public_page_pin));
  for (;;) {
    const pin = randomDigits(6);
    if (!taken.has(pin)) return pin;
  }
}
